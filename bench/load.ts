// Section 1, load: each file loaded by the engine in a fresh child process (so peak
// RSS is that load's own), beside osm-read parsing the same file with no index, and
// the native `osmium fileinfo -e` reading it.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Bench } from 'tinybench';
import { scanFrames } from '../src/load/frames.js';
import type { ChildResult } from './load-child.js';
import { runChild, MAX_RSS } from './child.js';
import type { Dataset } from './datasets.js';
import { printTable, num, ratio, verdict, mb, type Cell } from './table.js';

/** Wall-time limit of one load in a child. */
const LOAD_TIMEOUT = 180_000;

/** What to read and how: `osmRead` false skips osm-read; a number reads only every n-th blob. */
export interface LoadPlan {
  dataset: Dataset;
  /** Timed runs (each in its own process); the table shows the median. */
  runs: number;
  osmRead: boolean | number;
}

/** One reader on one file. */
export interface LoadRow {
  file: string;
  reader: string;
  bytes: number;
  runs: number;
  /** Median wall time of the read alone, ms. */
  ms: number;
  mbPerS: number;
  objectsPerS: number;
  maxRss?: number;
  places?: number;
  heapPerPlace?: number;
  buffersPerPlace?: number;
  workers?: number;
  /** Ours ÷ this reader, MB/s (baseline rows only). */
  oursOver?: number;
  note?: string;
}

/** A target of the issue, checked on this run's numbers. */
export interface Check {
  target: string;
  value: string;
  pass: boolean;
}

/** The load section's numbers. */
export interface LoadResult {
  rows: LoadRow[];
  checks: Check[];
  osmium: string | null;
  errors: string[];
}

/** Runs the load section on the planned files and prints its table. */
export async function loadSection(plans: LoadPlan[]): Promise<LoadResult> {
  const osmium = osmiumVersion();
  const rows: LoadRow[] = [];
  const errors: string[] = [];
  const checks: Check[] = [];
  const tmp = mkdtempSync(join(tmpdir(), 'nepal-places-bench-'));
  try {
    for (const plan of plans) {
      const d = plan.dataset;
      progress(`load: ${d.name} (${mb(d.bytes)} MB)`);
      let ours: LoadRow | undefined;
      try {
        ours = await timeChildren(d, plan.runs, d.path, false, 'nepal-places');
        rows.push(ours);
      } catch (err) {
        errors.push(`${d.name}: loadPbf failed: ${(err as Error).message}`);
      }
      if (plan.osmRead !== false) {
        try {
          let file = d.path, note: string | undefined;
          if (typeof plan.osmRead === 'number') {
            const s = sampleBlobs(d.path, plan.osmRead, join(tmp, `${d.name}.sample.osm.pbf`));
            file = s.path;
            note = `time-boxed: every ${plan.osmRead}th blob (${s.blobs} of ${s.total} blobs, ${mb(s.bytes)} MB)`;
          }
          const r = await timeChildren(d, plan.runs, file, true, 'osm-read (no index)');
          r.note = note;
          if (ours) r.oursOver = ours.mbPerS / r.mbPerS;
          rows.push(r);
        } catch (err) {
          errors.push(`${d.name}: osm-read failed: ${(err as Error).message}`);
        }
      }
      if (osmium) {
        try {
          const r = await timeOsmium(d, plan.runs);
          if (ours) r.oursOver = ours.mbPerS / r.mbPerS;
          rows.push(r);
        } catch (err) {
          errors.push(`${d.name}: osmium failed: ${(err as Error).message}`);
        }
      }
      if (ours) {
        const base = rows.filter((r) => r.file === d.name);
        const osmRead = base.find((r) => r.reader.startsWith('osm-read'));
        const native = base.find((r) => r.reader.startsWith('osmium'));
        if (osmRead?.oursOver !== undefined) {
          checks.push({ target: `${d.name}: MB/s >= 10x osm-read`, value: `${num(ours.mbPerS)} vs ${num(osmRead.mbPerS)} MB/s = ${ratio(osmRead.oursOver)}`, pass: osmRead.oursOver >= 10 });
        }
        if (native?.oursOver !== undefined) {
          checks.push({ target: `${d.name}: within 3x of osmium (ours/osmium >= 0.33)`, value: `${num(ours.mbPerS)} vs ${num(native.mbPerS)} MB/s = ${ratio(native.oursOver)}`, pass: native.oursOver >= 1 / 3 });
        }
        if (d.name === 'nepal' && ours.maxRss !== undefined) {
          checks.push({ target: 'nepal: peak RSS < 2 GB', value: `${mb(ours.maxRss)} MB`, pass: ours.maxRss < 2e9 });
        }
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }

  const notes = [
    'wall: median of the runs, the read alone (process start excluded for Node; included for osmium, a few ms).',
    'objects/s: (nodes + ways + relations) / wall. Peak RSS: the child process\'s maxRSS (Node, tsx and the code included).',
    'heap B/place, buffers B/place: heapUsed and arrayBuffers kept after the load, after gc, per place.',
    'ours/x: our MB/s divided by that reader\'s on the same file.',
  ];
  if (!osmium) notes.push('osmium: not installed (apt-get install osmium-tool), its rows are skipped.');
  printTable('1. Load', ['file', 'reader', 'MB', 'runs', 'wall s', 'MB/s', 'Mobj/s', 'peak RSS MB', 'places', 'heap B/place', 'buffers B/place', 'threads', 'ours/x'],
    rows.map((r): Cell[] => [r.file, r.reader, mb(r.bytes), r.runs, r.ms / 1000, r.mbPerS, r.objectsPerS / 1e6,
      r.maxRss !== undefined ? mb(r.maxRss) : undefined, r.places, r.heapPerPlace, r.buffersPerPlace, r.workers, ratio(r.oursOver)]),
    [...notes, ...rows.filter((r) => r.note).map((r) => `${r.file} ${r.reader}: ${r.note}`), ...errors.map((e) => `ERROR ${e}`)]);
  printChecks('1. Load targets', checks);
  return { rows, checks, osmium, errors };
}

/** Prints the PASS/FAIL lines of a section's targets. */
export function printChecks(title: string, checks: Check[]): void {
  if (!checks.length) return;
  printTable(title, ['target', 'result', 'measured'], checks.map((c) => [c.target, verdict(c.pass), c.value]));
}

/** Writes a progress line on stderr (the tables go to stdout). */
export function progress(msg: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`);
}

// Runs the child `runs` times under tinybench, each run's own wall time as the sample.
async function timeChildren(d: Dataset, runs: number, file: string, osmRead: boolean, reader: string): Promise<LoadRow> {
  let last: ChildResult | undefined;
  let peak = 0;
  const bench = new Bench({ iterations: runs, time: 0, warmup: false, throws: true });
  bench.add(reader, async () => {
    last = await child(file, osmRead);
    peak = Math.max(peak, last.maxRss);
    return { overriddenDuration: last.ms };
  });
  await bench.run();
  const ms = median(bench.tasks[0]);
  const r = last!;
  const objects = r.nodes + r.ways + r.relations;
  return {
    file: d.name, reader, bytes: r.bytes, runs, ms, mbPerS: r.bytes / 1e6 / (ms / 1000), objectsPerS: objects / (ms / 1000),
    maxRss: peak,
    places: osmRead ? undefined : r.places,
    heapPerPlace: osmRead || !r.places ? undefined : r.heapUsed / r.places,
    buffersPerPlace: osmRead || !r.places ? undefined : r.arrayBuffers / r.places,
    workers: osmRead ? undefined : r.workers,
  };
}

async function child(file: string, osmRead: boolean): Promise<ChildResult> {
  const run = await runChild('load-child.ts', [...(osmRead ? ['--osm-read'] : []), file], { maxRss: MAX_RSS, timeout: LOAD_TIMEOUT });
  if (run.failed) throw new Error(run.failed);
  const last = run.lines.pop();
  if (!last) throw new Error('the child printed no result');
  return last as ChildResult;
}

async function timeOsmium(d: Dataset, runs: number): Promise<LoadRow> {
  let text = '';
  const bench = new Bench({ iterations: runs, time: 0, warmup: false, throws: true });
  bench.add('osmium', () => {
    const t0 = performance.now();
    const p = spawnSync('osmium', ['fileinfo', '-e', d.path], { encoding: 'utf8', maxBuffer: 1 << 24 });
    const ms = performance.now() - t0;
    if (p.status !== 0) throw new Error(p.stderr.trim() || `exit ${p.status}`);
    text = p.stdout;
    return { overriddenDuration: ms };
  });
  await bench.run();
  const ms = median(bench.tasks[0]);
  const count = (what: string) => Number(new RegExp(`Number of ${what}: (\\d+)`).exec(text)?.[1] ?? NaN);
  const objects = count('nodes') + count('ways') + count('relations');
  return { file: d.name, reader: 'osmium fileinfo -e', bytes: d.bytes, runs, ms, mbPerS: d.bytes / 1e6 / (ms / 1000), objectsPerS: objects / (ms / 1000) };
}

function median(task: Bench['tasks'][number] | undefined): number {
  const r = task?.result;
  if (!r || (r.state !== 'completed' && r.state !== 'aborted-with-statistics')) {
    throw new Error(r && r.state === 'errored' ? r.error.message : `task ${r?.state ?? 'missing'}`);
  }
  return r.latency.p50;
}

function osmiumVersion(): string | null {
  try {
    return execFileSync('osmium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')[0].trim();
  } catch {
    return null;
  }
}

/**
 * Writes a PBF of the file's header and every `every`-th data blob, whole and in order:
 * a slice of the file spread over all of it (nodes, ways and relations alike), so a
 * slow reader's throughput on it stands for the whole file's at a fraction of the time.
 */
function sampleBlobs(path: string, every: number, out: string): { path: string; blobs: number; total: number; bytes: number } {
  const buf = readFileSync(path);
  const { header, data } = scanFrames(buf);
  // a frame (length, BlobHeader, Blob) runs from the end of the previous blob to the end of its own
  const parts: Uint8Array[] = [buf.subarray(0, header.offset + header.length)];
  let start = header.offset + header.length;
  for (let i = 0; i < data.length; i++) {
    const end = data[i].offset + data[i].length;
    if (i % every === 0) parts.push(buf.subarray(start, end));
    start = end;
  }
  const bytes = Buffer.concat(parts);
  writeFileSync(out, bytes);
  return { path: out, blobs: parts.length - 1, total: data.length, bytes: bytes.length };
}
