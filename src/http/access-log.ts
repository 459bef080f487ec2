import { queryParts, rawQuery } from './query.js';

/** The longest path (with query) an access-log line shows; longer ones are cut with `…`. */
const MAX_PATH = 300;

/**
 * The path and query of a request URL as an access log may show it: without any parameter the
 * app reads as `key` (the same parse as the app's, see `queryParts`: `??key=`, `k%65y=` and
 * repeated keys are all dropped), and cut short.
 */
export function logPath(url: string): string {
  const scheme = url.indexOf('://');
  const start = scheme < 0 ? 0 : url.indexOf('/', scheme + 3);
  return logTarget(start < 0 ? '/' : url.slice(start));
}

/** A request target (path and query, as on the request line) as an access log may show it. */
export function logTarget(target: string): string {
  const q = target.indexOf('?');
  let out = target;
  if (q >= 0) {
    const { lead, parts } = queryParts(rawQuery(target));
    const kept = parts.filter((p) => p.name !== 'key').map((p) => p.text);
    out = target.slice(0, q) + (kept.length ? `?${lead}${kept.join('&')}` : '');
  }
  return out.length > MAX_PATH ? `${out.slice(0, MAX_PATH)}…` : out;
}

/**
 * One access-log line: `<ISO time> <request id> <method> <path> <status> <ms>ms key=<hint>`;
 * `status` is `cut` for a request whose connection closed before its answer was sent.
 */
export function accessLine(time: number, id: string, method: string, url: string, status: number | 'cut', ms: number, keyHint = '-'): string {
  return `${new Date(time).toISOString()} ${id} ${method} ${logPath(url)} ${status} ${ms.toFixed(1)}ms key=${keyHint}`;
}
