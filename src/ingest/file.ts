import { open } from 'node:fs/promises';
import { PbfError, SnapshotError } from '../errors.js';
import type { LoadOptions } from '../types.js';
import type { PlaceIndex } from '../index/place-index.js';
import { isSnapshot, MAGIC } from '../snapshot/format.js';
import { fromSnapshot } from '../snapshot/read.js';
import { loadPbf } from './load.js';
import { cannotRead, readAt } from '../load/read.js';

/**
 * Loads a snapshot file (written by `buildSnapshot` or `nepal-places build`).
 * A missing, truncated, damaged or foreign file rejects with `SnapshotError` naming it.
 *
 * @example
 * const index = await loadSnapshot('nepal.places');
 */
export async function loadSnapshot(path: string): Promise<PlaceIndex> {
  const t0 = performance.now();
  let bytes: Uint8Array;
  try {
    bytes = await readWhole(path);
  } catch (err) {
    throw new SnapshotError('unreadable', cannotRead(err), path, { cause: err, code: (err as NodeJS.ErrnoException).code });
  }
  const read = performance.now() - t0;
  const index = fromSnapshot(bytes, path);
  index.timings.read = Math.round(read * 10) / 10;
  return index;
}

/**
 * Loads a PBF or a snapshot, told apart by the file's first bytes, not its name.
 * Errors are `PbfError` or `SnapshotError`, naming the file.
 *
 * @example
 * const index = await loadFile(process.argv[2]); // nepal.osm.pbf or nepal.places
 */
export async function loadFile(path: string, options: LoadOptions = {}): Promise<PlaceIndex> {
  let head: Uint8Array;
  try {
    const f = await open(path, 'r');
    try {
      head = new Uint8Array(MAGIC.length);
      const { bytesRead } = await f.read(head, 0, head.length, 0);
      head = head.subarray(0, bytesRead);
    } finally {
      await f.close();
    }
  } catch (err) {
    throw new PbfError(path, cannotRead(err), { cause: err, code: (err as NodeJS.ErrnoException).code });
  }
  // a snapshot keeps the license it was built with: `options` are the PBF loader's
  if (isSnapshot(head)) return loadSnapshot(path);
  return loadPbf(path, options);
}

// The whole file in one buffer of its own, by `readAt`, in as few calls as the system allows:
// readFile reads in 512 KiB steps, a round trip each, which took a snapshot's load
// from 55 to 65-115 ms on 89 MB.
async function readWhole(path: string): Promise<Uint8Array> {
  const f = await open(path, 'r');
  try {
    return await readAt(f, 0, (await f.stat()).size);
  } finally {
    await f.close();
  }
}
