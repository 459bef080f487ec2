/**
 * What makes a key that anyone can read (the web app's page key) fit for the public: it is
 * bounded per client (`Token.perClient`: per address in the quota store, per connection in the
 * process), and browsers may use it from the server's own pages only (`Token.ownPages`).
 *
 * A script can still read the key from the page and use it: it is then one client among the
 * others, bounded like each of them, and cannot use up what the others share. Web APIs only,
 * like the app.
 */
import { quote } from './http-error.js';
import { normalizeOrigin, originAllowed, type AllowedOrigins } from './origins.js';
import { quotaResult, type QuotaResult } from './quota.js';

/** Who sent a request, as far as the server can tell. */
export interface Client {
  /** The client's IP address (`undefined`: not known; all such requests are one client). */
  address: string | undefined;
  /**
   * The connection the request came on (any object that lives as long as it, e.g. the socket),
   * for the per-connection bound; none when the connection is not the client's (a proxy's).
   */
  connection?: object;
}

/** How the app tells a request's client: from the request and the runtime's `env`. */
export type ClientOf = (request: Request, env: unknown) => Client;

/**
 * The client of a request served by @hono/node-server (`serve()`): the address and the socket
 * it came from. Behind a proxy that is the proxy's: give the app a `client` that reads the
 * proxy's header instead (and no connection). Elsewhere the client is not known.
 */
export function socketClient(_request: Request, env: unknown): Client {
  const socket = (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket;
  return socket ? { address: socket.remoteAddress, connection: socket } : { address: undefined };
}

/**
 * The name of a client address's bucket: an IPv4 address as it is (an IPv4-mapped IPv6 one
 * too), an IPv6 address by its /64, which one host or home commonly holds whole (counting it
 * per address would let it count afresh from each of 2^64); `unknown` when there is none.
 */
export function clientBucket(address: string | undefined): string {
  if (!address) return 'unknown';
  if (!address.includes(':')) return address.slice(0, 64);
  const groups = ipv6Groups(address.replace(/%.*$/, '')); // a zone (fe80::1%eth0) is the host's own
  if (!groups) return address.slice(0, 64);
  if (groups.slice(0, 5).every((g) => g === '0') && groups[5] === 'ffff') {
    const [hi, lo] = [parseInt(groups[6]!, 16), parseInt(groups[7]!, 16)];
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`; // IPv4-mapped: the IPv4 client it is
  }
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/**
 * The eight groups of an IPv6 address, without leading zeros; `undefined` when it is not one.
 * The WHATWG URL parser reads and checks it (and writes it in its one short form): only the
 * `::` is left to expand, which a dependency would not make shorter.
 */
function ipv6Groups(address: string): string[] | undefined {
  let host: string;
  try {
    host = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  const [head, tail] = host.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  if (tail === undefined) return left;
  const right = tail ? tail.split(':') : [];
  return [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
}

/**
 * Counts requests per connection, in this process (a connection is held by one process, so its
 * count needs no sharing). Weakly held: a closed connection's count goes with it.
 */
export class ConnectionCounts {
  private windows = new WeakMap<object, { count: number; end: number }>();

  /** Counts one request on `connection` at `now` (ms) against `limit` per window of `windowSeconds`. */
  hit(connection: object, windowSeconds: number, limit: number, now: number): QuotaResult {
    let w = this.windows.get(connection);
    if (!w || w.end <= now) {
      w = { count: 0, end: now + windowSeconds * 1000 };
      this.windows.set(connection, w);
    }
    w.count++;
    return quotaResult(w.count, limit, w.end - now);
  }
}

/** What a browser says of where a request comes from (each header, if sent). */
export interface Provenance {
  /** `Sec-Fetch-Site`: `same-origin`, `same-site`, `cross-site` or `none` (the user's own navigation). */
  site?: string;
  origin?: string;
  referer?: string;
}

/**
 * Why a request may not use a key bound to the pages of `origins`, or `undefined` when it may:
 * a browser's request from another site's page (`Sec-Fetch-Site: cross-site`, what it sends for
 * that page's `<img>` or `fetch`, `Origin` or not), from another origin of the same site
 * (`same-site`, unless its `Origin` is one of `origins`), or with a `Referer` of another origin
 * (browsers without `Sec-Fetch-Site`). A request that says none of these (curl, a server) is not
 * a browser's: only the per-client bounds hold it.
 */
export function foreignPage(origins: AllowedOrigins, from: Provenance): string | undefined {
  const site = from.site?.trim().toLowerCase();
  if (site === 'cross-site') return 'Sec-Fetch-Site: "cross-site": this key is the web app\'s own, for the pages of this server only';
  if (site === 'same-site' && !(from.origin !== undefined && originAllowed(origins, from.origin))) {
    return `Sec-Fetch-Site: "same-site" from ${from.origin === undefined ? 'another origin' : quote(from.origin)}: this key is the web app's own, for the pages of this server only`;
  }
  if (from.referer !== undefined && from.referer !== '') {
    let origin: string | undefined;
    try {
      origin = normalizeOrigin(new URL(from.referer).origin);
    } catch {
      origin = undefined;
    }
    // the Referer's origin only: its path and query may hold what the log and the client need not see
    if (origin === undefined || !originAllowed(origins, origin)) {
      return `Referer: ${origin === undefined ? "not a page's URL" : `a page of ${quote(origin)}`}: this key is the web app's own, for the pages of this server only`;
    }
  }
  return undefined;
}
