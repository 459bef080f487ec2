/**
 * The loader's threads do not take the host's entry flags: a process started as
 * `node --input-type=module -e '…'` (a script, a REPL one-liner, a CI step) loads a PBF on
 * decoder and address threads as any other does. Inherited, `--input-type` made every
 * thread fail to start ("decoder thread failed: --input-type can only be used with string
 * input"). The host imports the built package (dist/, made by `npm run build`, which
 * `npm ci` runs), the code path of a thread started on a .js file.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPbf } from '../src/index.js';
import { threadArgv } from '../src/load/thread.js';
import { CORE } from './support/raw.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = new URL('../dist/index.js', import.meta.url).href;

/** Runs `node ...flags CODE`-style hosts; resolves with the exit code and output. */
function host(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: ROOT, timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

/** The host's code: loads the core fixture on two decoder threads (and the address thread), prints its counts. */
const LOAD = `import { loadPbf } from ${JSON.stringify(DIST)};
const index = await loadPbf(${JSON.stringify(CORE)}, { workers: 2 });
const { nodes, ways, relations, points } = index.stats;
console.log(JSON.stringify({ nodes, ways, relations, points, size: index.size }));`;

let want: string;

beforeAll(async () => {
  const index = await loadPbf(CORE, { workers: 0 });
  const { nodes, ways, relations, points } = index.stats;
  want = JSON.stringify({ nodes, ways, relations, points, size: index.size });
});

describe('a host started with entry flags loads a PBF on threads', () => {
  it('node --input-type=module -e CODE: the same index as a load on this thread', { timeout: 150_000 }, async () => {
    const run = await host(['--input-type=module', '-e', LOAD]);
    expect(run.stderr).not.toMatch(/thread failed/);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(want);
  });

  it(
    'node --max-old-space-size=2048 --input-type module --eval CODE (a V8 flag, values apart): the same',
    { timeout: 150_000 },
    async () => {
      const run = await host(['--max-old-space-size=2048', '--input-type', 'module', '--eval', LOAD]);
      expect(run.stderr).not.toMatch(/thread failed/);
      expect(run.code).toBe(0);
      expect(run.stdout.trim()).toBe(want);
    },
  );
});

describe('threadArgv leaves out the entry flags and their values, and keeps the rest', () => {
  it.each([
    [['--input-type=module', '-e', 'x()'], []],
    [['--input-type', 'module', '--eval', 'x()'], []],
    [['-pe', '1 + 1'], []],
    [['--print', '1', '--enable-source-maps'], ['--enable-source-maps']],
    [
      ['--import', 'tsx', '--input-type=commonjs', '-e', '-x'],
      ['--import', 'tsx'],
    ],
    [
      ['--conditions=dev', '-c', '--require', './hook.cjs', '-i'],
      ['--conditions=dev', '--require', './hook.cjs'],
    ],
    [
      ['--max-old-space-size=512', '--experimental-vm-modules'],
      ['--max-old-space-size=512', '--experimental-vm-modules'],
    ],
  ])('%j → %j', (argv, kept) => {
    expect(threadArgv(argv)).toEqual(kept);
  });
});
