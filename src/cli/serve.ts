/**
 * `nepal-places serve`: API v1 over HTTP.
 *
 *   nepal-places serve [--data FILE] [--tiles FILE.pmtiles] [--public-url URL] [--port 8080] [--host 127.0.0.1] [--tokens FILE] [--redis URL] [--workers N]
 *
 * `--data` (or its older name `--pbf`) is a PBF or a snapshot, told apart by its first
 * bytes; without it, the bundled Kathmandu fixture.
 * Without --tokens it makes a development key and prints it with a ready-to-paste curl.
 * SIGTERM (or Ctrl-C) stops it gracefully and it exits 0. SIGHUP reloads --data: requests in
 * flight finish on the old index; a file that fails to load keeps the old one (and says why).
 * `--workers N` runs N processes on the port (node:cluster, see ./cluster.ts), sharing --redis.
 */
import cluster from 'node:cluster';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_PBF } from '../data.js';
import { PbfError, SnapshotError } from '../errors.js';
import type { PlaceIndex } from '../index/place-index.js';
import { loadFile } from '../load/file.js';
import { nearby } from '../query/nearby.js';
import { createApp } from '../http/app.js';
import { TileArchive, TileArchiveError } from '../map/archive.js';
import { fileAssets, FIXTURE_TILES } from '../map/assets.js';
import { generateKey, TokenError, type Token } from '../http/keys.js';
import { loadTokens } from '../http/tokens-file.js';
import { MemoryQuotaStore, type QuotaStore } from '../http/quota.js';
import { Reloadable } from '../http/reloadable.js';
import { serve } from '../http/server.js';
import { runPrimary, workerReady, workerStart } from './cluster.js';
import { Reloads } from './reload.js';

const USAGE = 'usage: nepal-places serve [--data FILE] [--tiles FILE.pmtiles] [--public-url URL] [--port 8080] [--host 127.0.0.1] [--tokens FILE] [--redis URL] [--workers N]';

const HELP = `${USAGE}

Serves the API v1 over HTTP until SIGTERM or Ctrl-C.

  --data FILE     an OSM PBF or a snapshot (nepal-places build), told apart by its first
                  bytes; --pbf FILE is the same (default: the bundled Kathmandu fixture)
  --tiles FILE    the vector tiles (a PMTiles archive, nepal-places tiles) for the map
                  styles at /api/v1/styles/{breeze,dark}; without it they answer 404
  --public-url URL  the server's URL as clients reach it (e.g. behind a proxy), which the
                  styles' tile, font and sprite URLs start with (default: the request's)
  --port N        default 8080; 0 picks a free port
  --host ADDR     default 127.0.0.1
  --tokens FILE   the API keys (JSON); without it, a development key is made and printed
  --redis URL     count quotas in Redis (redis://host:port), shared between instances
  --workers N     N server processes on the one port (node:cluster); N > 1 needs --redis,
                  so that they share the quotas (default 1)

SIGHUP reloads --data: requests in flight finish on the old data, a file that
fails to load keeps the old data serving.
  -h, --help      this help`;

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
export async function run(argv: string[]): Promise<number> {
  // Before anything slow: SIGHUP's default action would end the process.
  const who = cluster.isWorker ? `worker ${process.pid}: ` : '';
  const reloads = new Reloads(out, (line) => fail(line), who);
  process.on('SIGHUP', reloads.signal);
  try {
    return await serveIn(argv, reloads);
  } finally {
    process.off('SIGHUP', reloads.signal);
    // a worker's channel to the primary would keep it alive after its server has stopped
    if (cluster.isWorker && process.connected) process.disconnect();
  }
}

async function serveIn(argv: string[], reloads: Reloads): Promise<number> {
  let values: {
    data?: string; pbf?: string; tiles?: string; 'public-url'?: string; port?: string; host?: string; tokens?: string; redis?: string;
    workers?: string; help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        data: { type: 'string' },
        pbf: { type: 'string' },
        tiles: { type: 'string' },
        'public-url': { type: 'string' },
        port: { type: 'string' },
        host: { type: 'string' },
        tokens: { type: 'string' },
        redis: { type: 'string' },
        workers: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    // parseArgs explains at length; the first sentence is the one line we want.
    fail(`${(err as Error).message.split('. ')[0]!.replace(/\.$/, '')}; ${USAGE}`);
    return 2;
  }
  if (values.help) {
    out(HELP);
    return 0;
  }
  if (values.data !== undefined && values.pbf !== undefined) {
    fail('--pbf is another name for --data: give one of them');
    return 2;
  }
  const port = values.port ?? '8080';
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) {
    fail(`--port must be an integer from 0 to 65535, got '${port}'`);
    return 2;
  }
  const host = values.host ?? '127.0.0.1';
  if (host === '') {
    fail('--host must not be empty');
    return 2;
  }
  if (values.redis !== undefined && !/^rediss?:\/\/[^\s]+$/.test(values.redis)) {
    fail(`--redis must be a URL such as redis://127.0.0.1:6379, got '${values.redis}'`);
    return 2;
  }
  const publicUrl = values['public-url'];
  if (publicUrl !== undefined && !/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(publicUrl)) {
    fail(`--public-url must be an http(s) URL without query, such as https://maps.example.com, got '${publicUrl}'`);
    return 2;
  }
  for (const name of ['data', 'pbf', 'tokens', 'tiles'] as const) {
    if (values[name] === '') {
      fail(`--${name} must name a file`);
      return 2;
    }
  }
  const workers = values.workers ?? '1';
  if (!/^\d{1,3}$/.test(workers) || Number(workers) < 1 || Number(workers) > 256) {
    fail(`--workers must be a whole number from 1 to 256, got '${workers}'`);
    return 2;
  }
  if (Number(workers) > 1 && values.redis === undefined) {
    fail(`--workers ${workers} needs --redis URL: each worker would otherwise count quotas on its own`);
    return 2;
  }
  if (Number(workers) > 1 && cluster.isPrimary) {
    // The primary checks the tokens file (once, not once per worker) and makes the development key.
    let devKey: string | undefined;
    try {
      if (values.tokens !== undefined) await loadTokens(values.tokens);
      else devKey = generateKey();
    } catch (err) {
      if (!(err instanceof TokenError)) throw err;
      fail(err.message);
      return 2;
    }
    process.off('SIGHUP', reloads.signal); // the primary passes it on to its workers
    return runPrimary({ workers: Number(workers), devKey, out, fail });
  }
  const started = await workerStart();

  let tokens: Token[];
  let devKey: string | undefined;
  try {
    if (values.tokens !== undefined) tokens = await loadTokens(values.tokens);
    else tokens = [{ key: (devKey = started?.devKey ?? generateKey()), allowedOrigins: '*', quota: DEV_QUOTA }];
  } catch (err) {
    if (!(err instanceof TokenError)) throw err;
    fail(err.message);
    return 2;
  }

  let store: QuotaStore;
  if (values.redis !== undefined) {
    const { RedisQuotaStore } = await import('../http/redis-quota.js');
    try {
      store = await RedisQuotaStore.connect(values.redis, { onError: (err) => fail(`redis: ${err.message}`) });
    } catch (err) {
      fail(`cannot connect to redis at ${values.redis}: ${(err as Error).message}`);
      return 1;
    }
  } else store = new MemoryQuotaStore();

  // Before the data, which takes longer to load: a bad archive is told at once.
  let tiles: TileArchive | undefined;
  if (values.tiles !== undefined) {
    try {
      tiles = await TileArchive.open(values.tiles);
    } catch (err) {
      await store.close?.();
      if (!(err instanceof TileArchiveError)) throw err;
      fail(err.message);
      return 2;
    }
  }
  const assets = fileAssets();

  let index: PlaceIndex;
  const file = values.data ?? values.pbf ?? DEFAULT_PBF;
  try {
    index = await loadFile(file);
  } catch (err) {
    await Promise.all([store.close?.(), tiles?.close()]);
    // A bad data file is a bad argument, as for `nearby`.
    if (!(err instanceof PbfError || err instanceof SnapshotError)) throw err;
    fail(err.message);
    return 2;
  }

  const data = new Reloadable(index, () => loadFile(file));
  reloads.add({ flag: '--data', file: shortPath(file), source: data, describe: (i) => `${i.size} places` });
  const app = createApp({ index: data, tokens, store, log: out, map: { tiles, assets, publicUrl } });
  let running;
  try {
    running = await serve(app, {
      port: Number(port),
      host,
      onClose: async (msLeft) => void (await Promise.all([store.close?.(Math.min(msLeft, 1000)), tiles?.close()])),
    });
  } catch (err) {
    await Promise.all([store.close?.(), tiles?.close()]);
    fail(`cannot listen on ${host}:${port}: ${(err as Error).message}`);
    return 1;
  }

  const api = `${running.origin}/api/v1`;
  const banner = [
    `nepal-places: ${index.size} places from ${shortPath(file)} (${index.license})`,
    `nepal-places: API v1 at ${api} (description: ${api}/openapi.json, health: ${api}/health); quotas in ${values.redis ? 'redis' : 'memory'}`,
    tiles
      ? `nepal-places: map tiles z${tiles.header.minZoom}–${tiles.header.maxZoom} from ${shortPath(tiles.file)}; styles at ${api}/styles/breeze and ${api}/styles/dark`
      : `nepal-places: no --tiles: the map styles and tiles answer 404${values.data ?? values.pbf ? '' : ` (the fixture's map: --tiles ${shortPath(FIXTURE_TILES)})`}`,
  ];
  if (!assets) banner.push('nepal-places: the map fonts and sprites are not built (npm run assets): they answer 404');
  if (devKey !== undefined) {
    banner.push(`nepal-places: development key (no --tokens given; any origin, ${DEV_QUOTA.requests} requests per ${DEV_QUOTA.windowSeconds} s): ${devKey}`);
    banner.push(`try: curl '${exampleUrl(api, index, devKey)}'`);
  }
  if (started) {
    // A worker: the primary prints the banner once; a lost primary stops the worker.
    workerReady(banner);
    process.once('disconnect', () => void running.close());
    await running.closed;
    return 0;
  }
  for (const line of banner) out(line);
  await running.closed;
  out('nepal-places: stopped');
  return 0;
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
