/**
 * The ends of a query: `node, cost, node, cost, …`. A point snapped mid-edge starts at both
 * ends of its edge, each with the cost of the part of the edge it skips.
 */
export type Ends = Float64Array | readonly number[];

/** A route found by a search. */
export interface Path {
  /** Initial costs of its two ends plus the weights of its arcs. */
  cost: number;
  /** Original arc ids, in path order (empty when the source is the target). */
  arcs: Uint32Array;
  /** Which of the given source and target nodes it runs between. */
  source: number;
  target: number;
}

/** Throws a RangeError naming `name` when `ends` is not a list of (node in 0..n-1, finite cost ≥ 0) pairs. */
export function checkEnds(ends: Ends, n: number, name: string): void {
  if (!ends || typeof ends.length !== 'number' || ends.length % 2 !== 0) {
    throw new RangeError(
      `${name} must be a flat list of node, cost pairs, got ${ends === null || ends === undefined ? ends : `length ${ends.length}`}`,
    );
  }
  for (let i = 0; i < ends.length; i += 2) {
    const v = ends[i],
      c = ends[i + 1];
    if (!Number.isInteger(v) || v < 0 || v >= n) throw new RangeError(`${name}[${i}]: node ${v} is not in 0..${n - 1}`);
    if (!(c >= 0) || c === Infinity) throw new RangeError(`${name}[${i + 1}]: cost ${c} of node ${v} is not a finite number >= 0`);
  }
}

/** A growable list of arc ids, reused across queries. */
export class ArcList {
  data = new Uint32Array(256);
  length = 0;

  push(a: number): void {
    if (this.length === this.data.length) {
      const d = new Uint32Array(this.data.length * 2);
      d.set(this.data);
      this.data = d;
    }
    this.data[this.length++] = a;
  }

  /** Reverses items `from .. length` in place. */
  reverseFrom(from: number): void {
    const d = this.data;
    for (let i = from, j = this.length - 1; i < j; i++, j--) {
      const t = d[i];
      d[i] = d[j];
      d[j] = t;
    }
  }

  /** A copy of the items. */
  slice(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}
