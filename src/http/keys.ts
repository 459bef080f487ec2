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
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_');
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
    const { key, allowedOrigins, quota, deleted } = t as Record<string, unknown>;
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
    const token: Token = { key, allowedOrigins: origins, quota: { requests, windowSeconds } };
    if (deleted) token.deleted = true;
    return token;
  });
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

  constructor(tokens: readonly Token[] = []) {
    this.ring = this.build(tokens);
  }

  /** Swaps in a new set of tokens (e.g. a reloaded file); checks them first. */
  replace(tokens: readonly Token[]): void {
    this.ring = this.build(tokens);
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
    const [d, ring] = await Promise.all([digest(key), this.ring]);
    let found = -1;
    for (let i = 0; i < ring.digests.length; i++) {
      // No early exit: every entry is compared whatever matched before.
      if (sameDigest(ring.digests[i]!, d)) found = i;
    }
    const grant = found < 0 ? undefined : ring.grants[found];
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
