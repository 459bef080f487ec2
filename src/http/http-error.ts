/**
 * A request the API refuses, with the HTTP status and the envelope message to answer with.
 * Anything else thrown while answering is a fault of the server (500).
 */
export class HttpError extends Error {
  readonly status: number;
  /** Extra response headers, e.g. `Allow` on a 405. */
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
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
