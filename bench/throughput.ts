/**
 * Throughput section of `npm run bench` (issue 13, item 17): requests per second of one
 * `/search/nearby` (type=eat, radius 2, limit 5: about 4.6 KB) with 20 connections on
 * 127.0.0.1, side by side in the same run:
 *
 *   bare       a `node:http` server answering the very bytes and headers of that response
 *   1 process  `nepal-places serve` as deployed (access log on, quotas in memory)
 *   floor      the same work on `node:http` without the framework (bench/throughput-floor.ts)
 *   1 process  the same with quotas in Redis
 *   2 workers  `serve --workers 2`, quotas in Redis
 *   varied     the bare server and one process again, the search at 4,096 points in turn (another
 *              answer each time; the list slows the load generator too, hence a bare row of its own)
 *
 * Each server is a child process of its own and autocannon runs on a thread of this one. Rounds
 * alternate the servers so that a busy machine slows them alike; each figure is the median of
 * its rounds. Target: one process at ≥ 50% of the bare server.
 *
 * Run alone: `node --import tsx bench/throughput.ts` (BENCH_TP_SECONDS=3 BENCH_TP_ROUNDS=1 for a
 * quick look; BENCH_TP_CLI=/path/to/dist/cli.js measures another build, BENCH_TP_BEFORE=… adds one as
 * a row of its own).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SECONDS = Number(process.env.BENCH_TP_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_TP_ROUNDS ?? 3);
const CONNECTIONS = 20;
const KEY = 'bench-throughput-key-0123456789';
const PATH = `/api/v1/search/nearby?type=eat&lat=27.7154&lon=85.3123&radius=2&limit=5&key=${KEY}`;
/** One process at this share of the bare server's rate, or better. */
const TARGET = 0.5;

/** The CLI as users run it: the build when there is one, else the sources through tsx. */
export function cliCommand(): string[] {
  // another build to compare with, e.g. of an earlier commit
  if (process.env.BENCH_TP_CLI) return [process.env.BENCH_TP_CLI];
  const dist = join(ROOT, 'dist/cli.js');
  return existsSync(dist) ? [dist] : ['--import', 'tsx', join(ROOT, 'src/cli.ts')];
}

/** A server started as a child process, ready to take requests. */
export interface Child {
  child: ChildProcess;
  origin: string;
  /** The processes that serve (the workers of a cluster, else the child itself). */
  pids: number[];
  stop(): Promise<void>;
}

/** Starts a child and waits for `ready` in its output; resolves with its origin. */
export function start(args: string[], ready: RegExp, what: string, command = process.execPath): Promise<Child> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let seen = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${what} did not start in 120 s:\n${seen}`));
    }, 120_000);
    const look = (d: Buffer) => {
      if (seen.length < 20_000) seen += d.toString();
      const m = ready.exec(seen);
      if (!m) return;
      clearTimeout(timer);
      // past the banner, the output (the access log) is read and dropped, as a log shipper would
      child.stdout!.off('data', look);
      child.stdout!.on('data', () => {});
      const workers = /pids ([\d, ]+)\)/.exec(seen);
      resolve({
        child,
        origin: m[1]!,
        pids: workers ? workers[1]!.split(', ').map(Number) : [child.pid!],
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', (d: Buffer) => void (seen += d.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code}:\n${seen}`));
    });
  });
}

/** The bare server: node:http answering `body` with `headers`, nothing else. */
const BARE = `
const { createServer } = require('node:http');
const { headers, body } = JSON.parse(process.argv[1]);
const bytes = Buffer.from(body, 'base64');
const s = createServer((req, res) => { res.writeHead(200, headers); res.end(bytes); });
s.listen(0, '127.0.0.1', () => console.log('bare at http://127.0.0.1:' + s.address().port));
process.on('SIGTERM', () => { s.close(); s.closeAllConnections(); });`;

/** A throw-away `redis-server` on a random loopback port, without persistence. */
export async function redisServer(): Promise<Child> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const c = await start(
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    /(Ready to accept connections)/,
    'redis-server',
    'redis-server',
  );
  return { ...c, origin: `redis://127.0.0.1:${port}` };
}

/**
 * Paths of the same search at points spread over the fixture's box (85.3002–85.3409 E,
 * 27.7006–27.7160 N), from a fixed seed: each answer is another set of places, so that neither
 * the per-place JSON the app keeps (src/http/nearby-json.ts) nor any cache flatters the figure.
 */
export function variedPaths(count: number): string[] {
  let seed = 42;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  return Array.from({ length: count }, () => {
    const lat = (27.7006 + 0.0154 * next()).toFixed(5);
    const lon = (85.3002 + 0.0407 * next()).toFixed(5);
    return PATH.replace('lat=27.7154&lon=85.3123', `lat=${lat}&lon=${lon}`);
  });
}
const VARIED = variedPaths(4096);

/** One autocannon run of `seconds` against `origin`; requests per second, p50 and p99 ms. */
async function load(origin: string, seconds: number, varied = false) {
  const r = await autocannon({
    url: origin,
    // a list of requests: each connection goes through it in turn, over and over
    requests: varied ? VARIED.map((path) => ({ method: 'GET', path })) : [{ method: 'GET', path: PATH }],
    connections: CONNECTIONS,
    duration: seconds,
    // its own thread, so the load generator does not share this event loop's timing
    workers: 1,
  });
  if (r.errors > 0 || r['2xx'] === 0)
    throw new Error(`${origin}: ${r['2xx']} answers, ${r.non2xx} non-2xx responses and ${r.errors} errors`);
  // non-2xx answers (a 503 when Redis is slower than its 250 ms bound on a busy machine) are
  // counted and shown, not in the rate
  return {
    reqPerSec: r['2xx'] / r.duration,
    answered: r['2xx'] + r.non2xx,
    failed: r.non2xx,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    bytes: r.throughput.average / r.requests.average,
  };
}

/** CPU seconds (user + system) a process and its threads have used so far (Linux: /proc). */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return NaN;
  }
}

/** The rows of the table, by name. */
const ROW = {
  bare: 'bare node:http',
  one: 'serve, 1 process, quota in memory',
  floor: 'its work alone on node:http (floor)',
  redis: 'serve, 1 process, quota in Redis',
  workers: 'serve --workers 2, Redis',
  bareVaried: 'bare node:http, varied points',
  oneVaried: 'serve, 1 process, varied points',
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Runs the section; prints its table and returns the numbers. */
export async function run(): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'np-throughput-'));
  const tokens = join(dir, 'tokens.json');
  await writeFile(tokens, JSON.stringify([{ key: KEY, allowedOrigins: '*', quota: { requests: 1e15, windowSeconds: 3600 } }]));
  const cli = cliCommand();
  const serveArgs = (more: string[]) => [...cli, 'serve', '--port', '0', '--tokens', tokens, ...more];
  const READY = /API v1 at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/;
  const children: Child[] = [];
  // every child is stopped at the end, whatever fails on the way
  const launch = async (made: Promise<Child>) => {
    const c = await made;
    children.push(c);
    return c;
  };
  try {
    const redis = await launch(redisServer());
    const memory = await launch(start(serveArgs([]), READY, 'serve'));

    // the bytes and headers the bare server copies: one real answer of the instance
    const res = await fetch(memory.origin + PATH);
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`serve answered ${res.status}: ${body}`);
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      if (k !== 'date' && k !== 'connection' && k !== 'keep-alive' && k !== 'transfer-encoding') headers[k] = v;
    });
    headers['content-length'] = String(body.length);
    const bare = await launch(
      start(['-e', BARE, JSON.stringify({ headers, body: body.toString('base64') })], /bare at (http:\/\/\S+)/, 'bare server'),
    );
    // the same work without the framework: what is left to Hono, @hono/node-server and our middleware
    const floor = await launch(
      start(['--import', 'tsx', join(ROOT, 'bench/throughput-floor.ts'), tokens], /floor at (http:\/\/\S+)/, 'floor server'),
    );

    const servers: [string, Child][] = [
      [ROW.bare, bare],
      [ROW.one, memory],
      [ROW.floor, floor],
      [ROW.redis, await launch(start(serveArgs(['--redis', redis.origin]), READY, 'serve --redis'))],
      [ROW.workers, await launch(start(serveArgs(['--redis', redis.origin, '--workers', '2']), READY, 'serve --workers 2'))],
      // varied points cost the load generator too (autocannon goes through a list): they are
      // compared with the bare server under the same list
      [ROW.bareVaried, bare],
      [ROW.oneVaried, memory],
    ];
    // another build beside this one in the same run (before/after a change)
    const before = process.env.BENCH_TP_BEFORE;
    if (before)
      servers.push([
        'BENCH_TP_BEFORE, 1 process, memory',
        await launch(start([before, 'serve', '--port', '0', '--tokens', tokens], READY, 'serve (BENCH_TP_BEFORE)')),
      ]);
    const isVaried = (name: string) => name.includes('varied');

    for (const [name, c] of servers) await load(c.origin, 1, isVaried(name)); // warm-up: JIT, connections
    const runs = new Map<string, Awaited<ReturnType<typeof load>>[]>(servers.map(([name]) => [name, []]));
    const cpu = new Map<string, number[]>(servers.map(([name]) => [name, []]));
    const used = (c: Child) => c.pids.reduce((t, pid) => t + cpuSeconds(pid), 0);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, c] of servers) {
        const before = used(c);
        const r = await load(c.origin, SECONDS, isVaried(name));
        runs.get(name)!.push(r);
        // CPU time per answer: what a busy shared machine changes least
        cpu.get(name)!.push((1e6 * (used(c) - before)) / r.answered);
      }
    }

    const rows = servers.map(([name]) => {
      const r = runs.get(name)!;
      return {
        name,
        cpuUs: median(cpu.get(name)!),
        failed: r.reduce((n, x) => n + x.failed, 0),
        reqPerSec: median(r.map((x) => x.reqPerSec)),
        p50Ms: median(r.map((x) => x.p50Ms)),
        p99Ms: median(r.map((x) => x.p99Ms)),
        rounds: r.map((x) => Math.round(x.reqPerSec)),
      };
    });
    const row = (name: string) => rows.find((r) => r.name === name)!;
    const bareRate = row(ROW.bare).reqPerSec;
    const bareCpu = row(ROW.bare).cpuUs;
    const share = row(ROW.one).reqPerSec / bareRate;
    const workers = row(ROW.workers).reqPerSec / row(ROW.redis).reqPerSec;
    const variedShare = row(ROW.oneVaried).reqPerSec / row(ROW.bareVaried).reqPerSec;
    const floorShare = row(ROW.floor).reqPerSec / bareRate;

    console.log(
      `/search/nearby type=eat radius 2 limit 5 (${body.length} B), ${CONNECTIONS} connections, ${ROUNDS} × ${SECONDS} s per server (median), 127.0.0.1`,
    );
    console.log(
      `${'server'.padEnd(36)} ${'2xx/s'.padStart(9)} ${'of bare'.padStart(8)} ${'CPU µs/req'.padStart(11)} ${'bare/it'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}  rounds (2xx/s)`,
    );
    for (const r of rows) {
      // each against the bare server under the same load (the varied rows against its varied row)
      const base = row(isVaried(r.name) ? ROW.bareVaried : ROW.bare);
      console.log(
        `${r.name.padEnd(36)} ${r.reqPerSec.toFixed(0).padStart(9)} ${`${((100 * r.reqPerSec) / base.reqPerSec).toFixed(0)}%`.padStart(8)} ${r.cpuUs.toFixed(0).padStart(11)} ${`${((100 * base.cpuUs) / r.cpuUs).toFixed(0)}%`.padStart(8)} ${String(r.p50Ms).padStart(7)} ${String(r.p99Ms).padStart(7)}  ${r.rounds.join(', ')}${r.failed ? ` (${r.failed} non-2xx)` : ''}`,
      );
    }
    const cpuShare = bareCpu / row(ROW.one).cpuUs;
    console.log(
      `one process / bare: ${(100 * share).toFixed(0)}% of its rate, ${(100 * cpuShare).toFixed(0)}% by CPU per request (target ≥ ${100 * TARGET}%: ${share >= TARGET ? 'PASS' : 'FAIL'}); at varied points ${(100 * variedShare).toFixed(0)}%; the same work without the framework ${(100 * floorShare).toFixed(0)}%; 2 workers / 1 process (Redis): ${workers.toFixed(2)}x`,
    );
    return {
      seconds: SECONDS,
      rounds: ROUNDS,
      connections: CONNECTIONS,
      bytes: body.length,
      rows,
      share,
      variedShare,
      floorShare,
      cpuShare,
      target: TARGET,
      pass: share >= TARGET,
      workers,
    };
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
