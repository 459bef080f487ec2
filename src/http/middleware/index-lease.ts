import type { MiddlewareHandler } from 'hono';
import type { PlaceIndex } from '../../index/place-index.js';
import type { AppEnv } from '../api.js';
import type { Reloadable } from '../reloadable.js';

/**
 * Gives the request the index current when it arrived (`c.var.index`), whatever a reload swaps
 * in before it is done; the lease is released when the answer is ready.
 */
export function indexLease(data: Reloadable<PlaceIndex>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const lease = data.acquire();
    c.set('index', lease.value);
    try {
      await next();
    } finally {
      lease.release();
    }
  };
}
