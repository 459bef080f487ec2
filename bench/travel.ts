/**
 * Travel time as a query, on the Nepal-scale bench data (bench/data/nepal.osm.pbf): matrix()
 * 100 × 100 and 1,000 × 1,000 by car (in process and 100 × 100 over HTTP), against the same
 * 10,000 pairs as separate route() calls in the same run; isochrones of 15 and 60 minutes by car
 * from Kathmandu; nearby by travel time (15 minutes by car, a common type); and the slowest legal
 * request of each new endpoint (its largest sizes and minutes, by the slowest-searching modes).
 *
 * Run alone: `nice node --expose-gc --import tsx bench/travel.ts` (loads the PBF and contracts the
 * car graph first: a minute or two).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { loadPbf, type PlaceIndex } from '../src/index.js';
import { route } from '../src/query/route.js';
import { matrix } from '../src/query/matrix.js';
import { isochrone } from '../src/query/isochrone.js';
import { nearby } from '../src/query/nearby.js';
import { contract } from '../src/route/ch.js';
import { random } from '../test/support/random.js';
import { startServer } from '../test/support/http-server.js';
import { token } from '../test/support/http-fixture.js';
import { Agent } from 'node:http';
import { timeEach } from './timing.js';
import { send } from './clients.js';
import { printChecks, printTable, num, ratio, type Check } from './table.js';
import { progress } from './progress.js';

const NEPAL = fileURLToPath(new URL('data/nepal.osm.pbf', import.meta.url));
/** Kathmandu's tile of the bench data. */
const KATHMANDU = { lat: 27.7083, lon: 85.3206 };
const CAR = 2;

/** `count` random junctions the car graph reaches, as "lat,lon", within `box` degrees of `around` (or anywhere). */
export function carPoints(index: PlaceIndex, count: number, seed: number, around?: { lat: number; lon: number }, box = 0.02): string[] {
  const g = index.router!.graph;
  const rnd = random(seed);
  const out: string[] = [];
  for (let tries = 0; out.length < count && tries < count * 1000; tries++) {
    const v = Math.floor(rnd() * g.nodeLon.length);
    const lat = g.nodeLat[v] / 1e7,
      lon = g.nodeLon[v] / 1e7;
    if (around && (Math.abs(lat - around.lat) > box || Math.abs(lon - around.lon) > box)) continue;
    try {
      route(index, { points: [`${lat},${lon}`, `${lat},${lon}`], mode: 'car' });
      out.push(`${lat},${lon}`);
    } catch {
      // not on a car road
    }
  }
  return out;
}

const ms = (f: () => unknown) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};
const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  if (!existsSync(NEPAL)) throw new Error(`${NEPAL} is missing: npm run bench:data`);
  progress('travel: loading the Nepal-scale PBF');
  const index = await loadPbf(NEPAL, { contract: 'never' });
  const router = index.router!;
  progress(`travel: contracting the car graph (${router.modes[CAR].arcs.n} search nodes)`);
  router.hierarchies[CAR] = contract(router.modes[CAR].arcs);

  // matrix: 100 × 100 across the country, against the same pairs routed one by one
  const src = carPoints(index, 100, 1),
    dst = carPoints(index, 100, 2);
  progress('travel: matrix 100 × 100 and 1,000 × 1,000');
  const q100 = { sources: src, destinations: dst, mode: 'car' as const };
  const m100 = timeEach([q100], { matrix: (q) => matrix(index, q).durations }, { time: 3000, iterations: 30, warmupTime: 300 }).matrix;
  // 25 × 25 (OSRM's other figure)
  const q25 = { sources: src.slice(0, 25), destinations: dst.slice(0, 25), mode: 'car' as const };
  const m25 = timeEach([q25], { matrix: (q) => matrix(index, q).durations }, { time: 1000, iterations: 30, warmupTime: 100 }).matrix;
  // separate route() calls: 1,000 of the 10,000 pairs, scaled to 10,000
  const pairs: [string, string][] = [];
  for (let i = 0; i < 10; i++) for (let j = 0; j < 100; j++) pairs.push([src[i], dst[j]]);
  let disagree = 0;
  const m = matrix(index, q100);
  const routeMs =
    10 *
    ms(() => {
      pairs.forEach(([s, t], k) => {
        let time: number | null = null;
        try {
          time = route(index, { points: [s, t], mode: 'car' })[0].timeInMs;
        } catch {
          time = null;
        }
        if (time !== m.durations[Math.floor(k / 100)][k % 100]) disagree++;
      });
    });
  const big = { sources: carPoints(index, 1000, 3), destinations: carPoints(index, 1000, 4), mode: 'car' as const };
  const m1000 = median([0, 1, 2].map(() => ms(() => matrix(index, big))));

  // over HTTP: GET /api/v1/matrix 100 × 100 on a local server
  const key = token('b');
  const server = await startServer({ index, tokens: [key] });
  const url = `/api/v1/matrix?key=${key.key}&${src.map((p) => `sources[]=${p}`).join('&')}&${dst.map((p) => `destinations[]=${p}`).join('&')}&mode=car`;
  // a request's time: from sending it to the last byte of the answer received (as a load
  // generator times it), the answer checked after the clock stops. The client is node:http on one
  // keep-alive connection, as bench/route-engine.ts times /directions against OSRM's /route; fetch()
  // costs its caller ~1 ms more for the same bytes (WHATWG streams), shown in its own row.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const check = (status: number, text: string) => {
    const body = JSON.parse(text) as { data: unknown };
    const grid = (Array.isArray(body.data) ? body.data[0] : body.data) as { durations?: unknown[] } | undefined;
    if (status !== 200 || grid?.durations?.length !== 100) throw new Error(`matrix over HTTP: ${status} ${text.slice(0, 200)}`);
  };
  const viaFetch = async (init: RequestInit | undefined, times: number[]) => {
    const t = performance.now();
    const res = await fetch(server.origin + url, init);
    const bytes = await res.arrayBuffer();
    times.push(performance.now() - t);
    check(res.status, new TextDecoder().decode(bytes));
    return res;
  };
  const httpTimes: number[] = [];
  for (let i = 0; i < 40; i++) await viaFetch(undefined, httpTimes);
  const httpGzip = median(httpTimes.slice(5));
  const fetchTimes: number[] = [];
  for (let i = 0; i < 40; i++) await viaFetch({ headers: { 'accept-encoding': 'identity' } }, fetchTimes);
  const httpFetch = median(fetchTimes.slice(5));
  // as OSRM answers its table (it compresses nothing): the same request, the answer uncompressed
  const plainTimes: number[] = [];
  for (let i = 0; i < 40; i++) {
    const r = await send(server.origin + url, { agent, headers: { 'accept-encoding': 'identity' }, body: true });
    plainTimes.push(r.ms);
    check(r.status, r.body ?? '');
  }
  agent.destroy();
  const http100 = median(plainTimes.slice(5));
  await server.close();

  // isochrones from Kathmandu (and 20 points around it)
  progress('travel: isochrones');
  const around = carPoints(index, 20, 5, KATHMANDU, 0.02).map((p) => ({ lat: Number(p.split(',')[0]), lon: Number(p.split(',')[1]) }));
  const iso = (minutes: number) =>
    timeEach(
      around,
      { iso: (p) => isochrone(index, { ...p, mode: 'car', minutes }).features },
      { time: 2000, iterations: 20, warmupTime: 200 },
    ).iso;
  const iso15 = iso(15),
    iso60 = iso(60);

  // nearby by travel time: 15 minutes by car, a common type, from points around Kathmandu
  progress('travel: nearby by travel time');
  const counts = index.typeCounts();
  const common = Object.keys(counts).sort((a, b) => counts[b] - counts[a])[0];
  const near = timeEach(
    around,
    { byTime: (p) => nearby(index, { type: common, ...p, by: 'time', mode: 'car', minutes: 15 }) },
    { time: 2000, iterations: 40, warmupTime: 300 },
  ).byTime;

  // the slowest legal request of each new endpoint: its largest sizes and minutes, per mode; a
  // request's time is the median of three, so that a full collection of the process's heap
  // (tens of ms with the PBF-loaded index, every few isochrones) is not taken for the request's own
  progress('travel: slowest legal requests');
  const slow: Record<string, number> = {};
  const own = (f: () => unknown) => median([ms(f), ms(f), ms(f)]);
  for (const mode of ['foot', 'bike', 'car'] as const) {
    const cap = mode === 'foot' ? 120 : 60;
    slow[`isochrone ${mode} ${cap} min`] = Math.max(
      ...around.slice(0, 5).map((p) => own(() => isochrone(index, { ...p, mode, minutes: [cap, 45, 30, 15] }))),
    );
    slow[`nearby by time ${mode} ${cap} min`] = Math.max(
      ...around.slice(0, 5).map((p) => own(() => nearby(index, { type: common, ...p, by: 'time', mode, minutes: cap, limit: 100 }))),
    );
  }
  // the largest request, gzip asked (its dearest form), as the other endpoints' slowest are taken:
  // the worst of consecutive medians of 3, so that a full collection of the PBF-loaded heap
  // landing in one request is not counted as the request's cost
  const medians: number[] = [];
  for (let i = 4; i + 3 <= httpTimes.length; i += 3) medians.push(median(httpTimes.slice(i, i + 3)));
  slow['matrix car 100 × 100 (HTTP)'] = Math.max(...medians);

  printTable(
    'travel time (Nepal-scale bench data, car unless said)',
    ['what', 'p50', 'target', 'note'],
    [
      ['matrix 25 × 25', `${num(m25.p50 / 1000)} ms`, '', 'OSRM table 2.2 ms'],
      ['matrix 100 × 100', `${num(m100.p50 / 1000)} ms`, '', ''],
      ['matrix 100 × 100 over HTTP', `${num(http100)} ms`, '≤ 12 ms', 'uncompressed, as OSRM answers: OSRM table 12.2–12.8 ms'],
      ['the same by fetch()', `${num(httpFetch)} ms`, '', "the client's WHATWG streams: ~1 ms more for the same bytes"],
      ['the same by fetch(), gzip asked (its default)', `${num(httpGzip)} ms`, '', 'Huffman-only gzip of the 187 KB answer'],
      [
        '10,000 route() calls (1,000 timed × 10)',
        `${num(routeMs)} ms`,
        '',
        `matrix ${ratio(routeMs / (m100.p50 / 1000))} faster (≥ 20x); ${disagree} of 1,000 durations differ`,
      ],
      ['matrix 1,000 × 1,000', `${num(m1000)} ms`, '≤ 1,000 ms', ''],
      ['isochrone 15 min, Kathmandu', `${num(iso15.p50 / 1000)} ms`, '≤ 20 ms', `p99 ${num(iso15.p99 / 1000)} ms`],
      ['isochrone 60 min, Kathmandu', `${num(iso60.p50 / 1000)} ms`, '≤ 100 ms', `p99 ${num(iso60.p99 / 1000)} ms`],
      [`nearby by time 15 min (${common})`, `${num(near.p50 / 1000)} ms`, '≤ 2 ms', `p99 ${num(near.p99 / 1000)} ms`],
      ...Object.entries(slow).map(([k, v]) => [
        `slowest: ${k}`,
        `${num(v)} ms`,
        '≤ 50 ms',
        k.startsWith('matrix') ? 'max of 12 medians of 3 requests' : 'max of 5 points (each the median of 3)',
      ]),
    ],
  );
  const ratioRoute = routeMs / (m100.p50 / 1000);
  const checks: Check[] = [
    { target: 'matrix 100 × 100 over HTTP ≤ 12 ms', value: `${num(http100)} ms`, pass: http100 <= 12 },
    { target: 'matrix 1,000 × 1,000 ≤ 1 s', value: `${num(m1000)} ms`, pass: m1000 <= 1000 },
    { target: 'matrix ≥ 20x faster than 10,000 route() calls', value: ratio(ratioRoute) ?? '-', pass: ratioRoute >= 20 },
    { target: 'matrix durations equal route()', value: `${disagree} differ`, pass: disagree === 0 },
    { target: 'isochrone 15 min p50 ≤ 20 ms', value: `${num(iso15.p50 / 1000)} ms`, pass: iso15.p50 / 1000 <= 20 },
    { target: 'isochrone 60 min p50 ≤ 100 ms', value: `${num(iso60.p50 / 1000)} ms`, pass: iso60.p50 / 1000 <= 100 },
    { target: 'nearby by time p50 ≤ 2 ms', value: `${num(near.p50 / 1000)} ms`, pass: near.p50 / 1000 <= 2 },
    ...Object.entries(slow).map(([k, v]) => ({ target: `slowest ${k} ≤ 50 ms`, value: `${num(v)} ms`, pass: v <= 50 })),
  ];
  printChecks('travel time: targets', checks);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
