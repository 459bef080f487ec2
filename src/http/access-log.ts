import { queryParts, rawQuery, type QueryPart } from './query.js';

/** The longest path (with query) an access-log line shows; longer ones are cut with `…`. */
const MAX_PATH = 300;

/**
 * The path and query of a request URL as an access log may show it: without any parameter the
 * app reads as `key` (the same parse as the app's, see `queryParts`: `??key=`, `k%65y=` and
 * repeated keys are all dropped), nor any part that holds `key=` once decoded (`type=x;key=…`,
 * `#key=…`: not read as a key, but most likely one), and cut short.
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
    const kept = parts.filter((p) => !holdsKey(p)).map((p) => p.text);
    // `?key=…&?x` must not log as `??x`, which reads as `x`: an empty part keeps the `?` a name.
    if (!lead && kept[0]?.startsWith('?')) kept.unshift('');
    out = target.slice(0, q) + (kept.length ? `?${lead}${kept.join('&')}` : '');
  }
  return out.length > MAX_PATH ? `${out.slice(0, MAX_PATH)}…` : out;
}

function holdsKey(p: QueryPart): boolean {
  return p.name === 'key' || (/key/i.test(p.name) || /key/i.test(p.value)) && `${p.name}=${p.value}`.toLowerCase().includes('key=');
}

/**
 * One access-log line: `<ISO time> <request id> <method> <path> <status> <ms>ms key=<hint>`;
 * `status` is `cut` for a request whose connection closed before its answer was sent.
 */
export function accessLine(time: number, id: string, method: string, url: string, status: number | 'cut', ms: number, keyHint = '-'): string {
  return `${new Date(time).toISOString()} ${id} ${method} ${logPath(url)} ${status} ${ms.toFixed(1)}ms key=${keyHint}`;
}
