import type { PlaceIndex } from '../index/place-index.js';

/**
 * Writes an index as a snapshot: one buffer that `fromSnapshot` turns back into an
 * index answering every query exactly as this one does.
 *
 * @example
 * writeFileSync('nepal.places', buildSnapshot(await loadPbf('nepal.osm.pbf')));
 */
export function buildSnapshot(index: PlaceIndex): Uint8Array {
  throw new Error(`not yet ${index.size}`);
}
