/** The longest path (with query) an access-log line shows; longer ones are cut with `…`. */
const MAX_PATH = 300;

/**
 * The path and query of a request URL as an access log may show it: without the `key`
 * parameter, however its name is percent-encoded (`%6Bey=` is `key=` too), and cut short.
 */
export function logPath(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const pathAndQuery = start < 0 ? '/' : url.slice(start);
  const q = pathAndQuery.indexOf('?');
  let out = pathAndQuery;
  if (q >= 0) {
    const kept = pathAndQuery
      .slice(q + 1)
      .split('&')
      .filter((part) => paramName(part) !== 'key');
    out = pathAndQuery.slice(0, q) + (kept.length ? `?${kept.join('&')}` : '');
  }
  return out.length > MAX_PATH ? `${out.slice(0, MAX_PATH)}…` : out;
}

// The name as URLSearchParams reads it: percent-decoded, '+' as space.
function paramName(part: string): string {
  const eq = part.indexOf('=');
  const raw = eq < 0 ? part : part.slice(0, eq);
  if (!/[%+]/.test(raw)) return raw;
  for (const name of new URLSearchParams(`${raw}=`).keys()) return name;
  return raw;
}

/** One access-log line: `<ISO time> <request id> <method> <path> <status> <ms>ms key=<hint>`. */
export function accessLine(time: number, id: string, method: string, url: string, status: number, ms: number, keyHint = '-'): string {
  return `${new Date(time).toISOString()} ${id} ${method} ${logPath(url)} ${status} ${ms.toFixed(1)}ms key=${keyHint}`;
}
