import FlatQueue from 'flatqueue';
import { adjacency, type Arcs } from './csr.js';
import { arcMeasures, type Seed } from './seeds.js';
import type { Router } from './router.js';
import { timeOf } from './modes.js';

// Written by hand for the same reasons as dijkstra.ts (our CSR arrays, weighted seeds, pooled
// scratch), and apart from it because this search carries time and metres beside the weight and
// is bounded by time, not stopped at a target.

/** What bounds a `Reach` search. */
export interface ReachBounds {
  /** Nodes whose cheapest path takes longer than this (ms) are not expanded: the search covers what is reached within it. */
  maxTime?: number;
  /** Most nodes settled; past it the search stops with `finished` false. */
  maxSettled?: number;
  /** Stop once all of these nodes are settled (a matrix row without a hierarchy). */
  goals?: readonly number[];
}

/**
 * One-to-all Dijkstra over one mode's whole graph (not its hierarchy), from a point's seeds,
 * minimising the weight as `route()` does and carrying each label's travel time (without
 * penalties) and metres. Bounded by travel time: a node settled with a time past `maxTime` is
 * not expanded, and not listed as settled. Exact: time only grows along a path and a cheapest
 * path's prefixes are cheapest paths, so every node whose cheapest path takes at most `maxTime`
 * is settled with that path's weight, time and metres. Immutable after construction; per-query scratch is a `ReachContext` from a pool, lent
 * to the caller's callback.
 */
export class Reach {
  readonly arcs: Arcs;
  /** Node v's out-adjacency slots are `start[v] .. start[v + 1]`; per slot: its head, weight, arc id, travel time (ms) and metres. */
  readonly start: Uint32Array;
  readonly head: Uint32Array;
  readonly weight: Uint32Array;
  readonly arc: Uint32Array;
  readonly time: Float64Array;
  readonly metres: Float64Array;
  /** Per slot: the part of its travel time before the edge it turns onto (the turn's cost, ms), where given (`reachFor` gives it). */
  readonly lead: Uint32Array | undefined;
  private readonly free: ReachContext[] = [];

  /** `time[a]`, `metres[a]`: arc a's travel time (ms, no penalty) and length; `lead[a]`: the part of its time that is its turn's (ms). */
  constructor(arcs: Arcs, time: ArrayLike<number>, metres: ArrayLike<number>, lead?: ArrayLike<number>) {
    this.arcs = arcs;
    const out = adjacency(arcs);
    this.start = out.start;
    this.head = out.head;
    this.weight = out.weight;
    this.arc = out.arc;
    this.time = Float64Array.from(out.arc, (a) => time[a]);
    this.metres = Float64Array.from(out.arc, (a) => metres[a]);
    this.lead = lead && Uint32Array.from(out.arc, (a) => lead[a]);
  }

  /**
   * Runs a search from `seeds` within `bounds` and hands its context to `use` (valid during the
   * call only: it goes back to the pool after).
   */
  run<T>(seeds: readonly Seed[], bounds: ReachBounds, use: (ctx: ReachContext) => T): T {
    const ctx = this.free.pop() ?? new ReachContext(this.arcs.n);
    try {
      this.search(ctx, seeds, bounds);
      return use(ctx);
    } finally {
      ctx.reset();
      this.free.push(ctx);
    }
  }

  private search(ctx: ReachContext, seeds: readonly Seed[], bounds: ReachBounds): void {
    const maxTime = bounds.maxTime ?? Infinity,
      maxSettled = bounds.maxSettled ?? Infinity;
    const { start, head, weight, time, metres } = this;
    const { dist, t, m, state, queue } = ctx;
    let goals = 0;
    if (bounds.goals) {
      for (const v of bounds.goals) {
        if (!ctx.goal[v]) goals++;
        ctx.goal[v] = 1;
      }
      ctx.goals = bounds.goals;
    }
    for (const s of seeds) if (s.weight < dist[s.node]) ctx.label(s.node, s.weight, s.time, s.metres);
    let settled = 0;
    ctx.finished = true;
    while (queue.length) {
      const d = queue.peekValue()!;
      const v = queue.pop()!;
      if (state[v] !== 1 || d !== dist[v]) continue; // stale entry
      if (settled === maxSettled) {
        ctx.finished = false;
        break;
      }
      state[v] = 2;
      if (t[v] > maxTime) continue; // reached too late: its label is final, but nothing beyond it counts
      settled++;
      ctx.settle(v);
      if (ctx.goal[v] && --goals === 0) break;
      const tv = t[v],
        mv = m[v];
      for (let k = start[v]; k < start[v + 1]; k++) {
        const w = head[k],
          dw = d + weight[k];
        if (dw < dist[w]) ctx.label(w, dw, tv + time[k], mv + metres[k]);
      }
    }
  }
}

/** The scratch and result of one `Reach` search: per node its weight, time and metres where labelled. */
export class ReachContext {
  /** Least weight found (Infinity where not reached). */
  readonly dist: Float64Array;
  /** Travel time (ms) and metres of that label. */
  readonly t: Float64Array;
  readonly m: Float64Array;
  /** 0 untouched, 1 labelled (not settled: its label may not be final), 2 settled (listed in `settled` only when within the time bound). */
  readonly state: Uint8Array;
  readonly goal: Uint8Array;
  goals: readonly number[] | undefined;
  touched: Uint32Array;
  size = 0;
  /** The settled nodes in the order they were settled: `settled[0 .. settledCount)`. */
  settled: Uint32Array;
  settledCount = 0;
  /** Whether the search ran until its time bound or goals, rather than stopping at `maxSettled`. */
  finished = true;
  readonly queue = new FlatQueue<number>();
  private readonly n: number;
  private spare: Float64Array | undefined;

  constructor(n: number) {
    this.n = n;
    this.dist = new Float64Array(n).fill(Infinity);
    this.t = new Float64Array(n);
    this.m = new Float64Array(n);
    this.state = new Uint8Array(n);
    this.goal = new Uint8Array(n);
    this.touched = new Uint32Array(Math.min(n, 1024));
    this.settled = new Uint32Array(Math.min(n, 1024));
  }

  label(v: number, d: number, t: number, m: number): void {
    if (this.state[v] === 0) {
      if (this.size === this.touched.length) this.touched = grow(this.touched, this.size * 2);
      this.touched[this.size++] = v;
      this.state[v] = 1;
    }
    this.dist[v] = d;
    this.t[v] = t;
    this.m[v] = m;
    this.queue.push(v, d);
  }

  /**
   * A per-node array for the caller's own use during the search's lending (made on first use,
   * then kept with the context): Infinity everywhere when lent, and the caller sets back to
   * Infinity what it changed before it returns.
   */
  scratch(): Float64Array {
    return (this.spare ??= new Float64Array(this.n).fill(Infinity));
  }

  settle(v: number): void {
    if (this.settledCount === this.settled.length) this.settled = grow(this.settled, this.settledCount * 2);
    this.settled[this.settledCount++] = v;
  }

  reset(): void {
    for (let i = 0; i < this.size; i++) {
      const v = this.touched[i];
      this.dist[v] = Infinity;
      this.state[v] = 0;
    }
    if (this.goals) for (const v of this.goals) this.goal[v] = 0;
    this.goals = undefined;
    this.size = 0;
    this.settledCount = 0;
    this.queue.clear();
  }
}

function grow(a: Uint32Array, size: number): Uint32Array {
  const b = new Uint32Array(size);
  b.set(a);
  return b;
}

// Derived once per router and mode, then immutable (see matrix.ts's `tables`).
const reaches = new WeakMap<Router, Reach[]>();

/** The one-to-all search of mode `m` of a router, made on first use. */
export function reachFor(router: Router, m: number): Reach {
  let list = reaches.get(router);
  if (!list) reaches.set(router, (list = []));
  if (!list[m]) {
    const { time, metres } = arcMeasures(router, m);
    // each arc's turn: its time less the time of the edge it turns onto (what an isochrone starts each edge at)
    const g = router.graph,
      mg = router.modes[m];
    const lead = Uint32Array.from(mg.arcs.to, (u, a) => {
      const e = mg.key[u] >> 1;
      return time[a] - timeOf(g, m, e, g.edgeMeters[e], (mg.key[u] & 1) === 1);
    });
    list[m] = new Reach(mg.arcs, time, metres, lead);
  }
  return list[m];
}

/** Whether mode `m`'s one-to-all search of a router is made already (`reachFor`). */
export function reachMade(router: Router, m: number): boolean {
  return reaches.get(router)?.[m] !== undefined;
}
