import { HttpError } from './http-error.js';
import { normalizeOrigin, type AllowedOrigins } from './origins.js';

/** An API key and what it may do, as written in a tokens file. */
export interface Token {
  /** The secret: 16 to 128 characters from `A-Z a-z 0-9 _ -`. */
  key: string;
  /** Origins (`https://example.com`) the key may be used from in a browser, or `"*"` for any. */
  allowedOrigins: string[] | '*';
  /** At most `requests` requests per window of `windowSeconds` seconds. */
  quota: { requests: number; windowSeconds: number };
  /** A deleted key is refused (401) like an unknown one. */
  deleted?: boolean;
  /**
   * What one client may do with the key, besides `quota`, which all its clients share: a key
   * anyone can read (the web app's page key) is bounded per client, so that one client refused
   * leaves the key's other clients served. See `ClientQuota`.
   */
  perClient?: ClientQuota;
  /**
   * The key is a page's own (the web app's page key): a browser may use it from the pages of
   * `allowedOrigins` only, as its `Sec-Fetch-Site`, `Origin` and `Referer` tell (see
   * `foreignPage()` in page-key.ts). Needs `allowedOrigins` as a list.
   */
  ownPages?: boolean;
}

/**
 * A key's bound per client: at most `requests` requests per window of `windowSeconds` seconds
 * from one client address (an IPv6 address by its /64), counted in the quota store under the
 * key and the address (a page key's under the address alone, whichever page key it is), so
 * that it holds across workers and instances sharing the store; and at
 * most `perConnection` of them per window on one connection, counted in the process that holds
 * the connection.
 */
export interface ClientQuota {
  requests: number;
  windowSeconds: number;
  perConnection?: number;
}

/** What a key may do, once checked. */
export interface Grant {
  /** Hex SHA-256 of the key: names it in the quota store without storing the secret. */
  id: string;
  /** A short, non-secret label of the key for logs. */
  hint: string;
  origins: AllowedOrigins;
  quota: { requests: number; windowSeconds: number };
  deleted: boolean;
  /** The token's `perClient`, if any. */
  perClient?: ClientQuota;
  /** The token's `ownPages`. */
  ownPages: boolean;
}

/** The form of a key. */
export const KEY_PATTERN = /^[A-Za-z0-9_-]{16,128}$/;

/** A tokens file or array is not valid. The message names the entry and the field. */
export class TokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TokenError';
  }
}

/** A fresh random key (32 characters, 192 bits), from the Web Crypto random source. */
export function generateKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}

const encoder = new TextEncoder();

// Web Crypto rather than node:crypto, so that the app runs on edge runtimes too.
const digest = async (key: string) => new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(key)));

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

// Web Crypto has no timingSafeEqual: every byte is compared, differences OR-ed together, no
// branch on the data. Both are SHA-256 digests, always 32 bytes.
function sameDigest(a: Uint8Array, b: Uint8Array): boolean {
  let diff = 0;
  for (let i = 0; i < 32; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/**
 * Checks a tokens array (e.g. parsed from JSON).
 * @param source names the input in error messages, e.g. the file name
 * @throws {TokenError} naming the first bad entry and field
 */
export function parseTokens(value: unknown, source = 'tokens'): Token[] {
  if (!Array.isArray(value)) throw new TokenError(`${source}: must be a JSON array of tokens`);
  const keys = new Set<string>();
  return value.map((t: unknown, i) => {
    const at = `${source}[${i}]`;
    if (typeof t !== 'object' || t === null || Array.isArray(t)) throw new TokenError(`${at}: must be an object`);
    const { key, allowedOrigins, quota, deleted, perClient, ownPages } = t as Record<string, unknown>;
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw new TokenError(`${at}.key: must be 16 to 128 characters from A-Z a-z 0-9 _ -`);
    }
    if (keys.has(key)) throw new TokenError(`${at}.key: same key as an earlier entry`);
    keys.add(key);
    let origins: string[] | '*';
    if (allowedOrigins === '*') origins = '*';
    else if (Array.isArray(allowedOrigins)) {
      origins = allowedOrigins.map((o: unknown, j) => {
        const n = typeof o === 'string' ? normalizeOrigin(o) : undefined;
        if (n === undefined) {
          throw new TokenError(`${at}.allowedOrigins[${j}]: must be an origin such as https://example.com`);
        }
        return n;
      });
    } else throw new TokenError(`${at}.allowedOrigins: must be "*" or an array of origins`);
    if (typeof quota !== 'object' || quota === null) throw new TokenError(`${at}.quota: must be { requests, windowSeconds }`);
    const { requests, windowSeconds } = quota as Record<string, unknown>;
    if (!isCount(requests)) throw new TokenError(`${at}.quota.requests: must be a positive integer`);
    if (!isCount(windowSeconds)) throw new TokenError(`${at}.quota.windowSeconds: must be a positive integer`);
    if (deleted !== undefined && typeof deleted !== 'boolean') throw new TokenError(`${at}.deleted: must be a boolean`);
    if (ownPages !== undefined && typeof ownPages !== 'boolean') throw new TokenError(`${at}.ownPages: must be a boolean`);
    if (ownPages && origins === '*')
      throw new TokenError(`${at}.ownPages: needs allowedOrigins as an array of the pages' origins, not "*"`);
    const token: Token = { key, allowedOrigins: origins, quota: { requests, windowSeconds } };
    if (deleted) token.deleted = true;
    if (perClient !== undefined) token.perClient = clientQuota(perClient, `${at}.perClient`);
    if (ownPages) token.ownPages = true;
    return token;
  });
}

function clientQuota(value: unknown, at: string): ClientQuota {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new TokenError(`${at}: must be { requests, windowSeconds, perConnection? }`);
  const { requests, windowSeconds, perConnection } = value as Record<string, unknown>;
  if (!isCount(requests)) throw new TokenError(`${at}.requests: must be a positive integer`);
  if (!isCount(windowSeconds)) throw new TokenError(`${at}.windowSeconds: must be a positive integer`);
  if (perConnection !== undefined && !isCount(perConnection)) throw new TokenError(`${at}.perConnection: must be a positive integer`);
  return perConnection === undefined ? { requests, windowSeconds } : { requests, windowSeconds, perConnection };
}

function isCount(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0;
}

/** The message of a 401 for a key that is not (or no longer) valid: it does not say which. */
export const KEY_REFUSED = 'key: unknown or revoked';

interface Ring {
  digests: Uint8Array[];
  grants: Grant[];
  /** Whether any live key allows any origin. */
  anyOrigin: boolean;
  /** The origins some live key allows. */
  origins: Set<string>;
}

/**
 * The known keys, looked up in constant time: the presented key is hashed and its digest compared
 * against every known digest, without stopping at a match, so response time tells nothing about
 * how much of a guess was right nor which entry matched.
 */
export class Keyring {
  private ring: Promise<Ring> | Ring;
  private count = 0;
  // Digests of keys that matched an entry: Web Crypto's digest is asynchronous and costs a few
  // times node:crypto's, so a known key is hashed once. Only matched keys are kept (random
  // guesses cannot flush it), and it is dropped with the tokens it matched. The comparison below
  // stays constant-time either way.
  private known = new Map<string, Uint8Array>();

  constructor(tokens: readonly Token[] = []) {
    this.ring = this.build(tokens);
  }

  /** Swaps in a new set of tokens (e.g. a reloaded file); checks them first. */
  replace(tokens: readonly Token[]): void {
    this.ring = this.build(tokens);
    this.known = new Map();
  }

  // Checks at once (a bad token throws here), digests asynchronously (Web Crypto is async).
  private build(tokens: readonly Token[]): Promise<Ring> {
    const checked = parseTokens(tokens);
    this.count = checked.length;
    const live = checked.filter((t) => !t.deleted);
    const origins = new Set(live.flatMap((t) => (t.allowedOrigins === '*' ? [] : t.allowedOrigins)));
    const anyOrigin = live.some((t) => t.allowedOrigins === '*');
    const pending = Promise.all(checked.map((t) => digest(t.key))).then((digests): Ring => {
      const grants = checked.map((t, i) => {
        const id = hex(digests[i]!);
        return {
          id,
          hint: `#${id.slice(0, 8)}`,
          origins: t.allowedOrigins === '*' ? '*' : new Set(t.allowedOrigins),
          quota: { ...t.quota },
          deleted: t.deleted === true,
          ...(t.perClient ? { perClient: { ...t.perClient } } : {}),
          ownPages: t.ownPages === true,
        } satisfies Grant;
      });
      const ring = { digests, grants, anyOrigin, origins };
      if (this.ring === pending) this.ring = ring; // later calls skip the await
      return ring;
    });
    return pending;
  }

  /** How many keys, deleted ones included. */
  get size(): number {
    return this.count;
  }

  /**
   * Whether some live key allows `origin` (an `Origin` header): such a browser app may read our
   * answers, errors included (a 401 or 403 tells it what to fix), so they carry CORS headers.
   */
  async allowsOrigin(origin: string): Promise<boolean> {
    const ring = await this.ring;
    if (ring.anyOrigin) return true;
    const o = normalizeOrigin(origin);
    return o !== undefined && ring.origins.has(o);
  }

  /**
   * The grant of the request's key (all the values it was given, to catch a repeated one).
   * @throws {HttpError} 401 when the key is missing, malformed, unknown or deleted
   */
  async verify(values: readonly string[]): Promise<Grant> {
    if (values.length === 0) {
      throw new HttpError(401, 'key: missing; pass your API key as the key parameter (or in an X-API-Key or Authorization: Bearer header)');
    }
    if (values.length > 1) throw new HttpError(401, 'key: given more than once');
    const key = values[0]!;
    if (!KEY_PATTERN.test(key)) throw new HttpError(401, 'key: malformed; expected 16 to 128 characters from A-Z a-z 0-9 _ -');
    const known = this.known.get(key);
    const d = known ?? (await digest(key));
    const ring = await this.ring;
    let found = -1;
    for (let i = 0; i < ring.digests.length; i++) {
      // No early exit: every entry is compared whatever matched before.
      if (sameDigest(ring.digests[i]!, d)) found = i;
    }
    const grant = found < 0 ? undefined : ring.grants[found];
    if (grant && !known && ring === this.ring) this.known.set(key, d);
    // One message for unknown and deleted keys: saying "deleted" would confirm that a key existed.
    if (!grant || grant.deleted) throw new HttpError(401, KEY_REFUSED);
    return grant;
  }
}

/**
 * A label for a key that is safe to log: the first 8 hex digits of its SHA-256, so a log line can
 * be matched to a key by whoever holds it, while the log itself holds no part of any key.
 */
export async function keyHint(key: string): Promise<string> {
  return `#${hex(await digest(key)).slice(0, 8)}`;
}
