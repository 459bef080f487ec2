import type { MiddlewareHandler } from 'hono';
import { compress } from 'hono/compress';
import type { AppEnv } from '../api.js';
import { requestHeader } from '../respond.js';

/**
 * Hono's compress() for clients that take a compressed body. For the others it would only read
 * the response's headers back, rebuilding them on every request: their `Vary: Accept-Encoding` is
 * said by the response writer (`compressible` in respond.ts).
 */
export function compression(): MiddlewareHandler<AppEnv> {
  const compressed = compress();
  return (c, next) => (requestHeader(c, 'accept-encoding') ? compressed(c, next) : next());
}
