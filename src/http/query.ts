/**
 * The query string of a request URL, as the app reads it. One function for the app and the
 * access log, so that the log redacts exactly the `key` parameters the app would read.
 */

/** The raw query of a URL or request target: everything after its first `?`, or `''`. */
export function rawQuery(url: string): string {
  const i = url.indexOf('?');
  return i < 0 ? '' : url.slice(i + 1);
}

/** The query string of a request URL, parsed as browsers and `URLSearchParams` do; never throws. */
export function queryOf(url: string): URLSearchParams {
  return new URLSearchParams(rawQuery(url));
}

/**
 * The raw query cut into the parts `URLSearchParams` reads one by one, each with the name it
 * reads there: it drops one leading `?`, splits on `&` (only), and percent-decodes each name with
 * `+` as a space. Parts are independent, so reading a part alone gives the name the whole gives it.
 */
export function queryParts(raw: string): { lead: string; parts: QueryPart[] } {
  const lead = raw.startsWith('?') ? '?' : '';
  const parts = (lead ? raw.slice(1) : raw).split('&').map(readPart);
  return { lead, parts };
}

/** One `&`-separated part of a query: its text, and its name and value as `URLSearchParams` reads them. */
export interface QueryPart {
  text: string;
  name: string;
  value: string;
}

function readPart(text: string): QueryPart {
  if (!/[%+]/.test(text)) {
    const eq = text.indexOf('=');
    return eq < 0 ? { text, name: text, value: '' } : { text, name: text.slice(0, eq), value: text.slice(eq + 1) };
  }
  for (const [name, value] of new URLSearchParams(text)) return { text, name, value };
  return { text, name: '', value: '' };
}
