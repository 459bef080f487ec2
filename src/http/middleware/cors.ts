import type { Context, Handler, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { AppEnv } from '../api.js';
import { HttpError, quote } from '../http-error.js';
import type { Keyring } from '../keys.js';
import { searchOf } from '../api.js';
import { envelope } from '../envelope.js';
import { envelopeAnswer, requestHeader, say } from '../respond.js';
import { ALLOW, ALLOW_POST } from './errors.js';
import { admit } from './keys.js';

/** The response headers a page may read from a keyed answer. */
const EXPOSE = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'X-Request-Id'];

/**
 * CORS headers on actual requests to keyed routes (Hono's cors()) for the origins some live key
 * allows: their 401s and 403s are readable too. Whether the request's own key allows the origin
 * is the 403 of `keys()`. Preflights are answered by `keyedPreflight` (an envelope, and the key
 * checked when the query carries it), which cors() cannot do, so they pass by.
 *
 * Only requests with an `Origin` (browsers') go through cors(); the others only get
 * `Vary: Origin`. cors() sets its headers on `c.res` before the route has answered, which makes
 * Hono build a placeholder response and later copy it into the route's, on every request, for
 * headers that only a browser reads (bench/throughput.ts shows the cost).
 */
export function keyedCors(keyring: Keyring): MiddlewareHandler<AppEnv> {
  const handler = cors({
    origin: async (origin) => (origin && (await keyring.allowsOrigin(origin)) ? origin : null),
    exposeHeaders: EXPOSE,
  });
  return (c, next) => {
    if (c.req.method === 'OPTIONS') return next();
    if (requestHeader(c, 'origin') !== undefined) {
      // its headers are said through Hono's context: the response writer reads them back
      c.set('hono', true);
      return handler(c, next);
    }
    say(c, 'vary', 'Origin');
    return next();
  };
}

/** CORS headers for any origin on actual requests to public routes (Hono's cors()). */
export function openCors(): MiddlewareHandler<AppEnv> {
  const handler = cors({ origin: '*' });
  return (c, next) => (c.req.method === 'OPTIONS' ? next() : handler(c, next));
}

/** Options of the preflight handlers. */
export interface PreflightOptions {
  /** The clock in milliseconds, for the envelope. */
  now: () => number;
  /** Whether the route takes POST too (a JSON body): its preflight allows it. */
  post?: boolean;
}

/**
 * OPTIONS on a keyed route. A preflight passes the key and origin checks but is not counted: the
 * browser sends it on its own. A page sending its key in a header cannot put it in the preflight
 * (browsers send none of the request's headers there): the origin must then be one some key
 * allows. A plain OPTIONS (not a preflight) says which methods the path has.
 */
export function keyedPreflight(keyring: Keyring, options: PreflightOptions): Handler<AppEnv> {
  const { now, post = false } = options;
  return async (c) => {
    if (!isPreflight(c)) return plainOptions(c, now(), post);
    const origin = c.req.header('Origin')!;
    if (searchOf(c).has('key') || !asksForKeyHeader(c)) await admit(c, keyring);
    else if (!(await keyring.allowsOrigin(origin))) throw new HttpError(403, `Origin: ${quote(origin)} is not allowed for any key`);
    c.header('Vary', 'Origin');
    c.header('Access-Control-Allow-Origin', origin);
    c.header('Access-Control-Expose-Headers', EXPOSE.join(', '));
    return preflight(c, now(), post);
  };
}

/** OPTIONS on a public route: any origin; a plain OPTIONS says which methods the path has. */
export function openPreflight(options: PreflightOptions): Handler<AppEnv> {
  const { now } = options;
  return (c) => {
    if (!isPreflight(c)) return plainOptions(c, now());
    c.header('Access-Control-Allow-Origin', '*');
    return preflight(c, now());
  };
}

function isPreflight(c: Context<AppEnv>): boolean {
  return c.req.header('Origin') !== undefined && c.req.header('Access-Control-Request-Method') !== undefined;
}

// Whether a preflight announces a key header (X-API-Key or Authorization).
function asksForKeyHeader(c: Context<AppEnv>): boolean {
  return /(?:^|,)\s*(?:x-api-key|authorization)\s*(?:,|$)/i.test(c.req.header('Access-Control-Request-Headers') ?? '');
}

// A plain OPTIONS (not a CORS preflight): says which methods the path has.
function plainOptions(c: Context<AppEnv>, now: number, post = false): Response {
  c.header('Allow', post ? ALLOW_POST : ALLOW);
  return envelopeAnswer(c, envelope(200, undefined, [], now));
}

// A CORS preflight the origin passed: the route answers GET and HEAD (and POST where it takes a
// body), without credentials.
function preflight(c: Context<AppEnv>, now: number, post = false): Response {
  const method = c.req.header('Access-Control-Request-Method')!;
  const methods = post ? 'GET, HEAD, POST' : 'GET, HEAD';
  if (method !== 'GET' && method !== 'HEAD' && !(post && method === 'POST')) {
    throw new HttpError(405, `Access-Control-Request-Method: ${quote(method)} is not allowed; allowed: ${methods}`, {
      Allow: post ? ALLOW_POST : ALLOW,
    });
  }
  c.header('Access-Control-Allow-Methods', methods);
  const headers = c.req.header('Access-Control-Request-Headers');
  if (headers) c.header('Access-Control-Allow-Headers', headers);
  c.header('Access-Control-Max-Age', '600');
  c.header('Allow', post ? ALLOW_POST : ALLOW);
  return envelopeAnswer(c, envelope(200, undefined, [], now));
}
