/**
 * An origin in the form browsers send in the `Origin` header (`scheme://host[:port]`, lower-case,
 * default port dropped), or `undefined` when `value` is not a bare origin: a path, a query, a
 * wildcard host or an opaque origin such as `null` are refused rather than guessed at.
 */
export function normalizeOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const origin = url.origin;
  // `origin` is 'null' for opaque schemes; anything the parser would silently drop (a path, a
  // query, credentials) means the value was more than an origin.
  if (
    origin === 'null' ||
    origin.includes('*') ||
    url.username !== '' ||
    url.password !== '' ||
    url.pathname !== '/' ||
    /[?#]/.test(value) ||
    /[^/]\/./.test(value.slice(url.protocol.length + 2))
  ) {
    return undefined;
  }
  return origin;
}

/** The origins a key is allowed from: `*` for any, else a set of normalized origins. */
export type AllowedOrigins = '*' | ReadonlySet<string>;

/**
 * Whether a request from `origin` (the `Origin` header, or `undefined` when there is none) may use
 * a key. A request without `Origin` is not a cross-origin browser request (curl, a server), and
 * the header can be forged outside a browser anyway, so only a present origin is checked.
 */
export function originAllowed(allowed: AllowedOrigins, origin: string | undefined): boolean {
  if (origin === undefined || allowed === '*') return true;
  const o = normalizeOrigin(origin);
  return o !== undefined && allowed.has(o);
}
