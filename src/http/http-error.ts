import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * A request the API refuses, with the HTTP status and the envelope message to answer with.
 * Anything else thrown while answering is a fault of the server (500). Hono's own
 * `HTTPException`, so that a host app's error handler recognises it too; `headers` go on the
 * response (e.g. `Allow` on a 405, `Retry-After` on a 429 or 503).
 */
export class HttpError extends HTTPException {
  /** Extra response headers. */
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(status as ContentfulStatusCode, { message });
    this.name = 'HttpError';
    this.headers = headers;
  }
}

/**
 * A value quoted for an error message: JSON-escaped so control characters stay visible, and cut
 * short so that a 10 kB parameter does not come back as a 10 kB message.
 */
export function quote(value: string, max = 40): string {
  return JSON.stringify(value.length > max ? `${value.slice(0, max)}…` : value);
}
