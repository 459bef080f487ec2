import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../api.js';
import { HttpError, quote } from '../http-error.js';
import type { Grant, Keyring } from '../keys.js';
import { originAllowed } from '../origins.js';
import { foreignPage } from '../page-key.js';
import { searchOf } from '../api.js';
import { requestHeader } from '../respond.js';

/**
 * The key of a request: the `key` parameter (the contract; it wins), else `X-API-Key`, else
 * `Authorization: Bearer`.
 */
export function keyOf(c: Context<AppEnv>): string[] {
  const values = searchOf(c).getAll('key');
  if (values.length) return values;
  const header = c.req.header('X-API-Key');
  if (header !== undefined) return [header];
  const bearer = /^Bearer +(\S+) *$/i.exec(c.req.header('Authorization') ?? '');
  return bearer ? [bearer[1]!] : [];
}

/**
 * Checks the request's key (401), then whether it allows the request's `Origin` (403) and, for a
 * page's own key, whether the request comes from one of its pages (403, `foreignPage()`); gives
 * the grant, and keeps its hint for the access log (`c.var.keyHint`).
 * @throws {HttpError} 401 or 403
 */
export async function admit(c: Context<AppEnv>, keyring: Keyring): Promise<Grant> {
  const grant = await keyring.verify(keyOf(c));
  c.set('keyHint', grant.hint);
  const origin = requestHeader(c, 'origin');
  if (!originAllowed(grant.origins, origin)) {
    throw new HttpError(403, `Origin: ${quote(origin ?? '')} is not allowed for this key`);
  }
  if (grant.ownPages) {
    const foreign = foreignPage(grant.origins, { site: requestHeader(c, 'sec-fetch-site'), origin, referer: requestHeader(c, 'referer') });
    if (foreign) throw new HttpError(403, foreign);
  }
  return grant;
}

/** The key check of the keyed routes: key (401), then origin (403); the grant in `c.var.grant`. */
export function keys(keyring: Keyring): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('grant', await admit(c, keyring));
    await next();
  };
}
