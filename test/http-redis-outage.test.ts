import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/http/openapi.js';
import { ResponseValidator } from './support/http-schema.js';
import type { NearbyPlace, PlaceIndex } from '../src/index.js';
import { createApp } from '../src/http/app.js';
import { RedisQuotaStore } from '../src/http/redis-quota.js';
import { serve } from '../src/http/server.js';
import { coreIndex, THAMEL, token } from './support/http-fixture.js';
import { startRedis, type TestRedis } from './support/http-redis.js';
import { fetchReply, startServer } from './support/http-server.js';

const validator = new ResponseValidator(openApiDocument());
const root = fileURLToPath(new URL('..', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const key = token('o');
const path = `/api/v1/search/nearby?type=cafe&lat=${THAMEL.lat}&lon=${THAMEL.lon}&key=${key.key}`;

let index: PlaceIndex;
let redis: TestRedis;
beforeAll(async () => {
  index = await coreIndex();
  redis = await startRedis();
});
afterAll(async () => {
  if (redis) process.kill(redis.pid, 'SIGCONT');
  await redis?.stop();
});

/** Stops the Redis process (SIGSTOP): connections stay open, nothing answers. */
const pause = () => process.kill(redis.pid, 'SIGSTOP');
const resume = () => process.kill(redis.pid, 'SIGCONT');

describe('a stalled Redis: 503 with Retry-After at once, the outage logged once, recovery on its own', () => {
  it('answers every request while Redis is stopped, then counts again once it is back', async () => {
    const store = await RedisQuotaStore.connect(redis.url, { prefix: 'outage:' });
    const s = await startServer({ index, tokens: [key], store });
    try {
      expect((await s.request(path)).status).toBe(200);
      pause();
      // 20 at once, then 20 more: none may wait for Redis (a hang fails through the fetch timeout)
      for (let round = 0; round < 2; round++) {
        const replies = await Promise.all(
          Array.from({ length: 20 }, () => fetchReply(s.origin + path, { signal: AbortSignal.timeout(5000) })),
        );
        for (const r of replies) {
          expect(r.status).toBe(503);
          expect(r.body).toMatchObject({ status: 503, data: [] });
          expect(r.body.message).toMatch(/^Service unavailable: quotas cannot be counted right now; retry in 1 s$/);
          expect(r.headers.get('retry-after')).toBe('1');
          expect(validator.errors('/search/nearby', 'get', 503, r.body)).toEqual([]);
        }
      }
      const down = s.lines.filter((l) => l.includes('quota store unavailable'));
      expect(down.length).toBe(1);
      expect(down[0]).toMatch(/timed out after 250 ms/);
      expect(s.lines.filter((l) => / error: |\n\s+at /.test(l))).toEqual([]); // no stack traces
      expect(s.lines.filter((l) => / 503 \d+\.\dms key=#/.test(l)).length).toBe(40);

      resume();
      let status = 0;
      for (let i = 0; i < 50 && status !== 200; i++) {
        await sleep(100);
        status = (await s.request(path)).status;
      }
      expect(status).toBe(200);
      const up = s.lines.filter((l) => l.includes('quota store available again'));
      expect(up.length).toBe(1);
      expect(up[0]).toMatch(/after \d+\.\d s; \d+ requests answered 503$/);
      expect(Number(/; (\d+) requests/.exec(up[0]!)![1])).toBeGreaterThanOrEqual(40);
      expect((await s.request(path)).status).toBe(200);
    } finally {
      resume();
      await s.close();
      await store.close();
    }
  });
});

describe('shutdown within its grace period, whatever Redis does', () => {
  it('close() resolves by the grace period with Redis stopped, and a request cut there is logged as cut', async () => {
    const store = await RedisQuotaStore.connect(redis.url, { prefix: 'grace:' });
    const lines: string[] = [];
    const app = createApp({ index, tokens: [key], store, log: (l) => lines.push(l), nearby: () => new Promise<NearbyPlace[]>(() => {}) });
    const s = await serve(app, { port: 0, signals: [], graceMs: 400, onClose: (msLeft) => store.close(msLeft) });
    try {
      const stuck = fetch(s.origin + path).catch((err: Error) => err);
      // wait until the request is past its quota (and stuck in the search)
      for (let i = 0; i < 100 && (await store.redis.keys('grace:*')).length === 0; i++) await sleep(20);
      pause();
      const t0 = performance.now();
      await s.close();
      const took = performance.now() - t0;
      expect(took).toBeLessThan(3000); // the grace period is 400 ms; without a bound QUIT never returns
      expect(await stuck).toBeInstanceOf(Error);
      const cut = lines.filter((l) => l.includes('/api/v1/search/nearby'));
      expect(cut).toEqual([expect.stringMatching(/ GET \/api\/v1\/search\/nearby\?type=cafe&lat=\S+ cut \d+\.\dms key=#[0-9a-f]{8}$/)]);
      for (let i = 0; i < 20 && store.redis.status !== 'end'; i++) await sleep(10);
      expect(store.redis.status).toBe('end'); // dropped, not waiting for QUIT's answer
    } finally {
      resume();
    }
  });

  it('nepal-places serve --redis exits 0 on SIGTERM while Redis is stopped', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'np-outage-'));
    await writeFile(join(dir, 'tokens.json'), JSON.stringify([key]));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', 'serve', '--port', '0', '--tokens', join(dir, 'tokens.json'), '--redis', redis.url],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      let api: string | undefined;
      for (let i = 0; i < 600 && !api; i++) {
        api = /API v1 at (\S+) /.exec(stdout)?.[1];
        if (!api) await sleep(100);
      }
      expect(api).toBeDefined();
      expect((await fetchReply(`${api}${path.slice('/api/v1'.length)}`)).status).toBe(200);
      pause();
      expect((await fetchReply(`${api}${path.slice('/api/v1'.length)}`)).status).toBe(503);
      child.kill('SIGTERM');
      const code = await Promise.race([exit, sleep(8000).then(() => 'still running')]);
      expect(code).toBe(0);
      expect(stdout).toMatch(/nepal-places: stopped\n$/);
    } finally {
      resume();
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
