/**
 * `nepal-places serve`: API v1 over HTTP.
 *
 *   nepal-places serve [--data FILE] [--strict] [--tiles FILE.pmtiles] [--public-url URL] [--port 8080] [--host 127.0.0.1] [--tokens FILE] [--redis URL] [--workers N]
 *
 * `--data` (or its older name `--pbf`) is a PBF or a snapshot, told apart by its first
 * bytes; without it, the bundled Kathmandu fixture.
 * Without --tokens it makes a development key and prints it with a ready-to-paste curl.
 * SIGTERM (or Ctrl-C) stops it gracefully and it exits 0. SIGHUP reloads --data: requests in
 * flight finish on the old index; a file that fails to load keeps the old one (and says why).
 * The new file is loaded on a thread of its own (see `loadOffThread`), so requests go on meanwhile;
 * a load that takes over RELOAD_TIMEOUT_MS is given up, and a shutdown stops the one in progress.
 * `--workers N` runs N processes on the port (node:cluster, see ./cluster.ts), sharing --redis.
 * The web app (src/web/, built into dist/app/) is at `/`, with a page key minted at start (see
 * `pageToken()` in src/http/web-app.ts); `--no-app` leaves it out.
 */
import cluster from 'node:cluster';
import { relative } from 'node:path';
import type { PlaceIndex } from '../index/place-index.js';
import { nearby } from '../query/nearby.js';
import { createApp } from '../http/app.js';
import { TileArchive, TileArchiveError } from '../map/archive.js';
import { fileAssets, FIXTURE_TILES, withShapedGlyphs } from '../map/assets.js';
import { generateKey, Keyring, TokenError, type Token } from '../http/keys.js';
import { loadTokens } from '../http/tokens-file.js';
import { MemoryQuotaStore, type QuotaStore } from '../http/quota.js';
import { Reloadable } from '../http/reloadable.js';
import { serve, type Fetcher } from '../http/server.js';
import { PAGE_QUOTA, pageToken, WebAppError, withWebApp } from '../http/web-app.js';
import { runPrimary, workerReady, workerStart } from './cluster.js';
import { batchedLines } from './lines.js';
import { Reloads } from './reload.js';
import { EXIT, Failure, guard, parseCommand, UsageError } from './args.js';
import { besidePath, fileDate, tilesBeside } from './beside.js';
import { DATA_HELP, DATA_OPTIONS, dataFile, loadOffThread, openData } from './data.js';

const USAGE =
  'usage: nepal-places serve [--data FILE] [--strict] [--tiles FILE.pmtiles] [--public-url URL] [--port 8080] [--host 127.0.0.1] [--tokens FILE] [--redis URL] [--workers N] [--app-quota N/SECONDS] [--no-app]';

const HELP = `${USAGE}

Serves the API v1 over HTTP until SIGTERM or Ctrl-C.

${DATA_HELP}
  --tiles FILE    the vector tiles (a PMTiles archive, nepal-places tiles) for the map
                  styles at /api/v1/styles/{breeze,dark}; default: the archive beside
                  --data of its name (nepal.places: nepal.pmtiles), if any; else they answer 404
  --public-url URL  the server's URL as clients reach it (e.g. behind a proxy), which the
                  styles' tile, font and sprite URLs start with (default: the request's)
  --port N        default 8080; 0 picks a free port
  --host ADDR     default 127.0.0.1
  --tokens FILE   the API keys (JSON); without it, a development key is made and printed
  --redis URL     count quotas in Redis (redis://host:port), shared between instances
  --workers N     N server processes on the one port (node:cluster); N > 1 needs --redis,
                  so that they share the quotas (default 1)
  --app-quota N/SECONDS  the quota of the web app's page key, shared by all its visitors
                  (default ${PAGE_QUOTA.requests}/${PAGE_QUOTA.windowSeconds})
  --no-app        no web app at / (and no page key)

  -h, --help      this help

SIGHUP reloads --data: requests in flight finish on the old data, a file that
fails to load keeps the old data serving. The file is loaded on a thread of its
own while requests go on; a reload is given up after 5 minutes, and SIGTERM stops
one in progress. Only regular files are read (not pipes or devices).

Exit codes: 0 stopped by SIGTERM or Ctrl-C, 1 the data, the tokens, Redis or the port
failed, 2 bad usage.`;

/**
 * How long a reload may take before it is given up (and its thread terminated): a Nepal-scale PBF
 * loads in well under a minute, a snapshot in seconds; a file that never ends fails at this.
 */
export const RELOAD_TIMEOUT_MS = 5 * 60_000;

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

// Standard output (banner, access log) in batches, one write per 25 ms at most (see lines.ts):
// a line shows at most that late; the batch is written on exit and before a shutdown's end.
const stdout = batchedLines((text) => void process.stdout.write(text), 25);
const out = stdout.line;
const fail = (line: string) => void process.stderr.write(`nepal-places serve: ${line}\n`);

/** Runs the subcommand; resolves with the exit code once the server has stopped. */
export async function run(argv: string[]): Promise<number> {
  // Before anything slow: SIGHUP's default action would end the process.
  const who = cluster.isWorker ? `worker ${process.pid}: ` : '';
  const reloads = new Reloads(out, (line) => fail(line), who);
  process.on('SIGHUP', reloads.signal);
  try {
    return await guard('serve', () => serveIn(argv, reloads));
  } finally {
    process.off('SIGHUP', reloads.signal);
    reloads.stop();
    // a worker's channel to the primary would keep it alive after its server has stopped
    if (cluster.isWorker && process.connected) process.disconnect();
  }
}

async function serveIn(argv: string[], reloads: Reloads): Promise<number> {
  const { values: v } = parseCommand(argv, {
    ...DATA_OPTIONS,
    port: { type: 'string' },
    host: { type: 'string' },
    tokens: { type: 'string' },
    redis: { type: 'string' },
    workers: { type: 'string' },
    tiles: { type: 'string' },
    'public-url': { type: 'string' },
    'app-quota': { type: 'string' },
    'no-app': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  const values = v as {
    data?: string;
    pbf?: string;
    strict?: boolean;
    port?: string;
    host?: string;
    tokens?: string;
    redis?: string;
    workers?: string;
    tiles?: string;
    'public-url'?: string;
    'app-quota'?: string;
    'no-app'?: boolean;
    help?: boolean;
  };
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
  if (values.tiles === '') throw new UsageError('--tiles must name a file');
  const publicUrl = values['public-url'];
  if (publicUrl !== undefined && !/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(publicUrl)) {
    throw new UsageError(`--public-url must be an http(s) URL without query, such as https://maps.example.com, got '${publicUrl}'`);
  }
  const app = values['no-app'] !== true;
  const appQuota = parseQuota(values['app-quota']);
  if (!app && values['app-quota'] !== undefined) throw new UsageError("--app-quota is the web app's: it cannot go with --no-app");
  const workers = values.workers ?? '1';
  if (!/^\d{1,3}$/.test(workers) || Number(workers) < 1 || Number(workers) > 256) {
    throw new UsageError(`--workers must be a whole number from 1 to 256, got '${workers}'`);
  }
  if (Number(workers) > 1 && values.redis === undefined) {
    throw new UsageError(`--workers ${workers} needs --redis URL: each worker would otherwise count quotas on its own`);
  }
  if (Number(workers) > 1 && cluster.isPrimary) {
    // The primary checks the tokens file (once, not once per worker) and makes the development key.
    let devKey: string | undefined;
    try {
      if (values.tokens !== undefined) await loadTokens(values.tokens);
      else devKey = generateKey();
    } catch (err) {
      // a tokens file that cannot be read or is not valid is bad data, like a bad data file
      if (err instanceof TokenError) throw new Failure(err.message);
      throw err;
    }
    process.off('SIGHUP', reloads.signal); // the primary passes it on to its workers
    // one page key for the port, whichever worker serves the page and its requests
    return runPrimary({ workers: Number(workers), devKey, appKey: app ? generateKey() : undefined, out, fail });
  }
  const started = await workerStart();

  let tokens: Token[];
  let devKey: string | undefined;
  try {
    if (values.tokens !== undefined) tokens = await loadTokens(values.tokens);
    else tokens = [{ key: (devKey = started?.devKey ?? generateKey()), allowedOrigins: '*', quota: DEV_QUOTA }];
  } catch (err) {
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

  // Before the data, which takes longer to load: a bad archive is told at once.
  let tiles: TileArchive | undefined;
  if (values.tiles !== undefined) {
    try {
      tiles = await TileArchive.open(values.tiles);
    } catch (err) {
      await store.close?.();
      if (err instanceof TileArchiveError) throw new Failure(err.message);
      throw err;
    }
  } else tiles = await tilesBeside(file, (values.data ?? values.pbf) !== undefined, fail); // built by build --tiles
  // the glyphs of the archive's shaped Nepali labels, drawn by the server (src/map/shape.ts)
  const { assets, problem: unshaped } = await withShapedGlyphs(fileAssets(), tiles?.metadata);
  if (unshaped !== undefined) fail(`warning: ${unshaped}`);
  const appKey = app ? (started?.appKey ?? generateKey()) : undefined;

  let index: PlaceIndex;
  const strict = values.strict === true;
  try {
    index = await openData('serve', file, { strict, contract: 'always' });
  } catch (err) {
    await Promise.all([store.close?.(), tiles?.close()]);
    throw err;
  }

  const data = new Reloadable(index, (signal) => loadOffThread('serve', file, { strict, contract: 'always', signal }), {
    timeoutMs: RELOAD_TIMEOUT_MS,
  });
  reloads.add({ flag: '--data', file: shortPath(file), source: data, describe: (i) => `${i.size} places` });
  // The page key joins the keys once the server's own origin is known (after listen, for --port 0).
  const keyring = new Keyring(tokens);
  const api = createApp({
    index: data,
    tokens: keyring,
    store,
    log: out,
    map: { tiles, assets, publicUrl },
    dataDate: () => fileDate(file),
  });
  let site: Fetcher = api;
  let noApp = app ? '' : 'nepal-places: no web app (--no-app)';
  if (appKey !== undefined) {
    try {
      site = await withWebApp(api, { key: appKey, log: out, connect: publicUrl ? [new URL(publicUrl).origin] : [] });
    } catch (err) {
      if (!(err instanceof WebAppError)) throw err;
      noApp = `nepal-places: no web app at /: ${err.message}`;
    }
  }
  let running;
  try {
    running = await serve(site, {
      port: Number(port),
      host,
      onClose: async (msLeft) => {
        reloads.stop(); // a load in progress would be of no use
        await Promise.all([store.close?.(Math.min(msLeft, 1000)), tiles?.close()]);
      },
    });
  } catch (err) {
    await Promise.all([store.close?.(), tiles?.close()]);
    throw new Failure(`cannot listen on ${host}:${port}: ${(err as Error).message}`);
  }

  if (site !== api)
    keyring.replace([...tokens, pageToken(appKey!, [running.origin, ...(publicUrl ? [new URL(publicUrl).origin] : [])], appQuota)]);
  const base = `${running.origin}/api/v1`;
  const banner = [
    `nepal-places: ${index.size} places from ${shortPath(file)} (${index.license})`,
    `nepal-places: API v1 at ${base} (description: ${base}/openapi.json, health: ${base}/health); quotas in ${values.redis ? 'redis' : 'memory'}`,
    tiles
      ? `nepal-places: map tiles z${tiles.header.minZoom}–${tiles.header.maxZoom} from ${shortPath(tiles.file)}; styles at ${base}/styles/breeze and ${base}/styles/dark`
      : `nepal-places: no map tiles (no --tiles, no ${shortPath((values.data ?? values.pbf) ? besidePath(file) : FIXTURE_TILES)}): the styles answer 404, the web app shows places without a map; make them from the PBF with nepal-places tiles IN.osm.pbf -o ${shortPath(besidePath(file))}`,
  ];
  banner.push(
    noApp ||
      `nepal-places: the map at ${publicUrl?.replace(/\/+$/, '') ?? running.origin}/ (the web app; its page key: this origin only, ${appQuota.requests} requests per ${appQuota.windowSeconds} s shared by its visitors)`,
  );
  if (!assets) banner.push('nepal-places: the map fonts and sprites are not built (npm run assets): they answer 404');
  if (devKey !== undefined) {
    banner.push(
      `nepal-places: development key (no --tokens given; any origin, ${DEV_QUOTA.requests} requests per ${DEV_QUOTA.windowSeconds} s): ${devKey}`,
    );
    banner.push(`try: curl '${exampleUrl(base, index, devKey)}'`);
  }
  if (started) {
    // A worker: the primary prints the banner once; a lost primary stops the worker.
    workerReady(banner, running);
    process.once('disconnect', () => void running.close());
    await running.closed;
    return EXIT.ok;
  }
  for (const line of banner) out(line);
  stdout.flush(); // ready: said at once
  await running.closed;
  out('nepal-places: stopped');
  return EXIT.ok;
}

/** `--app-quota REQUESTS/SECONDS`, or the default. */
function parseQuota(text: string | undefined): { requests: number; windowSeconds: number } {
  if (text === undefined) return PAGE_QUOTA;
  const m = /^(\d{1,9})\/(\d{1,7})$/.exec(text);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) {
    throw new UsageError(`--app-quota must be REQUESTS/SECONDS with positive whole numbers, such as 6000/60, got '${text}'`);
  }
  return { requests: Number(m[1]), windowSeconds: Number(m[2]) };
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
