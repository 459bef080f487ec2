// Runs a bench script in a child process under a watchdog: the machine is shared, so
// a runaway (a search that never ends and grows its heap) is killed at a memory or
// time limit and reported, instead of taking the machine down with it.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Limits of one child. */
export interface Limits {
  /** Resident set, bytes (checked twice a second, Linux only). */
  maxRss: number;
  /** Wall time, ms. */
  timeout: number;
  /** Longest wait for the next stdout line, ms (a stuck step shows as silence). */
  stall?: number;
}

/** Memory limit of a child: BENCH_MAX_RSS_MB, default 4000 (the 133 MB Nepal-scale load peaks at 1.7 GB;
 * the ~415 MB variant of `--scale 3.1` at 4.4 GB, which needs BENCH_MAX_RSS_MB=6000). */
export const MAX_RSS = Number(process.env.BENCH_MAX_RSS_MB ?? 4000) * 1e6;

/** What a child printed, one JSON value per stdout line, and why it ended early, if it did. */
export interface ChildRun {
  lines: unknown[];
  /** Set when the child was killed or failed: the reason, with its last stderr line. */
  failed?: string;
}

/**
 * Runs `node --expose-gc --import tsx SCRIPT ...args` from the repo root. Each stdout
 * line is parsed as JSON and handed to `onLine` as it arrives; stderr passes through
 * when `passStderr` (progress lines).
 */
export function runChild(
  script: string,
  args: string[],
  limits: Limits,
  onLine?: (v: unknown) => void,
  passStderr = false,
): Promise<ChildRun> {
  const file = fileURLToPath(new URL(script, import.meta.url));
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', file, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: unknown[] = [];
    let out = '',
      lastErr = '',
      killed: string | undefined;
    const started = Date.now();
    let heard = started;
    p.stdout.setEncoding('utf8');
    p.stdout.on('data', (s: string) => {
      out += s;
      heard = Date.now();
      let nl;
      while ((nl = out.indexOf('\n')) >= 0) {
        const line = out.slice(0, nl).trim();
        out = out.slice(nl + 1);
        if (!line) continue;
        try {
          const v: unknown = JSON.parse(line);
          lines.push(v);
          onLine?.(v);
        } catch {
          lastErr = `unparsable output: ${line.slice(0, 200)}`;
        }
      }
    });
    p.stderr.setEncoding('utf8');
    p.stderr.on('data', (s: string) => {
      if (passStderr) process.stderr.write(s);
      const last = s.trim().split('\n').filter(Boolean).pop();
      if (last) lastErr = last;
    });
    const watch = setInterval(() => {
      const rss = rssOf(p.pid);
      if (rss > limits.maxRss)
        killed = `killed at ${(rss / 1e6).toFixed(0)} MB resident (limit ${(limits.maxRss / 1e6).toFixed(0)} MB) after ${((Date.now() - started) / 1000).toFixed(0)} s`;
      else if (Date.now() - started > limits.timeout) killed = `killed after the ${(limits.timeout / 1000).toFixed(0)} s limit`;
      else if (limits.stall && Date.now() - heard > limits.stall)
        killed = `killed after ${(limits.stall / 1000).toFixed(0)} s without output`;
      if (killed) {
        clearInterval(watch);
        p.kill('SIGKILL');
      }
    }, 500);
    p.on('close', (code, signal) => {
      clearInterval(watch);
      const failed = killed ?? (code === 0 ? undefined : `exited ${code ?? signal}: ${lastErr}`);
      resolve(failed ? { lines, failed } : { lines });
    });
  });
}

// resident set of a process from /proc (0 where there is no /proc: no memory watchdog there)
function rssOf(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}
