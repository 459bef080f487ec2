import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { InvalidQueryError } from '../errors.js';
import { nearby as coreNearby, place, prepareSearch, search as coreSearch, reverse, REVERSE_RADIUS, PlaceIndex } from '../index.js';
import type { NearbyPlace, NearbyQuery } from '../types.js';
import { Words } from '../search/words.js';
import { accessLine } from './access-log.js';
import { envelope, toWire } from './envelope.js';
import { HttpError, quote } from './http-error.js';
import { Keyring, type Grant, type Token } from './keys.js';
import { openApiDocument } from './openapi.js';
import { originAllowed } from './origins.js';
import { parseNearbyParams, parsePlaceParams, parseReverseParams, parseSearchParams } from './params.js';
import { MemoryQuotaStore, type QuotaStore } from './quota.js';

/** The search the app runs: `nearby()` of the core, or a stand-in (e.g. in tests). */
export type NearbyFn = (index: PlaceIndex, query: NearbyQuery) => NearbyPlace[] | Promise<NearbyPlace[]>;

/** Options of `createApp()`. */
export interface AppOptions {
  /** The loaded places (`loadPbf()`). */
  index: PlaceIndex;
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
  /** Receives one access-log line per request and error reports (default: standard output). */
  log?: (line: string) => void;
  /** The search to run (default: the core's `nearby`). */
  nearby?: NearbyFn;
}

/** What the app keeps per request: its id and the hint of its key, for the log. */
export type AppEnv = { Variables: { rid: string; keyHint: string } };
type Env = AppEnv;

const MESSAGE_500 = 'Internal server error';
const ALLOW = 'GET, HEAD, OPTIONS';
const EXPOSE = 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id';

/**
 * Builds API v1 over a loaded index as a Hono app (Web-standard `fetch`), to serve with `serve()`
 * or mount in another app. Routes under `basePath`: `GET /search/nearby`, `GET /places`,
 * `GET /search`, `GET /reverse` (keyed) and `GET /openapi.json` (public).
 * Every response, errors included, is an envelope `{timestamp, status, message, data}`.
 */
export function createApp(options: AppOptions): Hono<Env> {
  const {
    index,
    store = new MemoryQuotaStore(),
    maxLimit = 100,
    maxRadius = 100,
    basePath = '/api/v1',
    now = Date.now,
    log = (line: string) => void process.stdout.write(`${line}\n`),
    nearby = coreNearby,
  } = options;
  if (!index) throw new TypeError('createApp: index is required');
  // what the first searches would build on their way, built before any request waits for it
  // (a stand-in index, or one with a stand-in text index, as tests pass, has nothing to build)
  if (index instanceof PlaceIndex && index.words instanceof Words) prepareSearch(index);
  for (const [name, n] of [['maxLimit', maxLimit], ['maxRadius', maxRadius]] as const) {
    if (!Number.isSafeInteger(n) || n < 1) throw new TypeError(`createApp: ${name} must be a positive integer, got ${n}`);
  }
  if (!/^(\/[^/?#]+)*\/api\/v1$/.test(basePath)) {
    throw new TypeError(`createApp: basePath must start with / and end in /api/v1, got ${quote(basePath)}`);
  }
  const keyring = options.tokens instanceof Keyring ? options.tokens : new Keyring(options.tokens ?? []);
  const limits = { maxLimit, maxRadius };
  const openapi = JSON.stringify(openApiDocument({ basePath, maxLimit, maxRadius }));
  const ridPrefix = randomBytes(3).toString('hex');
  let ridCount = 0;

  const app = new Hono<Env>();

  const reply = (c: Context<Env>, status: number, message: string | undefined, data: unknown[]) => {
    c.header('Cache-Control', 'no-store');
    c.header('X-Content-Type-Options', 'nosniff');
    return c.json(envelope(status, message, data, now()), status as 200);
  };

  app.use(async (c, next) => {
    const start = performance.now();
    const rid = `${ridPrefix}-${(++ridCount).toString(36)}`;
    c.set('rid', rid);
    c.header('X-Request-Id', rid);
    try {
      await next();
    } catch (err) {
      // Hono hands handler errors to onError itself; this catches whatever escapes it, so that
      // every request still gets its envelope and its log line.
      c.res = fail(err, c);
    }
    log(accessLine(now(), rid, c.req.method, c.req.url, c.res.status, performance.now() - start, c.get('keyHint')));
  });

  // An HttpError answers with its status; anything else is a fault: the body says only that it
  // failed, the log line with the request id says why.
  const fail = (err: unknown, c: Context<Env>) => {
    if (err instanceof HttpError) {
      for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
      return reply(c, err.status, err.message, []);
    }
    log(`${c.get('rid')} error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return reply(c, 500, MESSAGE_500, []);
  };
  app.onError(fail);
  // Returned, not thrown: Hono runs the not-found handler outside the middleware's error handling.
  app.notFound((c) =>
    fail(new HttpError(404, `Not found: no route ${quote(new URL(c.req.url).pathname, 80)}; the API is under ${basePath} (see ${basePath}/openapi.json)`), c),
  );

  // The key (401), then its origins (403); sets the CORS headers once the origin passed.
  const admit = (c: Context<Env>, search: URLSearchParams): Grant => {
    const grant = keyring.verify(search.getAll('key'));
    c.set('keyHint', grant.hint);
    const origin = c.req.header('Origin');
    c.header('Vary', 'Origin');
    if (!originAllowed(grant.origins, origin)) {
      throw new HttpError(403, `Origin: ${quote(origin ?? '')} is not allowed for this key`);
    }
    if (origin !== undefined) {
      c.header('Access-Control-Allow-Origin', origin);
      c.header('Access-Control-Expose-Headers', EXPOSE);
    }
    return grant;
  };

  // A keyed route: key (401), origin (403), quota (429), then `answer` (which may throw a 400);
  // its records go into a 200 envelope. The search routes of API v1 are all of this shape.
  const keyed = (path: string, answer: (search: URLSearchParams) => Promise<unknown[]>) => {
    app.get(path, async (c) => {
      const search = queryOf(c.req.url);
      const grant = admit(c, search);
      const { requests, windowSeconds } = grant.quota;
      const q = await store.hit(grant.id, windowSeconds, requests);
      c.header('RateLimit-Limit', String(requests));
      c.header('RateLimit-Remaining', String(q.remaining));
      c.header('RateLimit-Reset', String(q.resetSeconds));
      if (!q.allowed) {
        throw new HttpError(429, `key: quota of ${requests} requests per ${windowSeconds} s used up; retry in ${q.resetSeconds} s`, {
          'Retry-After': String(q.resetSeconds),
        });
      }
      return reply(c, 200, undefined, await answer(search));
    });
    // A preflight passes the key and origin checks but is not counted: the browser sends it on its own.
    app.options(path, (c) => {
      if (!isPreflight(c)) return plainOptions(c, reply);
      admit(c, queryOf(c.req.url));
      return preflight(c, reply);
    });
    routes.push(path);
  };
  const routes: string[] = [];

  keyed(`${basePath}/search/nearby`, async (search) => {
    const query = parseNearbyParams(search, limits);
    query.at = new Date(now());
    let places: NearbyPlace[];
    try {
      places = await nearby(index, query);
    } catch (err) {
      if (err instanceof InvalidQueryError) throw new HttpError(400, err.message);
      throw err;
    }
    return places.map(toWire);
  });

  // The core's InvalidQueryError is a bad request; anything else it throws is a fault.
  const core = <T>(run: () => T): T => {
    try {
      return run();
    } catch (err) {
      if (err instanceof InvalidQueryError) throw new HttpError(400, err.message);
      throw err;
    }
  };

  keyed(`${basePath}/places`, async (search) => {
    const id = parsePlaceParams(search);
    const found = core(() => place(index, id, { at: new Date(now()) }));
    if (!found) throw new HttpError(404, `Not found: no place with placeId ${id}`);
    return [found];
  });

  keyed(`${basePath}/search`, async (search) => core(() => coreSearch(index, parseSearchParams(search, limits))));

  keyed(`${basePath}/reverse`, async (search) => {
    const query = parseReverseParams(search, limits);
    query.at = new Date(now());
    const found = core(() => reverse(index, query));
    if (!found.length) throw new HttpError(404, `Not found: no place within ${query.radius ?? REVERSE_RADIUS} km of ${query.lat}, ${query.lon}`);
    return found;
  });

  const openapiPath = `${basePath}/openapi.json`;
  app.get(openapiPath, (c) => {
    c.header('Access-Control-Allow-Origin', '*');
    c.header('Content-Type', 'application/json');
    c.header('Cache-Control', 'public, max-age=300');
    return c.body(openapi, 200);
  });
  app.options(openapiPath, (c) => {
    if (!isPreflight(c)) return plainOptions(c, reply);
    c.header('Access-Control-Allow-Origin', '*');
    return preflight(c, reply);
  });
  routes.push(openapiPath);

  // Registered last, so they only catch the methods no route above answers.
  for (const path of routes) {
    app.all(path, (c) => {
      throw new HttpError(405, `Method not allowed: ${quote(c.req.method)} on ${path}; allowed: ${ALLOW}`, { Allow: ALLOW });
    });
  }
  return app;
}

/** The query string of a request URL, parsed as browsers and `URLSearchParams` do; never throws. */
function queryOf(url: string): URLSearchParams {
  const i = url.indexOf('?');
  return new URLSearchParams(i < 0 ? '' : url.slice(i + 1));
}

type Reply = (c: Context<Env>, status: number, message: string | undefined, data: unknown[]) => Response;

function isPreflight(c: Context<Env>): boolean {
  return c.req.header('Origin') !== undefined && c.req.header('Access-Control-Request-Method') !== undefined;
}

// A plain OPTIONS (not a CORS preflight): says which methods the path has.
function plainOptions(c: Context<Env>, reply: Reply): Response {
  c.header('Allow', ALLOW);
  return reply(c, 200, undefined, []);
}

// A CORS preflight the origin passed: the route only answers GET (and HEAD), without credentials.
function preflight(c: Context<Env>, reply: Reply): Response {
  const method = c.req.header('Access-Control-Request-Method')!;
  if (method !== 'GET' && method !== 'HEAD') {
    throw new HttpError(405, `Access-Control-Request-Method: ${quote(method)} is not allowed; allowed: GET, HEAD`, { Allow: ALLOW });
  }
  c.header('Access-Control-Allow-Methods', 'GET, HEAD');
  const headers = c.req.header('Access-Control-Request-Headers');
  if (headers) c.header('Access-Control-Allow-Headers', headers);
  c.header('Access-Control-Max-Age', '600');
  c.header('Allow', ALLOW);
  return reply(c, 200, undefined, []);
}
