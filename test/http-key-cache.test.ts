/**
 * Keyring: a key that verified once is known without digesting it again; replacing the tokens
 * refuses a removed key at once; unknown keys are never remembered.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Keyring } from '../src/http/keys.js';
import { HttpError } from '../src/http/http-error.js';
import { token } from './support/http-fixture.js';

afterEach(() => vi.restoreAllMocks());

const refused = (p: Promise<unknown>) =>
  p.then(
    () => 0,
    (e: unknown) => (e instanceof HttpError ? e.status : -1),
  );

describe('a verified key skips the digest; the answer is the same grant', () => {
  it('digests a live key once, then answers from memory', async () => {
    const a = token('a');
    const ring = new Keyring([a, token('b')]);
    const first = await ring.verify([a.key]);
    const digest = vi.spyOn(crypto.subtle, 'digest');
    for (let i = 0; i < 5; i++) expect(await ring.verify([a.key])).toBe(first);
    expect(digest).not.toHaveBeenCalled();
  });

  it('an unknown key is digested every time (nothing is kept for it) and refused every time', async () => {
    const ring = new Keyring([token('a')]);
    await ring.verify([token('a').key]);
    const digest = vi.spyOn(crypto.subtle, 'digest');
    for (let i = 0; i < 3; i++) expect(await refused(ring.verify(['z'.repeat(24)]))).toBe(401);
    expect(digest).toHaveBeenCalledTimes(3);
  });

  it('replacing the tokens forgets what was verified: a removed key is refused at once', async () => {
    const a = token('a');
    const b = token('b');
    const ring = new Keyring([a]);
    await ring.verify([a.key]);
    ring.replace([b, { ...a, deleted: true }]);
    expect(await refused(ring.verify([a.key]))).toBe(401);
    expect((await ring.verify([b.key])).hint).toMatch(/^#[0-9a-f]{8}$/);
    ring.replace([b]);
    expect(await refused(ring.verify([a.key]))).toBe(401);
  });

  it('a key given twice is refused even when known', async () => {
    const a = token('a');
    const ring = new Keyring([a]);
    await ring.verify([a.key]);
    expect(await refused(ring.verify([a.key, a.key]))).toBe(401);
  });
});
