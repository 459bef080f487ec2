import type { Context, Handler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { accessLine } from '../access-log.js';
import type { AppEnv } from '../api.js';
import { HttpError, quote } from '../http-error.js';
import { SnapshotError } from '../../errors.js';
import { envelope } from '../envelope.js';
import { envelopeAnswer } from '../respond.js';

const MESSAGE_500 = 'Internal server error';
/**
 * A snapshot opened with `fromSnapshot` reads each part on its first use: a part damaged on disk
 * or in memory is found by the request that needs it. That is the server's data, not the client's
 * request: a 503 that says so, without the file's path; the log has the whole error.
 */
const MESSAGE_DAMAGED =
  "Service unavailable: the server's data is damaged where this request reads it (a snapshot section failed its check); the operator must build the snapshot again";
/** The methods every route of the API answers. */
export const ALLOW = 'GET, HEAD, OPTIONS';
/** The methods of a route that also takes a JSON body (`POST /matrix`). */
export const ALLOW_POST = 'GET, HEAD, POST, OPTIONS';

/** Options of `errors()`. */
export interface ErrorsOptions {
  /** Receives the error reports (with the request id) and the not-found handler's log line. */
  log: (line: string) => void;
  /** The clock in milliseconds. */
  now: () => number;
  /** Makes a request id, for requests outside the middleware (`requestIds()`). */
  newId: () => string;
  /** The base path the app was built with. */
  basePath: string;
}

/** The error answers of the API, each an envelope. */
export interface Errors {
  /** `app.onError`: an `HttpError` (or Hono's `HTTPException`) answers its status; a damaged snapshot (`SnapshotError`) a 503; anything else a 500. */
  onError: (err: unknown, c: Context<AppEnv>) => Response;
  /** The 405 of a path that has routes, for any other method. */
  methodNotAllowed: Handler<AppEnv>;
  /** The 404 of any other path under the base path (registered as `/*`: ours even when mounted). */
  noRoute: Handler<AppEnv>;
  /**
   * `app.notFound`: served alone, paths outside the base path reach Hono's not-found handler,
   * outside the middleware; it gives them their request id, envelope and log line itself.
   */
  notFound: NotFoundHandler<AppEnv>;
}

/**
 * Envelopes and errors: every refusal is an `HttpError` thrown anywhere in the chain, answered
 * here with its status and message; any other error is a fault whose body says only that it
 * failed, while the log line with the request id says why.
 */
export function errors(options: ErrorsOptions): Errors {
  const { log, now, newId, basePath } = options;
  const onError = (err: unknown, c: Context<AppEnv>) => {
    if (err instanceof HttpError) {
      for (const [name, value] of Object.entries(err.headers)) c.header(name, value);
      return envelopeAnswer(c, envelope(err.status, err.message, [], now()));
    }
    if (err instanceof HTTPException) return envelopeAnswer(c, envelope(err.status, err.message, [], now()));
    log(`${c.get('requestId')} error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    if (err instanceof SnapshotError) return envelopeAnswer(c, envelope(503, MESSAGE_DAMAGED, [], now()));
    return envelopeAnswer(c, envelope(500, MESSAGE_500, [], now()));
  };
  // The base path as mounted (a host's prefix included): the catch-all's own route, less its `/*`.
  const notFoundAt = (c: Context<AppEnv>, base: string) =>
    onError(new HttpError(404, `Not found: no route ${quote(c.req.path, 80)}; the API is under ${base} (see ${base}/openapi.json)`), c);
  return {
    onError,
    methodNotAllowed: (c) => {
      throw new HttpError(405, `Method not allowed: ${quote(c.req.method)} on ${c.req.path}; allowed: ${ALLOW}`, { Allow: ALLOW });
    },
    noRoute: (c) => notFoundAt(c, c.req.routePath.slice(0, -2)),
    notFound: (c) => {
      const start = performance.now();
      const rid = newId();
      c.set('requestId', rid);
      c.header('X-Request-Id', rid);
      const res = notFoundAt(c, basePath);
      log(accessLine({ time: now(), id: rid, method: c.req.method, url: c.req.url, status: 404, ms: performance.now() - start }));
      return res;
    },
  };
}
