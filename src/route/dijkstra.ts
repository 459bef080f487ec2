import { adjacency, checkArcs, type Adjacency, type Arcs } from './csr.js';
import { ArcList, checkEnds, type Ends, type Path } from './ends.js';
import { Labels, NONE, SETTLED } from './labels.js';
import { ViaChooser, type AlternativeOptions, type ViaPath } from './alternatives.js';

// Written by hand over our own CSR arrays (flatqueue for the heap): npm's graph libraries
// (ngraph.path, graphology-shortest-path, node-dijkstra) want an object graph, and neither
// takes several weighted sources and targets nor reuses its scratch between queries.

/**
 * A search stopped at its limit of settled nodes (`BiDijkstra.maxSettled`) before it found
 * the best path: a bound on the work of one query, not a proof that no path exists.
 */
export class SearchLimitError extends RangeError {
  /** The limit that was reached. */
  readonly settled: number;
  constructor(settled: number) {
    super(`the search settled ${settled} nodes without finishing`);
    this.name = 'SearchLimitError';
    this.settled = settled;
  }
}

/**
 * Plain one-directional Dijkstra from all sources at once until the best target is settled:
 * the baseline of the bench and the reference of the tests, kept as simple as it can be.
 */
export class Dijkstra {
  readonly arcs: Arcs;
  private readonly out: Adjacency;
  /** Query contexts not in use (see `Hierarchy`): the arrays above never change. */
  private readonly free: Plain[] = [];

  constructor(arcs: Arcs) {
    checkArcs(arcs);
    this.arcs = arcs;
    this.out = adjacency(arcs);
    this.free.push(new Plain(arcs.n));
  }

  /** The cheapest path from one of `sources` to one of `targets`, or null when none joins them. */
  route(sources: Ends, targets: Ends): Path | null {
    const { n } = this.arcs;
    checkEnds(sources, n, 'sources');
    checkEnds(targets, n, 'targets');
    const q = this.free.pop() ?? new Plain(n);
    try {
      return this.routeWith(q, sources, targets);
    } finally {
      this.free.push(q);
    }
  }

  private routeWith(q: Plain, sources: Ends, targets: Ends): Path | null {
    const L = q.labels,
      goal = q.goal;
    const { start, head, weight, arc } = this.out;
    L.reset();
    for (let i = 0; i < targets.length; i += 2) goal[targets[i]] = Math.min(goal[targets[i]], targets[i + 1]);
    try {
      for (let i = 0; i < sources.length; i += 2) {
        const v = sources[i],
          c = sources[i + 1];
        if (c < L.dist[v]) L.label(v, c, NONE);
      }
      let best = Infinity,
        end = -1;
      for (;;) {
        const d = L.top();
        if (d >= best) break; // also when the queue is empty (Infinity)
        const v = L.queue.pop()!;
        L.state[v] = SETTLED;
        if (d + goal[v] < best) {
          best = d + goal[v];
          end = v;
        }
        for (let k = start[v]; k < start[v + 1]; k++) {
          const w = head[k],
            dw = d + weight[k];
          if (dw < L.dist[w]) L.label(w, dw, arc[k]);
        }
      }
      if (end < 0) return null;
      const list = new ArcList();
      let v = end;
      while (L.parent[v] !== NONE) {
        list.push(L.parent[v]);
        v = this.arcs.from[L.parent[v]];
      }
      list.reverseFrom(0);
      return { cost: best, arcs: list.slice(), source: v, target: end };
    } finally {
      for (let i = 0; i < targets.length; i += 2) goal[targets[i]] = Infinity;
    }
  }
}

/** One plain Dijkstra query's scratch. */
class Plain {
  readonly labels: Labels;
  /** Initial cost of each target node for the current query (Infinity elsewhere). */
  readonly goal: Float64Array;
  constructor(n: number) {
    this.labels = new Labels(n);
    this.goal = new Float64Array(n).fill(Infinity);
  }
}

/** One bidirectional search's scratch and what it found; `aux` and `chooser` serve its alternatives. */
class Bi {
  readonly fwd: Labels;
  readonly bwd: Labels;
  readonly list = new ArcList();
  best = Infinity;
  meet = -1;
  /** What the current query may still settle. */
  left = Infinity;
  aux?: Bi;
  chooser?: ViaChooser;
  constructor(n: number) {
    this.fwd = new Labels(n);
    this.bwd = new Labels(n);
  }
}

/**
 * Bidirectional Dijkstra: a forward search from the sources and a backward one from the
 * targets, each step taken by the side with the smaller key, stopping once the two keys sum
 * to at least the best meeting found. Needs no preprocessing, so a PBF-loaded index routes
 * with it; per-query scratch is sized n once.
 */
export class BiDijkstra {
  readonly arcs: Arcs;
  private readonly out: Adjacency;
  private readonly in: Adjacency;
  /**
   * Most nodes one query may settle (both sides, and with alternatives every search it runs)
   * before it throws `SearchLimitError`.
   */
  readonly maxSettled: number;
  /**
   * Query contexts not in use. The arrays above never change after the build; all a query
   * writes is its context's, taken at its start and given back at its end (one, unless a
   * query runs inside another's callback).
   */
  private readonly free: Bi[] = [];

  constructor(arcs: Arcs, maxSettled = Infinity) {
    checkArcs(arcs);
    this.arcs = arcs;
    this.maxSettled = maxSettled;
    this.out = adjacency(arcs);
    this.in = adjacency(arcs, true);
    this.free.push(new Bi(arcs.n));
  }

  /** The cheapest path from one of `sources` to one of `targets`, or null when none joins them. */
  route(sources: Ends, targets: Ends): Path | null {
    const q = this.take();
    try {
      q.left = this.maxSettled;
      this.search(q, sources, targets, 1);
      return q.meet < 0 ? null : this.path(q, q.meet);
    } finally {
      this.free.push(q);
    }
  }

  /** A context of the pool, or a new one when all are in use (a query inside another's callback). */
  private take(): Bi {
    return this.free.pop() ?? new Bi(this.arcs.n);
  }

  /**
   * The best path, then up to `options.count` alternatives (see AlternativeOptions), best
   * first; [] when no path joins the ends. Via candidates are the starts of plateaus (arcs on
   * both shortest-path trees) found by searches grown to maxStretch × best, longest first.
   */
  alternatives(sources: Ends, targets: Ends, options: AlternativeOptions = {}): Path[] {
    const q = this.take();
    try {
      return this.alternativesWith(q, sources, targets, options);
    } finally {
      this.free.push(q);
    }
  }

  private alternativesWith(q: Bi, sources: Ends, targets: Ends, options: AlternativeOptions): Path[] {
    q.left = this.maxSettled;
    this.search(q, sources, targets, options.maxStretch ?? 1.4);
    if (q.meet < 0) return [];
    const best = this.path(q, q.meet);
    const vias = this.plateaus(q, options.maxStretch ?? 1.4);
    const aux = (q.aux ??= new Bi(this.arcs.n));
    q.chooser ??= new ViaChooser(this.arcs);
    return q.chooser.choose(
      best,
      {
        vias,
        path: (v) => this.viaPath(q, v),
        between: (x, y) => this.costWithin(aux, x, y, q),
      },
      options,
    );
  }

  /** The cost from x to y, or Infinity: a search on `aux` that spends what is left of `owner`'s query. */
  private costWithin(aux: Bi, x: number, y: number, owner: Bi): number {
    aux.left = owner.left;
    try {
      this.search(aux, [x, 0], [y, 0], 1);
    } finally {
      owner.left = aux.left;
    }
    return aux.meet < 0 ? Infinity : aux.best;
  }

  /** Runs both searches; once they meet, keeps growing each until its key exceeds `stretch` × best. */
  private search(q: Bi, sources: Ends, targets: Ends, stretch: number): void {
    const { n } = this.arcs;
    checkEnds(sources, n, 'sources');
    checkEnds(targets, n, 'targets');
    const F = q.fwd,
      B = q.bwd;
    F.reset();
    B.reset();
    q.best = Infinity;
    q.meet = -1;
    for (let i = 0; i < sources.length; i += 2) if (sources[i + 1] < F.dist[sources[i]]) F.label(sources[i], sources[i + 1], NONE);
    for (let i = 0; i < targets.length; i += 2) {
      const v = targets[i],
        c = targets[i + 1];
      if (c < B.dist[v]) {
        B.label(v, c, NONE);
        improve(q, v, F.dist[v] + c);
      }
    }
    for (;;) {
      if (q.left-- <= 0) throw new SearchLimitError(this.maxSettled);
      const kf = F.top(),
        kb = B.top(),
        best = q.best;
      if (best === Infinity && (kf === Infinity || kb === Infinity)) break; // one side ran dry: no path
      let forward: boolean;
      if (stretch <= 1) {
        if (kf + kb >= best) break;
        forward = kf <= kb;
      } else {
        // alternatives: both trees grown to stretch × best, so every admissible via node is settled twice
        const lim = stretch * best;
        const f = kf <= lim && kf !== Infinity,
          b = kb <= lim && kb !== Infinity;
        if (!f && !b) break;
        forward = f && (!b || kf <= kb);
      }
      if (forward) step(q, F, B, this.out, kf);
      else step(q, B, F, this.in, kb);
    }
  }

  /** The path through v along both trees; `via` is where v falls in it. */
  private viaPath(q: Bi, v: number): ViaPath {
    const { from, to } = this.arcs;
    const F = q.fwd,
      B = q.bwd;
    const list = q.list;
    list.length = 0;
    let s = v;
    while (F.parent[s] !== NONE) {
      list.push(F.parent[s]);
      s = from[F.parent[s]];
    }
    list.reverseFrom(0);
    const via = list.length;
    let t = v;
    while (B.parent[t] !== NONE) {
      list.push(B.parent[t]);
      t = to[B.parent[t]];
    }
    return { path: { cost: F.dist[v] + B.dist[v], arcs: list.slice(), source: s, target: t }, via };
  }

  private path(q: Bi, v: number): Path {
    const p = this.viaPath(q, v).path;
    p.cost = q.best;
    return p;
  }

  /**
   * One via node per plateau (a maximal chain of arcs on both trees: parent of its head in the
   * forward tree, of its tail in the backward one), among nodes settled on both sides within
   * `stretch` × best, ordered by plateau cost, longest first: a long plateau makes a locally
   * optimal via path.
   */
  private plateaus(q: Bi, stretch: number): Uint32Array {
    const { from, to, weight } = this.arcs;
    const F = q.fwd,
      B = q.bwd;
    const limit = stretch * q.best;
    const starts: number[] = [];
    const lengths: number[] = [];
    for (let i = 0; i < F.size; i++) {
      const u = F.touched[i];
      if (F.state[u] !== SETTLED || B.state[u] !== SETTLED || F.dist[u] + B.dist[u] > limit) continue;
      const a = B.parent[u];
      if (a === NONE || F.parent[to[a]] !== a) continue; // no plateau arc leaves u
      const p = F.parent[u];
      if (p !== NONE && B.parent[from[p]] === p) continue; // u is inside a plateau, not at its start
      let len = 0;
      for (let b = a; b !== NONE && F.parent[to[b]] === b && F.state[to[b]] === SETTLED; b = B.parent[to[b]]) len += weight[b];
      starts.push(u);
      lengths.push(len);
    }
    const order = starts.map((_, i) => i).sort((x, y) => lengths[y] - lengths[x] || starts[x] - starts[y]);
    return Uint32Array.from(order, (i) => starts[i]);
  }
}

/** Settles the top node of `S`, relaxing its arcs, checking each label against the other side `O`. */
function step(q: Bi, S: Labels, O: Labels, adj: Adjacency, d: number): void {
  const v = S.queue.pop()!;
  S.state[v] = SETTLED;
  const { start, head, weight, arc } = adj;
  for (let k = start[v]; k < start[v + 1]; k++) {
    const w = head[k],
      dw = d + weight[k];
    if (dw < S.dist[w]) {
      S.label(w, dw, arc[k]);
      if (O.state[w]) improve(q, w, dw + O.dist[w]);
    }
  }
}

function improve(q: Bi, v: number, cost: number): void {
  // ties go to the smaller node id, so the result does not depend on which side met first
  if (cost < q.best || (cost === q.best && v < q.meet)) {
    q.best = cost;
    q.meet = v;
  }
}
