import type { PlaceIndex } from '../index/place-index.js';

/**
 * Reads a snapshot written by `buildSnapshot`. The index views `bytes` where it can
 * instead of copying them: do not modify them afterwards.
 * Bytes that are truncated, damaged, of another format version or not a snapshot
 * throw `SnapshotError`, saying which.
 *
 * @example
 * const index = fromSnapshot(await (await fetch('nepal.places')).arrayBuffer());
 */
export function fromSnapshot(bytes: Uint8Array | ArrayBuffer, file = '<buffer>'): PlaceIndex {
  throw new Error(`not yet ${bytes.byteLength} ${file}`);
}
