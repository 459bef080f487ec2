import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The machine a run was measured on. */
export interface Machine {
  cpu: string;
  cores: number;
  node: string;
  memoryGB: number;
  platform: string;
  /** Load average over the last minute at the start: other work sharing the cores. */
  load1: number;
  date: string;
  /** The commit measured, and whether src/ differed from it. */
  commit: string;
}

/** Describes this machine. */
export function machine(): Machine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    node: process.version,
    memoryGB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    load1: Math.round(os.loadavg()[0] * 100) / 100,
    date: new Date().toISOString(),
    commit: commit(),
  };
}

function commit(): string {
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  try {
    const dirty = git('status', '--porcelain', '--', 'src').length > 0;
    return git('rev-parse', '--short', 'HEAD') + (dirty ? ' (src/ has uncommitted changes)' : '');
  } catch {
    return 'unknown (not a git checkout)';
  }
}

/** Prints the machine as the run's header. */
export function printMachine(m: Machine): void {
  console.log('# nepal-places bench');
  console.log(`CPU      ${m.cpu} (${m.cores} cores)`);
  console.log(`Node     ${m.node} on ${m.platform}`);
  console.log(`Memory   ${m.memoryGB} GiB`);
  console.log(`Load     ${m.load1} (1-minute load average at start; above ${m.cores} means shared cores)`);
  console.log(`Date     ${m.date}`);
  console.log(`Commit   ${m.commit}`);
}
