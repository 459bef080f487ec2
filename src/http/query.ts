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
export function queryParts(raw: string): { lead: string; parts: { text: string; name: string }[] } {
  const lead = raw.startsWith('?') ? '?' : '';
  const parts = (lead ? raw.slice(1) : raw).split('&').map((text) => ({ text, name: partName(text) }));
  return { lead, parts };
}

function partName(part: string): string {
  const eq = part.indexOf('=');
  const raw = eq < 0 ? part : part.slice(0, eq);
  if (!/[%+]/.test(raw)) return raw;
  for (const name of new URLSearchParams(`${raw}=`).keys()) return name;
  return raw;
}
