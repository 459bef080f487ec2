import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What a run of the command printed, and how it exited. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI from source with stdout and stderr piped (not a TTY); resolves whatever the exit code. */
export function cli(...args: string[]): Promise<Run> {
  return cliWith({}, ...args);
}

/** `cli` with more environment variables (e.g. `TZ`). */
export function cliWith(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const options = { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } };
    execFile(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], options, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
