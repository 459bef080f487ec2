// Section 7, snapshots: each file's PBF loaded and written as a snapshot (in a child),
// then the snapshot loaded in fresh children, beside the PBF load of section 1 in the
// same run. Targets on the Nepal-scale files: the snapshot, everything included, is at
// most half its PBF, and a fresh process opens it at least 20x faster than it loads the PBF.
// The largest sections are listed with their bytes (docs/snapshot-format.md names them).
//
// Alone, on one file (the PBF load is then the build child's, in the same run):
//
//   nice node --expose-gc --import tsx bench/snapshot.ts [--file bench/data/nepal.osm.pbf] [--runs 5]

import { mkdirSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Bench } from 'tinybench';
import { runChild, MAX_RSS } from './child.js';
import type { Dataset } from './datasets.js';
import { median, OURS, type LoadRow } from './load.js';
import { progress } from './progress.js';
import { printTable, num, ratio, mb, type Cell, type Check } from './table.js';
import type { SnapshotChildResult } from './snapshot-child.js';

const OUT_DIR = fileURLToPath(new URL('data/', import.meta.url));
/** A child's time limit: a build at Nepal scale contracts every mode's roads (minutes on a busy machine), a load takes seconds. */
const BUILD_TIMEOUT = 900_000,
  LOAD_TIMEOUT = 180_000;

/** One file's snapshot against its PBF. */
export interface SnapshotRow {
  file: string;
  pbfBytes: number;
  snapshotBytes: number;
  /** The PBF's load (section 1's median when it ran, else the build child's), ms. */
  pbfMs: number;
  /** buildSnapshot and writing the file, ms. */
  buildMs: number;
  writeMs: number;
  runs: number;
  /** Median snapshot load: file read and fromSnapshot, ms. */
  loadMs: number;
  /** Median fromSnapshot alone, ms. */
  decodeMs: number;
  /** Peak RSS of a snapshot load's process. */
  maxRss: number;
  /** pbfMs / loadMs. */
  speedup: number;
  /** snapshotBytes / pbfBytes. */
  size: number;
  /** Each section's bytes, largest first. */
  sections: { name: string; bytes: number }[];
}

/** Builds and times each file's snapshot; prints the table; returns the rows and the targets' checks. */
export async function snapshotSection(
  files: Dataset[],
  loads: LoadRow[],
  errors: string[],
): Promise<{ rows: SnapshotRow[]; checks: Check[] }> {
  mkdirSync(OUT_DIR, { recursive: true });
  const rows: SnapshotRow[] = [];
  for (const d of files) {
    try {
      rows.push(
        await measure(
          d,
          loads.find((r) => r.file === d.name && r.reader === OURS),
        ),
      );
    } catch (err) {
      errors.push(`snapshot ${d.name}: ${(err as Error).message}`);
    }
  }
  printTable(
    '7. Snapshots',
    [
      'file',
      'PBF MB',
      'snapshot MB',
      'size',
      'PBF load s',
      'build s',
      'runs',
      'snapshot load ms',
      'fromSnapshot ms',
      'peak RSS MB',
      'speed-up',
    ],
    rows.map((r): Cell[] => [
      r.file,
      mb(r.pbfBytes),
      mb(r.snapshotBytes),
      ratio(r.size),
      r.pbfMs / 1000,
      (r.buildMs + r.writeMs) / 1000,
      r.runs,
      r.loadMs,
      r.decodeMs,
      mb(r.maxRss),
      ratio(r.speedup),
    ]),
    [
      "PBF load: section 1's median for the file (a fresh process each). Snapshot load: loadSnapshot(file), file read included,",
      '  median of fresh processes (code cold, as an app opening its data); fromSnapshot: the same loads without the read.',
      'size: snapshot bytes / PBF bytes. speed-up: PBF load / snapshot load.',
    ],
  );
  for (const r of rows) {
    printTable(
      `7. Snapshot sections, ${r.file}`,
      ['section', 'MB', 'share'],
      r.sections.slice(0, SECTIONS_SHOWN).map((s): Cell[] => [s.name, mb(s.bytes), ratio(s.bytes / r.snapshotBytes)]),
      [`the ${SECTIONS_SHOWN} largest of ${r.sections.length} sections; share: of the snapshot's bytes`],
    );
  }
  const checks: Check[] = [];
  for (const r of rows.filter((x) => x.file.startsWith('nepal'))) {
    checks.push({
      target: `${r.file}: snapshot opens >= 20x faster than its PBF loads`,
      value: `${num(r.pbfMs)} ms / ${num(r.loadMs)} ms = ${ratio(r.speedup)}`,
      pass: r.speedup >= 20,
    });
    checks.push({
      target: `${r.file}: snapshot at most half its PBF, everything included`,
      value: `${mb(r.snapshotBytes)} / ${mb(r.pbfBytes)} MB = ${ratio(r.size)}`,
      pass: r.size <= 0.5,
    });
  }
  return { rows, checks };
}

/** Sections listed per file. */
const SECTIONS_SHOWN = 12;

async function measure(d: Dataset, pbf: LoadRow | undefined, runs = d.bytes > 50e6 ? 5 : 9): Promise<SnapshotRow> {
  const out = `${OUT_DIR}${d.name}.places`;
  progress(`snapshot: ${d.name}, build`);
  const built = await child(['build', d.path, out], BUILD_TIMEOUT);
  progress(`snapshot: ${d.name}, load x${runs}`);
  let peak = 0;
  const decode: number[] = [];
  const bench = new Bench({ iterations: runs, time: 0, warmup: false, throws: true });
  bench.add('snapshot', async () => {
    const r = await child(['load', out], LOAD_TIMEOUT);
    peak = Math.max(peak, r.maxRss);
    decode.push(r.ms);
    return { overriddenDuration: r.loadMs };
  });
  await bench.run();
  const loadMs = median(bench.tasks[0]);
  const pbfMs = pbf?.ms ?? built.loadMs;
  decode.sort((a, b) => a - b);
  return {
    file: d.name,
    pbfBytes: d.bytes,
    snapshotBytes: built.bytes,
    pbfMs,
    buildMs: built.ms,
    writeMs: built.writeMs ?? 0,
    runs,
    loadMs,
    decodeMs: decode[decode.length >> 1],
    maxRss: peak,
    speedup: pbfMs / loadMs,
    size: built.bytes / d.bytes,
    sections: [...(built.sections ?? [])].sort((a, b) => b.bytes - a.bytes),
  };
}

async function child(args: string[], timeout: number): Promise<SnapshotChildResult> {
  const run = await runChild('snapshot-child.ts', args, { maxRss: MAX_RSS, timeout });
  if (run.failed) throw new Error(run.failed);
  const r = run.lines[0] as SnapshotChildResult | undefined;
  if (!r) throw new Error('the child printed no result');
  return r;
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const path = arg('--file') ?? fileURLToPath(new URL('data/nepal.osm.pbf', import.meta.url));
  const name = basename(path).replace(/\.osm\.pbf$/, '');
  const runs = Number(arg('--runs') ?? 5);
  mkdirSync(OUT_DIR, { recursive: true });
  measure({ name, path, bytes: statSync(path).size }, undefined, runs)
    .then((row) => {
      printTable(
        '7. Snapshot (alone)',
        ['file', 'PBF MB', 'snapshot MB', 'size', 'PBF load s', 'runs', 'snapshot load ms', 'fromSnapshot ms', 'peak RSS MB', 'speed-up'],
        [
          [
            row.file,
            mb(row.pbfBytes),
            mb(row.snapshotBytes),
            ratio(row.size),
            row.pbfMs / 1000,
            row.runs,
            row.loadMs,
            row.decodeMs,
            mb(row.maxRss),
            ratio(row.speedup),
          ],
        ],
        ["PBF load: the build child's, in the same run. Snapshot load: loadSnapshot(file) in fresh processes, median."],
      );
      printTable(
        '7. Snapshot sections',
        ['section', 'MB', 'share'],
        row.sections.map((s): Cell[] => [s.name, mb(s.bytes), ratio(s.bytes / row.snapshotBytes)]),
        [],
      );
    })
    .catch((err: unknown) => {
      process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    });
}
