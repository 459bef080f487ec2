import type { Context, MiddlewareHandler } from 'hono';
import { accessLine } from '../access-log.js';
import type { AppEnv } from '../api.js';
import { flushSaid, requestHeader, say } from '../respond.js';

// An X-Request-Id a request may bring (Hono's requestId() rule, at most 64 long).
const RID = /^[\w\-=]{1,64}$/;

/** Request ids of one app: a random prefix per app, then a count. */
export function requestIds(): () => string {
  const prefix = Array.from(crypto.getRandomValues(new Uint8Array(3)), (b) => b.toString(16).padStart(2, '0')).join('');
  let count = 0;
  return () => `${prefix}-${(++count).toString(36)}`;
}

/** Options of `requestLog()`. */
export interface RequestLogOptions {
  /** Receives the access-log line. */
  log: (line: string) => void;
  /** The clock in milliseconds, for the line's time. */
  now: () => number;
  /** Makes a request id (`requestIds()`). */
  newId: () => string;
  /** Answers whatever a handler throws that Hono's own error handling lets through. */
  onError: (err: unknown, c: Context<AppEnv>) => Response;
}

/**
 * The frame of every request: its id (`X-Request-Id`, and `c.var.requestId` for the error log)
 * and its access-log line.
 *
 * The id is ours, not Hono's requestId(): that one sets its header through a `Headers` (and
 * reads the request's), which makes every answer carry a placeholder response to copy from
 * (bench/throughput.ts shows the cost). Same rule as Hono's: an incoming
 * X-Request-Id of word characters, `-` and `=`, at most 64 long, is kept (a proxy's id).
 *
 * The log line is written once: when the answer is ready, or when the connection is closed
 * before that (the client left, or a shutdown cut it at its grace period), as `cut`.
 */
export function requestLog(options: RequestLogOptions): MiddlewareHandler<AppEnv> {
  const { log, now, newId, onError } = options;
  return async (c, next) => {
    const start = performance.now();
    const given = requestHeader(c, 'x-request-id');
    const rid = given !== undefined && RID.test(given) ? given : newId();
    c.set('requestId', rid);
    say(c, 'x-request-id', rid);
    let logged = false;
    const line = (status: number | 'cut') => {
      logged = true;
      log(
        accessLine({
          time: now(),
          id: rid,
          method: c.req.method,
          url: c.req.url,
          status,
          ms: performance.now() - start,
          keyHint: c.get('keyHint'),
        }),
      );
    };
    const cut = () => {
      if (!logged) line('cut');
    };
    // Under Node, the response's 'close' (before serve()'s own, which counts it done);
    // elsewhere, the request's AbortSignal.
    const outgoing = (c.env as { outgoing?: { once?(event: 'close', f: () => void): unknown } } | undefined)?.outgoing;
    let signal: AbortSignal | undefined;
    if (outgoing?.once) outgoing.once('close', cut);
    else (signal = c.req.raw.signal).addEventListener('abort', cut);
    try {
      await next();
    } catch (err) {
      // Hono hands handler errors to onError itself; this catches whatever escapes it (a thrown
      // non-Error), so that every request still gets its envelope and its log line.
      c.res = onError(err, c);
    }
    // what was said but not yet written into the answer (a route answering on its own)
    flushSaid(c);
    signal?.removeEventListener('abort', cut);
    if (!logged) line(c.res.status);
  };
}
