// The files the bench reads: the real fixture (always there) and the generated
// Nepal-scale files (made by `npm run bench:data`, git-ignored).

import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { loadPbf, type PlaceIndex } from '../src/index.js';

/** A PBF the bench measures. */
export interface Dataset {
  /** Short name used in tables and in the JSON. */
  name: string;
  path: string;
  bytes: number;
  /** Tile centres `[lon, lat]` from the generator's sidecar; empty for the fixture. */
  centres: [number, number][];
}

const DATA_DIR = fileURLToPath(new URL('data/', import.meta.url));

/** The real central-Kathmandu extract. */
export const FIXTURE: Dataset = dataset('fixture', fileURLToPath(new URL('../fixtures/kathmandu-core_2026-01-10.osm.pbf', import.meta.url)));

/** The generated files by name, in the order of the scaling curve. */
export const GENERATED = ['places-10k', 'places-100k', 'places-1m', 'nepal'] as const;

/** A generated file, or undefined (with the reason) when it is missing or stale. */
export function generated(name: (typeof GENERATED)[number]): Dataset | string {
  const path = `${DATA_DIR}${name}.osm.pbf`;
  if (!existsSync(path)) return `${path} is missing`;
  if (!existsSync(`${path}.json`)) return `${path}.json (its sidecar) is missing`;
  const d = dataset(name, path);
  const side = JSON.parse(readFileSync(`${path}.json`, 'utf8')) as { bytes?: number; centres?: [number, number][] };
  if (side.bytes !== d.bytes) return `${path} does not match its sidecar (${d.bytes} bytes, sidecar says ${side.bytes})`;
  return { ...d, centres: side.centres ?? [] };
}

/** How to make the generated files. */
export const MAKE_DATA = 'npm run bench:data   (writes bench/data/: nepal.osm.pbf ~133 MB and places-10k/100k/1m)';

function dataset(name: string, path: string): Dataset {
  return { name, path, bytes: existsSync(path) ? statSync(path).size : 0, centres: [] };
}

/** An index loaded in this process, with what the load cost. */
export interface Loaded {
  index: PlaceIndex;
  ms: number;
  /** Growth of `heapUsed` and of `arrayBuffers` over the load, each after a full gc. */
  heapDelta: number;
  bufferDelta: number;
}

const gc = (globalThis as { gc?: () => void }).gc;

/** Whether the process runs with `--expose-gc` (heap figures need it). */
export const hasGc = gc !== undefined;

/** Loads a file into this process, measuring the heap it keeps. */
export async function load(d: Dataset): Promise<Loaded> {
  const before = await settled();
  const t0 = performance.now();
  const index = await loadPbf(d.path);
  const ms = performance.now() - t0;
  const after = await settled();
  return { index, ms, heapDelta: after.heap - before.heap, bufferDelta: after.buffers - before.buffers };
}

// The load's garbage (decoded blocks, the file's bytes) is still referenced until the
// event loop turns once after the load resolves; measuring before that counts it.
async function settled(): Promise<{ heap: number; buffers: number }> {
  await new Promise((resolve) => setImmediate(resolve));
  gc?.();
  gc?.();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, buffers: m.arrayBuffers };
}
