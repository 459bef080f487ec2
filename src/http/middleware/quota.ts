import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../api.js';
import { HttpError } from '../http-error.js';
import type { Grant } from '../keys.js';
import { clientBucket, ConnectionCounts, type ClientOf } from '../page-key.js';
import { QuotaUnavailableError, type QuotaResult, type QuotaStore } from '../quota.js';
import { say } from '../respond.js';

/** Options of `quota()`. */
export interface QuotaOptions {
  /** Where the counts live. */
  store: QuotaStore;
  /** Receives a line when an outage of the store starts and when it ends. */
  log: (line: string) => void;
  /** The clock in milliseconds. */
  now: () => number;
  /** Who sent a request, for the per-client bounds of a key that has them (`Token.perClient`). */
  client: ClientOf;
}

/**
 * Counts the request against its key's quota (`c.var.grant`, from `keys()`): the `RateLimit-*`
 * headers on every answer, 429 with `Retry-After` once the window's requests are used up. A key
 * with per-client bounds (the page key's) counts this connection (in this process), then this
 * address (in the store, so that it holds across workers and instances) first: a client over its
 * own bound is refused before the key's quota is counted, and does not use up what the key's
 * other clients share.
 *
 * Quotas fail closed: while the store cannot count, keyed requests get a 503 with Retry-After.
 * The outage is logged when it starts and when it ends, not once per refused request.
 */
export function quota(options: QuotaOptions): MiddlewareHandler<AppEnv> {
  const { store, log, now, client } = options;
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
        log(
          `${new Date(outage.since).toISOString()} quota store unavailable (${err instanceof Error ? err.message : String(err)}); answering 503 until it recovers`,
        );
      }
      outage.refused++;
      throw new HttpError(503, `Service unavailable: quotas cannot be counted right now; retry in ${retry} s`, {
        'Retry-After': String(retry),
      });
    }
    if (outage) {
      const t = now();
      log(
        `${new Date(t).toISOString()} quota store available again after ${((t - outage.since) / 1000).toFixed(1)} s; ${outage.refused} requests answered 503`,
      );
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
  // the 429 message made only when a count is over (no string per request)
  const over = (q: QuotaResult, what: string) =>
    new HttpError(429, `${what}; retry in ${q.resetSeconds} s`, { 'Retry-After': String(q.resetSeconds) });

  // A page key's client is counted under the address alone: every instance mints its own page
  // key, and a client is one client of the site whichever instance's page it read.
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

  return async (c, next) => {
    const grant = c.get('grant');
    const own = grant.perClient && (await share(c, grant));
    const q = await count(grant.id, grant.quota);
    const { requests, windowSeconds } = grant.quota;
    // the headers tell the nearer of the two ends
    if (own && q.allowed && own.remaining < q.remaining) rate(c, own, grant.perClient!.requests);
    else rate(c, q, requests);
    if (!q.allowed) throw over(q, `key: quota of ${requests} requests per ${windowSeconds} s used up`);
    await next();
  };
}
