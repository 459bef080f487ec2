/**
 * `nepal-places serve` as a child process for the reliability run: its own lines kept (the access
 * log left out) so that the run can wait for a reload's line or a worker's death, its exit awaited
 * and timed, and its memory read from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cliCommand } from './throughput.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** An access-log line (`<ISO time> <request id> <method> …`): read and dropped, as a log shipper would. */
const ACCESS = /^\d{4}-\d\d-\d\dT\S+ \S+ [A-Z]+ /;
/** Lines kept per stream: the server's own lines are few; this bounds a run that goes wrong. */
const KEEP = 5000;

/** A running `serve`. */
export interface ServeRun {
  child: ChildProcess;
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  /** The processes that serve: the workers of `--workers N`, else the child itself. */
  pids: number[];
  /** Its lines so far, access log left out: standard output and standard error. */
  lines: { stdout: string[]; stderr: string[] };
  /** Resolves with the `times`-th line of `where` matching `re`; rejects after `ms` or at the child's exit. */
  waitFor(re: RegExp, where?: 'stdout' | 'stderr', times?: number, ms?: number): Promise<RegExpMatchArray>;
  /** The exit code (null for a signal). */
  exited: Promise<number | null>;
  /** SIGTERM, then the exit; SIGKILL after 15 s. */
  stop(): Promise<void>;
}

/** Starts `nepal-places serve ARGS` (dist/cli.js as deployed, see `cliCommand`) and waits for its banner. */
export async function serveRun(args: string[]): Promise<ServeRun> {
  const child = spawn(process.execPath, [...cliCommand(), 'serve', '--port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = { stdout: [] as string[], stderr: [] as string[] };
  const waiters = new Set<() => void>();
  for (const where of ['stdout', 'stderr'] as const) {
    let rest = '';
    child[where]!.setEncoding('utf8');
    child[where]!.on('data', (d: string) => {
      const parts = (rest + d).split('\n');
      rest = parts.pop()!;
      for (const l of parts) if (!ACCESS.test(l) && lines[where].length < KEEP) lines[where].push(l);
      for (const w of waiters) w();
    });
  }
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      resolve(code);
      for (const w of waiters) w();
    }),
  );
  const waitFor = (re: RegExp, where: 'stdout' | 'stderr' = 'stdout', times = 1, ms = 120_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const look = () => {
        const found = lines[where].map((l) => re.exec(l)).filter((m): m is RegExpExecArray => m !== null);
        if (found.length >= times) return done(() => resolve(found[times - 1]!));
        if (child.exitCode !== null || child.signalCode !== null)
          done(() => reject(new Error(`serve exited before ${times} × ${re}:\n${[...lines.stdout, ...lines.stderr].join('\n')}`)));
      };
      const timer = setTimeout(
        () =>
          done(() => reject(new Error(`no ${times} × ${re} on ${where} in ${ms} ms:\n${[...lines.stdout, ...lines.stderr].join('\n')}`))),
        ms,
      );
      const done = (then: () => void) => {
        clearTimeout(timer);
        waiters.delete(look);
        then();
      };
      waiters.add(look);
      look();
    });
  try {
    const [, origin] = await waitFor(/API v1 at (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/);
    // the primary writes its workers' line right after their banner
    const workers = args.includes('--workers') ? await waitFor(/workers on one port \(pids ([\d, ]+)\)/) : null;
    return {
      child,
      origin: origin!,
      pids: workers ? workers[1]!.split(', ').map(Number) : [child.pid!],
      lines,
      waitFor,
      exited,
      async stop() {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.kill('SIGTERM');
        await exited;
        clearTimeout(kill);
      },
    };
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
}

/** A process's resident memory now and its peak so far, in bytes (Linux: VmRSS and VmHWM). */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/**
 * Resets the peak of `pid`'s resident memory to what it holds now (Linux: `5` into clear_refs), so
 * that VmHWM read later is the peak of what came between; false where the kernel does not allow it.
 */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
