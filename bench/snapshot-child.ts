// A snapshot made or loaded in a fresh process, so a load's time and RSS are its own
// and its code starts cold, as in an app opening its data:
//
//   node --import tsx bench/snapshot-child.ts build PBF OUT   load PBF, write its snapshot to OUT
//   node --import tsx bench/snapshot-child.ts load FILE       load the snapshot FILE
//
// Prints one JSON line (`SnapshotChildResult`). SNAPSHOT_BENCH_ENGINE=PATH/index.js measures that
// build of the engine instead of dist/ (a build of the working tree beside the shared one).

import { statSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { engine } from './engine.js';
import { sectionSizes } from '../src/snapshot/sections.js';

/** What one child measured; times are wall ms, process start excluded. */
export interface SnapshotChildResult {
  /** build: the PBF load; load: the snapshot load (file read and fromSnapshot). */
  loadMs: number;
  /** build: buildSnapshot; load: fromSnapshot alone. */
  ms: number;
  /** build: writing the file. */
  writeMs?: number;
  bytes: number;
  places: number;
  maxRss: number;
  /** build: each section's name and bytes, in file order. */
  sections?: { name: string; bytes: number }[];
}

async function main(): Promise<void> {
  const [mode, file, out] = process.argv.slice(2);
  const other = process.env.SNAPSHOT_BENCH_ENGINE;
  const e = other ? ((await import(pathToFileURL(resolve(other)).href)) as Awaited<ReturnType<typeof engine>>) : await engine();
  let result: SnapshotChildResult;
  if (mode === 'build' && file && out) {
    const t0 = performance.now();
    const index = await e.loadPbf(file);
    const t1 = performance.now();
    const bytes = e.buildSnapshot(index);
    const t2 = performance.now();
    writeFileSync(out, bytes);
    const sections = sectionSizes(bytes).map(({ name, bytes }) => ({ name, bytes }));
    result = {
      loadMs: t1 - t0,
      ms: t2 - t1,
      writeMs: performance.now() - t2,
      bytes: bytes.length,
      places: index.size,
      maxRss: 0,
      sections,
    };
  } else if (mode === 'load' && file) {
    const t0 = performance.now();
    const index = await e.loadSnapshot(file);
    result = { loadMs: performance.now() - t0, ms: index.timings.decode, bytes: statSync(file).size, places: index.size, maxRss: 0 };
  } else {
    throw new Error('usage: snapshot-child.ts build PBF OUT | load FILE');
  }
  result.maxRss = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(JSON.stringify(result) + '\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
