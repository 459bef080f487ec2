import type { PlaceTable } from '../model/table.js';
import { placeId } from '../osm/id.js';

/**
 * Every row of a table by placeId (`osmId * 4 + kind`): the ids sorted in a flat
 * array beside their rows, found by binary search. A Map of millions of numbers
 * costs several times the memory of these two arrays, and a lookup is a UI's click,
 * not a hot loop.
 */
export class PlaceLookup {
  /** placeIds, ascending. */
  readonly ids: Float64Array;
  /** The table row of each id. */
  readonly rows: Uint32Array;

  /** The lookup of a table; `rows`, its order by id found before, is reused as is. */
  constructor(t: PlaceTable, rows?: Uint32Array) {
    const n = t.size;
    if (!rows) {
      const id = new Float64Array(n);
      let sorted = true;
      for (let r = 0; r < n; r++) {
        id[r] = placeId(t.osmId[r], t.kind[r]);
        if (r > 0 && id[r] < id[r - 1]) sorted = false;
      }
      rows = new Uint32Array(n);
      for (let r = 0; r < n; r++) rows[r] = r;
      // rows come in runs sorted by id (nodes, then ways, then relations, per kind of row)
      if (!sorted) rows.sort((a, b) => id[a] - id[b]);
    }
    const ids = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const r = rows[i];
      ids[i] = placeId(t.osmId[r], t.kind[r]);
      // a given order is checked: binary search in a misordered one would miss silently
      if (!(r < n) || (i > 0 && !(ids[i] > ids[i - 1]))) throw new RangeError('place lookup rows out of order');
    }
    this.ids = ids;
    this.rows = rows;
  }

  /** The table row of a placeId, or -1. */
  row(placeId: number): number {
    const ids = this.ids;
    let lo = 0,
      hi = ids.length - 1;
    while (lo <= hi) {
      const m = (lo + hi) >> 1;
      const v = ids[m];
      if (v < placeId) lo = m + 1;
      else if (v > placeId) hi = m - 1;
      else return this.rows[m];
    }
    return -1;
  }
}
