/**
 * HTTP section of `npm run bench`: `/api/v1/search/nearby` on loopback with autocannon against
 * the Kathmandu fixture, next to `nearby()` called directly for the same queries, and the
 * adapter's overhead as the ratio of the two.
 *
 * Run alone: `node --import tsx bench/http.ts` (BENCH_HTTP_SECONDS=2 for a quick look).
 */
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { DEFAULT_PBF, loadPbf, nearby, type NearbyQuery } from '../src/index.js';
import { createApp, generateKey, serve } from '../src/http/node.js';

/** The fixed searches: central Kathmandu, a mix of types, radii, limits and orders. */
const QUERIES: Omit<NearbyQuery, 'at'>[] = [
  { type: 'cafe', lat: 27.7154, lon: 85.3123, radius: 1, limit: 5 },
  { type: 'restaurant', lat: 27.7154, lon: 85.3123, radius: 2, limit: 10 },
  { type: 'eat', lat: 27.7105, lon: 85.3162, radius: 1, limit: 5, sortBy: true },
  { type: 'school', lat: 27.7087, lon: 85.3252, radius: 3, limit: 20 },
  { type: 'atm', lat: 27.7062, lon: 85.3149, radius: 1, limit: 5 },
  { type: 'bank', lat: 27.7121, lon: 85.318, radius: 2, limit: 10, sortBy: true },
  { type: 'pharmacy', lat: 27.704, lon: 85.3069, radius: 2, limit: 5 },
  { type: 'hotel', lat: 27.715, lon: 85.31, radius: 1, limit: 5, isOpen: true },
];

const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? 10);
const CONNECTIONS = 10;

function path(q: Omit<NearbyQuery, 'at'>, key: string): string {
  const params = Object.entries(q).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);
  return `/api/v1/search/nearby?${params.join('&')}&key=${key}`;
}

function quantile(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Runs the HTTP benchmark; prints a table and returns the numbers. */
export async function run(): Promise<Record<string, unknown>> {
  const index = await loadPbf(DEFAULT_PBF);
  const key = generateKey();
  const app = createApp({
    index,
    tokens: [{ key, allowedOrigins: '*', quota: { requests: Number.MAX_SAFE_INTEGER, windowSeconds: 3600 } }],
    // the line is still built for every request; only the write is left out
    log: () => {},
  });
  const server = await serve(app, { port: 0, host: '127.0.0.1', signals: [] });

  let http: autocannon.Result;
  try {
    http = await autocannon({
      url: server.origin,
      requests: QUERIES.map((q) => ({ method: 'GET', path: path(q, key) })),
      connections: CONNECTIONS,
      duration: SECONDS,
      // the load generator gets its own thread, so it does not share the server's event loop
      workers: 1,
    });
  } finally {
    await server.close();
  }
  if (http.non2xx > 0 || http.errors > 0) {
    throw new Error(`bench/http: ${http.non2xx} non-2xx responses and ${http.errors} errors`);
  }

  // nearby() itself on the same queries, round-robin, for a few seconds
  const at = new Date();
  for (const q of QUERIES) nearby(index, { ...q, at }); // warm-up
  const budget = Math.min(3, SECONDS) * 1e9;
  const times: number[] = [];
  const start = process.hrtime.bigint();
  let elapsed = 0;
  for (let i = 0; elapsed < budget; i++) {
    const t = process.hrtime.bigint();
    nearby(index, { ...QUERIES[i % QUERIES.length]!, at });
    const end = process.hrtime.bigint();
    times.push(Number(end - t));
    elapsed = Number(end - start);
  }
  const sorted = Float64Array.from(times).sort();
  const directPerSec = times.length / (elapsed / 1e9);
  const direct = { perSec: directPerSec, p50Ms: quantile(sorted, 0.5) / 1e6, p99Ms: quantile(sorted, 0.99) / 1e6 };

  const result = {
    seconds: SECONDS,
    connections: CONNECTIONS,
    queries: QUERIES.length,
    places: index.size,
    http: { reqPerSec: http.requests.average, p50Ms: http.latency.p50, p99Ms: http.latency.p99, requests: http.requests.total },
    direct,
    // how many direct nearby() calls take the time of one request served over HTTP
    overhead: directPerSec / http.requests.average,
  };

  const row = (name: string, perSec: number, p50: number, p99: number) =>
    `${name.padEnd(20)} ${perSec.toFixed(0).padStart(10)} ${p50.toFixed(3).padStart(10)} ${p99.toFixed(3).padStart(10)}`;
  console.log(`\nHTTP /api/v1/search/nearby, ${SECONDS} s, ${CONNECTIONS} connections, ${QUERIES.length} queries, ${index.size} places`);
  console.log(`${'path'.padEnd(20)} ${'per s'.padStart(10)} ${'p50 ms'.padStart(10)} ${'p99 ms'.padStart(10)}`);
  console.log(row('HTTP (autocannon)', result.http.reqPerSec, result.http.p50Ms, result.http.p99Ms));
  console.log(row('nearby() direct', direct.perSec, direct.p50Ms, direct.p99Ms));
  console.log(`overhead: ${result.overhead.toFixed(1)}x (direct calls/s ÷ HTTP requests/s)`);
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
