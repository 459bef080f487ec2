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
      })
        .on('error', reject)
        .end();
    });
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < total) {
          next++;
          statuses.push(await one());
        }
      }),
    );
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

// Holds Redis for ARGV[1] ms (a long script or a slow command another client sent first).
const HOLD = `local t = redis.call('TIME')
local stop = t[1] * 1000000 + t[2] + ARGV[1] * 1000
repeat t = redis.call('TIME') until t[1] * 1000000 + t[2] >= stop
return 1`;

describe('a slow Redis is not an outage: a command queued behind answers still coming waits up to slowMs', () => {
  it('hits queued behind 200 ms commands are counted, 400 ms after they were sent', async () => {
    const store = await RedisQuotaStore.connect(redis.url, { prefix: 'busy-slow:' });
    try {
      await store.hit('warm', 60, 10);
      // One connection, answered in order: hold, a, hold, b. No answer to a or b comes for
      // 400 ms, but the first hold's does at 200 ms: Redis is busy, not gone.
      const t0 = performance.now();
      void store.redis.eval(HOLD, 0, 200);
      const a = store.hit('a', 60, 10);
      void store.redis.eval(HOLD, 0, 200);
      const b = store.hit('b', 60, 10);
      await expect(a).resolves.toMatchObject({ allowed: true, remaining: 9 });
      await expect(b).resolves.toMatchObject({ allowed: true, remaining: 9 });
      expect(performance.now() - t0).toBeGreaterThanOrEqual(350);
    } finally {
      await store.close();
    }
  });

  it('past slowMs a hit fails, saying Redis answers slowly', async () => {
    const store = await RedisQuotaStore.connect(redis.url, { prefix: 'busy-slower:' });
    try {
      await store.hit('warm', 60, 10);
      // Holds of 20 kB each: Redis reads 16 kB at a time, so it answers one hold (and the hit
      // before it) per read, every 200 ms. The sixth hit is answered after 1.2 s.
      const pad = 'x'.repeat(20_000);
      const hits = [];
      for (let i = 0; i < 6; i++) {
        void store.redis.eval(HOLD, 0, 200, pad);
        hits.push(
          store.hit(`c${i}`, 60, 10).then(
            () => 'counted',
            (err: Error) => err.message,
          ),
        );
      }
      const outcomes = await Promise.all(hits);
      expect(outcomes.slice(0, 3)).toEqual(['counted', 'counted', 'counted']);
      expect(outcomes[5]).toBe('redis: quota command timed out after 1000 ms (Redis answers slowly)');
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
