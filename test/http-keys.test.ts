import { createHash } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../src/http/http-error.js';
import { generateKey, KEY_PATTERN, KEY_REFUSED, keyHint, Keyring, parseTokens, TokenError, type Token } from '../src/http/keys.js';
import { loadTokens } from '../src/http/tokens-file.js';
import { normalizeOrigin, originAllowed } from '../src/http/origins.js';
import { token } from './support/http-fixture.js';

const good = (more: Record<string, unknown> = {}) => ({
  key: 'k'.repeat(20),
  allowedOrigins: '*',
  quota: { requests: 5, windowSeconds: 60 },
  ...more,
});

describe('tokens: a JSON array of {key, allowedOrigins, quota, deleted?}', () => {
  it('accepts good tokens and normalizes origins', () => {
    const [t] = parseTokens([good({ allowedOrigins: ['https://Maps.Example.com/', 'http://localhost:5173'] })]);
    expect(t).toEqual({
      key: 'k'.repeat(20),
      allowedOrigins: ['https://maps.example.com', 'http://localhost:5173'],
      quota: { requests: 5, windowSeconds: 60 },
    });
  });
  it.each([
    [{}, /tokens: must be a JSON array/],
    [[1], /tokens\[0\]: must be an object/],
    [[good({ key: 'short' })], /tokens\[0\]\.key: must be 16 to 128 characters/],
    [[good({ key: 'k'.repeat(19) + ' ' })], /tokens\[0\]\.key/],
    [[good(), good()], /tokens\[1\]\.key: same key as an earlier entry/],
    [[good({ allowedOrigins: 'https://a.example' })], /tokens\[0\]\.allowedOrigins: must be "\*" or an array/],
    [[good({ allowedOrigins: ['https://a.example/path'] })], /tokens\[0\]\.allowedOrigins\[0\]: must be an origin/],
    [[good({ allowedOrigins: ['*.example.com'] })], /allowedOrigins\[0\]/],
    [[good({ quota: { requests: 0, windowSeconds: 60 } })], /tokens\[0\]\.quota\.requests: must be a positive integer/],
    [[good({ quota: { requests: 5, windowSeconds: 1.5 } })], /tokens\[0\]\.quota\.windowSeconds/],
    [[good({ quota: null })], /tokens\[0\]\.quota: must be/],
    [[good({ deleted: 'yes' })], /tokens\[0\]\.deleted: must be a boolean/],
  ])('refuses %j', (value, message) => {
    expect(() => parseTokens(value)).toThrow(TokenError);
    expect(() => parseTokens(value)).toThrow(message);
  });
  it('reads a file, naming it in errors', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'np-tokens-'));
    const ok = join(dir, 'ok.json');
    await writeFile(ok, JSON.stringify([good(), good({ key: 'd'.repeat(16), deleted: true })]));
    expect((await loadTokens(ok)).map((t: Token) => t.deleted ?? false)).toEqual([false, true]);
    const broken = join(dir, 'broken.json');
    await writeFile(broken, '[{');
    await expect(loadTokens(broken)).rejects.toThrow(new RegExp(`^${broken}: not valid JSON`));
    await expect(loadTokens(join(dir, 'nope.json'))).rejects.toThrow(/nope\.json: cannot read \(ENOENT\)/);
  });
});

describe('keys: verified in constant time, 401 when missing, malformed, unknown or deleted', () => {
  const a = token('a');
  const b = token('b', { quota: { requests: 9, windowSeconds: 9 } });
  const d = token('d', { deleted: true });
  const ring = new Keyring([a, b, d]);
  const status = async (values: string[]) => {
    try {
      await ring.verify(values);
      return 200;
    } catch (err) {
      expect(err).toBeInstanceOf(HttpError);
      return (err as HttpError).status;
    }
  };

  it('finds each key and its grant, identified by the SHA-256 of the key', async () => {
    const g = await ring.verify([b.key]);
    expect(g.quota).toEqual({ requests: 9, windowSeconds: 9 });
    expect(g.id).toBe(createHash('sha256').update(b.key).digest('hex'));
    expect((await ring.verify([a.key])).id).not.toBe(g.id);
  });
  it.each([
    ['missing', []],
    ['repeated', [a.key, a.key]],
    ['malformed', ['not a key']],
    ['unknown', ['x'.repeat(24)]],
    ['a prefix of a key', [a.key.slice(0, 16)]],
    ['deleted', [d.key]],
  ])('%s: 401', async (_, values) => {
    expect(await status(values)).toBe(401);
  });
  it('says the same of an unknown and a deleted key: "unknown or revoked" (it does not confirm a key existed)', async () => {
    const messages = [];
    for (const k of ['x'.repeat(24), d.key]) messages.push(await ring.verify([k]).catch((err: Error) => err.message));
    expect(messages).toEqual(['key: unknown or revoked', 'key: unknown or revoked']);
    expect(KEY_REFUSED).toBe('key: unknown or revoked');
  });
  it('can swap its tokens at run time (e.g. to delete a key)', async () => {
    const r = new Keyring([a]);
    expect((await r.verify([a.key])).id).toBeTruthy();
    r.replace([{ ...a, deleted: true } as Token]);
    await expect(r.verify([a.key])).rejects.toThrow(/^key: unknown or revoked$/);
  });
  it('generates keys of the accepted form, all different', () => {
    const keys = new Set(Array.from({ length: 100 }, generateKey));
    expect(keys.size).toBe(100);
    for (const k of keys) expect(k).toMatch(KEY_PATTERN);
  });
  it('a key hint holds no part of the key', async () => {
    const k = generateKey();
    const hint = await keyHint(k);
    expect(hint).toBe(`#${createHash('sha256').update(k).digest('hex').slice(0, 8)}`);
    expect(hint).toMatch(/^#[0-9a-f]{8}$/);
    for (let i = 0; i + 4 <= k.length; i++) expect(hint).not.toContain(k.slice(i, i + 4));
  });
});

describe('origins: exact origins, "*" for any', () => {
  it.each([
    ['https://example.com', 'https://example.com'],
    ['HTTPS://EXAMPLE.COM/', 'https://example.com'],
    ['https://example.com:443', 'https://example.com'],
    ['http://localhost:8080', 'http://localhost:8080'],
    ['http://[::1]:3000', 'http://[::1]:3000'],
  ])('%s is %s', (value, origin) => {
    expect(normalizeOrigin(value)).toBe(origin);
  });
  it.each([
    'null',
    '*',
    'example.com',
    'https://example.com/app',
    'https://example.com?x',
    'https://u:p@example.com',
    'https://*.example.com',
    'file:///tmp/x',
  ])('%s is not an origin', (value) => {
    expect(normalizeOrigin(value)).toBeUndefined();
  });
  it('allows an origin in the set, any for "*", and requests without Origin', () => {
    const set = new Set(['https://example.com']);
    expect(originAllowed(set, 'https://example.com')).toBe(true);
    expect(originAllowed(set, 'https://example.org')).toBe(false);
    expect(originAllowed(set, 'null')).toBe(false);
    expect(originAllowed('*', 'null')).toBe(true);
    expect(originAllowed(set, undefined)).toBe(true);
  });
});
