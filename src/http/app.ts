import { Hono } from 'hono';
import { PlaceIndex } from '../index/place-index.js';
import { MAX_LIMIT, MAX_RADIUS } from '../query/limits.js';
import { prepareSearch } from '../query/search.js';
import { prepareTravel } from '../query/isochrone.js';
import { Words } from '../search/words.js';
import { accessLine } from './access-log.js';
import type { Api, AppEnv, NearbyFn } from './api.js';
import { quote } from './http-error.js';
import { Keyring, type Token } from './keys.js';
import { compression } from './middleware/compression.js';
import { errors } from './middleware/errors.js';
import { requestIds, requestLog } from './middleware/request-log.js';
import { nearbyJson } from './nearby-json.js';
import { socketClient, type ClientOf } from './page-key.js';
import { MemoryQuotaStore, type QuotaStore } from './quota.js';
import { Reloadable } from './reloadable.js';
import { refusedAnswer } from './respond.js';
import { directionsRoutes } from './routes/directions.js';
import { matrixRoutes } from './routes/matrix.js';
import { isochroneRoutes } from './routes/isochrone.js';
import { healthRoutes } from './routes/health.js';
import { routeKit } from './routes/kit.js';
import { mapRoutes, type MapOptions } from './routes/map.js';
import { nearbyRoutes } from './routes/nearby.js';
import { openapiRoutes } from './routes/openapi.js';
import { placeRoutes } from './routes/places.js';
import { reverseRoutes } from './routes/reverse.js';
import { searchRoutes } from './routes/search.js';
import { typesRoutes } from './routes/types.js';

export type { AppEnv, NearbyFn } from './api.js';

/** Options of `createApp()`. */
export interface AppOptions {
  /**
   * The loaded places (`loadPbf()`, `fromSnapshot()`), or a `Reloadable` of them to swap in new
   * data while serving: each request answers from the index current when it arrived.
   */
  index: PlaceIndex | Reloadable<PlaceIndex>;
  /** The API keys: an array of tokens, or a `Keyring` to swap keys at run time. Default: none. */
  tokens?: readonly Token[] | Keyring;
  /** Where quota counts live (default: a new `MemoryQuotaStore`). */
  store?: QuotaStore;
  /** Largest `limit` a request may ask for (default 100). */
  maxLimit?: number;
  /** Largest `radius` in km a request may ask for (default 100). */
  maxRadius?: number;
  /** Base path of the routes, ending in `/api/v1` (default `/api/v1`). */
  basePath?: string;
  /** The clock in milliseconds, for timestamps and opening hours (default `Date.now`). */
  now?: () => number;
  /** Receives one access-log line per request and error reports (default: `console.log`). */
  log?: (line: string) => void;
  /** The search to run (default: the core's `nearby`). */
  nearby?: NearbyFn;
  /** The map: vector tiles, styles, fonts and sprites (`src/http/routes/map.ts`). */
  map?: MapOptions;
  /**
   * Who sent a request, for the per-client bounds of a key that has them (`Token.perClient`,
   * the page key's): default `socketClient`, the socket's address and connection under
   * @hono/node-server. Behind a proxy, read its forwarded address here.
   */
  client?: ClientOf;
  /** The data's date for `/health` (`serve`: its file's modification time); default none. */
  dataDate?: () => Date | undefined;
}

/**
 * The app of `createApp()`: a Hono app, plus the envelope and log line for a request that never
 * reached it (refused by the server as malformed HTTP), for `serve()`.
 */
export type ApiApp = Hono<AppEnv> & {
  /** Answers a request refused before routing with an envelope, and logs it once. */
  rejected(status: number, message: string, method?: string, target?: string): Response;
};

/**
 * Builds API v1 over a loaded index as a Hono app (Web-standard `fetch`, Web APIs only, so it
 * runs on Node, Bun, Deno and edge runtimes), to serve with `serve()` or mount in another app
 * (`host.route('/prefix', app)`): its middleware, 404 and errors apply to its own routes only.
 * Routes under `basePath`: `GET /search/nearby`, `GET /places`, `GET /search`, `GET /reverse`
 * (keyed), `GET /openapi.json` and `GET /health` (public). Every response, errors included, is an envelope
 * `{timestamp, status, message, data}`.
 */
export function createApp(options: AppOptions): ApiApp {
  const {
    store = new MemoryQuotaStore(),
    maxLimit = MAX_LIMIT,
    maxRadius = MAX_RADIUS,
    basePath = '/api/v1',
    now = Date.now,
    log = (line: string) => console.log(line),
    nearby = nearbyJson(),
    client = socketClient,
  } = options;
  if (!options.index) throw new TypeError('createApp: index is required');
  const data =
    options.index instanceof Reloadable ? options.index : new Reloadable(options.index, () => Promise.reject(new Error('not reloadable')));
  // what the first searches would build on their way, built before any request waits for it
  // (a stand-in index, or one with a stand-in text index, as tests pass, has nothing to build)
  if (data.current instanceof PlaceIndex && data.current.words instanceof Words) prepareSearch(data.current);
  // and each mode's travel-time search (seconds per mode at national scale, else its first request's)
  if (data.current instanceof PlaceIndex) prepareTravel(data.current);
  for (const [name, n] of [
    ['maxLimit', maxLimit],
    ['maxRadius', maxRadius],
  ] as const) {
    if (!Number.isSafeInteger(n) || n < 1) throw new TypeError(`createApp: ${name} must be a positive integer, got ${n}`);
  }
  if (!/^(\/[^/?#]+)*\/api\/v1$/.test(basePath)) {
    throw new TypeError(`createApp: basePath must start with / and end in /api/v1, got ${quote(basePath)}`);
  }
  const keyring = options.tokens instanceof Keyring ? options.tokens : new Keyring(options.tokens ?? []);
  const newId = requestIds();
  const failures = errors({ log, now, newId, basePath });
  const group = routeKit({
    data,
    keyring,
    store,
    limits: { maxLimit, maxRadius },
    now,
    log,
    nearby,
    client,
    about: { map: options.map?.tiles !== undefined, dataDate: options.dataDate },
    methodNotAllowed: failures.methodNotAllowed,
  });
  const routes = (register: (api: Api) => void) => {
    const api = group();
    register(api);
    return api.app;
  };

  const app = new Hono<AppEnv>().basePath(basePath);
  app.onError(failures.onError);
  app.notFound(failures.notFound);
  // Registered without a path: the base path's `/*`, so a host app's routes never see them.
  app.use(requestLog({ log, now, newId, onError: failures.onError }));
  app.use(compression());
  app.route('/', routes(nearbyRoutes));
  app.route('/', routes(placeRoutes));
  app.route('/', routes(searchRoutes));
  app.route('/', routes(reverseRoutes));
  app.route('/', routes(typesRoutes));
  app.route('/', routes(directionsRoutes));
  app.route('/', routes(matrixRoutes));
  app.route('/', routes(isochroneRoutes));
  app.route(
    '/',
    routes((api) => mapRoutes(api, options.map)),
  );
  app.route('/', routes(openapiRoutes));
  app.route('/', routes(healthRoutes));
  // Registered last: any other path under the base path (404, ours even when mounted).
  app.all('/*', failures.noRoute);

  const rejected = (status: number, message: string, method = '-', target = '-'): Response => {
    const rid = newId();
    log(accessLine({ time: now(), id: rid, method, url: target, status, ms: 0 }));
    return refusedAnswer(now(), rid, status, message);
  };
  return Object.assign(app, { rejected });
}
