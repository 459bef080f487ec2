/**
 * `nepal-places serve`: API v1 over HTTP.
 *
 *   nepal-places serve [--data FILE] [--strict] [--port 8080] [--host 127.0.0.1] [--tokens FILE] [--redis URL]
 *
 * `--data` (or its older name `--pbf`) is a PBF or a snapshot, told apart by its first
 * bytes; without it, the bundled Kathmandu fixture.
 * Without --tokens it makes a development key and prints it with a ready-to-paste curl.
 * SIGTERM (or Ctrl-C) stops it gracefully and it exits 0.
 */
import { relative } from 'node:path';
import type { PlaceIndex } from '../index/place-index.js';
import { nearby } from '../query/nearby.js';
import { createApp } from '../http/app.js';
import { generateKey, loadTokens, TokenError, type Token } from '../http/keys.js';
import { MemoryQuotaStore, type QuotaStore } from '../http/quota.js';
import { serve } from '../http/server.js';
import { EXIT, Failure, guard, parseCommand, UsageError } from './args.js';
import { DATA_HELP, DATA_OPTIONS, dataFile, openData } from './data.js';

const USAGE = 'usage: nepal-places serve [--data FILE] [--strict] [--port 8080] [--host 127.0.0.1] [--tokens FILE] [--redis URL]';

const HELP = `${USAGE}

Serves the API v1 over HTTP until SIGTERM or Ctrl-C.

${DATA_HELP}
  --port N      default 8080; 0 picks a free port
  --host ADDR   default 127.0.0.1
  --tokens FILE the API keys (JSON); without it, a development key is made and printed
  --redis URL   count quotas in Redis (redis://host:port), shared between instances
  -h, --help    this help

Exit codes: 0 stopped by SIGTERM or Ctrl-C, 1 the data, the tokens, Redis or the port
failed, 2 bad usage.`;

/** The quota of the development key. */
const DEV_QUOTA = { requests: 1000, windowSeconds: 60 };

/** Example searches for the printed curl, tried in order until one finds places in the data. */
const EXAMPLES = [
  { type: 'cafe', lat: 27.7154, lon: 85.3123, radius: 1 }, // Thamel
  { type: 'restaurant', lat: 27.7154, lon: 85.3123, radius: 10 },
  { type: 'eat', lat: 27.7, lon: 85.33, radius: 100 }, // the valley
  { type: 'bus_stop', lat: 27.7, lon: 85.33, radius: 100 },
  { type: 'school', lat: 27.7, lon: 85.33, radius: 100 },
];

const out = (line: string) => void process.stdout.write(`${line}\n`);
const fail = (line: string) => void process.stderr.write(`nepal-places serve: ${line}\n`);

/** Runs the subcommand; resolves with the exit code once the server has stopped. */
export function run(argv: string[]): Promise<number> {
  return guard('serve', () => start(argv));
}

async function start(argv: string[]): Promise<number> {
  const { values: v } = parseCommand(argv, {
    ...DATA_OPTIONS,
    port: { type: 'string' },
    host: { type: 'string' },
    tokens: { type: 'string' },
    redis: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  const values = v as { data?: string; pbf?: string; strict?: boolean; port?: string; host?: string; tokens?: string; redis?: string; help?: boolean };
  if (values.help) {
    out(HELP);
    return EXIT.ok;
  }
  const file = dataFile(values);
  const port = values.port ?? '8080';
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) throw new UsageError(`--port must be an integer from 0 to 65535, got '${port}'`);
  const host = values.host ?? '127.0.0.1';
  if (host === '') throw new UsageError('--host must not be empty');
  if (values.redis !== undefined && !/^rediss?:\/\/[^\s]+$/.test(values.redis)) {
    throw new UsageError(`--redis must be a URL such as redis://127.0.0.1:6379, got '${values.redis}'`);
  }
  if (values.tokens === '') throw new UsageError('--tokens must name a file');

  let tokens: Token[];
  let devKey: string | undefined;
  try {
    if (values.tokens !== undefined) tokens = await loadTokens(values.tokens);
    else tokens = [{ key: (devKey = generateKey()), allowedOrigins: '*', quota: DEV_QUOTA }];
  } catch (err) {
    // a tokens file that cannot be read or is not valid is bad data, like a bad data file
    if (err instanceof TokenError) throw new Failure(err.message);
    throw err;
  }

  let store: QuotaStore;
  if (values.redis !== undefined) {
    const { RedisQuotaStore } = await import('../http/redis-quota.js');
    try {
      store = await RedisQuotaStore.connect(values.redis, { onError: (err) => fail(`redis: ${err.message}`) });
    } catch (err) {
      throw new Failure(`cannot connect to redis at ${values.redis}: ${(err as Error).message}`);
    }
  } else store = new MemoryQuotaStore();

  let index: PlaceIndex;
  try {
    index = await openData('serve', file, values.strict === true);
  } catch (err) {
    await store.close?.();
    throw err;
  }

  const app = createApp({ index, tokens, store, log: out });
  let running;
  try {
    running = await serve(app, { port: Number(port), host, onClose: () => store.close?.() });
  } catch (err) {
    await store.close?.();
    throw new Failure(`cannot listen on ${host}:${port}: ${(err as Error).message}`);
  }

  const api = `${running.origin}/api/v1`;
  out(`nepal-places: ${index.size} places from ${shortPath(file)} (${index.license})`);
  out(`nepal-places: API v1 at ${api} (description: ${api}/openapi.json); quotas in ${values.redis ? 'redis' : 'memory'}`);
  if (devKey !== undefined) {
    out(`nepal-places: development key (no --tokens given; any origin, ${DEV_QUOTA.requests} requests per ${DEV_QUOTA.windowSeconds} s): ${devKey}`);
    out(`try: curl '${exampleUrl(api, index, devKey)}'`);
  }
  await running.closed;
  out('nepal-places: stopped');
  return EXIT.ok;
}

function shortPath(file: string): string {
  const r = relative(process.cwd(), file);
  return r.startsWith('..') ? file : r;
}

/** A search URL that finds real places in `index`: the first example that has results. */
function exampleUrl(api: string, index: PlaceIndex, key: string): string {
  const hit = EXAMPLES.find((e) => nearby(index, { ...e, limit: 1 }).length > 0) ?? EXAMPLES[0]!;
  return `${api}/search/nearby?type=${hit.type}&lat=${hit.lat}&lon=${hit.lon}&radius=${hit.radius}&limit=3&key=${key}`;
}
