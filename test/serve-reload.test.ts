/**
 * `nepal-places serve` reloads on SIGHUP without stopping to answer: the new file is loaded on a
 * thread of its own; a file that never ends (a pipe, a device) is refused at once and the old data
 * kept; SIGTERM during a reload ends the process within its grace period.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { Agent, get } from 'node:http';
import { mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot, loadPbf, type PlaceIndex } from '../src/index.js';
import { CORE, TRANSIT } from './support/raw.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The longest a /health may take while the fixture reloads, in ms: a fixed bound, generous for a loaded
 * 2-core machine. The thread that loads the file (at a lower priority) hands over the snapshot's bytes
 * with the arrays it decoded and the router's graphs it made; the serving thread only wraps them and
 * warms the search, in slices of 8 ms with a turn of the event loop between. Measured through three
 * reloads of the fixture PBF at a load average of 12 to 15 on 2 cores, where a /health alone at times
 * takes 60 ms: 73 to 245 ms at most. Reading the snapshot and warming its search in one go on the
 * serving thread, as before, kept a request waiting 310 to 910 ms on the same machine.
 */
const MAX_WAIT_MS = 250;

/** The grace period of a shutdown (serve's default), and a second for the process to end. */
const GRACE_MS = 10_000 + 1000;

/** `nepal-places serve ARGS` as a child process, with its output collected. */
function serveCli(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve', '--port', '0', '--no-app', ...args], {
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

/** Waits until the output matches `re` `times` times; the match. */
async function waitFor(run: Run, re: RegExp, where: 'stdout' | 'stderr' = 'stdout', times = 1, ms = 120_000): Promise<RegExpMatchArray> {
  const global = new RegExp(re.source, `${re.flags.replace('g', '')}g`);
  for (const end = Date.now() + ms; Date.now() < end;) {
    const all = [...run.out[where].matchAll(global)];
    if (all.length >= times) return all[times - 1]!;
    if (run.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no ${times} × ${re} in ${where}:\n${run.out.stdout}\n${run.out.stderr}`);
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** GET /health: its status, the places it says are served, and how long it took. */
function health(origin: string): Promise<{ status: number; places: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    get(`${origin}/api/v1/health`, { agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, places: JSON.parse(text).data[0].places, ms: performance.now() - t0 }));
    }).on('error', reject);
  });
}

async function started(run: Run): Promise<string> {
  return (await waitFor(run, /API v1 at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/))[1]!;
}

const running: ChildProcess[] = [];
let dir: string;
let core: PlaceIndex;
let transit: PlaceIndex;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'np-reload-'));
  [core, transit] = await Promise.all([loadPbf(CORE), loadPbf(TRANSIT)]);
  await writeFile(join(dir, 'core.places'), buildSnapshot(core));
  await writeFile(join(dir, 'transit.places'), buildSnapshot(transit));
}, 120_000);
afterAll(async () => {
  agent.destroy();
  for (const c of running) if (c.exitCode === null) c.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

describe('a reload loads off the serving thread: requests meanwhile are answered at once', () => {
  it(`a probe of /health every 5 ms through three reloads of the fixture PBF never waits over ${MAX_WAIT_MS} ms`, async () => {
    const run = serveCli(['--data', CORE]);
    const origin = await started(run);
    let stop = false;
    const waits: number[] = [];
    const probe = (async () => {
      while (!stop) {
        // a request that fails (a keep-alive connection the server dropped after a long stall) counts as one that never ended
        const h = await health(origin).catch(() => ({ status: 200, ms: Infinity }));
        expect(h.status).toBe(200);
        waits.push(h.ms);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    for (let i = 1; i <= 3; i++) {
      run.child.kill('SIGHUP');
      await waitFor(run, /reloaded --data \S+: \d+ places \(was \d+ places\) in \d+ ms/, 'stdout', i);
    }
    stop = true;
    await probe;
    expect(waits.length).toBeGreaterThan(20);
    expect(Math.max(...waits)).toBeLessThanOrEqual(MAX_WAIT_MS);
    expect((await health(origin)).places).toBe(core.size);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
  }, 180_000);
});

describe('a data file that never ends is refused before it is read; the old data keeps serving', () => {
  it.each([
    ['a character device (/dev/zero)', async (path: string) => symlink('/dev/zero', path), /is a character device, not a regular file/],
    ['a named pipe', async (path: string) => void execFileSync('mkfifo', [path]), /is a named pipe, not a regular file/],
  ])(
    'live.places → %s: the reload fails at once, later reloads work',
    async (_, make, why) => {
      const live = join(dir, `live-${running.length}.places`);
      await symlink(join(dir, 'core.places'), live);
      const run = serveCli(['--data', live]);
      const origin = await started(run);
      expect((await health(origin)).places).toBe(core.size);

      const bad = `${live}.bad`;
      await make(bad);
      await rename(bad, live);
      run.child.kill('SIGHUP');
      const [line] = await waitFor(run, /reload of --data .*$/m, 'stderr', 1, 60_000);
      expect(line).toMatch(
        new RegExp(
          `live-\\d+\\.places failed after \\d+ ms; still serving the previous data \\(${core.size} places\\): .*live-\\d+\\.places: ${why.source}`,
        ),
      );
      expect((await health(origin)).places).toBe(core.size);

      await symlink(join(dir, 'transit.places'), bad);
      await rename(bad, live);
      run.child.kill('SIGHUP');
      await waitFor(run, new RegExp(`reloaded --data \\S+: ${transit.size} places \\(was ${core.size} places\\)`));
      expect((await health(origin)).places).toBe(transit.size);

      run.child.kill('SIGTERM');
      expect(await run.exit).toBe(0);
    },
    180_000,
  );
});

describe('SIGTERM during a reload stops it and exits within the grace period', () => {
  it('the reload in progress is dropped, not finished; exit 0', async () => {
    const run = serveCli(['--data', CORE]);
    const origin = await started(run);
    run.child.kill('SIGHUP');
    // a reload of the fixture PBF takes seconds (a thread to start, the PBF to load): it is under way
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(Date.now() - t0).toBeLessThan(GRACE_MS);
    expect(run.out.stdout).not.toMatch(/reloaded --data/);
    expect(run.out.stdout).toMatch(/nepal-places: stopped/);
    await expect(health(origin)).rejects.toThrow();
  }, 120_000);
});
