/**
 * The throughput bench's floor row (bench/throughput.ts): the very work of one keyed
 * `/search/nearby` answer, straight on `node:http` without the framework: the key checked
 * (`Keyring`), counted (`MemoryQuotaStore`), the query parsed (`parseNearbyParams`), searched
 * (`nearbyHits`), written (`NearbyJson`), with the app's headers and an access-log line on
 * standard output, in batches. It answers that one route only and is no server to deploy: it
 * shows what is left to the framework (Hono, @hono/node-server, the app's middleware).
 *
 * Run by the bench as `node --import tsx bench/throughput-floor.ts TOKENS.json`; prints its origin.
 */
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import type * as File from '../src/ingest/file.js';
import type * as Log from '../src/http/access-log.js';
import type * as Keys from '../src/http/keys.js';
import type * as Json from '../src/http/nearby-json.js';
import type * as Params from '../src/http/params.js';
import type * as Query from '../src/http/query.js';
import type * as Quota from '../src/http/quota.js';
import type * as Schema from '../src/http/schema.js';
import type * as Nearby from '../src/query/nearby.js';

// The build, as the serve rows run it (the sources through tsx cost a fifth more per request).
const base = existsSync(new URL('../dist/http/app.js', import.meta.url)) ? '../dist' : '../src';
const load = <T>(path: string) => import(`${base}/${path}`) as Promise<T>;
const { loadFile } = await load<typeof File>('ingest/file.js');
const { accessLine } = await load<typeof Log>('http/access-log.js');
const { Keyring } = await load<typeof Keys>('http/keys.js');
const { NearbyJson } = await load<typeof Json>('http/nearby-json.js');
const { parseNearbyParams } = await load<typeof Params>('http/params.js');
const { queryOf } = await load<typeof Query>('http/query.js');
const { MemoryQuotaStore } = await load<typeof Quota>('http/quota.js');
const { nearbySchema } = await load<typeof Schema>('http/schema.js');
const { nearbyHits } = await load<typeof Nearby>('query/nearby.js');
type Token = Keys.Token;

const FIXTURE = new URL('../fixtures/kathmandu-core_2026-01-10.osm.pbf', import.meta.url);
const tokens = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Token[];
const index = await loadFile(FIXTURE.pathname);
const ring = new Keyring(tokens);
const store = new MemoryQuotaStore();
const json = new NearbyJson();
const limits = { maxLimit: 100, maxRadius: 100 };
// made once, as the app makes it: building the zod schema per request would cost more than the search
const schema = nearbySchema(limits);
let lines: string[] = [];
const log = (line: string) => {
  if (lines.push(line) === 1) {
    setImmediate(() => {
      process.stdout.write(`${lines.join('\n')}\n`);
      lines = [];
    });
  }
};
let count = 0;
const server = createServer(async (req, res) => {
  const start = performance.now();
  const rid = `floor-${(++count).toString(36)}`;
  try {
    const search = queryOf(req.url ?? '/');
    const grant = await ring.verify(search.getAll('key'));
    const q = await store.hit(grant.id, grant.quota.windowSeconds, grant.quota.requests);
    const query = parseNearbyParams(search, limits, schema);
    query.at = new Date();
    const body = json.answer(index, nearbyHits(index, query)).envelope(Date.now());
    res.writeHead(200, {
      'x-request-id': rid,
      vary: 'Origin, Accept-Encoding',
      'ratelimit-limit': String(grant.quota.requests),
      'ratelimit-remaining': String(q.remaining),
      'ratelimit-reset': String(q.resetSeconds),
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    res.end(body.bytes);
    log(
      accessLine({
        time: Date.now(),
        id: rid,
        method: 'GET',
        url: `http://127.0.0.1${req.url}`,
        status: 200,
        ms: performance.now() - start,
        keyHint: grant.hint,
      }),
    );
  } catch (err) {
    res.writeHead(400).end(String(err));
  }
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  console.log(`floor at http://127.0.0.1:${port}`);
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
});
