/**
 * `nepal-places serve` as a deployment runs it: SIGHUP reloads --data atomically (a bad file keeps
 * the old data), and --workers N serves one port from N processes sharing the Redis quota.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, get, request } from 'node:http';
import { mkdtemp, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot, loadPbf, nearby, type PlaceIndex } from '../src/index.js';
import { THAMEL, token } from './support/http-fixture.js';
import { startRedis, type TestRedis } from './support/http-redis.js';
import { CORE, TRANSIT } from './support/raw.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** `nepal-places serve ARGS` as a child process, with its output collected. */
function serveCli(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  running.push(child);
  return { child, out, exit };
}
type Run = ReturnType<typeof serveCli>;

/** Waits until the output (`stdout` or `stderr`) matches `re` `times` times. */
async function waitFor(run: Run, re: RegExp, where: 'stdout' | 'stderr' = 'stdout', times = 1): Promise<RegExpMatchArray> {
  const global = new RegExp(re.source, `${re.flags.replace('g', '')}g`);
  for (let i = 0; i < 1200; i++) {
    const all = [...run.out[where].matchAll(global)];
    if (all.length >= times) return all[times - 1]!;
    if (run.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no ${times} × ${re} in ${where}:\n${run.out.stdout}\n${run.out.stderr}`);
}

/** One GET on a connection of its own (so that the cluster hands each to a worker in turn). */
function fresh(url: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () =>
        resolve({ status: res.statusCode!, body: /json/.test(res.headers['content-type'] ?? '') ? JSON.parse(text) : text }),
      );
    }).on('error', reject);
  });
}

const running: ChildProcess[] = [];
let dir: string;
let core: PlaceIndex;
let transit: PlaceIndex;
let redis: TestRedis;
const key = token('w', { quota: { requests: 12, windowSeconds: 3600 } });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'np-workers-'));
  [core, transit] = await Promise.all([loadPbf(CORE), loadPbf(TRANSIT)]);
  await writeFile(join(dir, 'core.places'), buildSnapshot(core));
  await writeFile(join(dir, 'transit.places'), buildSnapshot(transit));
  await writeFile(join(dir, 'tokens.json'), JSON.stringify([key]));
  redis = await startRedis();
}, 120_000);
afterAll(async () => {
  for (const c of running) if (c.exitCode === null) c.kill('SIGKILL');
  await redis?.stop();
});

// The bus stops near Thamel: the two data sets answer differently, so the answer tells which served.
const Q = { type: 'bus_stop', lat: THAMEL.lat, lon: THAMEL.lon, radius: 5, limit: 10, sortBy: true };
const query = `/api/v1/search/nearby?type=bus_stop&lat=${THAMEL.lat}&lon=${THAMEL.lon}&radius=5&limit=10&sortBy=true`;
const ids = (index: PlaceIndex) => nearby(index, Q).map((p) => p.placeId);
const idsOf = (body: any) => body.data.map((p: { placeId: number }) => p.placeId);

/** Replaces the served file as `nepal-places build` does: a whole new file renamed over it. */
async function replace(target: string, bytes: Uint8Array | string) {
  const tmp = `${target}.tmp`;
  await writeFile(tmp, bytes);
  await rename(tmp, target);
}

describe('serve --workers: bad values are one line on stderr and exit 2', () => {
  it.each([
    [['--workers', '0'], /--workers must be a whole number from 1 to 256, got '0'/],
    [['--workers', 'two'], /--workers must be a whole number/],
    [['--workers', '2'], /--workers 2 needs --redis URL/],
  ])('%j', async (args, message) => {
    const run = serveCli(args);
    expect(await run.exit).toBe(2);
    const lines = run.out.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(run.out.stdout).toBe('');
  });
});

describe('SIGHUP reloads --data: the new file whole, or the old data kept when the new one is bad', () => {
  it('one process: core → transit → a corrupt file keeps transit; SIGTERM still exits 0', async () => {
    expect(ids(transit)).not.toEqual(ids(core));
    const file = join(dir, 'single.places');
    await replace(file, buildSnapshot(core));
    const run = serveCli(['--port', '0', '--data', file, '--tokens', join(dir, 'tokens.json')]);
    const [, origin] = await waitFor(run, /API v1 at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/);
    const url = `${origin}${query}&key=${key.key}`;
    expect(idsOf((await fresh(url)).body)).toEqual(ids(core));

    await replace(file, buildSnapshot(transit));
    run.child.kill('SIGHUP');
    await waitFor(run, new RegExp(`reloaded --data \\S*single\\.places: ${transit.size} places \\(was ${core.size} places\\)`));
    expect(idsOf((await fresh(url)).body)).toEqual(ids(transit));

    await replace(file, 'not a snapshot, not a PBF');
    run.child.kill('SIGHUP');
    const [line] = await waitFor(run, /reload of --data .*$/m, 'stderr');
    expect(line).toMatch(new RegExp(`still serving the previous data \\(${transit.size} places\\): .*single\\.places`));
    expect(idsOf((await fresh(url)).body)).toEqual(ids(transit));

    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  }, 120_000);
});

describe('serve --workers 2: one port, two processes, one Redis quota, SIGHUP to all', () => {
  it('requests go to both workers, the quota is counted once across them, both reload', async () => {
    await redis.client.flushall();
    const file = join(dir, 'cluster.places');
    await replace(file, buildSnapshot(core));
    const run = serveCli(['--port', '0', '--data', file, '--tokens', join(dir, 'tokens.json'), '--redis', redis.url, '--workers', '2']);
    await waitFor(run, /2 workers on one port \(pids \d+, \d+\)/);
    const [, origin] = run.out.stdout.match(/API v1 at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/)!;
    const url = `${origin}${query}&key=${key.key}`;

    expect((await fresh(`${origin}/api/v1/health`)).status).toBe(200);
    // 20 requests, each on its own connection, against a quota of 12: each worker counting on
    // its own would let 20 through
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await fresh(url)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(12);
    expect(statuses.filter((s) => s === 429)).toHaveLength(8);
    // the access log's request ids start with each app's own prefix: two workers answered
    const prefixes = new Set([...run.out.stdout.matchAll(/^\S+ ([0-9a-f]{6})-\w+ GET \/api\/v1\/search\/nearby/gm)].map((m) => m[1]));
    expect(prefixes.size).toBe(2);

    await redis.client.flushall();
    await replace(file, buildSnapshot(transit));
    run.child.kill('SIGHUP');
    await waitFor(run, /worker \d+: reloaded --data \S*cluster\.places: \d+ places/, 'stdout', 2);
    for (let i = 0; i < 4; i++) expect(idsOf((await fresh(url)).body)).toEqual(ids(transit));

    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(run.out.stdout).toMatch(/nepal-places: stopped\n$/);
  }, 180_000);

  it('without --tokens every worker accepts the one development key; a killed worker is replaced', async () => {
    await redis.client.flushall();
    const run = serveCli(['--port', '0', '--data', join(dir, 'core.places'), '--redis', redis.url, '--workers', '2']);
    const [, pidA, pidB] = await waitFor(run, /2 workers on one port \(pids (\d+), (\d+)\)/);
    const [, url] = run.out.stdout.match(/^try: curl '([^']+)'$/m)!;
    for (let i = 0; i < 4; i++) expect((await fresh(url!)).status).toBe(200);
    // the web app's page: one page key for the port, which every worker accepts
    const origin = new URL(url!).origin;
    const keys = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const html = (await fresh(`${origin}/`)).body as string;
      const key = /name="nepal-places-key" content="([^"]+)"/.exec(html)![1]!;
      keys.add(key);
      expect((await fresh(`${origin}/api/v1/search?q=thamel&key=${key}`)).status).toBe(200);
    }
    expect(keys.size).toBe(1);

    process.kill(Number(pidA), 'SIGKILL');
    await waitFor(run, new RegExp(`worker ${pidA} exited \\(signal SIGKILL\\); starting another`), 'stderr');
    await waitFor(run, /nepal-places: 2 workers$/m);
    for (let i = 0; i < 4; i++) expect((await fresh(url!)).status).toBe(200);

    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    // the workers are gone with the primary
    expect(() => process.kill(Number(pidB), 0)).toThrow();
  }, 180_000);
});

describe('serve --workers 2: a connection handed to a worker that dies is served by another, never left open', () => {
  it('a worker stopped with a connection handed to it, then killed: that request is answered by the other worker', async () => {
    await redis.client.flushall();
    const run = serveCli(['--port', '0', '--data', join(dir, 'core.places'), '--redis', redis.url, '--workers', '2', '--no-app']);
    const [, pidA] = await waitFor(run, /2 workers on one port \(pids (\d+), (\d+)\)/);
    const [, url] = run.out.stdout.match(/^try: curl '([^']+)'$/m)!;
    expect((await fresh(url!)).status).toBe(200);
    // A stopped worker takes no connection: the primary hands it one (its turn comes within two
    // connections) and waits for its answer, while the other worker serves the rest.
    process.kill(Number(pidA), 'SIGSTOP');
    const outcome = (r: Promise<{ status: number }>) =>
      r.then(
        (x) => x.status,
        (err: NodeJS.ErrnoException) => err.code ?? err.message,
      );
    const first = outcome(fresh(url!));
    await new Promise((r) => setTimeout(r, 100));
    const second = outcome(fresh(url!));
    const settled: unknown[] = [];
    void first.then((x) => settled.push(x));
    void second.then((x) => settled.push(x));
    for (let i = 0; i < 100 && settled.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 500));
    expect(settled).toEqual([200]); // one served, one waiting in the stopped worker's hands
    process.kill(Number(pidA), 'SIGKILL');
    const late = await Promise.race([
      Promise.all([first, second]),
      new Promise((r) => setTimeout(() => r('still waiting after 5 s'), 5000)),
    ]);
    expect(late).toEqual([200, 200]);
    await waitFor(run, new RegExp(`worker ${pidA} exited \\(signal SIGKILL\\); starting another`), 'stderr');
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  }, 180_000);
});

/** `clients` loops of GETs of `url`, each on keep-alive connections (or a new connection per request), until `stop()`: what they met. */
function load(url: string, clients: number, keepAlive: boolean) {
  const agent = new Agent({ keepAlive, maxSockets: clients });
  const seen = { answered: 0, closes: 0, errors: [] as string[], hung: 0 };
  let stopped = false;
  const one = () =>
    new Promise<boolean>((resolve) => {
      const req = request(url, { agent }, (res) => {
        if (res.headers.connection === 'close') seen.closes++;
        res.resume();
        res.on('end', () => (seen.answered++, resolve(true)));
        res.on('error', (err: NodeJS.ErrnoException) => (seen.errors.push(err.code ?? err.message), resolve(true)));
      });
      // a request left without an answer for 5 s hangs (the server answers these in milliseconds)
      req.setTimeout(5000, () => (seen.hung++, req.destroy(new Error('hung'))));
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (err.message === 'hung') return resolve(true);
        if (err.code === 'ECONNREFUSED') return resolve(false); // the port closed: the end of the loop
        seen.errors.push(err.code ?? err.message);
        resolve(true);
      });
      req.end();
    });
  const loops = Array.from({ length: clients }, async () => {
    while (!stopped && (await one()));
  });
  return {
    seen,
    async stop() {
      stopped = true;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}

describe('serve --workers 2 under load: a killed worker leaves no request hanging; SIGTERM resets none', () => {
  it('kill -9 of a worker under 20 clients: every request is answered or fails at once, none hangs; SIGTERM: no reset', async () => {
    await redis.client.flushall();
    const run = serveCli(['--port', '0', '--data', join(dir, 'core.places'), '--redis', redis.url, '--workers', '2', '--no-app']);
    const [, pidA] = await waitFor(run, /2 workers on one port \(pids (\d+), (\d+)\)/);
    const [, url] = run.out.stdout.match(/^try: curl '([^']+)'$/m)!;
    const health = `${new URL(url!).origin}/api/v1/health`;

    const fresh20 = load(health, 20, false);
    for (let i = 0; i < 400 && fresh20.seen.answered < 300; i++) await new Promise((r) => setTimeout(r, 10));
    process.kill(Number(pidA), 'SIGKILL');
    await waitFor(run, /nepal-places: 2 workers$/m);
    const before = fresh20.seen.answered;
    for (let i = 0; i < 400 && fresh20.seen.answered < before + 300; i++) await new Promise((r) => setTimeout(r, 10));
    await fresh20.stop();
    expect(fresh20.seen.hung).toBe(0);
    // only requests in the killed worker's hands may fail, and they fail at once
    expect(fresh20.seen.errors.length).toBeLessThanOrEqual(20);
    expect(fresh20.seen.answered).toBeGreaterThanOrEqual(before + 300);

    const kept = load(health, 20, true);
    for (let i = 0; i < 400 && kept.seen.answered < 400; i++) await new Promise((r) => setTimeout(r, 10));
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    await kept.stop();
    expect(kept.seen).toMatchObject({ errors: [], hung: 0 });
    expect(kept.seen.closes).toBeGreaterThanOrEqual(1);
  }, 180_000);
});
