import type { Arcs } from './csr.js';
import type { Path } from './ends.js';

/** What counts as a meaningfully different, still reasonable route. */
export interface AlternativeOptions {
  /** Alternatives wanted besides the best route (default 2). */
  count?: number;
  /** Most of the best route's measure an alternative may share with it or with another chosen one (default 0.7). */
  maxShare?: number;
  /** Most an alternative may cost, as a multiple of the best's cost (default 1.4). */
  maxStretch?: number;
  /**
   * Local optimality: every stretch of an alternative around its via node worth this share of
   * the best's cost must be a shortest path itself (default 0.25; 0 turns the test off).
   */
  localShare?: number;
  /** The measure of sharing per original arc, e.g. its length in m (default: its weight). */
  share?: ArrayLike<number>;
  /**
   * Per original arc: what it runs along, for sharing (arcs with one id share it, e.g. the edge an
   * edge-based graph's turn leads onto: two routes turning onto one road share it, whatever they
   * came from); default: each arc is its own.
   */
  along?: ArrayLike<number>;
  /** Via candidates to try at most, bounding the work of one call (default 64). */
  tries?: number;
}

/** A via candidate's path, as the search that found it builds it. */
export interface ViaPath {
  path: Path;
  /** Index in path.arcs of the first arc after the via node. */
  via: number;
}

/** What a search hands the via-node selection. */
export interface ViaSpace {
  /** Candidate via nodes, in the order to try them. */
  vias: ArrayLike<number>;
  /** The path s → v → t through candidate v, as the two search trees give it. */
  path(v: number): ViaPath;
  /** The exact shortest cost from node x to node y (a separate search: the trees stay intact). */
  between(x: number, y: number): number;
}

/**
 * Picks alternatives by the via-node method (Abraham, Delling, Goldberg, Werneck, "Alternative
 * routes in road networks", 2010): a candidate v gives the path s → v → t; it is admissible when
 * it costs at most maxStretch × best, is simple, shares at most maxShare of the best's measure
 * with each route already chosen, and passes the T-test around v. Written here because no npm
 * library does this over our own search trees. Scratch is sized to the graph once.
 */
export class ViaChooser {
  private readonly arcs: Arcs;
  /** Bit i set: the arc is on chosen route i. */
  private arcMask: Uint8Array;
  /** Node is on some chosen route. */
  private readonly nodeMask: Uint8Array;
  private readonly stamp: Uint32Array;
  private tick = 0;

  constructor(arcs: Arcs) {
    this.arcs = arcs;
    this.arcMask = new Uint8Array(arcs.from.length);
    this.nodeMask = new Uint8Array(arcs.n);
    this.stamp = new Uint32Array(arcs.n);
  }

  /** The best route first, then up to `count` alternatives from `space`, in the order found. */
  choose(best: Path, space: ViaSpace, options: AlternativeOptions = {}): Path[] {
    const count = Math.min(options.count ?? 2, 7);
    const maxShare = options.maxShare ?? 0.7;
    const maxStretch = options.maxStretch ?? 1.4;
    const localShare = options.localShare ?? 0.25;
    const measure = options.share ?? this.arcs.weight;
    this.along = options.along;
    const tries = options.tries ?? 64;
    const chosen: Path[] = [best];
    this.mark(best, 0);
    const bestMeasure = sum(best.arcs, measure);
    const shared = new Float64Array(8);

    try {
      let tried = 0;
      for (let i = 0; i < space.vias.length && chosen.length <= count && tried < tries; i++) {
        const v = space.vias[i];
        if (this.nodeMask[v]) continue; // on a chosen route: gives it back, or a detour off it
        tried++;
        const { path, via } = space.path(v);
        if (path.cost > maxStretch * best.cost || !this.simple(path)) continue;
        shared.fill(0);
        for (let k = 0; k < path.arcs.length; k++) {
          const bits = this.arcMask[this.id(path.arcs[k])];
          if (bits) for (let c = 0; c < chosen.length; c++) if (bits & (1 << c)) shared[c] += measure[path.arcs[k]];
        }
        let ok = true;
        for (let c = 0; c < chosen.length; c++) if (shared[c] > maxShare * bestMeasure) ok = false;
        if (!ok || (localShare > 0 && !this.locallyOptimal(path, via, localShare * best.cost, space))) continue;
        this.mark(path, chosen.length);
        chosen.push(path);
      }
    } finally {
      for (const p of chosen) this.unmark(p);
    }
    return chosen;
  }

  private along?: ArrayLike<number>;

  // What arc a runs along, for sharing.
  private id(a: number): number {
    return this.along ? this.along[a] : a;
  }

  private grow(id: number): void {
    const m = new Uint8Array(Math.max(id + 1, this.arcMask.length * 2));
    m.set(this.arcMask);
    this.arcMask = m;
  }

  private mark(p: Path, bit: number): void {
    const { arcMask, nodeMask } = this;
    nodeMask[p.source] = 1;
    for (let k = 0; k < p.arcs.length; k++) {
      const id = this.id(p.arcs[k]);
      if (id >= arcMask.length) this.grow(id);
      this.arcMask[id] |= 1 << bit;
      nodeMask[this.arcs.to[p.arcs[k]]] = 1;
    }
  }

  private unmark(p: Path): void {
    this.nodeMask[p.source] = 0;
    for (let k = 0; k < p.arcs.length; k++) {
      this.arcMask[this.id(p.arcs[k])] = 0;
      this.nodeMask[this.arcs.to[p.arcs[k]]] = 0;
    }
  }

  /** No node twice: a via path may run to v and back along the same road. */
  private simple(p: Path): boolean {
    const t = ++this.tick;
    const { stamp } = this;
    stamp[p.source] = t;
    for (let k = 0; k < p.arcs.length; k++) {
      const v = this.arcs.to[p.arcs[k]];
      if (stamp[v] === t) return false;
      stamp[v] = t;
    }
    return true;
  }

  /**
   * The T-test: take the stretch of the path reaching `half` of T on each side of the via
   * node (clipped at its ends); it must cost no more than the shortest path between its ends.
   */
  private locallyOptimal(p: Path, via: number, t: number, space: ViaSpace): boolean {
    const { from, to, weight } = this.arcs;
    const half = t / 2;
    let i = via,
      before = 0;
    while (i > 0 && before < half) before += weight[p.arcs[--i]];
    let j = via,
      after = 0;
    while (j < p.arcs.length && after < half) after += weight[p.arcs[j++]];
    if (i === j) return true;
    const x = from[p.arcs[i]],
      y = to[p.arcs[j - 1]];
    return space.between(x, y) >= before + after;
  }
}

function sum(arcs: Uint32Array, measure: ArrayLike<number>): number {
  let s = 0;
  for (let k = 0; k < arcs.length; k++) s += measure[arcs[k]];
  return s;
}
