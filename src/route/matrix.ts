import FlatQueue from 'flatqueue';
import type { Hierarchy } from './ch.js';
import { arcMeasures, type Seed } from './seeds.js';
import { NONE } from './labels.js';
import type { Router } from './router.js';

/**
 * What a table search found, row-major (`[i * targets + j]`): the least weight from source i to
 * target j (Infinity where none), and the travel time and metres of that path.
 */
export interface TableCells {
  weight: Float64Array;
  time: Float64Array;
  metres: Float64Array;
}

/** Per original arc of the hierarchy's graph: its travel time (ms, without penalties) and length (metres). */
export interface ArcMeasures {
  time: ArrayLike<number>;
  metres: ArrayLike<number>;
}

/**
 * Many-to-many cheapest paths on a contraction hierarchy by the bucket method (Knopp, Sanders,
 * Schultes, Schulz, Wagner 2007): one backward upward search per target leaves, at each node it
 * settles, an entry (target, weight) in that node's bucket; one forward upward search per source
 * then reads the buckets of the nodes it settles, and the least `forward + bucket` weight of each
 * target is the answer. Every search carries the travel time and metres alongside the weight:
 * per hierarchy slot, the sums over the original arcs it stands for, made once here (linear in
 * the slots), so no path is unpacked.
 *
 * Immutable after construction; the scratch of a query is a `TableContext`, taken from a pool.
 */
export class Table {
  readonly hierarchy: Hierarchy;
  /** Per slot of the hierarchy: its travel time (ms) and metres. */
  private readonly slotTime: Float64Array;
  private readonly slotMetres: Float32Array;
  private readonly free: TableContext[] = [];

  constructor(hierarchy: Hierarchy, arcs: ArcMeasures) {
    this.hierarchy = hierarchy;
    const { first, ab } = hierarchy.data();
    const m = ab.length / 2;
    const time = new Float64Array(m),
      metres = new Float32Array(m);
    // a shortcut's halves lie in the blocks of lower ranks, so block order sums each half first
    const n = first.length - 1;
    for (let r = 0; r < n; r++) {
      for (let k = first[r]; k < first[r + 1]; k++) {
        const a = ab[2 * k],
          b = ab[2 * k + 1];
        if (b === NONE) {
          time[k] = arcs.time[a];
          metres[k] = arcs.metres[a];
        } else {
          time[k] = time[a] + time[b];
          metres[k] = metres[a] + metres[b];
        }
      }
    }
    this.slotTime = time;
    this.slotMetres = metres;
  }

  /**
   * The table between `sources` and `targets`, each a list of seeds (a point's start or end
   * nodes with their initial costs). Runs one upward search per target and per source.
   */
  many(sources: readonly (readonly Seed[])[], targets: readonly (readonly Seed[])[]): TableCells {
    const ctx = this.free.pop() ?? new TableContext(this.hierarchy.size.nodes);
    try {
      return this.run(ctx, sources, targets);
    } finally {
      ctx.clearBuckets();
      this.free.push(ctx);
    }
  }

  private run(ctx: TableContext, sources: readonly (readonly Seed[])[], targets: readonly (readonly Seed[])[]): TableCells {
    const nt = targets.length,
      ns = sources.length;
    for (let j = 0; j < nt; j++) {
      this.upward(ctx, targets[j], false);
      ctx.fill(j);
    }
    ctx.index();
    const weight = new Float64Array(ns * nt).fill(Infinity);
    const time = new Float64Array(ns * nt),
      metres = new Float64Array(ns * nt);
    for (let i = 0; i < ns; i++) {
      this.upward(ctx, sources[i], true);
      ctx.scan(i * nt, weight, time, metres);
    }
    return { weight, time, metres };
  }

  /**
   * One upward search from `seeds` (forward: along the edges leading out of a node; backward:
   * into it) with stall-on-demand; leaves the settled, unstalled nodes in `ctx.settled`.
   */
  private upward(ctx: TableContext, seeds: readonly Seed[], forward: boolean): void {
    const { rank, first, mid, head, weight } = this.hierarchy.data();
    const { slotTime, slotMetres } = this;
    ctx.reset();
    const { dist, time, metres, state, queue } = ctx;
    for (const s of seeds) {
      const r = rank[s.node];
      if (s.weight < dist[r]) ctx.label(r, s.weight, s.time, s.metres);
    }
    ctx.settledCount = 0;
    while (queue.length) {
      const d = queue.peekValue()!;
      const v = queue.pop()!;
      if (state[v] !== 1 || d !== dist[v]) continue; // stale entry
      const lo = first[v],
        m = mid[v],
        hi = first[v + 1];
      // stalled: a higher node reaches v cheaper along an edge into it, so v's label is on no shortest path
      let stalled = false;
      for (let k = forward ? m : lo, end = forward ? hi : m; k < end; k++) {
        if (dist[head[k]] + weight[k] < d) {
          stalled = true;
          break;
        }
      }
      state[v] = 2;
      if (stalled) continue;
      ctx.settle(v);
      const tv = time[v],
        mv = metres[v];
      for (let k = forward ? lo : m, end = forward ? m : hi; k < end; k++) {
        const w = head[k],
          dw = d + weight[k];
        if (dw < dist[w]) ctx.label(w, dw, tv + slotTime[k], mv + slotMetres[k]);
      }
    }
  }
}

/** The scratch of one table query: one search's labels, and the buckets the target searches fill. */
class TableContext {
  readonly dist: Float64Array;
  readonly time: Float64Array;
  readonly metres: Float64Array;
  /** 0 untouched, 1 labelled, 2 settled (or stalled). */
  readonly state: Uint8Array;
  touched: Uint32Array;
  size = 0;
  readonly queue = new FlatQueue<number>();
  /** The last search's settled, unstalled nodes. */
  settled: Uint32Array;
  settledCount = 0;
  /** Bucket entries as the target searches leave them: node, target, weight, time, metres. */
  private eNode = new Uint32Array(1024);
  private eTarget = new Uint32Array(1024);
  private eWeight = new Float64Array(1024);
  private eTime = new Float64Array(1024);
  private eMetres = new Float64Array(1024);
  private entries = 0;
  /** Per node: its bucket's number, or -1; `bucketNodes` lists the nodes that have one, for the reset. */
  private readonly bucketOf: Int32Array;
  private bucketNodes = new Uint32Array(1024);
  private buckets = 0;
  /** Bucket b's entries are `order[start[b] .. start[b + 1]]`, copied into the `s*` arrays in that order. */
  private start = new Uint32Array(1025);
  private sTarget = new Uint32Array(1024);
  private sWeight = new Float64Array(1024);
  private sTime = new Float64Array(1024);
  private sMetres = new Float64Array(1024);

  constructor(n: number) {
    this.dist = new Float64Array(n).fill(Infinity);
    this.time = new Float64Array(n);
    this.metres = new Float64Array(n);
    this.state = new Uint8Array(n);
    this.touched = new Uint32Array(Math.min(n, 1024));
    this.settled = new Uint32Array(Math.min(n, 1024));
    this.bucketOf = new Int32Array(n).fill(-1);
  }

  reset(): void {
    const { dist, state, touched } = this;
    for (let i = 0; i < this.size; i++) {
      dist[touched[i]] = Infinity;
      state[touched[i]] = 0;
    }
    this.size = 0;
    this.queue.clear();
  }

  label(v: number, d: number, t: number, mt: number): void {
    if (this.state[v] === 0) {
      if (this.size === this.touched.length) this.touched = grow(this.touched, this.size * 2);
      this.touched[this.size++] = v;
      this.state[v] = 1;
    }
    this.dist[v] = d;
    this.time[v] = t;
    this.metres[v] = mt;
    this.queue.push(v, d);
  }

  settle(v: number): void {
    if (this.settledCount === this.settled.length) this.settled = grow(this.settled, this.settledCount * 2);
    this.settled[this.settledCount++] = v;
  }

  /** Leaves target j's entries in the buckets of the nodes its search settled. */
  fill(j: number): void {
    const need = this.entries + this.settledCount;
    if (need > this.eNode.length) {
      const cap = Math.max(need, this.eNode.length * 2);
      this.eNode = grow(this.eNode, cap);
      this.eTarget = grow(this.eTarget, cap);
      this.eWeight = grow(this.eWeight, cap);
      this.eTime = grow(this.eTime, cap);
      this.eMetres = grow(this.eMetres, cap);
    }
    for (let i = 0; i < this.settledCount; i++) {
      const v = this.settled[i],
        e = this.entries++;
      this.eNode[e] = v;
      this.eTarget[e] = j;
      this.eWeight[e] = this.dist[v];
      this.eTime[e] = this.time[v];
      this.eMetres[e] = this.metres[v];
    }
  }

  /** Groups the entries by node (a counting sort over the nodes that have any), for `scan`. */
  index(): void {
    const { eNode, bucketOf } = this;
    const E = this.entries;
    let count = new Uint32Array(Math.max(1024, E + 1));
    for (let e = 0; e < E; e++) {
      const v = eNode[e];
      let b = bucketOf[v];
      if (b < 0) {
        b = bucketOf[v] = this.buckets;
        if (this.buckets === this.bucketNodes.length) this.bucketNodes = grow(this.bucketNodes, this.buckets * 2);
        this.bucketNodes[this.buckets++] = v;
      }
      count[b + 1]++;
    }
    const B = this.buckets;
    if (this.start.length < B + 1) this.start = new Uint32Array(B + 1);
    const start = this.start;
    start[0] = 0;
    for (let b = 0; b < B; b++) start[b + 1] = start[b] + count[b + 1];
    count = count.subarray(0, B);
    count.set(start.subarray(0, B));
    if (this.sTarget.length < E) {
      this.sTarget = new Uint32Array(E);
      this.sWeight = new Float64Array(E);
      this.sTime = new Float64Array(E);
      this.sMetres = new Float64Array(E);
    }
    for (let e = 0; e < E; e++) {
      const k = count[bucketOf[eNode[e]]]++;
      this.sTarget[k] = this.eTarget[e];
      this.sWeight[k] = this.eWeight[e];
      this.sTime[k] = this.eTime[e];
      this.sMetres[k] = this.eMetres[e];
    }
  }

  /** Reads the buckets of the last (source) search's settled nodes into the row at `row`. */
  scan(row: number, weight: Float64Array, time: Float64Array, metres: Float64Array): void {
    const { bucketOf, start, sTarget, sWeight, sTime, sMetres, dist } = this;
    for (let i = 0; i < this.settledCount; i++) {
      const v = this.settled[i];
      const b = bucketOf[v];
      if (b < 0) continue;
      const d = dist[v],
        tv = this.time[v],
        mv = this.metres[v];
      for (let k = start[b], end = start[b + 1]; k < end; k++) {
        const c = row + sTarget[k];
        const w = d + sWeight[k];
        if (w < weight[c]) {
          weight[c] = w;
          time[c] = tv + sTime[k];
          metres[c] = mv + sMetres[k];
        }
      }
    }
  }

  clearBuckets(): void {
    for (let b = 0; b < this.buckets; b++) this.bucketOf[this.bucketNodes[b]] = -1;
    this.buckets = 0;
    this.entries = 0;
    this.reset();
  }
}

function grow<T extends Uint32Array | Float64Array>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}

// Derived once per router and mode, then immutable: kept beside the router rather than in it, so
// that routing alone never pays for them. A WeakMap, so they go with the index.
const tables = new WeakMap<Router, (Table | undefined)[]>();

/** The table of mode `m` of a router, made on first use; undefined where the mode has no hierarchy. */
export function tableFor(router: Router, m: number): Table | undefined {
  const h = router.hierarchies[m];
  if (!h) return undefined;
  let list = tables.get(router);
  if (!list) tables.set(router, (list = []));
  const t = list[m];
  if (t && t.hierarchy === h) return t;
  return (list[m] = new Table(h, arcMeasures(router, m)));
}
