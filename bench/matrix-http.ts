/**
 * The matrix over HTTP, phase by phase, on the Nepal-scale bench data (bench/data/nepal.osm.pbf):
 * 100 × 100 by car, the points of bench/travel.ts. Times in one run: matrix() in process, its
 * parts (checking, snapping, the table, the cells, the JSON), the app's `fetch` without a socket,
 * and GET and POST on a local server (with and without a compressed answer), each p50 of many.
 *
 * Run alone: `nice node --expose-gc --import tsx bench/matrix-http.ts` (loads the PBF and
 * contracts the car graph first: a minute or two), or `… bench/matrix-http.ts --snapshot FILE`
 * for a snapshot with the car hierarchy (`nepal-places build`), to load in seconds.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { loadPbf, fromSnapshot, type PlaceIndex } from '../src/index.js';
import { matrix, matrixGrid, checkMatrix } from '../src/query/matrix.js';
import { snapFor, sourceSeeds, targetSeeds } from '../src/route/seeds.js';
import { tableFor } from '../src/route/matrix.js';
import { contract } from '../src/route/ch.js';
import { createApp } from '../src/http/app.js';
import { envelope } from '../src/http/envelope.js';
import { matrixJson } from '../src/http/matrix-json.js';
import { huffmanCompress } from '../src/http/huffman.js';
import { startServer } from '../test/support/http-server.js';
import { token } from '../test/support/http-fixture.js';
import { printTable, num } from './table.js';
import { progress } from './progress.js';
import { carPoints } from './travel.js';
import { send } from './clients.js';
import { Agent } from 'node:http';

const NEPAL = fileURLToPath(new URL('data/nepal.osm.pbf', import.meta.url));
const CAR = 2;

/** p50 of `f`'s milliseconds over `runs` runs after `warm` unmeasured ones. */
async function p50(f: () => unknown, runs = 60, warm = 10): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < warm + runs; i++) {
    const t = performance.now();
    await f();
    if (i >= warm) times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

async function load(): Promise<PlaceIndex> {
  const at = process.argv.indexOf('--snapshot');
  if (at > 0) return fromSnapshot(readFileSync(process.argv[at + 1]!), process.argv[at + 1]);
  if (!existsSync(NEPAL)) throw new Error(`${NEPAL} is missing: npm run bench:data`);
  progress('matrix-http: loading the Nepal-scale PBF');
  const index = await loadPbf(NEPAL, { contract: 'never' });
  const router = index.router!;
  progress('matrix-http: contracting the car graph');
  router.hierarchies[CAR] = contract(router.modes[CAR].arcs);
  return index;
}

async function main(): Promise<void> {
  const index = await load();
  const router = index.router!;
  if (!router.hierarchies[CAR]) throw new Error('the index has no car hierarchy');
  const src = carPoints(index, 100, 1),
    dst = carPoints(index, 100, 2);
  const q = { sources: src, destinations: dst, mode: 'car' as const };
  const rows: string[][] = [];
  const row = (what: string, ms: number, note = '') => rows.push([what, `${num(ms)} ms`, note]);
  progress('matrix-http: in process');

  row('matrix() 100 × 100', await p50(() => matrix(index, q)));
  const checked = checkMatrix(q, index);
  row('  checking the query', await p50(() => checkMatrix(q, index)));
  const snap = () => [...checked.sources, ...checked.destinations].map(([lat, lon]) => snapFor(router, CAR, lat, lon, 1)!);
  row('  snapping 200 points', await p50(snap));
  const snaps = snap();
  const seeds = () => ({
    s: snaps.slice(0, 100).map((s) => sourceSeeds(router, CAR, s)),
    t: snaps.slice(100).map((s) => targetSeeds(router, CAR, s)),
  });
  row('  their seeds', await p50(seeds));
  const { s, t } = seeds();
  const table = tableFor(router, CAR)!;
  row('  the table (bucket method)', await p50(() => table.many(s, t)));
  row('matrixGrid() 100 × 100 (the same, as two grids)', await p50(() => matrixGrid(index, q)));
  const record = matrix(index, q);
  const env = envelope(200, undefined, [record], Date.now());
  row('JSON.stringify of its envelope', await p50(() => JSON.stringify(env)), `${JSON.stringify(env).length} chars`);
  const grid = matrixGrid(index, q);
  row('matrixJson() of the grid (the same bytes)', await p50(() => matrixJson(grid, Date.now())));
  const json = matrixJson(grid, Date.now()).bytes;
  row('  gzip, Huffman codes alone', await p50(() => huffmanCompress(json, 'gzip'), 200), `${huffmanCompress(json, 'gzip').length} bytes`);
  const stream = async () => new Response(new Blob([json]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer();
  row('  gzip by CompressionStream (compress())', await p50(stream), `${(await stream()).byteLength} bytes`);

  progress('matrix-http: the app without a socket');
  const key = token('b');
  const app = createApp({ index, tokens: [key], log: () => {} });
  const path = `/api/v1/matrix?key=${key.key}&${src.map((p) => `sources[]=${p}`).join('&')}&${dst.map((p) => `destinations[]=${p}`).join('&')}&mode=car`;
  const body = JSON.stringify({ sources: src, destinations: dst, mode: 'car' });
  const viaFetch = async (init?: RequestInit) => {
    const r = await app.fetch(
      new Request(`http://127.0.0.1${path.split('&')[0]}${init?.method === 'POST' ? '' : path.slice(path.indexOf('&'))}`, init),
    );
    if (r.status !== 200) throw new Error(`${r.status} ${(await r.text()).slice(0, 200)}`);
    return r.arrayBuffer();
  };
  row('app.fetch GET, body read', await p50(() => viaFetch()));
  row('app.fetch GET gzip, body read', await p50(() => viaFetch({ headers: { 'accept-encoding': 'gzip' } })));
  row('app.fetch POST, body read', await p50(() => viaFetch({ method: 'POST', body, headers: { 'content-type': 'application/json' } })));

  progress('matrix-http: on a local server');
  const server = await startServer({ index, tokens: [key] });
  const over = async (init?: RequestInit) => {
    const r = await server.request(init?.method === 'POST' ? path.split('&')[0] : path, init);
    if (r.status !== 200) throw new Error(`${r.status} ${r.text.slice(0, 200)}`);
  };
  // fetch() asks for gzip, deflate (and br) by default, as bench/travel.ts's requests do
  row('GET over HTTP (fetch: its default Accept-Encoding)', await p50(() => over(), 40, 5));
  row('GET over HTTP, identity', await p50(() => over({ headers: { 'accept-encoding': 'identity' } }), 40, 5));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const lean = async () => {
    const r = await send(server.origin + path, { agent, headers: { 'accept-encoding': 'identity' }, body: true });
    if (r.status !== 200) throw new Error(`${r.status} ${(r.body ?? '').slice(0, 200)}`);
  };
  row('GET over HTTP, identity, node:http keep-alive', await p50(lean, 40, 5), 'as bench/travel.ts');
  agent.destroy();
  row(
    'POST over HTTP (fetch default)',
    await p50(() => over({ method: 'POST', body, headers: { 'content-type': 'application/json' } }), 40, 5),
  );
  await server.close();
  printTable('matrix 100 × 100 car over HTTP, by phase (p50)', ['what', 'p50', 'note'], rows);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
