import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../api.js';
import { HttpError } from '../http-error.js';
import type { Grant } from '../keys.js';
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
}

/**
 * Counts the request against its key's quota (`c.var.grant`, from `keys()`): the `RateLimit-*`
 * headers on every answer, 429 with `Retry-After` once the window's requests are used up.
 *
 * Quotas fail closed: while the store cannot count, keyed requests get a 503 with Retry-After.
 * The outage is logged when it starts and when it ends, not once per refused request.
 */
export function quota(options: QuotaOptions): MiddlewareHandler<AppEnv> {
  const { store, log, now } = options;
  let outage: { since: number; refused: number } | undefined;
  const count = async (grant: Grant): Promise<QuotaResult> => {
    const { requests, windowSeconds } = grant.quota;
    let q: QuotaResult;
    try {
      q = await store.hit(grant.id, windowSeconds, requests);
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
  return async (c, next) => {
    const grant = c.get('grant');
    const q = await count(grant);
    const { requests, windowSeconds } = grant.quota;
    say(c, 'ratelimit-limit', String(requests));
    say(c, 'ratelimit-remaining', String(q.remaining));
    say(c, 'ratelimit-reset', String(q.resetSeconds));
    if (!q.allowed) {
      throw new HttpError(429, `key: quota of ${requests} requests per ${windowSeconds} s used up; retry in ${q.resetSeconds} s`, {
        'Retry-After': String(q.resetSeconds),
      });
    }
    await next();
  };
}
