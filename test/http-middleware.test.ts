/**
 * Each middleware of API v1 on its own, on a bare Hono app (src/http/middleware/): what it adds
 * to an answer and what it refuses, whatever else the app is made of.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../src/http/api.js';
import { envelope } from '../src/http/envelope.js';
import { HttpError } from '../src/http/http-error.js';
import { Keyring, type Grant } from '../src/http/keys.js';
import { compression } from '../src/http/middleware/compression.js';
import { keyedCors } from '../src/http/middleware/cors.js';
import { errors } from '../src/http/middleware/errors.js';
import { keys } from '../src/http/middleware/keys.js';
import { quota } from '../src/http/middleware/quota.js';
import { requestIds, requestLog } from '../src/http/middleware/request-log.js';
import { socketClient } from '../src/http/page-key.js';
import { MemoryQuotaStore, QuotaUnavailableError } from '../src/http/quota.js';
import { envelopeAnswer } from '../src/http/respond.js';
import { token } from './support/http-fixture.js';

const NOW = Date.UTC(2026, 10, 21, 16, 5);
const now = () => NOW;
const ok = (c: Context<AppEnv>) => envelopeAnswer(c, envelope(200, undefined, [], NOW));

/** An app of the given middleware, the error envelopes, and one route answering 200. */
function appOf(...middleware: MiddlewareHandler<AppEnv>[]) {
  return appLogging([], ...middleware);
}

/** `appOf`, its error log into `lines`. */
function appLogging(lines: string[], ...middleware: MiddlewareHandler<AppEnv>[]) {
  const failures = errors({ log: (l) => lines.push(l), now, newId: requestIds(), basePath: '/api/v1' });
  const app = new Hono<AppEnv>();
  app.onError(failures.onError);
  for (const m of middleware) app.use(m);
  app.get('/ok', ok);
  app.get('/big', (c) =>
    envelopeAnswer(
      c,
      envelope(
        200,
        undefined,
        Array.from({ length: 200 }, (_, i) => ({ i })),
        NOW,
      ),
    ),
  );
  app.get('/grant', (c) => envelopeAnswer(c, envelope(200, undefined, [c.get('grant').hint], NOW)));
  app.get('/boom', () => {
    throw new Error('boom');
  });
  return { app, lines };
}

describe('requestLog: an id and one access-log line per request', () => {
  const logged = () => {
    const lines: string[] = [];
    const newId = requestIds();
    const failures = errors({ log: (l) => lines.push(l), now, newId, basePath: '/api/v1' });
    const { app } = appLogging(lines, requestLog({ log: (l) => lines.push(l), now, newId, onError: failures.onError }));
    return { app, lines };
  };
  it('gives each request an id of its own, in X-Request-Id and in its log line', async () => {
    const { app, lines } = logged();
    const [a, b] = [await app.request('/ok?key=secret-key-0123456789'), await app.request('/ok')];
    const [ia, ib] = [a.headers.get('x-request-id')!, b.headers.get('x-request-id')!];
    expect(ia).toMatch(/^[0-9a-f]{6}-1$/);
    expect(ib).not.toBe(ia);
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^2026-11-21T16:05:00.000Z ${ia} GET /ok 200 \\d+\\.\\dms key=-$`)),
      expect.stringMatching(new RegExp(` ${ib} GET /ok 200 `)),
    ]);
  });
  it("keeps a proxy's X-Request-Id of word characters, - and =, at most 64 long; replaces any other", async () => {
    const { app } = logged();
    expect((await app.request('/ok', { headers: { 'X-Request-Id': 'abc-DEF_1=' } })).headers.get('x-request-id')).toBe('abc-DEF_1=');
    for (const bad of ['a b', 'x'.repeat(65), 'é']) {
      expect((await app.request('/ok', { headers: { 'X-Request-Id': bad } })).headers.get('x-request-id')).not.toBe(bad);
    }
  });
  it('logs an error answer with its status, and the fault under the request id', async () => {
    const { app, lines } = logged();
    const r = await app.request('/boom');
    expect(r.status).toBe(500);
    const id = r.headers.get('x-request-id');
    expect(lines[0]).toMatch(new RegExp(`^${id} error: Error: boom`));
    expect(lines[1]).toMatch(new RegExp(` ${id} GET /boom 500 `));
  });
});

describe('errors: every refusal an envelope with its status; anything else a 500 that says only that', () => {
  it('an HttpError answers its status, message and headers', async () => {
    const { app } = appOf(async () => {
      throw new HttpError(429, 'key: used up', { 'Retry-After': '7' });
    });
    const r = await app.request('/ok');
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('7');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await r.json()).toEqual({ timestamp: 'Sat Nov 21 21:50:00 NPT 2026', status: 429, message: 'key: used up', data: [] });
  });
  it('a fault is a 500 whose message tells nothing of it', async () => {
    const { app } = appOf();
    const r = await app.request('/boom');
    expect(r.status).toBe(500);
    expect(((await r.json()) as { message: string }).message).toBe('Internal server error');
  });
});

describe('compression: gzip for a client that takes it, a measured body for the others', () => {
  it('compresses a large envelope for Accept-Encoding: gzip, and says it varies', async () => {
    const { app } = appOf(compression());
    const r = await app.request('/big', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(r.headers.get('content-encoding')).toBe('gzip');
    expect(r.headers.get('vary')).toMatch(/Accept-Encoding/);
    const plain = await app.request('/big');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toMatch(/Accept-Encoding/);
  });
  it('answers a small envelope as is, with its length', async () => {
    const { app } = appOf(compression());
    const r = await app.request('/ok', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(r.headers.get('content-encoding')).toBeNull();
    expect(Number(r.headers.get('content-length'))).toBe((await r.arrayBuffer()).byteLength);
  });
});

describe('keys: the key (401), then its origins (403)', () => {
  const key = token('m', { allowedOrigins: ['https://maps.example'] });
  const ring = new Keyring([key]);
  it('takes the key from the parameter, X-API-Key or Authorization: Bearer, and gives the grant', async () => {
    const { app } = appOf(keys(ring));
    const ways: { path: string; headers?: Record<string, string> }[] = [
      { path: `/grant?key=${key.key}` },
      { path: '/grant', headers: { 'X-API-Key': key.key } },
      { path: '/grant', headers: { Authorization: `Bearer ${key.key}` } },
    ];
    for (const init of ways) {
      const r = await app.request(init.path, { headers: init.headers });
      expect(r.status).toBe(200);
      expect(((await r.json()) as { data: string[] }).data).toEqual([expect.stringMatching(/^#[0-9a-f]{8}$/)]);
    }
  });
  it('refuses a missing or unknown key with 401, a foreign origin with 403', async () => {
    const { app } = appOf(keys(ring));
    expect((await app.request('/ok')).status).toBe(401);
    expect((await app.request(`/ok?key=${'z'.repeat(24)}`)).status).toBe(401);
    const r = await app.request(`/ok?key=${key.key}`, { headers: { Origin: 'https://evil.example' } });
    expect(r.status).toBe(403);
    expect(((await r.json()) as { message: string }).message).toBe('Origin: "https://evil.example" is not allowed for this key');
    expect((await app.request(`/ok?key=${key.key}`, { headers: { Origin: 'https://maps.example' } })).status).toBe(200);
  });
});

describe("quota: RateLimit headers, 429 once the window's requests are used, 503 while the store cannot count", () => {
  const grant =
    (requests: number): MiddlewareHandler<AppEnv> =>
    async (c, next) => {
      c.set('grant', {
        id: 'g',
        hint: '#g',
        origins: '*',
        quota: { requests, windowSeconds: 60 },
        deleted: false,
        ownPages: false,
      } satisfies Grant);
      await next();
    };
  it('counts each request and refuses the one past the quota with Retry-After', async () => {
    const { app } = appOf(grant(2), quota({ store: new MemoryQuotaStore(now), log: () => {}, now, client: socketClient }));
    const rs = [await app.request('/ok'), await app.request('/ok'), await app.request('/ok')];
    expect(rs.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(rs.map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['1', '0', '0']);
    expect(rs[2]!.headers.get('retry-after')).toBe('60');
    expect(((await rs[2]!.json()) as { message: string }).message).toBe('key: quota of 2 requests per 60 s used up; retry in 60 s');
  });
  it("fails closed: 503 with the store's Retry-After, the outage logged once when it starts and once when it ends", async () => {
    const lines: string[] = [];
    let down = true;
    const store = {
      hit: async () =>
        down ? Promise.reject(new QuotaUnavailableError('redis: gone', 3)) : { allowed: true, remaining: 1, resetSeconds: 5 },
    };
    const { app } = appOf(grant(2), quota({ store, log: (l) => lines.push(l), now, client: socketClient }));
    const rs = [await app.request('/ok'), await app.request('/ok')];
    expect(rs.map((r) => [r.status, r.headers.get('retry-after')])).toEqual([
      [503, '3'],
      [503, '3'],
    ]);
    down = false;
    expect((await app.request('/ok')).status).toBe(200);
    expect(lines).toEqual([
      expect.stringMatching(/quota store unavailable \(redis: gone\)/),
      expect.stringMatching(/available again after 0\.0 s; 2 requests answered 503$/),
    ]);
  });
});

describe('keyedCors: CORS headers for browsers from an origin some key allows', () => {
  const ring = new Keyring([token('c', { allowedOrigins: ['https://maps.example'] })]);
  it('allows an origin some key allows and exposes the rate headers; another gets none', async () => {
    const { app } = appOf(keyedCors(ring));
    const r = await app.request('/ok', { headers: { Origin: 'https://maps.example' } });
    expect(r.headers.get('access-control-allow-origin')).toBe('https://maps.example');
    expect(r.headers.get('access-control-expose-headers')).toMatch(/RateLimit-Remaining/);
    const other = await app.request('/ok', { headers: { Origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
  it('a request without Origin (not a browser) only varies by it', async () => {
    const { app } = appOf(keyedCors(ring));
    const r = await app.request('/ok');
    expect(r.headers.get('vary')).toBe('Origin');
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });
});
