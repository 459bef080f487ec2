// One load in a fresh process, so its peak RSS is its own, and optionally sections
// 2–4 on the loaded index in the same process (one load of a big file serves all):
//
//   node --expose-gc --import tsx bench/load-child.ts --osm-read FILE
//   node --expose-gc --import tsx bench/load-child.ts FILE [NAME PARTS [CLASS...]]
//
// Prints one JSON line per result (a `ChildLine`) as it is made. The first is the
// load's `ChildResult`, taken before anything else runs. NAME names the file in the
// tables; PARTS is a comma-separated list of memory, scaling, nearby; nearby runs the
// named classes (all when none are named), with a `begin` line before each, so that a
// parent that kills a stuck child knows which class was running and keeps the rest.

import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import type { PlaceIndex } from '../src/index.js';
import { engine } from './engine.js';
import { defaultWorkers } from '../src/load/decode.js';
import { Baselines } from './baselines.js';
import { measureMemory, type MemoryRow } from './memory.js';
import { measureClass, nearbyClasses, type NearbyRow } from './nearby.js';
import { measureScaling, type ScalingRow } from './scaling.js';
import { progress } from './progress.js';

/** What a child reports about its one load. */
export interface ChildResult {
  reader: 'engine' | 'osm-read';
  file: string;
  bytes: number;
  /** Wall time of the load (or parse) alone, process start excluded. */
  ms: number;
  nodes: number;
  ways: number;
  relations: number;
  /** Places built (0 for osm-read). */
  places: number;
  /** Decoder threads (engine only). */
  workers: number;
  /** The engine's own phase timings (engine only). */
  timings?: import('../src/index.js').LoadTimings;
  /** Peak resident set of the process up to the end of the load, bytes (`resourceUsage().maxRSS` is in KiB). */
  maxRss: number;
  /** Resident set before loading: the floor of Node, tsx and the engine's code. */
  rssBefore: number;
  /** Heap and ArrayBuffer bytes held after the load, after a full gc, minus those before it. */
  heapUsed: number;
  arrayBuffers: number;
}

/** One line of a child's output. */
export type ChildLine =
  | { part: 'load'; result: ChildResult }
  | { part: 'memory'; row: MemoryRow }
  | { part: 'scaling'; row: ScalingRow }
  | { part: 'begin'; class: string }
  | { part: 'nearby'; row: NearbyRow };

interface OsmReadOptions {
  filePath: string;
  node(): void;
  way(): void;
  relation(): void;
  endDocument(): void;
  error(e: unknown): void;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

// after one turn of the event loop: until then the load's garbage (decoded blocks, the
// file's bytes) is still referenced, and a gc right after the await would count it
async function held(): Promise<{ heap: number; buffers: number }> {
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, buffers: m.arrayBuffers };
}

// osm-read's whole-file parser with callbacks that only count: its parsing cost alone
function osmReadCount(file: string): Promise<{ nodes: number; ways: number; relations: number }> {
  const osmRead = createRequire(import.meta.url)('osm-read') as { parsePbf(o: OsmReadOptions): void };
  const n = { nodes: 0, ways: 0, relations: 0 };
  return new Promise((resolve, reject) => {
    osmRead.parsePbf({
      filePath: file,
      node: () => {
        n.nodes++;
      },
      way: () => {
        n.ways++;
      },
      relation: () => {
        n.relations++;
      },
      endDocument: () => resolve(n),
      error: (e) => reject(e instanceof Error ? e : new Error(String(e))),
    });
  });
}

function emit(line: ChildLine): void {
  process.stdout.write(JSON.stringify(line) + '\n');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const osm = args[0] === '--osm-read';
  const [file, name, partList = '', ...only] = osm ? args.slice(1) : args;
  if (!file) throw new Error('usage: load-child.ts [--osm-read] FILE [NAME PARTS [CLASS...]]');
  const bytes = statSync(file).size;
  const rssBefore = process.memoryUsage().rss;
  const before = await held();
  const t0 = performance.now();
  let result: Omit<ChildResult, 'maxRss' | 'rssBefore' | 'heapUsed' | 'arrayBuffers'>;
  let index: PlaceIndex | undefined;
  if (osm) {
    const n = await osmReadCount(file);
    result = { reader: 'osm-read', file, bytes, ms: performance.now() - t0, ...n, places: 0, workers: 0 };
  } else {
    index = await (await engine()).loadPbf(file);
    const ms = performance.now() - t0;
    const s = index.stats;
    result = {
      reader: 'engine',
      file,
      bytes,
      ms,
      nodes: s.nodes,
      ways: s.ways,
      relations: s.relations,
      places: index.size,
      workers: defaultWorkers(bytes),
      timings: index.timings,
    };
  }
  const maxRss = process.resourceUsage().maxRSS * 1024;
  const after = await held();
  const load: ChildResult = {
    ...result,
    maxRss,
    rssBefore,
    heapUsed: after.heap - before.heap,
    arrayBuffers: after.buffers - before.buffers,
  };
  emit({ part: 'load', result: load });
  if (!index || !name) return;

  const parts = new Set(partList.split(',').filter(Boolean));
  const centres = sidecarCentres(file);
  if (parts.has('memory')) emit({ part: 'memory', row: measureMemory(name, index, load.heapUsed + load.arrayBuffers) });
  if (parts.has('scaling')) {
    progress(`${name}: scaling query`);
    emit({ part: 'scaling', row: measureScaling(name, index, centres) });
  }
  if (parts.has('nearby')) {
    const base = new Baselines(index);
    for (const cls of nearbyClasses(index, centres)) {
      if (only.length && !only.includes(cls.name)) continue;
      progress(`${name}: nearby ${cls.name}`);
      emit({ part: 'begin', class: cls.name });
      emit({ part: 'nearby', row: measureClass(name, index, base, cls) });
    }
  }
}

// the tile centres of a generated file's sidecar; none for other files
function sidecarCentres(file: string): [number, number][] {
  try {
    const side = JSON.parse(readFileSync(`${file}.json`, 'utf8')) as { centres?: [number, number][] };
    return side.centres ?? [];
  } catch {
    return [];
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
