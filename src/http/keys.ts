import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
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

/** A fresh random key (32 characters, 192 bits). */
export function generateKey(): string {
  return randomBytes(24).toString('base64url');
}

const digest = (key: string) => createHash('sha256').update(key).digest();

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

/**
 * Reads and checks a tokens file: a JSON array of tokens.
 * @throws {TokenError} when the file cannot be read, is not JSON or holds a bad token
 */
export async function loadTokens(file: string): Promise<Token[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new TokenError(`${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new TokenError(`${file}: not valid JSON (${(err as Error).message})`);
  }
  return parseTokens(json, file);
}

/**
 * The known keys, looked up in constant time: the presented key is hashed and its digest compared
 * with `timingSafeEqual` against every known digest, without stopping at a match, so response time
 * tells nothing about how much of a guess was right nor which entry matched.
 */
export class Keyring {
  private digests: Buffer[] = [];
  private grants: Grant[] = [];

  constructor(tokens: readonly Token[] = []) {
    this.replace(tokens);
  }

  /** Swaps in a new set of tokens (e.g. a reloaded file); checks them first. */
  replace(tokens: readonly Token[]): void {
    const checked = parseTokens(tokens);
    this.digests = checked.map((t) => digest(t.key));
    this.grants = checked.map((t, i) => {
      const id = this.digests[i]!.toString('hex');
      return {
        id,
        hint: `#${id.slice(0, 8)}`,
        origins: t.allowedOrigins === '*' ? '*' : new Set(t.allowedOrigins),
        quota: { ...t.quota },
        deleted: t.deleted === true,
      };
    });
  }

  /** How many keys, deleted ones included. */
  get size(): number {
    return this.grants.length;
  }

  /**
   * The grant of the request's `key` parameter (all its values, to catch a repeated one).
   * @throws {HttpError} 401 when the key is missing, malformed, unknown or deleted
   */
  verify(values: readonly string[]): Grant {
    if (values.length === 0) throw new HttpError(401, 'key: missing; pass your API key as the key parameter');
    if (values.length > 1) throw new HttpError(401, 'key: given more than once');
    const key = values[0]!;
    if (!KEY_PATTERN.test(key)) throw new HttpError(401, 'key: malformed; expected 16 to 128 characters from A-Z a-z 0-9 _ -');
    const d = digest(key);
    let found = -1;
    for (let i = 0; i < this.digests.length; i++) {
      // No early exit: every entry is compared whatever matched before.
      if (timingSafeEqual(this.digests[i]!, d)) found = i;
    }
    const grant = found < 0 ? undefined : this.grants[found];
    if (!grant) throw new HttpError(401, 'key: unknown');
    if (grant.deleted) throw new HttpError(401, 'key: deleted');
    return grant;
  }
}

/**
 * A label for a key that is safe to log: the first 8 hex digits of its SHA-256, so a log line can
 * be matched to a key by whoever holds it, while the log itself holds no part of any key.
 */
export function keyHint(key: string): string {
  return `#${digest(key).toString('hex').slice(0, 8)}`;
}
