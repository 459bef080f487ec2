/**
 * `nepal-places serve`: API v1 over HTTP.
 *
 *   nepal-places serve [--data FILE] [--tiles FILE.pmtiles] [--public-url URL] [--port 8080] [--host 127.0.0.1] [--tokens FILE] [--redis URL]
 *
 * `--data` (or its older name `--pbf`) is a PBF or a snapshot, told apart by its first
 * bytes; without it, the bundled Kathmandu fixture.
 * Without --tokens it makes a development key and prints it with a ready-to-paste curl.
 * SIGTERM (or Ctrl-C) stops it gracefully and it exits 0.
 */
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_PBF } from '../data.js';
import { PbfError, SnapshotError } from '../errors.js';
import type { PlaceIndex } from '../index/place-index.js';
import { loadFile } from '../load/file.js';
import { nearby } from '../query/nearby.js';
import { createApp } from '../http/app.js';
import { TileArchive, TileArchiveError } from '../map/archive.js';
import { generateKey, loadTokens, TokenError, type Token } from '../http/keys.js';
import { MemoryQuotaStore, type QuotaStore } from '../http/quota.js';
import { serve } from '../http/server.js';

const USAGE = 'usage: nepal-places serve [--data FILE] [--tiles FILE.pmtiles] [--public-url URL] [--port 8080] [--host 127.0.0.1] [--tokens FILE] [--redis URL]';

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
  let values: {
    data?: string; pbf?: string; tiles?: string; 'public-url'?: string; port?: string; host?: string; tokens?: string; redis?: string; help?: boolean;
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

  let tokens: Token[];
  let devKey: string | undefined;
  try {
    if (values.tokens !== undefined) tokens = await loadTokens(values.tokens);
    else tokens = [{ key: (devKey = generateKey()), allowedOrigins: '*', quota: DEV_QUOTA }];
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

  const app = createApp({ index, tokens, store, log: out, map: { tiles, publicUrl } });
  let running;
  try {
    running = await serve(app, { port: Number(port), host, onClose: async () => void (await Promise.all([store.close?.(), tiles?.close()])) });
  } catch (err) {
    await Promise.all([store.close?.(), tiles?.close()]);
    fail(`cannot listen on ${host}:${port}: ${(err as Error).message}`);
    return 1;
  }

  const api = `${running.origin}/api/v1`;
  out(`nepal-places: ${index.size} places from ${shortPath(file)} (${index.license})`);
  out(`nepal-places: API v1 at ${api} (description: ${api}/openapi.json); quotas in ${values.redis ? 'redis' : 'memory'}`);
  if (tiles) {
    const { minZoom, maxZoom } = tiles.header;
    out(`nepal-places: map tiles z${minZoom}–${maxZoom} from ${shortPath(tiles.file)}; styles at ${api}/styles/breeze and ${api}/styles/dark`);
  } else out('nepal-places: no --tiles: the map styles and tiles answer 404');
  if (devKey !== undefined) {
    out(`nepal-places: development key (no --tokens given; any origin, ${DEV_QUOTA.requests} requests per ${DEV_QUOTA.windowSeconds} s): ${devKey}`);
    out(`try: curl '${exampleUrl(api, index, devKey)}'`);
  }
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
