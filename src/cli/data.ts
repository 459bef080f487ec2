/** The data file of the query commands and `serve`: loaded, its skipped blobs warned about or, with --strict, refused. */
import { setImmediate as turn } from 'node:timers/promises';
import { DEFAULT_PBF } from '../data.js';
import type { PlaceIndex } from '../index/place-index.js';
import { loadFile } from '../ingest/file.js';
import { PbfError, SnapshotError, type SnapshotProblem } from '../errors.js';
import { cannotRead, NOT_REGULAR, openRegular } from '../load/read.js';
import { startThread } from '../load/thread.js';
import { snapshotSteps } from '../snapshot/read.js';
import type { Contract, LoadStats } from '../types.js';
import { Failure, UsageError, warn, type Options } from './args.js';
import type { DataDone, DataJob, Proven } from './data-worker.js';

/** The options that choose the data, for a command's `parseCommand`. */
export const DATA_OPTIONS = {
  data: { type: 'string' },
  pbf: { type: 'string' },
  strict: { type: 'boolean' },
} as const satisfies Options;

/** How `--help` describes them. */
export const DATA_HELP = `  --data FILE   an OSM PBF or a snapshot (nepal-places build), told apart by its first
                bytes; --pbf FILE is the same (default: the bundled Kathmandu fixture)
  --strict      refuse a PBF with blobs of unknown type (damaged data the format's
                rule would skip), and a snapshot built from one`;

/** The file the options name (the bundled fixture when none). @throws {UsageError} */
export function dataFile(values: { data?: string; pbf?: string }): string {
  if (values.data !== undefined && values.pbf !== undefined) throw new UsageError('--pbf is another name for --data: give one of them');
  const file = values.data ?? values.pbf;
  if (file === '') throw new UsageError(`--${values.data !== undefined ? 'data' : 'pbf'} must name a file`);
  return file ?? DEFAULT_PBF;
}

/** How `openData` loads a file. */
export interface OpenOptions {
  /** Refuse a file with skipped blobs instead of warning about them. */
  strict: boolean;
  /**
   * Contract a PBF's road graph: `always` whatever its size (a server's routes then take a
   * millisecond at Nepal scale, for some 20 s more at start), `never`, or `auto` (default) by
   * its size. A snapshot has its hierarchies already.
   */
  contract?: Contract;
}

/**
 * Loads a PBF or a snapshot for `command` (which the warnings name). Blobs of unknown type, which
 * the format says to skip, are mostly damage: a warning on stderr says how many, and `strict`
 * refuses the file.
 * @throws {PbfError | SnapshotError | Failure}
 */
export async function openData(command: string, file: string, { strict, contract = 'auto' }: OpenOptions): Promise<PlaceIndex> {
  await refuseIrregular(file);
  const index = await loadFile(file, { strict, contract });
  // a strict PBF load has refused such a file already; a snapshot keeps its PBF's count
  checkSkipped(command, file, index.stats, strict);
  return index;
}

/** Warns about skipped blobs, or with `strict` refuses them. @throws {Failure} */
export function checkSkipped(command: string, file: string, stats: LoadStats, strict: boolean): void {
  const n = stats.skippedBlobs;
  if (!n) return;
  const what = `${n} blob${n === 1 ? '' : 's'} of unknown type`;
  if (strict) throw new Failure(`${file}: built from a PBF with ${what} skipped; --strict refuses it`);
  warn(
    command,
    `${file}: ${what} skipped, so the places in ${n === 1 ? 'it are' : 'them are'} missing (damaged data?); --strict refuses such files`,
  );
}

// A pipe or a device is refused before the loader opens it (opening a FIFO would wait for a writer).
async function refuseIrregular(file: string): Promise<void> {
  try {
    await (await openRegular(file)).handle.close();
  } catch (err) {
    // anything else (a missing file) the loader says in its own words
    if ((err as NodeJS.ErrnoException).code === NOT_REGULAR) throw new PbfError(file, cannotRead(err), { cause: err, code: NOT_REGULAR });
  }
}

/** Options of `loadOffThread`. */
export interface OffThreadOptions {
  /** Refuse files with skipped blobs (see `openData`). */
  strict: boolean;
  /** Whether a PBF's road graph gets its contraction hierarchies (a snapshot has them): as `loadPbf`'s, default `'auto'`. */
  contract?: Contract;
  /** Aborting it stops the load at once: its thread is terminated, and the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * `openData` for a running server: the file is read, checked and (a PBF) built into a snapshot on
 * a thread of its own, which reads that snapshot whole as `fromSnapshot` does and hands its bytes
 * over with the arrays it decoded and the router's graphs it made (transferred, not copied). This
 * thread then only wraps them into an index, decoding and checking nothing again, and warms its
 * search (`prepareSearch`), in steps of a few ms with a turn of the event loop between, so that a
 * request meanwhile waits at most a step more than it would otherwise.
 * The thread never keeps the process alive, and is terminated when `signal` aborts.
 * @throws {PbfError | SnapshotError | Failure}
 */
export async function loadOffThread(command: string, file: string, options: OffThreadOptions): Promise<PlaceIndex> {
  const { strict, contract = 'auto', signal } = options;
  const { bytes, handover } = await inThread({ file, strict, contract }, signal);
  // the thread read these bytes whole: its arrays and graphs are taken, nothing decoded or checked again
  const index = await stepwise(snapshotSteps(bytes, file, { proven: handover }), signal);
  checkSkipped(command, file, index.stats, strict);
  await stepwise(index.words.preparing(), signal); // prepareSearch, in steps
  return index;
}

/**
 * How long the serving thread works at a reload's steps before it lets the requests waiting meanwhile
 * in: a few ms (each step is shorter), so that a request waits about that much more than it would
 * otherwise, and a reload takes a few turns of the event loop more than it needs.
 */
const SLICE_MS = 8;

// Runs steps in slices of SLICE_MS, with a turn of the event loop between (setImmediate: after
// the I/O that waits), so that no request waits for more than a slice and a step.
async function stepwise<T>(steps: Generator<string, T>, signal?: AbortSignal): Promise<T> {
  for (;;) {
    await turn();
    signal?.throwIfAborted();
    for (const end = performance.now() + SLICE_MS; performance.now() < end;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }
}

// The snapshot of `job.file`, made on a thread of its own.
function inThread(job: DataJob, signal?: AbortSignal): Promise<Proven> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const thread = startThread(import.meta.url, 'data-worker');
    thread.unref(); // a load in progress never keeps the process alive (a SIGTERM's exit)
    let done = false;
    const finish = (settle: () => void) => {
      if (done) return;
      done = true;
      signal?.removeEventListener('abort', abort);
      void thread.terminate();
      settle();
    };
    const abort = () => finish(() => reject(signal!.reason));
    signal?.addEventListener('abort', abort, { once: true });
    thread.once('message', (msg: DataDone) => finish(() => ('bytes' in msg ? resolve(msg) : reject(rebuild(job.file, msg.error)))));
    thread.once('error', (err) => finish(() => reject(new Failure(`${job.file}: the loading thread failed: ${err.message}`))));
    thread.once('exit', (code) =>
      finish(() => reject(new Failure(`${job.file}: the loading thread stopped (exit code ${code}) before it was done`))),
    );
    thread.postMessage(job);
  });
}

// The thread's error as the class it was (only its fields cross between threads).
function rebuild(file: string, e: Extract<DataDone, { error: unknown }>['error']): Error {
  const options = { code: e.code };
  if (e.name === 'PbfError' && e.message.startsWith(`${file}: `)) return new PbfError(file, e.message.slice(file.length + 2), options);
  const prefix = `${file}: ${e.problem} snapshot: `;
  if (e.name === 'SnapshotError' && e.message.startsWith(prefix))
    return new SnapshotError(e.problem as SnapshotProblem, e.message.slice(prefix.length), file, options);
  return new Failure(e.message);
}
