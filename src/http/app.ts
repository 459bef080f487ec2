import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { compress } from 'hono/compress';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import { PlaceIndex } from '../index/place-index.js';
import { prepareSearch } from '../query/search.js';
import type { GeoRecord } from '../query/geojson.js';
import { nearby as coreNearby } from '../query/nearby.js';
import { Words } from '../search/words.js';
import { accessLine } from './access-log.js';
import type { Answer, Api, AppEnv, KeyedOptions, NearbyFn } from './api.js';
import { envelope } from './envelope.js';
import { GEOJSON, geoJsonBody } from './geojson.js';
import { HttpError, quote } from './http-error.js';
import { Keyring, type Grant, type Token } from './keys.js';
import { originAllowed } from './origins.js';
import { clientBucket, ConnectionCounts, foreignPage, socketClient, type ClientOf } from './page-key.js';
import { parseFormat } from './params.js';
import { queryOf, type Search } from './query.js';
import { NearbyAnswer, type Body } from './nearby-json.js';
import { CUT, type Outgoing } from './cut.js';
import { MemoryQuotaStore, QuotaUnavailableError, type QuotaResult, type QuotaStore } from './quota.js';
import { directionsRoutes } from './routes/directions.js';
import { Reloadable } from './reloadable.js';
import { healthRoutes } from './routes/health.js';
import { mapRoutes, type MapOptions } from './routes/map.js';
import { nearbyRoutes } from './routes/nearby.js';
import { openapiRoutes } from './routes/openapi.js';
import { placeRoutes } from './routes/places.js';
import { reverseRoutes } from './routes/reverse.js';
import { searchRoutes } from './routes/search.js';

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

/** The route groups of API v1, each registering its routes (see `src/http/routes/`). */
const ROUTES: ((api: Api) => void)[] = [nearbyRoutes, placeRoutes, searchRoutes, reverseRoutes, directionsRoutes, openapiRoutes, healthRoutes];

const MESSAGE_500 = 'Internal server error';
const ALLOW = 'GET, HEAD, OPTIONS';
const EXPOSE = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'X-Request-Id'];
// Hono's compress() compresses what it cannot measure; a short envelope says its length instead.
const COMPRESS_MIN = 1024;
// An X-Request-Id a request may bring (Hono's requestId() rule, at most 64 long).
const RID = /^[\w\-=]{1,64}$/;
const encoder = new TextEncoder();

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
    maxLimit = 100,
    maxRadius = 100,
    basePath = '/api/v1',
    now = Date.now,
    log = (line: string) => console.log(line),
    nearby = coreNearby,
    client = socketClient,
  } = options;
  if (!options.index) throw new TypeError('createApp: index is required');
  const data = options.index instanceof Reloadable ? options.index : new Reloadable(options.index, () => Promise.reject(new Error('not reloadable')));
  // what the first searches would build on their way, built before any request waits for it
  // (a stand-in index, or one with a stand-in text index, as tests pass, has nothing to build)
  if (data.current instanceof PlaceIndex && data.current.words instanceof Words) prepareSearch(data.current);
  for (const [name, n] of [['maxLimit', maxLimit], ['maxRadius', maxRadius]] as const) {
    if (!Number.isSafeInteger(n) || n < 1) throw new TypeError(`createApp: ${name} must be a positive integer, got ${n}`);
  }
  if (!/^(\/[^/?#]+)*\/api\/v1$/.test(basePath)) {
    throw new TypeError(`createApp: basePath must start with / and end in /api/v1, got ${quote(basePath)}`);
  }
  const keyring = options.tokens instanceof Keyring ? options.tokens : new Keyring(options.tokens ?? []);
  const ridPrefix = Array.from(crypto.getRandomValues(new Uint8Array(3)), (b) => b.toString(16).padStart(2, '0')).join('');
  let ridCount = 0;
  const newRid = () => `${ridPrefix}-${(++ridCount).toString(36)}`;

  const app = new Hono<AppEnv>().basePath(basePath);

  const reply = (c: Context<AppEnv>, status: number, message: string | undefined, data: unknown[]) => {
    const text = JSON.stringify(envelope(status, message, data, now()));
    flushSaid(c);
    c.header('Content-Type', 'application/json');
    c.header('Cache-Control', 'no-store');
    c.header('X-Content-Type-Options', 'nosniff');
    // UTF-8 is at least as long as UTF-16 code units: a long text needs no measuring to be compressed.
    if (text.length < COMPRESS_MIN) c.header('Content-Length', String(encoder.encode(text).length));
    else compressible(c);
    return c.body(text, status as 200);
  };

  // A 200 envelope already written as UTF-8 (`NearbyAnswer`), with the same headers as `reply`'s,
  // in a plain object: @hono/node-server writes those as they are, where a `Headers` (what
  // `c.body()` makes of more than one header) is validated on every set and turned back into an
  // object, sorted (a tenth of a keyed request's time on the server, bench/throughput.ts).
  const replyBody = (c: Context<AppEnv>, body: Body) => {
    // what our middleware said (its object, made for this request, becomes the headers), after
    // what was said through Hono (CORS, for a browser's request)
    const said = c.get('said') ?? {};
    c.set('said', undefined);
    let headers: Record<string, string | string[]> = said;
    if (c.get('hono')) {
      headers = {};
      const prepared = c.res.headers;
      for (const [name, value] of prepared) headers[name] = value;
      if (headers['set-cookie'] !== undefined) headers['set-cookie'] = prepared.getSetCookie();
      Object.assign(headers, said);
    }
    headers['content-type'] = 'application/json';
    headers['cache-control'] = 'no-store';
    headers['x-content-type-options'] = 'nosniff';
    if (body.chars < COMPRESS_MIN) headers['content-length'] = String(body.bytes.length);
    else headers.vary = headers.vary ? `${headers.vary as string}, Accept-Encoding` : 'Accept-Encoding'; // compressible()
    // Set as is: assigned over the placeholder `c.res` that reading its headers made above,
    // Hono would copy that one's headers into a rebuilt response, which is what this avoids.
    c.res = undefined;
    c.res = new Response(body.bytes as Uint8Array<ArrayBuffer>, { status: 200, headers });
    return c.res;
  };

  // A body compress() may compress varies by Accept-Encoding: said before the response exists.
  // Said after (by compress() itself), Hono rebuilds the response around a stream, which costs a
  // keyed request a tenth of its time even when the client takes no compression.
  const compressible = (c: Context<AppEnv>) => c.header('Vary', 'Accept-Encoding', { append: true });

  // An HttpError (or Hono's HTTPException) answers with its status; anything else is a fault:
  // the body says only that it failed, the log line with the request id says why.
  const fail = (err: unknown, c: Context<AppEnv>) => {
    if (err instanceof HttpError) {
      for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
      return reply(c, err.status, err.message, []);
    }
    if (err instanceof HTTPException) return reply(c, err.status, err.message, []);
    log(`${c.get('requestId')} error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return reply(c, 500, MESSAGE_500, []);
  };
  app.onError(fail);

  // The frame of every request, one middleware (each layer of Hono's chain costs a request time
  // of its own): its id, its access-log line, and compression for clients that take it.
  //
  // The id is ours, not Hono's requestId(): that one sets its header through a `Headers` (and
  // reads the request's), which makes every answer carry a placeholder response to copy from
  // (a tenth of a keyed request's time, bench/throughput.ts). Same rule as Hono's: an incoming
  // X-Request-Id of word characters, `-` and `=`, at most 64 long, is kept (a proxy's id).
  //
  // The log line is written once: when the answer is ready, or when the connection is closed
  // before that (the client left, or a shutdown cut it at its grace period), as `cut`.
  const compressed = compress();
  const frame: MiddlewareHandler<AppEnv> = async (c, next) => {
    const start = performance.now();
    const given = header(c, 'x-request-id');
    const rid = given !== undefined && RID.test(given) ? given : newRid();
    c.set('requestId', rid);
    say(c, 'x-request-id', rid);
    let logged = false;
    const line = (status: number | 'cut') => {
      logged = true;
      log(accessLine(now(), rid, c.req.method, c.req.url, status, performance.now() - start, c.get('keyHint')));
    };
    const cut = () => {
      if (!logged) line('cut');
    };
    // Under serve(), it calls `cut` when the response closes first; under another Node server,
    // the response's own 'close'; elsewhere, the request's AbortSignal.
    const outgoing = (c.env as { outgoing?: Outgoing } | undefined)?.outgoing;
    let signal: AbortSignal | undefined;
    if (outgoing && CUT in outgoing) outgoing[CUT] = cut;
    else if (outgoing?.once) outgoing.once('close', cut);
    else (signal = c.req.raw.signal).addEventListener('abort', cut);
    try {
      // compress() for clients that take a compressed body; for the others it would only read
      // the response's headers back (a tenth of a request's time): their Vary is said by `reply`.
      if (header(c, 'accept-encoding')) await compressed(c, next);
      else await next();
    } catch (err) {
      // Hono hands handler errors to onError itself; this catches whatever escapes it, so that
      // every request still gets its envelope and its log line.
      c.res = fail(err, c);
    }
    // what was said but not yet written into the answer (a route answering on its own)
    flushSaid(c);
    signal?.removeEventListener('abort', cut);
    if (!logged) line(c.res.status);
  };

  // Registered without a path: the base path's `/*`, so a host app's routes never see it.
  app.use(frame);

  // CORS headers on actual requests (Hono's cors) for the origins some live key allows: their
  // 401s and 403s are readable too. Whether the request's own key allows the origin is the
  // 403 check. Preflights are answered by the routes (an envelope, and the key checked when
  // the query carries it), which cors() cannot do, so they pass by.
  const keyedCors = browserOnly(skipOptions(cors({
    origin: async (origin) => (origin && (await keyring.allowsOrigin(origin)) ? origin : null),
    exposeHeaders: EXPOSE,
  })));
  const openCors = skipOptions(cors({ origin: '*' }));

  // The key of a request: the `key` parameter (the contract; it wins), else `X-API-Key`, else
  // `Authorization: Bearer`.
  const keyOf = (c: Context<AppEnv>, search: Search): string[] => {
    const values = search.getAll('key');
    if (values.length) return values;
    const header = c.req.header('X-API-Key');
    if (header !== undefined) return [header];
    const bearer = /^Bearer +(\S+) *$/i.exec(c.req.header('Authorization') ?? '');
    return bearer ? [bearer[1]!] : [];
  };

  // The key (401), then its origins (403).
  const admit = async (c: Context<AppEnv>, search: Search): Promise<Grant> => {
    const grant = await keyring.verify(keyOf(c, search));
    c.set('keyHint', grant.hint);
    const origin = header(c, 'origin');
    if (!originAllowed(grant.origins, origin)) {
      throw new HttpError(403, `Origin: ${quote(origin ?? '')} is not allowed for this key`);
    }
    if (grant.ownPages) {
      const foreign = foreignPage(grant.origins, { site: header(c, 'sec-fetch-site'), origin, referer: header(c, 'referer') });
      if (foreign) throw new HttpError(403, foreign);
    }
    return grant;
  };

  // Quotas fail closed: while the store cannot count, keyed requests get a 503 with Retry-After.
  // The outage is logged when it starts and when it ends, not once per refused request.
  let outage: { since: number; refused: number } | undefined;
  const count = async (id: string, quota: { requests: number; windowSeconds: number }): Promise<QuotaResult> => {
    const { requests, windowSeconds } = quota;
    let q: QuotaResult;
    try {
      q = await store.hit(id, windowSeconds, requests);
    } catch (err) {
      const retry = err instanceof QuotaUnavailableError ? err.retryAfter : 1;
      if (!outage) {
        outage = { since: now(), refused: 0 };
        log(`${new Date(outage.since).toISOString()} quota store unavailable (${err instanceof Error ? err.message : String(err)}); answering 503 until it recovers`);
      }
      outage.refused++;
      throw new HttpError(503, `Service unavailable: quotas cannot be counted right now; retry in ${retry} s`, { 'Retry-After': String(retry) });
    }
    if (outage) {
      const t = now();
      log(`${new Date(t).toISOString()} quota store available again after ${((t - outage.since) / 1000).toFixed(1)} s; ${outage.refused} requests answered 503`);
      outage = undefined;
    }
    return q;
  };

  // The RateLimit headers of a count.
  const rate = (c: Context<AppEnv>, q: QuotaResult, requests: number) => {
    say(c, 'ratelimit-limit', String(requests));
    say(c, 'ratelimit-remaining', String(q.remaining));
    say(c, 'ratelimit-reset', String(q.resetSeconds));
  };
  const over = (q: QuotaResult, what: string) => new HttpError(429, `${what}; retry in ${q.resetSeconds} s`, { 'Retry-After': String(q.resetSeconds) });

  // A key with per-client bounds (the page key's): this connection's count (in this process),
  // then this address's (in the store, so that it holds across workers and instances). A page
  // key's is counted under the address alone: every instance mints its own page key, and a
  // client is one client of the site whichever instance's page it read.
  const connections = new ConnectionCounts();
  const share = async (c: Context<AppEnv>, grant: Grant): Promise<QuotaResult> => {
    const { requests, windowSeconds, perConnection } = grant.perClient!;
    const who = client(c.req.raw, c.env);
    if (perConnection !== undefined && who.connection) {
      const q = connections.hit(who.connection, windowSeconds, perConnection, now());
      if (!q.allowed) {
        rate(c, q, perConnection);
        throw over(q, `key: this connection's share, ${perConnection} requests per ${windowSeconds} s, is used up`);
      }
    }
    const q = await count(`${grant.ownPages ? 'page' : grant.id}/${clientBucket(who.address)}`, grant.perClient!);
    if (!q.allowed) {
      rate(c, q, requests);
      throw over(q, `key: this client's share, ${requests} requests per ${windowSeconds} s from one address, is used up`);
    }
    return q;
  };

  // Key (401), origin (403), quota (429). A client over its own bound is refused before the
  // key's quota is counted: it does not use up what the key's other clients share.
  const gate = async (c: Context<AppEnv>, search: Search) => {
    const grant = await admit(c, search);
    const own = grant.perClient && (await share(c, grant));
    const q = await count(grant.id, grant.quota);
    const { requests, windowSeconds } = grant.quota;
    // the headers tell the nearer of the two ends
    if (own && q.allowed && own.remaining < q.remaining) rate(c, own, grant.perClient!.requests);
    else rate(c, q, requests);
    if (!q.allowed) throw over(q, `key: quota of ${requests} requests per ${windowSeconds} s used up`);
  };

  // The gate, then the answer (400s, 404s), in an envelope or as GeoJSON.
  const keyedAnswer = async (c: Context<AppEnv>, answer: Answer, options: KeyedOptions, index: PlaceIndex) => {
    const search = queryOf(c.req.url);
    await gate(c, search);
    // the format first: a bad one is a 400 before any 404 of the answer
    const out = options.geojson ? parseFormat(search) : undefined;
    const answered = await answer(search, c, index);
    if (out?.format !== 'geojson') return answered instanceof NearbyAnswer ? replyBody(c, answered.envelope(now())) : reply(c, 200, undefined, answered);
    const records = answered instanceof NearbyAnswer ? answered.records() : answered;
    flushSaid(c);
    c.header('Content-Type', GEOJSON);
    c.header('Cache-Control', 'no-store');
    c.header('X-Content-Type-Options', 'nosniff');
    compressible(c);
    return c.body(geoJsonBody(records as GeoRecord[], out.geometry, now()), 200);
  };

  const methods: string[] = [];
  // With `geojson`, format=geojson answers the records as a FeatureCollection (application/geo+json).
  const keyed = (path: string, answer: Answer, options: KeyedOptions = {}) => {
    app.use(path, keyedCors);
    app.get(path, async (c) => {
      // the index of this request, whatever a reload swaps in before it is done
      const lease = data.acquire();
      try {
        return await keyedAnswer(c, answer, options, lease.value);
      } finally {
        lease.release();
      }
    });
    app.options(path, keyedPreflight);
    methods.push(path);
  };
  // A preflight passes the key and origin checks but is not counted: the browser sends it on
  // its own. A page sending its key in a header cannot put it in the preflight (browsers send
  // none of the request's headers there): the origin must then be one some key allows.
  const keyedPreflight = async (c: Context<AppEnv>) => {
    if (!isPreflight(c)) return plainOptions(c, reply);
    const search = queryOf(c.req.url);
    const origin = c.req.header('Origin')!;
    if (search.has('key') || !asksForKeyHeader(c)) await admit(c, search);
    else if (!(await keyring.allowsOrigin(origin))) throw new HttpError(403, `Origin: ${quote(origin)} is not allowed for any key`);
    c.header('Vary', 'Origin');
    c.header('Access-Control-Allow-Origin', origin);
    c.header('Access-Control-Expose-Headers', EXPOSE.join(', '));
    return preflight(c, reply);
  };

  // A keyed route that answers with its own response (a map style, a tile, a font), not an envelope.
  const keyedResource = (path: string, handle: (c: Context<AppEnv>, search: Search) => Response | Promise<Response>) => {
    app.use(path, keyedCors);
    app.get(path, async (c) => {
      const search = queryOf(c.req.url);
      await gate(c, search);
      flushSaid(c);
      return handle(c, search);
    });
    app.options(path, keyedPreflight);
    methods.push(path);
  };

  const open = (path: string, handler: (c: Context<AppEnv>) => Response | Promise<Response>) => {
    app.use(path, openCors);
    app.get(path, handler);
    app.options(path, (c) => {
      if (!isPreflight(c)) return plainOptions(c, reply);
      c.header('Access-Control-Allow-Origin', '*');
      return preflight(c, reply);
    });
    methods.push(path);
  };

  const about = { map: options.map?.tiles !== undefined, dataDate: options.dataDate };
  const api: Api = { app, limits: { maxLimit, maxRadius }, now, nearby, keyed, keyedResource, open, reply, current: () => data.current, about };
  for (const routes of ROUTES) routes(api);
  mapRoutes(api, options.map);

  // Registered last, so they only catch what no route above answers: other methods on our
  // paths (405), and any other path under the base path (404, ours even when mounted).
  for (const path of methods) {
    app.all(path, (c) => {
      throw new HttpError(405, `Method not allowed: ${quote(c.req.method)} on ${c.req.path}; allowed: ${ALLOW}`, { Allow: ALLOW });
    });
  }
  // The base path as mounted (a host's prefix included): the catch-all's own route, less its `/*`.
  const notFound = (c: Context<AppEnv>, base = basePath) =>
    fail(new HttpError(404, `Not found: no route ${quote(c.req.path, 80)}; the API is under ${base} (see ${base}/openapi.json)`), c);
  app.all('/*', (c) => notFound(c, c.req.routePath.slice(0, -2)));

  // Served alone, paths outside the base path reach Hono's not-found handler, outside the
  // middleware: it gives them their request id, envelope and log line itself.
  app.notFound((c) => {
    const start = performance.now();
    const rid = newRid();
    c.set('requestId', rid);
    c.header('X-Request-Id', rid);
    const res = notFound(c);
    log(accessLine(now(), rid, c.req.method, c.req.url, 404, performance.now() - start));
    return res;
  });

  const rejected = (status: number, message: string, method = '-', target = '-'): Response => {
    const rid = newRid();
    const text = JSON.stringify(envelope(status, message, [], now()));
    log(accessLine(now(), rid, method, target, status, 0));
    return new Response(text, {
      status,
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': String(encoder.encode(text).length),
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        'X-Request-Id': rid,
        Connection: 'close',
      },
    });
  };
  return Object.assign(app, { rejected });
}

/**
 * `handler` for requests with an `Origin` (browsers'); the others only get `Vary: Origin`. Hono's
 * cors() sets its headers on `c.res` before the route has answered, which makes Hono build a
 * placeholder response and later copy it into the route's: a fifth of a keyed request's time
 * (bench/throughput.ts) for headers that only a browser reads.
 */
function browserOnly(handler: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    if (header(c, 'origin') !== undefined) {
      // its headers are said through Hono's context: `replyBody` reads them back
      c.set('hono', true);
      return handler(c, next);
    }
    say(c, 'vary', 'Origin');
    return next();
  };
}

/**
 * Says a response header (lower-case `name`) before the route answers, as `c.header()` would,
 * but in a plain object: a `NearbyAnswer` takes them into its response's plain headers
 * (`replyBody`); every other answer has them said through `c.header()` first (`flushSaid`).
 */
function say(c: Context<AppEnv>, name: string, value: string): void {
  const said = c.get('said');
  if (said) said[name] = value;
  else c.set('said', { [name]: value });
}

/** Says through `c.header()` what `say` kept, before an answer other than `replyBody`'s is made. */
function flushSaid(c: Context<AppEnv>): void {
  const said = c.get('said');
  if (!said) return;
  for (const name in said) c.header(name, said[name]);
  c.set('said', undefined);
}

/**
 * A request header (`name` in lower case) that a request of every kind reads: under Node, from the
 * Node request's own parsed headers. `c.req.header()` would build the Request's `Headers` from
 * them first, validating each (a twentieth of a keyed request's time). Repeated lines come
 * joined with `, ` either way (Node keeps the first of a few single-valued fields, none of
 * these).
 */
function header(c: Context<AppEnv>, name: 'x-request-id' | 'accept-encoding' | 'origin' | 'sec-fetch-site' | 'referer'): string | undefined {
  const incoming = (c.env as { incoming?: { headers?: Record<string, string | string[] | undefined> } } | undefined)?.incoming;
  if (!incoming?.headers) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** `handler` for every method but OPTIONS. */
function skipOptions(handler: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  return (c, next) => (c.req.method === 'OPTIONS' ? next() : handler(c, next));
}

type Reply = (c: Context<AppEnv>, status: number, message: string | undefined, data: unknown[]) => Response;

function isPreflight(c: Context<AppEnv>): boolean {
  return c.req.header('Origin') !== undefined && c.req.header('Access-Control-Request-Method') !== undefined;
}

// Whether a preflight announces a key header (X-API-Key or Authorization).
function asksForKeyHeader(c: Context<AppEnv>): boolean {
  return /(?:^|,)\s*(?:x-api-key|authorization)\s*(?:,|$)/i.test(c.req.header('Access-Control-Request-Headers') ?? '');
}

// A plain OPTIONS (not a CORS preflight): says which methods the path has.
function plainOptions(c: Context<AppEnv>, reply: Reply): Response {
  c.header('Allow', ALLOW);
  return reply(c, 200, undefined, []);
}

// A CORS preflight the origin passed: the route only answers GET (and HEAD), without credentials.
function preflight(c: Context<AppEnv>, reply: Reply): Response {
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
