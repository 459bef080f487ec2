// Section 1, load: the engine loading a file in a fresh child process (so peak RSS is
// that load's own), beside osm-read parsing the same file with no index, and the
// native `osmium fileinfo -e` reading it.

import type { LoadTimings } from '../src/index.js';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Bench } from 'tinybench';
import { scanFrames } from '../src/load/frames.js';
import type { ChildLine, ChildResult } from './load-child.js';
import { runChild, MAX_RSS } from './child.js';
import type { Dataset } from './datasets.js';
import { progress } from './progress.js';
import { printTable, printChecks, num, ratio, mb, type Cell, type Check } from './table.js';

/** Wall-time limit of one load in a child. */
const LOAD_TIMEOUT = 180_000;

/** The name of our reader in the table. */
export const OURS = 'nepal-places';

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
  /** The engine's phase timings of the last run. */
  timings?: LoadTimings;
  /** Our MB/s ÷ this reader's (baseline rows only). */
  oursOver?: number;
  note?: string;
}

/** The installed osmium's version line, or null. */
export function osmiumVersion(): string | null {
  try {
    return execFileSync('osmium', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\n')[0]
      .trim();
  } catch {
    return null;
  }
}

/** Our loader on a file, `runs` times, each in a fresh process, timed by tinybench (the child's own wall time is the sample). */
export async function timeOurLoads(d: Dataset, runs: number): Promise<LoadRow> {
  progress(`load: ${d.name} (${mb(d.bytes)} MB) x${runs}`);
  return timeChildren(d, runs, d.path, false, OURS);
}

/** Our row from one load made elsewhere (the child that went on to sections 2–4). */
export function ourRow(d: Dataset, r: ChildResult): LoadRow {
  return row(d, OURS, r, 1, r.ms, r.maxRss);
}

/**
 * osm-read and osmium on the same file as `ours`. `osmRead`: false skips it; a number n
 * reads only every n-th blob (a time box for the big file, said so in the table).
 */
export async function baselineLoads(
  d: Dataset,
  ours: LoadRow | undefined,
  runs: number,
  osmRead: boolean | number,
  osmium: boolean,
  errors: string[],
): Promise<LoadRow[]> {
  const rows: LoadRow[] = [];
  if (osmRead !== false) {
    const tmp = mkdtempSync(join(tmpdir(), 'nepal-places-bench-'));
    try {
      progress(`load: ${d.name} with osm-read`);
      let file = d.path,
        note: string | undefined;
      if (typeof osmRead === 'number') {
        const s = sampleBlobs(d.path, osmRead, join(tmp, `${d.name}.sample.osm.pbf`));
        file = s.path;
        note = `time-boxed: every ${osmRead}th blob (${s.blobs} of ${s.total} blobs, ${mb(s.bytes)} MB of ${mb(d.bytes)}), MB/s on those bytes`;
      }
      const r = await timeChildren(d, runs, file, true, 'osm-read (no index)');
      r.note = note;
      if (ours) r.oursOver = ours.mbPerS / r.mbPerS;
      rows.push(r);
    } catch (err) {
      errors.push(`${d.name}: osm-read failed: ${(err as Error).message}`);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  if (osmium) {
    try {
      progress(`load: ${d.name} with osmium`);
      const r = await timeOsmium(d, runs);
      if (ours) r.oursOver = ours.mbPerS / r.mbPerS;
      rows.push(r);
    } catch (err) {
      errors.push(`${d.name}: osmium failed: ${(err as Error).message}`);
    }
  }
  return rows;
}

/** Prints the load table and checks the targets on it. */
export function loadSection(rows: LoadRow[], osmium: string | null, errors: string[]): Check[] {
  const notes = [
    'wall: the read alone (median when runs > 1); process start excluded for Node, included for osmium (a few ms).',
    "objects/s: (nodes + ways + relations) / wall. peak RSS: the child process's maxRSS at the end of the load",
    '  (Node, tsx and the code included). heap, buffers B/place: heapUsed and arrayBuffers the load kept, after gc.',
    "ours/x: our MB/s divided by that reader's on the same file.",
  ];
  notes.push(osmium ? `osmium: ${osmium}` : 'osmium: not installed (apt-get install osmium-tool), its rows are skipped.');
  printTable(
    '1. Load',
    [
      'file',
      'reader',
      'MB',
      'runs',
      'wall s',
      'MB/s',
      'Mobj/s',
      'peak RSS MB',
      'places',
      'heap B/place',
      'buffers B/place',
      'threads',
      'ours/x',
    ],
    rows.map((r): Cell[] => [
      r.file,
      r.reader,
      mb(r.bytes),
      r.runs,
      r.ms / 1000,
      r.mbPerS,
      r.objectsPerS / 1e6,
      r.maxRss !== undefined ? mb(r.maxRss) : undefined,
      r.places,
      r.heapPerPlace,
      r.buffersPerPlace,
      r.workers,
      ratio(r.oursOver),
    ]),
    [...notes, ...rows.filter((r) => r.note).map((r) => `${r.file} ${r.reader}: ${r.note}`), ...errors.map((e) => `ERROR ${e}`)],
  );

  const checks: Check[] = [];
  for (const ours of rows.filter((r) => r.reader === OURS)) {
    const base = rows.filter((r) => r.file === ours.file);
    const osmRead = base.find((r) => r.reader.startsWith('osm-read'));
    const native = base.find((r) => r.reader.startsWith('osmium'));
    if (osmRead?.oursOver !== undefined) {
      checks.push({
        target: `${ours.file}: MB/s >= 10x osm-read`,
        value: `${num(ours.mbPerS)} vs ${num(osmRead.mbPerS)} MB/s = ${ratio(osmRead.oursOver)}`,
        pass: osmRead.oursOver >= 10,
      });
    }
    if (native?.oursOver !== undefined) {
      checks.push({
        target: `${ours.file}: within 3x of osmium (ours/osmium >= 0.33)`,
        value: `${num(ours.mbPerS)} vs ${num(native.mbPerS)} MB/s = ${ratio(native.oursOver)}`,
        pass: native.oursOver >= 1 / 3,
      });
    }
    if (ours.file === 'nepal' && ours.maxRss !== undefined) {
      checks.push({ target: 'nepal: peak RSS < 2 GB', value: `${mb(ours.maxRss)} MB`, pass: ours.maxRss < 2e9 });
    }
  }
  // where the engine's time goes: the parse-and-index core, then what issue 5 added to a load
  const phased = rows.filter((r) => r.reader === OURS && r.timings);
  if (phased.length) {
    printTable(
      '1. Load phases (engine, last run)',
      ['file', 'read s', 'decode+places s', 'type index s', 'addresses s', 'search+lookup s', 'core MB/s', 'core/osm-read'],
      phased.map((r): Cell[] => {
        const t = r.timings!;
        const core = (t.read + t.decode + t.types) / 1000;
        const osmRead = rows.find((x) => x.file === r.file && x.reader.startsWith('osm-read'));
        const coreMb = r.bytes / 1e6 / core;
        return [
          r.file,
          t.read / 1000,
          t.decode / 1000,
          t.types / 1000,
          t.addresses / 1000,
          t.search / 1000,
          coreMb,
          osmRead ? ratio(coreMb / osmRead.mbPerS) : undefined,
        ];
      }),
      [
        'core: read + decode and build places (overlapped on threads) + per-type spatial indexes: what issue 3 measured.',
        'addresses (nearest street, locality, admin areas) and search + lookup + reverse indexes come with issue 5.',
      ],
    );
  }
  printChecks('1. Load targets', checks);
  return checks;
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
  return row(d, reader, last!, runs, median(bench.tasks[0]), peak);
}

function row(d: Dataset, reader: string, r: ChildResult, runs: number, ms: number, maxRss: number): LoadRow {
  const engine = r.reader === 'engine';
  return {
    file: d.name,
    reader,
    bytes: r.bytes,
    runs,
    ms,
    mbPerS: r.bytes / 1e6 / (ms / 1000),
    objectsPerS: (r.nodes + r.ways + r.relations) / (ms / 1000),
    maxRss,
    places: engine ? r.places : undefined,
    heapPerPlace: engine && r.places ? r.heapUsed / r.places : undefined,
    buffersPerPlace: engine && r.places ? r.arrayBuffers / r.places : undefined,
    workers: engine ? r.workers : undefined,
    timings: engine ? r.timings : undefined,
  };
}

async function child(file: string, osmRead: boolean): Promise<ChildResult> {
  const run = await runChild('load-child.ts', [...(osmRead ? ['--osm-read'] : []), file], { maxRss: MAX_RSS, timeout: LOAD_TIMEOUT });
  if (run.failed) throw new Error(run.failed);
  const line = run.lines[0] as ChildLine | undefined;
  if (line?.part !== 'load') throw new Error('the child printed no result');
  return line.result;
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
  return {
    file: d.name,
    reader: 'osmium fileinfo -e',
    bytes: d.bytes,
    runs,
    ms,
    mbPerS: d.bytes / 1e6 / (ms / 1000),
    objectsPerS: objects / (ms / 1000),
  };
}

/** The median sample of a finished tinybench task, ms; throws with the task's error when it failed. */
export function median(task: Bench['tasks'][number] | undefined): number {
  const r = task?.result;
  if (!r || (r.state !== 'completed' && r.state !== 'aborted-with-statistics')) {
    throw new Error(r && r.state === 'errored' ? r.error.message : `task ${r?.state ?? 'missing'}`);
  }
  return r.latency.p50;
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
