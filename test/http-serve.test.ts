import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NearbyPlace } from '../src/index.js';
import { createApp } from '../src/http/app.js';
import { serve } from '../src/http/server.js';
import { coreIndex, THAMEL, token } from './support/http-fixture.js';
import { startRedis, type TestRedis } from './support/http-redis.js';
import { fetchReply } from './support/http-server.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** `nepal-places serve ARGS` as a child process, with its output collected. */
function cli(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out, exit };
}

/** Waits until the child's standard output matches `re`: checked on each chunk it writes; refused when it exits first. */
function waitFor(run: ReturnType<typeof cli>, re: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const stop = () => {
      run.child.stdout!.off('data', check);
      run.child.off('exit', exited);
    };
    // registered after cli()'s own listener, so `out.stdout` already holds the chunk
    const check = () => {
      const m = re.exec(run.out.stdout);
      if (m) {
        stop();
        resolve(m);
      }
    };
    const exited = () => {
      stop();
      reject(new Error(`no ${re} in output:\n${run.out.stdout}\n${run.out.stderr}`));
    };
    run.child.stdout!.on('data', check);
    run.child.once('exit', exited);
    check();
    if (run.child.exitCode !== null) exited();
  });
}

/** A log that keeps its lines, and waits for one that matches. */
function logLines() {
  const lines: string[] = [];
  const waiting: { re: RegExp; resolve: (line: string) => void }[] = [];
  return {
    lines,
    log(line: string) {
      lines.push(line);
      for (const w of waiting.splice(0)) {
        if (w.re.test(line)) w.resolve(line);
        else waiting.push(w);
      }
    },
    /** The first line, logged already or to come, that matches `re`. */
    next(re: RegExp): Promise<string> {
      const seen = lines.find((l) => re.test(l));
      return seen !== undefined ? Promise.resolve(seen) : new Promise((resolve) => waiting.push({ re, resolve }));
    },
  };
}

const running: ChildProcess[] = [];
afterAll(() => {
  for (const c of running) if (c.exitCode === null) c.kill('SIGKILL');
});

describe('serve: bad arguments are one line on stderr and exit 2', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'np-serve-'));
    await writeFile(join(dir, 'bad-tokens.json'), '[{"key":"short"}]');
  });
  it.each([
    [['--port', 'abc'], /--port must be an integer from 0 to 65535/],
    [['--port', '70000'], /--port must be an integer/],
    [['--bogus'], /Unknown option '--bogus'/],
    [['extra'], /Unexpected argument 'extra'|positional/],
    [['--redis', 'http://127.0.0.1:6379'], /--redis must be a URL such as redis:/],
    [['--tokens'], /--tokens/],
    [['--data', '/x.pbf', '--pbf', '/y.pbf'], /--pbf is another name for --data/],
    [['--app-quota', '0/60'], /--app-quota must be REQUESTS\/SECONDS with positive whole numbers/],
    [['--app-quota', 'lots'], /--app-quota must be REQUESTS\/SECONDS/],
    [['--no-app', '--app-quota', '10/60'], /--app-quota .* cannot go with --no-app/],
  ])('%j', async (args, message) => {
    const run = cli(args);
    expect(await run.exit).toBe(2);
    const lines = run.out.stderr.trimEnd().split('\n');
    expect(lines.length).toBe(1);
    expect(lines[0]).toMatch(/^nepal-places serve: /);
    expect(lines[0]).toMatch(message);
    expect(run.out.stdout).toBe('');
  });
});

describe('serve: a bad data or tokens file is one line on stderr and exit 1 (the data failed, not the usage)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'np-serve-'));
    await writeFile(join(dir, 'bad-tokens.json'), '[{"key":"short"}]');
    await writeFile(join(dir, 'junk.places'), 'neither a snapshot nor a PBF');
  });
  it.each([
    [['--pbf', '/no/such/file.osm.pbf'], /\/no\/such\/file\.osm\.pbf: no such file/],
    [['--data', 'JUNK'], /junk\.places: /],
    [['--tokens', 'BAD'], /bad-tokens\.json\[0\]\.key: must be 16 to 128 characters/],
  ])('%j', async (args, message) => {
    const run = cli(args.map((a) => (a === 'BAD' ? join(dir, 'bad-tokens.json') : a === 'JUNK' ? join(dir, 'junk.places') : a)));
    expect(await run.exit).toBe(1);
    const lines = run.out.stderr.trimEnd().split('\n');
    expect(lines).toEqual([expect.stringMatching(/^nepal-places serve: /)]);
    expect(lines[0]).toMatch(message);
    expect(run.out.stdout).toBe('');
  });
});

describe('serve: the default data, a development key and a curl that answers with real places', () => {
  it('prints a key and a curl of /search/nearby; the URL answers; SIGTERM stops it with exit 0', async () => {
    const run = cli(['--port', '0']);
    running.push(run.child);
    const [, url] = await waitFor(run, /^try: curl '(http:\/\/127\.0\.0\.1:\d+\/api\/v1\/search\/nearby\?[^']+)'$/m);
    const [, key] = await waitFor(run, /development key .*: (\S+)$/m);
    expect(url).toContain(`key=${key}`);
    expect(run.out.stdout).toMatch(/kathmandu-core_2026-01-10\.osm\.pbf/);
    expect(run.out.stdout).toMatch(/OpenStreetMap contributors/);
    const r = await fetchReply(url!);
    expect(r.status).toBe(200);
    expect(r.body.data.length).toBeGreaterThan(0);
    expect(r.body.data.every((p: NearbyPlace) => p.name !== undefined && p.osmId > 0)).toBe(true);
    // the access log line of that request, without the key
    await waitFor(run, /GET \/api\/v1\/search\/nearby\?\S+ 200 \d+\.\dms key=#[0-9a-f]{8}$/m);
    expect(run.out.stdout.split('\n').filter((l) => l.includes(key!)).length).toBe(2); // only the key line and the curl

    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(run.out.stdout).toMatch(/nepal-places: stopped\n$/);
    expect(run.out.stderr).toBe('');
    await expect(fetch(url!)).rejects.toThrow();
  });

  it('a port in use is one line on stderr and exit 1', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const run = cli(['--port', String(port)]);
      expect(await run.exit).toBe(1);
      expect(run.out.stderr.trimEnd().split('\n')).toEqual([
        expect.stringMatching(/^nepal-places serve: cannot listen on 127\.0\.0\.1:\d+: .*EADDRINUSE/),
      ]);
    } finally {
      blocker.close();
    }
  });
});

describe('serve: --tokens and --redis', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.stop());

  it('serves the keys of the tokens file with quotas in Redis, and prints no development key', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'np-serve-'));
    const key = token('k', { quota: { requests: 2, windowSeconds: 600 } });
    await writeFile(join(dir, 'tokens.json'), JSON.stringify([key]));
    const run = cli(['--port', '0', '--tokens', join(dir, 'tokens.json'), '--redis', redis.url]);
    running.push(run.child);
    const [, api] = await waitFor(run, /API v1 at (\S+) .*quotas in redis$/m);
    expect(run.out.stdout).not.toMatch(/development key/);
    const url = `${api}/search/nearby?type=cafe&lat=${THAMEL.lat}&lon=${THAMEL.lon}&key=${key.key}`;
    expect((await fetchReply(url)).status).toBe(200);
    expect((await fetchReply(url)).status).toBe(200);
    expect((await fetchReply(url)).status).toBe(429);
    expect((await redis.client.keys('nepal-places:quota:*')).length).toBe(1);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  });

  it('an unreachable Redis is one line on stderr and exit 1', async () => {
    const run = cli(['--port', '0', '--redis', 'redis://127.0.0.1:1']);
    expect(await run.exit).toBe(1);
    expect(run.out.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^nepal-places serve: cannot connect to redis at redis:\/\/127\.0\.0\.1:1: /),
    ]);
  });
});

describe('graceful shutdown: stop accepting, finish in-flight requests', () => {
  it('lets an in-flight request finish while refusing new connections', async () => {
    const index = await coreIndex();
    const key = token('i');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    let closedStore = false;
    const app = createApp({
      index,
      tokens: [key],
      log: () => {},
      nearby: async () => {
        entered();
        await gate;
        return [];
      },
    });
    const s = await serve(app, { port: 0, signals: [], onClose: () => void (closedStore = true) });
    const slow = fetchReply(`${s.origin}/api/v1/search/nearby?type=cafe&lat=1&lon=1&key=${key.key}`);
    await inside;
    const closing = s.close();
    // no new connections once closing
    await expect(fetch(`${s.origin}/api/v1/openapi.json`, { headers: { Connection: 'close' } })).rejects.toThrow();
    expect(closedStore).toBe(false);
    release();
    const r = await slow;
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 200, message: 'Success', data: [] });
    await closing;
    await s.closed;
    expect(closedStore).toBe(true);
  });

  it('cuts a request that outlasts the grace period', async () => {
    const index = await coreIndex();
    const key = token('j');
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const nearby = () => {
      entered();
      return new Promise<NearbyPlace[]>(() => {});
    };
    const app = createApp({ index, tokens: [key], log: () => {}, nearby });
    const s = await serve(app, { port: 0, signals: [], graceMs: 200 });
    // (handled at once: the shutdown waits for the cut to be logged, and the fetch fails meanwhile)
    const stuck = fetch(`${s.origin}/api/v1/search/nearby?type=cafe&lat=1&lon=1&key=${key.key}`).catch((err: Error) => err);
    await inside; // the request is in the app when the shutdown starts
    await s.close();
    expect(await stuck).toBeInstanceOf(Error);
  });
});

describe('a request whose client leaves before the answer is logged once, as cut', () => {
  // `serve()` tells the app through the response (CUT); another Node server through its 'close'
  const servers = {
    'serve()': async (app: ReturnType<typeof createApp>) => {
      const s = await serve(app, { port: 0, signals: [] });
      return { origin: s.origin, close: () => s.close() };
    },
    "@hono/node-server's serve": async (app: ReturnType<typeof createApp>) => {
      const { serve: honoServe } = await import('@hono/node-server');
      const server = await new Promise<import('node:http').Server>((resolve) => {
        const s = honoServe({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as import('node:http').Server));
      });
      const { port } = server.address() as import('node:net').AddressInfo;
      return {
        origin: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      };
    },
  };
  for (const [name, start] of Object.entries(servers)) {
    it(`under ${name}`, async () => {
      const index = await coreIndex();
      const key = token('k');
      const { lines, log, next } = logLines();
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let entered!: () => void;
      const inside = new Promise<void>((r) => (entered = r));
      const app = createApp({
        index,
        tokens: [key],
        log,
        nearby: async () => {
          entered();
          await gate;
          return [];
        },
      });
      const s = await start(app);
      try {
        const client = new AbortController();
        const left = fetch(`${s.origin}/api/v1/search/nearby?type=cafe&lat=1&lon=1&key=${key.key}`, { signal: client.signal }).catch(
          (err: Error) => err,
        );
        await inside;
        client.abort();
        expect(await left).toBeInstanceOf(Error);
        // logged when the connection closes, while the search is still running
        await next(/ cut /);
        expect(lines).toEqual([
          expect.stringMatching(/ GET \/api\/v1\/search\/nearby\?type=cafe&lat=1&lon=1 cut \d+\.\dms key=#[0-9a-f]{8}$/),
        ]);
        // and not again when the search ends: the search ends at once, long before the next
        // request's round trip, whose line comes after any line of the first
        release();
        const ok = await fetch(`${s.origin}/api/v1/search/nearby?type=cafe&lat=1&lon=1&key=${key.key}`);
        expect(ok.status).toBe(200);
        await ok.arrayBuffer();
        await next(/ 200 /);
        // a request answered is logged once with its status
        expect(lines.slice(1)).toEqual([expect.stringMatching(/ 200 \d+\.\dms key=#/)]);
      } finally {
        await s.close();
      }
    });
  }
});
