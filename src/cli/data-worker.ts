/**
 * The thread that loads a data file for `loadOffThread` (./data.ts), off the thread that
 * answers requests: it reads the file, checks it whole and hands back one snapshot, whose
 * bytes are transferred (one ArrayBuffer, not copied). A snapshot file is read, checked by
 * reading it into an index here, and sent as it is; a PBF is loaded into an index here and
 * written as a snapshot. Either way every error the file can hold is found here.
 */
import type { Contract } from '../types.js';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { PbfError, SnapshotError } from '../errors.js';
import { loadPbf } from '../ingest/load.js';
import { fillAddresses } from '../ingest/assemble.js';
import { cannotRead, openRegular, readAt } from '../load/read.js';
import { HEADER_SIZE, isSnapshot, SNAPSHOT_VERSION } from '../snapshot/format.js';
import { allSteps, snapshotSteps } from '../snapshot/read.js';
import type { Handover } from '../snapshot/sections.js';
import { buildSnapshot } from '../snapshot/build.js';
import { graphArrays } from '../route/modes.js';

/** What the thread is asked: the file and the PBF loader's options. */
export interface DataJob {
  file: string;
  strict: boolean;
  contract: Contract;
}

/**
 * What it answers: the snapshot's bytes and what reading them made that the serving thread would
 * make again (`Handover`), or the error's fields (an Error loses its class in between).
 */
export type DataDone = Proven | { error: { name: string; message: string; code?: string; problem?: string; file?: string } };

/** A snapshot's bytes, read whole by `fromSnapshot`'s steps without an error, and what that reading kept. */
export interface Proven {
  bytes: Uint8Array;
  handover: Handover;
}

/** Reads `job.file` and resolves with a checked snapshot of it. @throws {PbfError | SnapshotError} */
export async function snapshotOf(job: DataJob): Promise<Proven> {
  const { file } = job;
  let opened;
  try {
    opened = await openRegular(file);
  } catch (err) {
    throw new PbfError(file, cannotRead(err), { cause: err, code: (err as NodeJS.ErrnoException).code });
  }
  const { handle, size } = opened;
  let bytes: Uint8Array | undefined;
  let snapshot = false;
  try {
    const head = await readAt(handle, 0, Math.min(size, HEADER_SIZE));
    snapshot = isSnapshot(head);
    // A snapshot is as long as its header says: a longer file is refused before it is read.
    if (snapshot && head.length === HEADER_SIZE) {
      const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
      const whole = HEADER_SIZE + view.getUint32(12, true);
      if (view.getUint32(8, true) === SNAPSHOT_VERSION && size > whole) {
        throw new SnapshotError('corrupted', `${size - whole} bytes past its end (its header says ${whole} bytes)`, file);
      }
    }
    if (snapshot) bytes = await readAt(handle, 0, size);
  } catch (err) {
    if (err instanceof SnapshotError) throw err;
    const options = { cause: err, code: (err as NodeJS.ErrnoException).code };
    throw snapshot ? new SnapshotError('unreadable', cannotRead(err), file, options) : new PbfError(file, cannotRead(err), options);
  } finally {
    await handle.close();
  }
  // the PBF loader reads the file again (a regular file only), each blob capped at what the format allows
  if (!bytes) {
    const index = await loadPbf(file, { strict: job.strict, contract: job.contract });
    await fillAddresses(index); // on two threads: buildSnapshot would make them on this one
    bytes = buildSnapshot(index);
  }
  // every check a load makes, here rather than on the serving thread (a PBF's snapshot too: what
  // the serving thread is handed is what was read here); its arrays and graphs go along
  const handover: Handover = { arrays: new Map() };
  allSteps(snapshotSteps(bytes, file, { keep: handover }));
  return { bytes, handover };
}

/** The buffers of the snapshot and of everything handed over with it, once each: moved to the serving thread, not copied. */
export function buffers({ bytes, handover }: Proven): ArrayBuffer[] {
  const all = new Set<ArrayBuffer>([bytes.buffer as ArrayBuffer]);
  for (const a of handover.arrays.values()) all.add(a.buffer as ArrayBuffer);
  for (const m of handover.modes ?? []) {
    for (const a of graphArrays(m)) all.add(a.buffer as ArrayBuffer);
  }
  return [...all];
}

/**
 * The loading thread's nice value: below the serving thread, so that on a busy machine the CPU goes
 * to answering requests first and the load takes what is left (on 2 cores at a load average of 12,
 * a /health probe's longest wait through fixture reloads went from 128–275 ms to 73–95 ms, the
 * reloads taking no longer). Linux only: there a thread has a nice value of its own (the PBF
 * decoder threads it starts inherit it); elsewhere it would lower the whole process.
 */
export const LOADER_NICE = 10;

parentPort?.once('message', (job: DataJob) => {
  if (process.platform === 'linux') {
    try {
      setPriority(LOADER_NICE);
    } catch {
      // a preference only: a load at the serving thread's priority is still correct
    }
  }
  snapshotOf(job).then(
    (done) => parentPort!.postMessage(done satisfies DataDone, buffers(done)),
    (err: unknown) => {
      const e = err as Error & { code?: string; problem?: string; file?: string };
      parentPort!.postMessage({
        error: { name: e.name ?? 'Error', message: e.message ?? String(err), code: e.code, problem: e.problem, file: e.file },
      } satisfies DataDone);
    },
  );
});
