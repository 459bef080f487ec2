// One load in a fresh process, so its peak RSS is its own:
//
//   node --expose-gc --import tsx bench/load-child.ts [--osm-read] FILE
//
// Prints one line of JSON (a `ChildResult`) on stdout. Without --osm-read, FILE is
// loaded by `loadPbf`; with it, FILE is only parsed by osm-read, counting objects.

import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { loadPbf } from '../src/index.js';
import { defaultWorkers } from '../src/load/decode.js';

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
  /** Peak resident set of the whole process, bytes (`resourceUsage().maxRSS` is in KiB). */
  maxRss: number;
  /** Resident set before loading: the floor of Node, tsx and the engine's code. */
  rssBefore: number;
  /** Heap and ArrayBuffer bytes held after the load, after a full gc, minus those before it. */
  heapUsed: number;
  arrayBuffers: number;
}

interface OsmReadOptions {
  filePath: string;
  node(): void;
  way(): void;
  relation(): void;
  endDocument(): void;
  error(e: unknown): void;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

// after one turn of the event loop: until then the load's garbage is still referenced
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
      node: () => { n.nodes++; },
      way: () => { n.ways++; },
      relation: () => { n.relations++; },
      endDocument: () => resolve(n),
      error: (e) => reject(e instanceof Error ? e : new Error(String(e))),
    });
  });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const osm = args[0] === '--osm-read';
  const file = osm ? args[1] : args[0];
  if (!file) throw new Error('usage: load-child.ts [--osm-read] FILE');
  const bytes = statSync(file).size;
  const rssBefore = process.memoryUsage().rss;
  const before = await held();
  const t0 = performance.now();
  let result: Omit<ChildResult, 'maxRss' | 'rssBefore' | 'heapUsed' | 'arrayBuffers'>;
  let keep: unknown;
  if (osm) {
    const n = await osmReadCount(file);
    result = { reader: 'osm-read', file, bytes, ms: performance.now() - t0, ...n, places: 0, workers: 0 };
  } else {
    const index = await loadPbf(file);
    const ms = performance.now() - t0;
    const s = index.stats;
    keep = index;
    result = {
      reader: 'engine', file, bytes, ms, nodes: s.nodes, ways: s.ways, relations: s.relations,
      places: index.size, workers: defaultWorkers(bytes),
    };
  }
  const after = await held();
  const out: ChildResult = {
    ...result,
    maxRss: process.resourceUsage().maxRSS * 1024,
    rssBefore,
    heapUsed: after.heap - before.heap,
    arrayBuffers: after.buffers - before.buffers,
  };
  process.stdout.write(JSON.stringify(out) + '\n');
  void keep; // the index stays alive through the measurement above
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
