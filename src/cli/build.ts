/**
 * `nepal-places build`: a PBF in, a snapshot out.
 *
 *   nepal-places build IN.osm.pbf -o OUT.places [--workers N] [--license TEXT] [--quiet]
 *
 * Progress and a summary go to stderr (stdout stays free for pipes); the snapshot is
 * written to a temporary file beside OUT and renamed over it, so OUT is either the old
 * file or the whole new one, never half of it.
 */
import { access, constants, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PbfError } from '../errors.js';
import type { PlaceIndex } from '../index/place-index.js';
import { loadPbf } from '../load/load.js';
import { buildSnapshot } from '../snapshot/build.js';
import { isSnapshot, MAGIC } from '../snapshot/format.js';
import { formatBytes, formatCount, formatDuration, Progress } from './progress.js';

const USAGE = 'usage: nepal-places build IN.osm.pbf -o OUT.places [--workers N] [--license TEXT] [--quiet]';

const HELP = `${USAGE}

Loads an OSM PBF and writes it as a snapshot, which nearby, serve and loadFile()
read in a fraction of the PBF's load time.

  -o, --output FILE   the snapshot to write (required); replaced whole, never half-written
  --workers N         decoder threads, 0 decodes on the main thread (default: by file size and cores)
  --license TEXT      the license of every record (default: © OpenStreetMap contributors, ODbL 1.0)
  --quiet             print nothing but errors
  -h, --help          this help

Progress and a summary go to stderr: a bar on a terminal, a line every tenth of the
file otherwise. Exit codes: 0 written, 1 failed (an unreadable or bad PBF, an
unwritable output), 2 bad usage.`;

/** Decoder threads beyond this are a typo, not a plan: the main thread's place building is the limit long before. */
const MAX_WORKERS = 64;

/** A bad command line: a message and the usage on stderr, exit code 2. */
class UsageError extends Error {}

interface Args {
  input: string;
  output: string;
  quiet: boolean;
  workers?: number;
  license?: string;
}

/** Runs the subcommand; resolves with the exit code. */
export async function run(argv: string[]): Promise<number> {
  const t0 = performance.now();
  let args: Args | 'help';
  try {
    args = parse(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`nepal-places build: ${err.message}\n${USAGE}\n`);
    return 2;
  }
  if (args === 'help') {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const fail = (message: string) => {
    process.stderr.write(`nepal-places build: ${message}\n`);
    return 1;
  };

  // Found out now rather than after a load of minutes.
  const problem = await outputProblem(args.output);
  if (problem) return fail(`${args.output}: ${problem}`);

  const stderr = process.stderr;
  const tty = stderr.isTTY && !args.quiet;
  // one line of what is going on, on a terminal only: a log gets the summary's times
  const status = (text: string) => void (tty && stderr.write(`\r${text}\x1b[K`));
  const progress = new Progress(args.quiet ? 'none' : stderr.isTTY ? 'bar' : 'lines', stderr, 'load');
  const t1 = performance.now();
  let index: PlaceIndex;
  try {
    index = await loadPbf(args.input, { onProgress: progress.update, workers: args.workers, license: args.license });
  } catch (err) {
    progress.end();
    if (!(err instanceof PbfError)) throw err;
    return fail(await isSnapshotFile(args.input) ? `${args.input}: is a snapshot already; build reads an OSM PBF` : err.message);
  }
  progress.end();
  const t2 = performance.now();
  let bytes: Uint8Array;
  status('building the snapshot…');
  try {
    bytes = buildSnapshot(index);
  } finally {
    status('');
  }
  const t3 = performance.now();
  status(`writing ${args.output}…`);
  try {
    await writeAtomically(args.output, bytes);
  } catch (err) {
    status('');
    return fail(`${args.output}: cannot write (${(err as Error).message})`);
  }
  status('');
  const t4 = performance.now();

  const pbfSize = (await stat(args.input)).size;
  const figures = { output: args.output, size: bytes.length, pbfSize, load: t2 - t1, build: t3 - t2, write: t4 - t3, total: performance.now() - t0 };
  if (!args.quiet) for (const line of summary(index, figures)) stderr.write(`${line}\n`);
  return 0;
}

/** What a summary reports beside the index: the files' sizes and the phases' wall milliseconds. */
export interface BuildFigures {
  output: string;
  size: number;
  pbfSize: number;
  load: number;
  build: number;
  write: number;
  total: number;
}

/**
 * The closing lines of `build`: what was written, the places by geometry kind, what
 * was skipped or incomplete, the sizes and the times.
 */
export function summary(index: PlaceIndex, f: BuildFigures): string[] {
  const s = index.stats;
  const n = formatCount;
  const ratio = f.pbfSize > 0 ? (f.size / f.pbfSize).toFixed(2) : '-';
  return [
    `nepal-places build: wrote ${f.output}`,
    `  places    ${n(index.size)}: ${n(s.points)} points, ${n(s.lineStrings)} lineStrings, ${n(s.polygons)} polygons, ${n(s.multiPolygons)} multiPolygons`,
    `  skipped   ${n(s.skippedWays)} ways, ${n(s.skippedRelations)} relations; ${n(s.partial)} partial; ${n(s.badSchedules)} bad opening_hours of ${n(s.schedules)}`,
    `  snapshot  ${n(f.size)} bytes (${formatBytes(f.size)}), ${ratio}x the PBF's ${n(f.pbfSize)} bytes (${formatBytes(f.pbfSize)})`,
    `  time      load ${formatDuration(f.load)}, snapshot ${formatDuration(f.build)}, write ${formatDuration(f.write)}, total ${formatDuration(f.total)}`,
  ];
}

function parse(argv: string[]): Args | 'help' {
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        output: { type: 'string', short: 'o' },
        quiet: { type: 'boolean' },
        workers: { type: 'string' },
        license: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    // parseArgs explains at length; its first sentence is the message
    throw new UsageError((err as Error).message.split('. ')[0]!.replace(/\.$/, ''));
  }
  if (values.help) return 'help';
  const input = positionals[0];
  if (input === undefined || input === '') throw new UsageError('no input PBF given');
  if (positionals.length > 1) throw new UsageError(`one input PBF, got ${positionals.length}: ${positionals.join(' ')}`);
  const output = values.output;
  if (output === undefined || output === '') throw new UsageError('-o/--output OUT.places is required');
  if (resolve(output) === resolve(input)) throw new UsageError('the output must not be the input');
  let workers: number | undefined;
  if (values.workers !== undefined) {
    const w = values.workers.trim();
    if (!/^\d+$/.test(w) || Number(w) > MAX_WORKERS) throw new UsageError(`--workers must be an integer from 0 to ${MAX_WORKERS}, got '${values.workers}'`);
    workers = Number(w);
  }
  if (values.license !== undefined && values.license.trim() === '') throw new UsageError('--license must not be empty');
  return { input, output, quiet: values.quiet ?? false, workers, license: values.license };
}

// Whether a file that failed as a PBF is a snapshot, a likely mix-up worth saying so.
async function isSnapshotFile(path: string): Promise<boolean> {
  try {
    const f = await open(path, 'r');
    try {
      const head = new Uint8Array(MAGIC.length);
      const { bytesRead } = await f.read(head, 0, head.length, 0);
      return isSnapshot(head.subarray(0, bytesRead));
    } finally {
      await f.close();
    }
  } catch {
    return false;
  }
}

/**
 * Why the output cannot be written, or undefined: its folder must be writable and it
 * must not be a folder itself.
 */
export async function outputProblem(output: string): Promise<string | undefined> {
  try {
    if ((await stat(output)).isDirectory()) return 'is a directory';
  } catch {
    // not there yet: fine
  }
  try {
    await access(dirname(output), constants.W_OK);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return e.code === 'ENOENT' ? `no such directory ${dirname(output)}` : `cannot write in ${dirname(output)} (${e.code ?? e.message})`;
  }
  return undefined;
}

/**
 * Writes `bytes` to a temporary file in `path`'s folder, flushes it to disk, and
 * renames it over `path` (a rename within one file system is atomic). On failure, or
 * on Ctrl-C meanwhile, the temporary file is removed.
 */
async function writeAtomically(path: string, bytes: Uint8Array): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const interrupted = (signal: NodeJS.Signals) => {
    void unlink(tmp).catch(() => {}).finally(() => process.kill(process.pid, signal));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    const f = await open(tmp, 'w', 0o644);
    try {
      await f.writeFile(bytes);
      await f.sync();
    } finally {
      await f.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  }
}
