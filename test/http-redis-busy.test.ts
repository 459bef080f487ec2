/**
 * A busy process is not a Redis outage: the quota store tells an answer that is late because
 * this process (or Redis) was busy from a Redis that does not answer at all.
 */
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaceIndex } from '../src/index.js';
import { QuotaUnavailableError } from '../src/http/quota.js';
import { RedisQuotaStore } from '../src/http/redis-quota.js';
import { coreIndex, THAMEL, token } from './support/http-fixture.js';
import { startRedis, type TestRedis } from './support/http-redis.js';
import { startServer } from './support/http-server.js';

const key = token('b');
const path = `/api/v1/search/nearby?type=cafe&lat=${THAMEL.lat}&lon=${THAMEL.lon}&key=${key.key}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Keeps this thread busy for `ms`, as a request burst on a loaded machine does. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/** `total` GETs of `url`, `concurrency` at a time over keep-alive connections: their statuses. */
async function burst(url: string, total: number, concurrency: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const statuses: number[] = [];
  let next = 0;
  const one = () =>
    new Promise<number>((resolve, reject) => {
      request(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      }).on('error', reject).end();
    });
  try {
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        statuses.push(await one());
      }
    }));
  } finally {
    agent.destroy();
  }
  return statuses;
}

let index: PlaceIndex;
let redis: TestRedis;
beforeAll(async () => {
  index = await coreIndex();
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
});

describe('an answer Redis has sent is not lost to a busy event loop', () => {
  it('a hit whose answer waits in the socket while this thread is busy past the bound is counted', async () => {
    const store = await RedisQuotaStore.connect(redis.url, { prefix: 'busy-hit:' });
    try {
      await store.hit('warm', 60, 10); // the script loaded
      for (let i = 0; i < 3; i++) {
        const hit = store.hit('k', 60, 10);
        busy(600); // Redis answers within a millisecond; the thread reads it only after this
        await expect(hit).resolves.toMatchObject({ allowed: true, remaining: 9 - i });
      }
      expect(Number(await redis.client.get('busy-hit:k'))).toBe(3);
    } finally {
      await store.close();
    }
  });
});

describe('a burst on a busy CPU: no 503, no outage in the log, while Redis is healthy', () => {
  it('1,000 requests at 200 concurrency, each request keeping the thread busy, are all answered 200', async () => {
    const store = await RedisQuotaStore.connect(redis.url, { prefix: 'busy-burst:' });
    // Each search holds the thread for 3 ms: 200 requests read in one turn of the event loop
    // hold it for 600 ms, longer than the 250 ms bound, while their quota answers wait.
    const s = await startServer({ index, tokens: [key], store, nearby: () => (busy(3), []) });
    try {
      const statuses = await burst(s.origin + path, 1000, 200);
      const counts = Object.fromEntries([...new Set(statuses)].map((st) => [st, statuses.filter((x) => x === st).length]));
      expect(counts).toEqual({ 200: 1000 });
      expect(s.lines.filter((l) => /unavailable/.test(l))).toEqual([]);
      const [counted] = await redis.client.mget((await redis.client.keys('busy-burst:*'))[0]!);
      expect(Number(counted)).toBe(1000);
    } finally {
      await s.close();
      await store.close();
    }
  }, 60_000);
});

describe('a real outage is still told at once', () => {
  it('a stalled Redis (SIGSTOP) fails a hit within the bound; a killed one fails it at once; both logged once', async () => {
    const own = await startRedis();
    own.client.on('error', () => {}); // it reconnects in vain once the server is killed
    const store = await RedisQuotaStore.connect(own.url, { prefix: 'down:', retryMs: 100 });
    const s = await startServer({ index, tokens: [key], store });
    try {
      expect((await s.request(path)).status).toBe(200);
      process.kill(own.pid, 'SIGSTOP');
      const t0 = performance.now();
      const err = await store.hit('k', 60, 10).catch((e: unknown) => e);
      const took = performance.now() - t0;
      expect(err).toBeInstanceOf(QuotaUnavailableError);
      expect((err as Error).message).toBe('redis: quota command timed out after 250 ms');
      expect(took).toBeGreaterThanOrEqual(249);
      expect(took).toBeLessThan(2000); // the bound is 250 ms; generous headroom for a loaded machine
      expect((await s.request(path)).status).toBe(503);
      process.kill(own.pid, 'SIGCONT');
      let status = 0;
      for (let i = 0; i < 50 && status !== 200; i++) {
        await sleep(100);
        status = (await s.request(path)).status;
      }
      expect(status).toBe(200);

      process.kill(own.pid, 'SIGKILL');
      await sleep(200);
      const t1 = performance.now();
      expect((await s.request(path)).status).toBe(503);
      expect(performance.now() - t1).toBeLessThan(1000);
      const down = s.lines.filter((l) => l.includes('quota store unavailable'));
      expect(down).toHaveLength(2);
      expect(down[0]).toMatch(/timed out after 250 ms/);
    } finally {
      try {
        process.kill(own.pid, 'SIGCONT');
      } catch {
        // already gone
      }
      await s.close();
      await store.close(100);
      await own.stop();
    }
  }, 30_000);
});
