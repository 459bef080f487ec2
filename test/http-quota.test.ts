import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaceIndex } from '../src/index.js';
import { MemoryQuotaStore, type QuotaStore } from '../src/http/quota.js';
import { RedisQuotaStore } from '../src/http/redis-quota.js';
import { coreIndex, THAMEL, token } from './support/http-fixture.js';
import { startRedis, type TestRedis } from './support/http-redis.js';
import { startServer, type TestServer } from './support/http-server.js';

let index: PlaceIndex;
let redis: TestRedis;
const stores: QuotaStore[] = [];

beforeAll(async () => {
  redis = await startRedis(); // first, so that afterAll can stop it whatever fails next
  index = await coreIndex();
});
afterAll(async () => {
  for (const s of stores) await s.close?.();
  await redis?.stop();
});

const search = (key: string) => `/api/v1/search/nearby?type=cafe&lat=${THAMEL.lat}&lon=${THAMEL.lon}&limit=1&key=${key}`;

describe('memory store: a fixed window from its first request', () => {
  it('counts, refuses past the limit, and starts again when the window ends', async () => {
    let t = 1_000_000;
    const store = new MemoryQuotaStore(() => t);
    expect(await store.hit('a', 10, 2)).toEqual({ allowed: true, remaining: 1, resetSeconds: 10 });
    t += 4_500;
    expect(await store.hit('a', 10, 2)).toEqual({ allowed: true, remaining: 0, resetSeconds: 6 });
    expect(await store.hit('a', 10, 2)).toEqual({ allowed: false, remaining: 0, resetSeconds: 6 });
    expect(await store.hit('b', 10, 2)).toEqual({ allowed: true, remaining: 1, resetSeconds: 10 }); // keys are separate
    t += 5_499;
    expect((await store.hit('a', 10, 2)).allowed).toBe(false); // 1 ms before the end
    t += 1;
    expect(await store.hit('a', 10, 2)).toEqual({ allowed: true, remaining: 1, resetSeconds: 10 });
  });
});

describe('redis store: one atomic script per hit', () => {
  it('keeps counts under the SHA-256 of the key, never the key, with an expiry', async () => {
    const store = await RedisQuotaStore.connect(redis.url);
    stores.push(store);
    const key = token('h');
    const s = await startServer({ index, tokens: [key], store });
    try {
      expect((await s.request(search(key.key))).status).toBe(200);
    } finally {
      await s.close();
    }
    const id = createHash('sha256').update(key.key).digest('hex');
    const names = await redis.client.keys('*');
    expect(names).toContain(`nepal-places:quota:${id}`);
    expect(names.some((n) => n.includes(key.key))).toBe(false);
    expect(await redis.client.get(`nepal-places:quota:${id}`)).toBe('1');
    const ttl = await redis.client.pttl(`nepal-places:quota:${id}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('gives a key left without expiry an expiry', async () => {
    const store = await RedisQuotaStore.connect(redis.url, { prefix: 'stale:' });
    stores.push(store);
    await redis.client.set('stale:x', '7');
    expect(await store.hit('x', 5, 10)).toEqual({ allowed: true, remaining: 2, resetSeconds: 5 });
    expect(await redis.client.pttl('stale:x')).toBeGreaterThan(0);
  });

  it('a lost Redis makes requests fail fast with a 503 and Retry-After, not hang', async () => {
    const own = await startRedis();
    const store = await RedisQuotaStore.connect(own.url);
    stores.push(store);
    const key = token('z');
    const lines: string[] = [];
    const s = await startServer({ index, tokens: [key], store, log: (l) => lines.push(l) });
    try {
      expect((await s.request(search(key.key))).status).toBe(200);
      await own.stop();
      await sleep(100);
      const r = await s.request(search(key.key));
      expect(r.status).toBe(503);
      expect(r.body).toMatchObject({ status: 503, data: [] });
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(lines.filter((l) => l.includes('quota store unavailable')).length).toBe(1);
      expect(lines.some((l) => l.includes(' error: '))).toBe(false);
    } finally {
      await s.close();
      await own.stop();
    }
  });

  it('refuses to start against an unreachable Redis', async () => {
    await expect(RedisQuotaStore.connect('redis://127.0.0.1:1')).rejects.toThrow();
  });
});

describe.each([
  ['memory', async () => new MemoryQuotaStore()],
  [
    'redis',
    async () => {
      const s = await RedisQuotaStore.connect(redis.url);
      stores.push(s);
      return s;
    },
  ],
] as const)('quota over HTTP, %s store', (_, makeStore) => {
  let store: QuotaStore;
  let server: TestServer;
  // 2 s: long enough that four quick requests fit in one window even on a busy machine
  const short = token('s', { quota: { requests: 3, windowSeconds: 2 } });
  const fifty = token('f', { quota: { requests: 50, windowSeconds: 3600 } });

  beforeAll(async () => {
    store = await makeStore();
    server = await startServer({ index, tokens: [short, fifty], store });
  });
  afterAll(() => server?.close());

  it('exhausts the quota, then admits again once the window has passed', async () => {
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await server.request(search(short.key));
      expect(r.status).toBe(200);
      remaining.push(r.headers.get('ratelimit-remaining'));
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const refused = await server.request(search(short.key));
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^key: quota of 3 requests per 2 s used up/);
    const wait = Number(refused.headers.get('retry-after'));
    expect([1, 2]).toContain(wait);
    expect(refused.headers.get('ratelimit-reset')).toBe(String(wait));
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    await sleep(wait * 1000 + 100);
    const again = await server.request(search(short.key));
    expect(again.status).toBe(200);
    expect(again.headers.get('ratelimit-remaining')).toBe('2');
  });

  it('200 parallel requests against a quota of 50 admit exactly 50', async () => {
    const replies = await Promise.all(Array.from({ length: 200 }, () => server.request(search(fifty.key))));
    const admitted = replies.filter((r) => r.status === 200);
    expect(admitted.length).toBe(50);
    expect(replies.filter((r) => r.status === 429).length).toBe(150);
    // each admitted request saw a different count: 49 left, 48 left, … 0 left
    const left = admitted.map((r) => Number(r.headers.get('ratelimit-remaining'))).sort((a, b) => a - b);
    expect(left).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });
});

describe('redis store: servers behind a load balancer share one quota', () => {
  it('200 parallel requests spread over two servers admit exactly 50', async () => {
    const key = token('p', { quota: { requests: 50, windowSeconds: 3600 } });
    const [a, b] = await Promise.all([RedisQuotaStore.connect(redis.url), RedisQuotaStore.connect(redis.url)]);
    stores.push(a, b);
    const one = await startServer({ index, tokens: [key], store: a });
    const two = await startServer({ index, tokens: [key], store: b });
    try {
      // One request to each first, so both count in the shared quota whatever order the
      // parallel ones then arrive in (one server may take all that are left, and did once).
      const first = [await one.request(search(key.key)), await two.request(search(key.key))];
      expect(first.map((r) => r.status)).toEqual([200, 200]);
      expect(first.map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['49', '48']);
      const replies = await Promise.all(Array.from({ length: 198 }, (_, i) => (i % 2 ? one : two).request(search(key.key))));
      expect(replies.filter((r) => r.status === 200).length).toBe(48);
      expect(replies.filter((r) => r.status === 429).length).toBe(150);
    } finally {
      await one.close();
      await two.close();
    }
  });
});
