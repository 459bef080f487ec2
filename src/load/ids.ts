/**
 * Finds OSM ids in a Float64Array of ids. Files sorted by id (the norm: header
 * `Sort.Type_then_ID`) are searched in place; others get a sorted order first.
 */
export class IdTable {
  readonly ids: Float64Array;
  private readonly order: Uint32Array | undefined;

  constructor(ids: Float64Array) {
    this.ids = ids;
    let sorted = true;
    for (let i = 1; i < ids.length; i++) if (ids[i] < ids[i - 1]) { sorted = false; break; }
    this.order = sorted ? undefined : Uint32Array.from(ids.keys()).sort((a, b) => ids[a] - ids[b]);
  }

  /** Index of `id` in `ids`, or -1. */
  find(id: number): number {
    const ids = this.ids;
    const order = this.order;
    let lo = 0;
    let hi = ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const i = order ? order[mid] : mid;
      const v = ids[i];
      if (v < id) lo = mid + 1;
      else if (v > id) hi = mid - 1;
      else return i;
    }
    return -1;
  }
}
