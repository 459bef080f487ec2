// Section 8, vector tiles: `nepal-places tiles` against tilemaker (its OpenMapTiles
// example config) on the same file in the same run, each in a fresh process: wall
// time, peak RSS, archive size, tile counts; then tile serving from our archive (the
// pmtiles reader over the file, as the server reads it). Target of issue 12 on the
// Nepal-scale file: no slower than tilemaker.
//
// tilemaker stops at the first way or relation naming a node the file lacks, and the
// extracts do (they are cut at their edges): it reads a reference-complete copy made
// by bench/complete-refs.ts beforehand, and renumbered by `osmium renumber` (its node
// store fails with bad_alloc on the generated file's ids, spread up to 2^40), neither
// timed. Its config drops the layers read
// from shapefiles (ocean, Natural Earth landcover), which this machine does not have.
// Without tilemaker installed (apt-get install tilemaker), its rows are skipped.

import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PMTiles } from 'pmtiles';
import { completeRefs } from './complete-refs.js';
import { FIXTURE, generated, type Dataset } from './datasets.js';
import { progress } from './progress.js';
import { mb, num, printTable, ratio, type Cell, type Check } from './table.js';
import { FileSource } from '../src/map/file-source.js';

const OUT_DIR = fileURLToPath(new URL('data/', import.meta.url));
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const EXAMPLES = '/usr/share/doc/tilemaker/examples';
/** A build longer than this is stopped and reported as failed. */
const TIMEOUT = 45 * 60_000;
/** The row of our build without the shaped Nepali labels (`--no-nepali`). */
const NO_NEPALI = 'nepal-places --no-nepali';

/** Tile requests timed for serving. */
const REQUESTS = 2000;

/** One tool's build of one file. */
export interface TilesRow {
  file: string;
  tool: string;
  ms: number;
  /** User + system CPU seconds (0 without /usr/bin/time): a fairer comparison on a busy machine. */
  cpu: number;
  maxRss: number;
  bytes: number;
  tiles?: number;
  note?: string;
}

/** Serving from our archive: latency of `getZxy` over random tiles of the data. */
export interface ServingRow {
  file: string;
  requests: number;
  found: number;
  /** The stored (gzipped) bytes, as a server sends them: directory lookup and read. */
  p50: number;
  p99: number;
  /** The same, gunzipped (what a client decoding the tile gets). */
  p50Gunzip: number;
}

/** Runs the section; prints its tables; returns its rows and the target's check. */
export async function tilesSection(
  files: Dataset[],
  errors: string[],
): Promise<{ rows: TilesRow[]; serving: ServingRow[]; checks: Check[] }> {
  mkdirSync(OUT_DIR, { recursive: true });
  const tilemaker = version('tilemaker', ['--help']);
  const rows: TilesRow[] = [];
  const serving: ServingRow[] = [];
  for (const d of files) {
    const out = `${OUT_DIR}${d.name}.pmtiles`;
    try {
      progress(`tiles: ${d.name} with nepal-places`);
      const cli = existsSync(`${ROOT}dist/cli.js`) ? [`${ROOT}dist/cli.js`] : ['--import', 'tsx', `${ROOT}src/cli.ts`];
      const r = await timed(process.execPath, [...cli, 'tiles', d.path, '-o', out, '--quiet']);
      const src = new FileSource(out);
      const tiles = (await new PMTiles(src).getHeader()).numAddressedTiles;
      await src.close();
      rows.push({ file: d.name, tool: 'nepal-places', ms: r.ms, cpu: r.cpu, maxRss: r.maxRss, bytes: statSync(out).size, tiles });
      progress(`tiles: ${d.name}, serving`);
      serving.push(await serve(d.name, out));
      // the same build without the shaped Nepali labels: what shaping them costs, in this run
      progress(`tiles: ${d.name} with nepal-places --no-nepali`);
      const plain = `${OUT_DIR}${d.name}-no-nepali.pmtiles`;
      const p = await timed(process.execPath, [...cli, 'tiles', d.path, '-o', plain, '--quiet', '--no-nepali']);
      rows.push({ file: d.name, tool: NO_NEPALI, ms: p.ms, cpu: p.cpu, maxRss: p.maxRss, bytes: statSync(plain).size });
    } catch (err) {
      errors.push(`tiles ${d.name}: ${(err as Error).message}`);
    }
    if (!tilemaker) continue;
    try {
      progress(`tiles: ${d.name}, a reference-complete copy for tilemaker`);
      const copy = await completeRefs(d.path, `${OUT_DIR}${d.name}-complete.osm.pbf`);
      const input = renumber(copy.path, `${OUT_DIR}${d.name}-renumbered.osm.pbf`);
      const config = `${OUT_DIR}tilemaker-config.json`;
      const c = JSON.parse(readFileSync(`${EXAMPLES}/config-openmaptiles.json`, 'utf8')) as { layers: Record<string, { source?: string }> };
      c.layers = Object.fromEntries(Object.entries(c.layers).filter(([, l]) => !l.source));
      writeFileSync(config, JSON.stringify(c));
      const mbtiles = `${OUT_DIR}${d.name}.mbtiles`;
      rmSync(mbtiles, { force: true }); // tilemaker would merge into it
      progress(`tiles: ${d.name} with tilemaker`);
      const r = await timed('tilemaker', [
        '--input',
        input,
        '--output',
        mbtiles,
        '--config',
        config,
        '--process',
        `${EXAMPLES}/process-openmaptiles.lua`,
      ]);
      rows.push({
        file: d.name,
        tool: 'tilemaker',
        ms: r.ms,
        cpu: r.cpu,
        maxRss: r.maxRss,
        bytes: statSync(mbtiles).size,
        note: `OpenMapTiles example config, no shapefile layers; copy without ${num(copy.droppedRefs)} dangling node refs${input === copy.path ? '' : ', renumbered'}`,
      });
    } catch (err) {
      errors.push(`tiles ${d.name} tilemaker: ${(err as Error).message}`);
    }
  }

  printTable(
    '8. Vector tiles',
    [
      'file',
      'tool',
      'build s',
      'CPU s',
      'peak RSS MB',
      'archive MB',
      'tiles',
      'time vs tilemaker',
      'CPU vs tilemaker',
      'size vs tilemaker',
    ],
    rows.map((r): Cell[] => {
      const tm = rows.find((o) => o.file === r.file && o.tool === 'tilemaker');
      const mine = r.tool !== 'tilemaker' && tm;
      return [
        r.file,
        r.tool,
        r.ms / 1000,
        r.cpu || undefined,
        mb(r.maxRss),
        mb(r.bytes),
        r.tiles,
        mine ? ratio(r.ms / tm.ms) : undefined,
        mine && r.cpu && tm.cpu ? ratio(r.cpu / tm.cpu) : undefined,
        mine ? ratio(r.bytes / tm.bytes) : undefined,
      ];
    }),
    [
      'Each build in a fresh process, wall time from start to exit; CPU (user + system, all threads) and peak RSS from /usr/bin/time when installed.',
      'nepal-places: z0-14, the Protomaps basemap layers, one PMTiles file (--no-nepali: without the shaped Nepali labels). tilemaker: z0-14, the OpenMapTiles layers, one MBTiles file.',
      tilemaker
        ? `tilemaker: ${tilemaker}; ${rows.find((r) => r.tool === 'tilemaker')?.note ?? ''}`
        : 'tilemaker: not installed (apt-get install tilemaker), its rows are skipped.',
    ],
  );
  printTable(
    '8b. Tile serving from the archive',
    ['file', 'requests', 'tiles found', 'p50 µs', 'p99 µs', 'p50 µs gunzipped'],
    serving.map((s): Cell[] => [s.file, s.requests, s.found, s.p50, s.p99, s.p50Gunzip]),
    [
      `pmtiles' reader over the file (directories cached after the first reads), ${REQUESTS} random tiles of z10-14 over the data, one at a time.`,
    ],
  );

  const checks: Check[] = [];
  const ours = rows.find((r) => r.file === 'nepal' && r.tool === 'nepal-places');
  const theirs = rows.find((r) => r.file === 'nepal' && r.tool === 'tilemaker');
  const plain = rows.find((r) => r.file === 'nepal' && r.tool === NO_NEPALI);
  if (ours && plain) {
    checks.push({
      target: 'nepal: tiles with shaped Nepali labels ≤ 1.2x the time without (CPU)',
      value: `${num(ours.cpu || ours.ms / 1000)} s / ${num(plain.cpu || plain.ms / 1000)} s = ${ratio((ours.cpu || ours.ms) / (plain.cpu || plain.ms))}`,
      pass: (ours.cpu || ours.ms) <= 1.2 * (plain.cpu || plain.ms),
    });
    checks.push({
      target: 'nepal: archive with shaped Nepali labels ≤ 1.1x the size without',
      value: `${mb(ours.bytes)} MB / ${mb(plain.bytes)} MB = ${ratio(ours.bytes / plain.bytes)}`,
      pass: ours.bytes <= 1.1 * plain.bytes,
    });
  }
  if (ours && theirs) {
    checks.push({
      target: 'nepal: tiles built no slower than tilemaker',
      value: `${num(ours.ms / 1000)} s / ${num(theirs.ms / 1000)} s = ${ratio(ours.ms / theirs.ms)}`,
      pass: ours.ms <= theirs.ms,
    });
  }
  return { rows, serving, checks };
}

// `osmium renumber`s `input` into `out` (reused while newer than the input); the input
// itself when osmium is not installed
function renumber(input: string, out: string): string {
  if (!version('osmium', ['--version'])) return input;
  if (existsSync(out) && statSync(out).mtimeMs > statSync(input).mtimeMs) return out;
  execFileSync('osmium', ['renumber', '--overwrite', '-o', out, input], { stdio: 'ignore' });
  return out;
}

// a tool's first line of output, or null when it is not installed
function version(cmd: string, args: string[]): string | null {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
      .split('\n')[0]
      .trim();
  } catch (err) {
    const e = err as { code?: string; stdout?: string };
    if (e.code === 'ENOENT') return null;
    return e.stdout?.split('\n')[0].trim() || cmd;
  }
}

// runs a command to its end: wall time, and peak RSS through /usr/bin/time when there
function timed(cmd: string, args: string[]): Promise<{ ms: number; cpu: number; maxRss: number }> {
  const wrap = existsSync('/usr/bin/time');
  const marker = '@@maxrss';
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn(wrap ? '/usr/bin/time' : cmd, wrap ? ['-f', `${marker} %M %U %S`, cmd, ...args] : args, {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    p.stderr.on('data', (c: Buffer) => {
      err = (err + c.toString()).slice(-20_000);
    });
    const timer = setTimeout(() => p.kill('SIGKILL'), TIMEOUT);
    p.on('error', reject);
    p.on('close', (code) => {
      clearTimeout(timer);
      const ms = performance.now() - t0;
      if (code !== 0) {
        reject(new Error(`${cmd} exited ${code}: ${err.split('\n').filter(Boolean).slice(-3).join(' | ')}`));
        return;
      }
      const m = new RegExp(`${marker} (\\d+) ([\\d.]+) ([\\d.]+)`).exec(err);
      resolve({ ms, cpu: m ? Number(m[2]) + Number(m[3]) : 0, maxRss: m ? Number(m[1]) * 1024 : 0 });
    });
  });
}

// random tiles over the archive's bounds, read one at a time
async function serve(name: string, file: string): Promise<ServingRow> {
  const raw = new FileSource(file),
    raw2 = new FileSource(file);
  const asStored = new PMTiles(raw, undefined, async (buf) => buf);
  const gunzipped = new PMTiles(raw2);
  const h = await asStored.getHeader();
  let seed = 42;
  const rand = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  const requests: [number, number, number][] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const z = 10 + Math.floor(rand() * 5);
    const lon = h.minLon + rand() * (h.maxLon - h.minLon),
      lat = h.minLat + rand() * (h.maxLat - h.minLat);
    const x = Math.floor(((lon + 180) / 360) * 2 ** z);
    const r = (lat * Math.PI) / 180;
    const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z);
    requests.push([z, x, y]);
  }
  const time = async (a: PMTiles) => {
    for (const [z, x, y] of requests.slice(0, 50)) await a.getZxy(z, x, y); // warm: directories cached
    const us: number[] = [];
    let found = 0;
    for (const [z, x, y] of requests) {
      const t0 = performance.now();
      const t = await a.getZxy(z, x, y);
      us.push((performance.now() - t0) * 1000);
      if (t) found++;
    }
    us.sort((p, q) => p - q);
    return { p50: us[us.length >> 1], p99: us[Math.floor(us.length * 0.99)], found };
  };
  const stored = await time(asStored);
  const unzipped = await time(gunzipped);
  await raw.close();
  await raw2.close();
  return { file: name, requests: REQUESTS, found: stored.found, p50: stored.p50, p99: stored.p99, p50Gunzip: unzipped.p50 };
}

// `node --import tsx bench/tiles.ts`: this section alone
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const files = [FIXTURE];
  const nepal = generated('nepal');
  if (typeof nepal !== 'string') files.push(nepal);
  else console.log(`Nepal-scale data missing (${nepal}): the fixture only`);
  const errors: string[] = [];
  const { checks } = await tilesSection(files, errors);
  for (const c of checks) console.log(`${c.pass ? 'PASS' : 'FAIL'}  ${c.target}: ${c.value}`);
  for (const e of errors) console.log(`ERROR ${e}`);
}
