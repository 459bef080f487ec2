import type { Block } from './block.js';
/**
 * Finds OSM ids among the per-block id arrays of a file, without joining them.
 * Files sorted by id (the norm: header `Sort.Type_then_ID`) are searched in place,
 * first the block, then within it; others get one sorted order over all ids.
 */
export class BlockIds {
  /** Block of the last hit. */
  block = -1;
  /** Index within that block of the last hit. */
  index = -1;
  /** Number of ids in all blocks. */
  readonly count: number;
  /** Whether the ids ascend through the blocks, each greater than the one before: no id repeats. */
  readonly ascending: boolean;
  private readonly arrays: (Float64Array | Int32Array)[];
  private readonly bases: readonly number[];
  // sorted files: the blocks holding ids, and the first id of each
  private readonly blocks: Uint32Array;
  private readonly first: Float64Array;
  // other files: all ids in order, as (block, index) pairs
  private readonly order: Float64Array | undefined;
  private readonly where: Uint32Array | undefined;

  /** The ids of each block: `bases[i] + arrays[i][k]` (bases 0 when not given; see `Block.nodeId`). */
  constructor(arrays: (Float64Array | Int32Array)[], bases: readonly number[] = arrays.map(() => 0)) {
    this.arrays = arrays;
    this.bases = bases;
    const held = arrays.map((a, i) => (a.length ? i : -1)).filter((i) => i >= 0);
    this.count = arrays.reduce((n, a) => n + a.length, 0);
    this.blocks = Uint32Array.from(held);
    this.first = Float64Array.from(held, (i) => bases[i] + arrays[i][0]);
    let sorted = true;
    let prev = -Infinity;
    for (const i of held) {
      prev = ascendingAfter(arrays[i], bases[i], prev);
      if (Number.isNaN(prev)) {
        sorted = false;
        break;
      }
    }
    this.ascending = sorted;
    if (sorted) return;
    const ids = new Float64Array(this.count);
    const where = new Uint32Array(this.count * 2);
    let n = 0;
    for (const i of held)
      for (let k = 0; k < arrays[i].length; k++, n++) {
        ids[n] = bases[i] + arrays[i][k];
        where[2 * n] = i;
        where[2 * n + 1] = k;
      }
    const perm = Uint32Array.from(ids.keys()).sort((a, b) => ids[a] - ids[b]);
    this.order = Float64Array.from(perm, (p) => ids[p]);
    this.where = new Uint32Array(this.count * 2);
    perm.forEach((p, k) => {
      this.where![2 * k] = where[2 * p];
      this.where![2 * k + 1] = where[2 * p + 1];
    });
  }

  /** Whether `id` is present; on a hit, `block` and `index` say where. */
  find(id: number): boolean {
    if (this.order) {
      const k = search(this.order, id, 0, this.order.length - 1);
      if (k < 0) return false;
      this.block = this.where![2 * k];
      this.index = this.where![2 * k + 1];
      return true;
    }
    // a way's nodes are mostly in one block: the last hit's block first, then the last block whose first id is <= id
    const first = this.first;
    const last = this.block;
    if (last >= 0) {
      const a = this.arrays[last],
        rel = id - this.bases[last];
      if (rel >= a[0] && rel <= a[a.length - 1]) {
        const k = gallop(a, rel, this.index);
        if (k < 0) return false;
        this.index = k;
        return true;
      }
    }
    let lo = 0,
      hi = first.length - 1,
      b = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (first[mid] <= id) {
        b = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (b < 0) return false;
    const block = this.blocks[b];
    const a = this.arrays[block];
    const k = search(a, id - this.bases[block], 0, a.length - 1);
    if (k < 0) return false;
    this.block = block;
    this.index = k;
    return true;
  }
}

// The index of `id` in ascending `a` (`id` within its range), or -1, searched from `from` outwards:
// the nodes of a way, and the first nodes of buildings mapped one after another, mostly follow the
// last one found. A few reads near it, where bisecting the block takes thirteen across it.
function gallop(a: Float64Array | Int32Array, id: number, from: number): number {
  const v = a[from];
  if (v === id) return from;
  let step = 1;
  if (v < id) {
    let lo = from + 1;
    while (from + step < a.length && a[from + step] < id) {
      lo = from + step + 1;
      step *= 2;
    }
    return search(a, id, lo, Math.min(from + step, a.length - 1));
  }
  let hi = from - 1;
  while (from - step >= 0 && a[from - step] > id) {
    hi = from - step - 1;
    step *= 2;
  }
  return search(a, id, Math.max(from - step, 0), hi);
}

/**
 * Follows a file's blocks in order (`next`) while they are sorted as extracts are: each kind's ids
 * ascending through its blocks, so that no id repeats. (That nodes come before ways, and ways
 * before relations, the reader of the blocks checks.)
 */
export class IdOrder {
  // per kind (node, way, relation): the last id of its last block
  private readonly last = [-Infinity, -Infinity, -Infinity];

  /** Takes the next block: whether the ids so far, its own included, are still sorted. */
  next(b: Block): boolean {
    return this.ascend(0, b.nodeId, b.nodeBase) && this.ascend(1, b.wayId, 0) && this.ascend(2, b.relId, 0);
  }

  private ascend(kind: number, ids: Float64Array | Int32Array, base: number): boolean {
    const last = ascendingAfter(ids, base, this.last[kind]);
    if (Number.isNaN(last)) return false;
    this.last[kind] = last;
    return true;
  }
}

// The last id of `ids` (`base` + each) when they ascend, the first above `after`; `after` for none;
// NaN when they do not.
function ascendingAfter(ids: Float64Array | Int32Array, base: number, after: number): number {
  if (ids.length === 0) return after;
  if (base + ids[0] <= after || !(ids instanceof Int32Array ? ascends32(ids) : ascends64(ids))) return NaN;
  return base + ids[ids.length - 1];
}

// Whether each id is above the one before. One copy per array type: a shared loop sees both
// and reads them slowly, over every node id of a file.
function ascends32(a: Int32Array): boolean {
  for (let k = 1; k < a.length; k++) if (a[k] <= a[k - 1]) return false;
  return true;
}
function ascends64(a: Float64Array): boolean {
  for (let k = 1; k < a.length; k++) if (a[k] <= a[k - 1]) return false;
  return true;
}

function search(a: Float64Array | Int32Array, id: number, lo: number, hi: number): number {
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = a[mid];
    if (v < id) lo = mid + 1;
    else if (v > id) hi = mid - 1;
    else return mid;
  }
  return -1;
}
