// Section 7, snapshots: each file's PBF loaded and written as a snapshot (in a child),
// then the snapshot loaded in fresh children, beside the PBF load of section 1 in the
// same run. Targets of issue 6 on the Nepal-scale file: the snapshot loads at least
// 20x faster than its PBF, and is no larger.

import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { runChild, MAX_RSS } from './child.js';
import type { Dataset } from './datasets.js';
import { median, OURS, type LoadRow } from './load.js';
import { progress } from './progress.js';
import { printTable, num, ratio, mb, type Cell, type Check } from './table.js';
import type { SnapshotChildResult } from './snapshot-child.js';

const OUT_DIR = fileURLToPath(new URL('data/', import.meta.url));
const TIMEOUT = 180_000;

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
  const checks: Check[] = [];
  const nepal = rows.find((r) => r.file === 'nepal');
  if (nepal) {
    checks.push({
      target: 'nepal: snapshot loads >= 20x faster than its PBF',
      value: `${num(nepal.pbfMs)} ms / ${num(nepal.loadMs)} ms = ${ratio(nepal.speedup)}`,
      pass: nepal.speedup >= 20,
    });
    checks.push({
      target: 'nepal: snapshot no larger than its PBF',
      value: `${mb(nepal.snapshotBytes)} / ${mb(nepal.pbfBytes)} MB = ${ratio(nepal.size)}`,
      pass: nepal.size <= 1,
    });
  }
  return { rows, checks };
}

async function measure(d: Dataset, pbf: LoadRow | undefined): Promise<SnapshotRow> {
  const out = `${OUT_DIR}${d.name}.places`;
  progress(`snapshot: ${d.name}, build`);
  const built = await child(['build', d.path, out]);
  const runs = d.bytes > 50e6 ? 5 : 9;
  progress(`snapshot: ${d.name}, load x${runs}`);
  let peak = 0;
  const decode: number[] = [];
  const bench = new Bench({ iterations: runs, time: 0, warmup: false, throws: true });
  bench.add('snapshot', async () => {
    const r = await child(['load', out]);
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
  };
}

async function child(args: string[]): Promise<SnapshotChildResult> {
  const run = await runChild('snapshot-child.ts', args, { maxRss: MAX_RSS, timeout: TIMEOUT });
  if (run.failed) throw new Error(run.failed);
  const r = run.lines[0] as SnapshotChildResult | undefined;
  if (!r) throw new Error('the child printed no result');
  return r;
}
