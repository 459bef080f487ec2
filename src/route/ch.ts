import FlatQueue from 'flatqueue';
import { adjacency, checkArcs, type Arcs } from './csr.js';
import { ArcList, checkEnds, type Ends, type Path } from './ends.js';
import { Labels, NONE, SETTLED, STALLED } from './labels.js';
import { ViaChooser, type AlternativeOptions, type ViaPath } from './alternatives.js';

// Contraction hierarchies (Geisberger, Sanders, Schultes, Delling 2008), written by hand on
// typed arrays: npm's maintained graph libraries (ngraph.path, graphology-shortest-path,
// node-dijkstra) keep an object per node and edge and search without preprocessing, and
// nothing there stores a hierarchy as flat arrays a snapshot can restore.

/** How hard preprocessing tries; the defaults suit road graphs. */
export interface ContractOptions {
  /** Nodes a witness search may settle (default 100): more finds more witnesses, fewer shortcuts, but takes longer. */
  witness?: number;
  /** Called now and then with the number of nodes contracted so far. */
  onProgress?: (contracted: number, n: number) => void;
}

/** The typed arrays a Hierarchy is made of: what a snapshot stores. */
export interface HierarchyData {
  /** Node id → its position in the contraction order; searches run on these positions. */
  rank: Uint32Array;
  /**
   * Node r's (by rank) edges to higher nodes: slots `first[r] .. mid[r]` lead out of it (the
   * forward search's), `mid[r] .. first[r + 1]` into it (the backward search's). One block per
   * node keeps both halves of a shortcut over r side by side, for unpacking.
   */
  first: Uint32Array;
  mid: Uint32Array;
  /** Per slot: the edge's other end (a rank), and its weight (Float64Array when a sum passes 2^32 - 1). */
  head: Uint32Array;
  weight: Uint32Array | Float64Array;
  /**
   * Per slot k, `ab[2k], ab[2k + 1]`: an original arc and NONE, or a shortcut over the
   * slots ab[2k] then ab[2k + 1]; interleaved, so one cache line tells which.
   */
  ab: Uint32Array;
}

/**
 * What a snapshot stores of a hierarchy: `rank`, `first` and `mid` as in HierarchyData; per rank h,
 * how many slots of lower ranks lead to it, as offsets (out-slots: `outTo[h] .. outTo[h + 1]`,
 * in-slots: `inTo`); and in `slots` a few bits per slot, from which `Hierarchy.fromCompact` derives
 * every slot's head, weight and halves again, given the arcs. Slot by slot in order, at rank r
 * (node u), in u's out-half or in-half:
 * - `x`, in the bits that hold `deg + len - 1` (none when that is 0): `deg` is the number of u's
 *   arcs out (out-half) or in (in-half), in arc id order; `len` the number of lower slots of the
 *   other kind with head r (in-slots for an out-slot, out-slots for an in-slot), in slot order.
 *   `x < deg`: the slot is original, arc x of those; else a shortcut, whose half at its middle v
 *   is lower slot `x - deg` of those (tail → v for an out-slot, v → tip for an in-slot);
 * - a shortcut's `y`, in the bits that hold `size - 1`, `size` that of v's half of the other kind:
 *   its other half is slot y of that half.
 * A slot's head is its arc's other end, or its other half's head. The stream is 32-bit words, each
 * value least significant bit first (as `bits` sections pack), the last word padded with zeros.
 */
export interface CompactHierarchy {
  rank: Uint32Array;
  first: Uint32Array;
  mid: Uint32Array;
  outTo: Uint32Array;
  inTo: Uint32Array;
  slots: Uint32Array;
}

/**
 * Contracts the graph: nodes are removed one by one in the order of a lazily updated
 * priority (edge quotient + hop quotient + level, as in RoutingKit), each removal adding
 * the shortcuts that keep the remaining graph's distances, unless a bounded witness search
 * finds a path at least as short. Deterministic: same arcs, same hierarchy.
 */
export function contract(arcs: Arcs, options: ContractOptions = {}): Hierarchy {
  checkArcs(arcs);
  return new Contraction(arcs, options).run();
}

/** `NONE` as a list position. */
const MISSING = -1;

/** Per-node growable lists of edge ids in one pool, for the graph being contracted. */
class Lists {
  readonly start: Uint32Array;
  readonly len: Uint32Array;
  readonly cap: Uint32Array;
  pool: Uint32Array;
  end = 0;

  constructor(degree: Uint32Array) {
    const n = degree.length;
    this.start = new Uint32Array(n);
    this.len = new Uint32Array(n);
    this.cap = new Uint32Array(n);
    let total = 0;
    for (let v = 0; v < n; v++) total += degree[v] + 2;
    this.pool = new Uint32Array(Math.max(16, total * 2));
    for (let v = 0; v < n; v++) {
      this.start[v] = this.end;
      this.cap[v] = degree[v] + 2;
      this.end += degree[v] + 2;
    }
  }

  push(v: number, e: number): void {
    if (this.len[v] === this.cap[v]) {
      // move the list to the pool's end with twice the room; the old room is left unused
      const cap = this.cap[v] * 2;
      if (this.end + cap > this.pool.length) {
        const p = new Uint32Array(Math.ceil((this.end + cap) * 1.5));
        p.set(this.pool.subarray(0, this.end));
        this.pool = p;
      }
      this.pool.copyWithin(this.end, this.start[v], this.start[v] + this.len[v]);
      this.start[v] = this.end;
      this.cap[v] = cap;
      this.end += cap;
    }
    this.pool[this.start[v] + this.len[v]++] = e;
  }

  remove(v: number, e: number): void {
    const s = this.start[v],
      last = s + this.len[v] - 1;
    for (let i = s; i <= last; i++) {
      if (this.pool[i] === e) {
        this.pool[i] = this.pool[last];
        this.len[v]--;
        return;
      }
    }
  }
}

/** The state of one preprocessing run. */
class Contraction {
  private readonly arcs: Arcs;
  private readonly n: number;
  private readonly witness: number;
  private readonly onProgress?: (contracted: number, n: number) => void;
  // the edge pool: originals first, then shortcuts
  private from: Uint32Array;
  private to: Uint32Array;
  private weight: Float64Array;
  private ea: Uint32Array;
  private eb: Uint32Array;
  private hops: Uint32Array;
  private edges = 0;
  private out!: Lists;
  private in!: Lists;
  private readonly level: Uint32Array;
  private readonly done: Uint8Array;
  /** A neighbour was contracted since the node was last rated. */
  private readonly dirty: Uint8Array;
  private readonly priority: Float64Array;
  private readonly labels: Labels;
  /** Per node: the shortcut cost wanted to it in the current witness search (0 = not a target). */
  private readonly want: Float64Array;
  /** Result of the last simulate(): shortcuts needed and the original arcs they span. */
  private added = 0;
  private addedHops = 0;

  constructor(arcs: Arcs, options: ContractOptions) {
    this.arcs = arcs;
    this.n = arcs.n;
    this.witness = options.witness ?? 100;
    this.onProgress = options.onProgress;
    const cap = Math.max(16, arcs.from.length * 2);
    this.from = new Uint32Array(cap);
    this.to = new Uint32Array(cap);
    this.weight = new Float64Array(cap);
    this.ea = new Uint32Array(cap);
    this.eb = new Uint32Array(cap);
    this.hops = new Uint32Array(cap);
    this.level = new Uint32Array(this.n);
    this.done = new Uint8Array(this.n);
    this.dirty = new Uint8Array(this.n);
    this.priority = new Float64Array(this.n);
    this.labels = new Labels(this.n);
    this.want = new Float64Array(this.n).fill(-1);
  }

  run(): Hierarchy {
    this.originals();
    const n = this.n;
    const queue = new FlatQueue<number>();
    for (let v = 0; v < n; v++) {
      this.priority[v] = this.rate(v);
      queue.push(v, this.priority[v]);
    }
    const rank = new Uint32Array(n);
    let next = 0;
    const every = Math.max(1, Math.floor(n / 100));
    while (queue.length) {
      const p = queue.peekValue()!;
      const v = queue.pop()!;
      if (this.done[v] || p !== this.priority[v]) continue; // stale entry
      if (this.dirty[v]) {
        // lazy update: a neighbour went since v was rated; contract v only if it is still the cheapest
        const q = this.rate(v);
        this.dirty[v] = 0;
        if (queue.length && q > queue.peekValue()!) {
          this.priority[v] = q;
          queue.push(v, q);
          continue;
        }
      } else if (this.pendingNode !== v) {
        this.rate(v); // unchanged since rated: the same shortcuts, recomputed into the buffer
      }
      this.contractNode(v);
      rank[v] = next++;
      if (this.onProgress && next % every === 0) this.onProgress(next, n);
      // neighbours: a level deeper, and to be re-rated when they come up
      for (let i = 0; i < this.nbrCount; i++) {
        const x = this.nbr[i];
        if (this.level[x] < this.level[v] + 1) this.level[x] = this.level[v] + 1;
        this.dirty[x] = 1;
      }
    }
    return this.build(rank);
  }

  private nbr = new Uint32Array(64);
  private nbrCount = 0;

  /** The edge pool starts as the arcs, without self-loops and with the lightest of parallel arcs only. */
  private originals(): void {
    const { n } = this;
    const fwd = adjacency(this.arcs);
    const pick = new Int32Array(n).fill(MISSING);
    const outDeg = new Uint32Array(n);
    const inDeg = new Uint32Array(n);
    const heads: number[] = [];
    for (let v = 0; v < n; v++) {
      heads.length = 0;
      for (let k = fwd.start[v]; k < fwd.start[v + 1]; k++) {
        const w = fwd.head[k];
        if (w === v) continue;
        const p = pick[w];
        if (p === MISSING) {
          pick[w] = k;
          heads.push(w);
        } else if (fwd.weight[k] < fwd.weight[p]) pick[w] = k;
      }
      for (const w of heads) {
        const k = pick[w];
        pick[w] = MISSING;
        this.addEdge(v, w, fwd.weight[k], fwd.arc[k], NONE, 1);
        outDeg[v]++;
        inDeg[w]++;
      }
    }
    this.out = new Lists(outDeg);
    this.in = new Lists(inDeg);
    for (let e = 0; e < this.edges; e++) {
      this.out.push(this.from[e], e);
      this.in.push(this.to[e], e);
    }
  }

  private addEdge(u: number, w: number, weight: number, a: number, b: number, hops: number): number {
    if (this.edges === this.from.length) {
      const cap = Math.ceil(this.edges * 1.5);
      this.from = grow(this.from, cap);
      this.to = grow(this.to, cap);
      this.weight = grow(this.weight, cap);
      this.ea = grow(this.ea, cap);
      this.eb = grow(this.eb, cap);
      this.hops = grow(this.hops, cap);
    }
    const e = this.edges++;
    this.from[e] = u;
    this.to[e] = w;
    this.weight[e] = weight;
    this.ea[e] = a;
    this.eb[e] = b;
    this.hops[e] = hops;
    return e;
  }

  /** The priority of contracting v now (smaller first). */
  private rate(v: number): number {
    this.shortcuts(v);
    const removed = this.in.len[v] + this.out.len[v];
    let removedHops = 0;
    for (const lists of [this.in, this.out]) {
      for (let i = lists.start[v], end = i + lists.len[v]; i < end; i++) removedHops += this.hops[lists.pool[i]];
    }
    if (removed === 0) return this.level[v];
    return this.level[v] + this.added / removed + this.addedHops / removedHops;
  }

  /** Removes v from the graph, adding the shortcuts its removal needs. */
  private contractNode(v: number): void {
    const { out, in: inn, pending } = this;
    for (let i = 0; i < this.pendingCount; i++) {
      this.addShortcut(pending[4 * i], pending[4 * i + 1], this.pendingCost[i], pending[4 * i + 2], pending[4 * i + 3]);
    }
    this.pendingNode = -1;
    // record the neighbours, then drop v's edges from their lists
    this.nbrCount = 0;
    for (let i = inn.start[v], end = i + inn.len[v]; i < end; i++) {
      const e = inn.pool[i];
      this.pushNeighbour(this.from[e]);
      out.remove(this.from[e], e);
    }
    for (let i = out.start[v], end = i + out.len[v]; i < end; i++) {
      const e = out.pool[i];
      this.pushNeighbour(this.to[e]);
      inn.remove(this.to[e], e);
    }
    inn.len[v] = 0;
    out.len[v] = 0;
    this.done[v] = 1;
  }

  private pending = new Uint32Array(4 * 64);
  private pendingCost = new Float64Array(64);
  private pendingCount = 0;
  private pendingNode = -1;

  private addPending(u: number, w: number, c: number, e1: number, e2: number): void {
    if (this.pendingCount === this.pendingCost.length) {
      this.pending = grow(this.pending, this.pending.length * 2);
      this.pendingCost = grow(this.pendingCost, this.pendingCost.length * 2);
    }
    const i = this.pendingCount++;
    const p = this.pending;
    p[4 * i] = u;
    p[4 * i + 1] = w;
    p[4 * i + 2] = e1;
    p[4 * i + 3] = e2;
    this.pendingCost[i] = c;
  }

  private pushNeighbour(x: number): void {
    if (this.nbrCount === this.nbr.length) this.nbr = grow(this.nbr, this.nbr.length * 2);
    this.nbr[this.nbrCount++] = x;
  }

  /**
   * For each edge u → v and v → w (u ≠ w), the path u → v → w needs a shortcut unless a
   * witness search from u that avoids v, settling at most `limit` nodes, finds u → w at no
   * more cost. They go into the pending buffer, for contractNode(v).
   */
  private shortcuts(v: number): void {
    const { out, in: inn, want, labels: L } = this;
    const limit = this.witness;
    this.added = 0;
    this.addedHops = 0;
    this.pendingNode = v;
    this.pendingCount = 0;
    const outStart = out.start[v],
      outEnd = outStart + out.len[v];
    if (outEnd === outStart) return;
    for (let i = inn.start[v], iEnd = i + inn.len[v]; i < iEnd; i++) {
      const e1 = inn.pool[i];
      const u = this.from[e1],
        w1 = this.weight[e1];
      let max = 0,
        targets = 0;
      for (let j = outStart; j < outEnd; j++) {
        const e2 = out.pool[j],
          w = this.to[e2];
        if (w === u) continue;
        const c = w1 + this.weight[e2];
        if (want[w] < 0) targets++;
        if (want[w] < 0 || c < want[w]) want[w] = c;
        if (c > max) max = c;
      }
      if (targets === 0) continue;
      this.witnessSearch(u, v, max, targets, limit);
      for (let j = outStart; j < outEnd; j++) {
        const e2 = out.pool[j],
          w = this.to[e2];
        if (w === u || want[w] < 0) continue;
        const c = w1 + this.weight[e2];
        // several v → w edges cannot exist (parallel ones are merged), so c is want[w]
        if (L.dist[w] > c) {
          this.added++;
          this.addedHops += this.hops[e1] + this.hops[e2];
          this.addPending(u, w, c, e1, e2);
        }
        want[w] = -1;
      }
      L.reset();
    }
  }

  /** Dijkstra from u in the remaining graph without v, until `targets` wanted nodes are settled, the key passes `max`, or `limit` nodes are settled. */
  private witnessSearch(u: number, v: number, max: number, targets: number, limit: number): void {
    const { out, labels: L, want, to, weight } = this;
    const { start, len, pool } = out;
    const { dist, state, queue } = L;
    let touched = L.touched;
    L.reset();
    // labels written inline: a witness search needs no parents, and this loop is most of the preprocessing
    dist[u] = 0;
    state[u] = 1;
    touched[0] = u;
    let size = 1;
    queue.push(u, 0);
    let settled = 0;
    while (queue.length) {
      const d = queue.peekValue()!;
      const x = queue.pop()!;
      if (d !== dist[x] || state[x] === SETTLED) continue;
      if (d > max) break;
      state[x] = SETTLED;
      if (want[x] >= 0 && --targets === 0) break;
      if (++settled > limit) break;
      for (let i = start[x], end = i + len[x]; i < end; i++) {
        const y = to[pool[i]];
        if (y === v) continue;
        const dy = d + weight[pool[i]];
        if (dy < dist[y]) {
          if (state[y] === 0) {
            state[y] = 1;
            if (size === touched.length) {
              L.size = size;
              L.grow();
              touched = L.touched;
            }
            touched[size++] = y;
          }
          dist[y] = dy;
          queue.push(y, dy);
        }
      }
    }
    L.size = size;
  }

  private addShortcut(u: number, w: number, c: number, e1: number, e2: number): void {
    const { out } = this;
    for (let i = out.start[u], end = i + out.len[u]; i < end; i++) {
      const e = out.pool[i];
      if (this.to[e] !== w) continue;
      if (this.weight[e] > c) {
        // still between uncontracted nodes, so no shortcut refers to it yet: update in place
        this.weight[e] = c;
        this.ea[e] = e1;
        this.eb[e] = e2;
        this.hops[e] = this.hops[e1] + this.hops[e2];
      }
      return;
    }
    const e = this.addEdge(u, w, c, e1, e2, this.hops[e1] + this.hops[e2]);
    out.push(u, e);
    this.in.push(w, e);
  }

  /** Lays the edges out by rank: each at its lower end, leading out of it or into it. */
  private build(rank: Uint32Array): Hierarchy {
    const { n, edges, from, to } = this;
    const first = new Uint32Array(n + 1);
    const mid = new Uint32Array(n);
    const ins = new Uint32Array(n);
    for (let e = 0; e < edges; e++) {
      const ru = rank[from[e]],
        rw = rank[to[e]];
      if (ru < rw) mid[ru]++;
      else ins[rw]++;
    }
    for (let r = 0; r < n; r++) {
      const outs = mid[r];
      mid[r] = first[r] + outs;
      first[r + 1] = mid[r] + ins[r];
    }
    const fillOut = first.slice(0, n),
      fillIn = mid.slice();
    const slot = new Uint32Array(edges);
    let maxWeight = 0;
    for (let e = 0; e < edges; e++) {
      const ru = rank[from[e]],
        rw = rank[to[e]];
      slot[e] = ru < rw ? fillOut[ru]++ : fillIn[rw]++;
      if (this.weight[e] > maxWeight) maxWeight = this.weight[e];
    }
    const head = new Uint32Array(edges);
    const weight = maxWeight <= 0xffffffff ? new Uint32Array(edges) : new Float64Array(edges);
    const ab = new Uint32Array(2 * edges);
    for (let e = 0; e < edges; e++) {
      const k = slot[e],
        ru = rank[from[e]],
        rw = rank[to[e]];
      head[k] = ru < rw ? rw : ru;
      weight[k] = this.weight[e];
      if (this.eb[e] === NONE) {
        ab[2 * k] = this.ea[e];
        ab[2 * k + 1] = NONE;
      } else {
        ab[2 * k] = slot[this.ea[e]];
        ab[2 * k + 1] = slot[this.eb[e]];
      }
    }
    return new Hierarchy(this.arcs, { rank, first, mid, head, weight, ab });
  }
}

/** `fromCompact` puts slots in the lists of 2^BUCKET ranks at a time (1024: the quickest of 2^7 to 2^13 at Nepal scale). */
const BUCKET = 10;

/** A graph's arcs grouped by one end (`ends`: their tails, or their heads): node v's are `arc[start[v] .. start[v + 1]]`, in id order. */
function arcsBy(ends: Uint32Array, n: number): { start: Uint32Array; arc: Uint32Array } {
  const start = new Uint32Array(n + 1);
  for (let i = 0; i < ends.length; i++) start[ends[i] + 1]++;
  for (let v = 0; v < n; v++) start[v + 1] += start[v];
  const fill = start.slice(0, n);
  const arc = new Uint32Array(ends.length);
  for (let i = 0; i < ends.length; i++) arc[fill[ends[i]]++] = i;
  return { start, arc };
}

/**
 * The arcs by the rank of their tails (`reverse`: of their heads), rank r's at `start[r] ..
 * start[r + 1]` in id order, each as three numbers: the arc, the rank of its other end, its weight.
 * A rank's original slots are made of these, side by side, where a look per slot through node
 * ids would miss the cache three times.
 */
function arcsByRank(arcs: Arcs, rank: Uint32Array, reverse: boolean): { start: Uint32Array; e: Uint32Array } {
  const ends = reverse ? arcs.to : arcs.from,
    others = reverse ? arcs.from : arcs.to;
  const n = rank.length;
  const start = new Uint32Array(n + 1);
  for (let i = 0; i < ends.length; i++) start[rank[ends[i]] + 1]++;
  for (let v = 0; v < n; v++) start[v + 1] += start[v];
  const fill = start.slice(0, n);
  const e = new Uint32Array(3 * ends.length);
  for (let i = 0; i < ends.length; i++) {
    const j = 3 * fill[rank[ends[i]]]++;
    e[j] = i;
    e[j + 1] = rank[others[i]];
    e[j + 2] = arcs.weight[i];
  }
  return { start, e };
}

/** Bits that hold x (0 for 0), for x below 2^32. */
function widthOf(x: number): number {
  return 32 - Math.clz32(x);
}

/** `width` (0–32) bits at bit `pos` of `words`, least significant first; the caller checked that they lie within. */
function bitsAt(words: Uint32Array, pos: number, width: number): number {
  if (width === 0) return 0;
  const i = pos >>> 5,
    bit = pos & 31;
  let v = words[i] >>> bit;
  if (bit + width > 32) v |= words[i + 1] << (32 - bit);
  return width === 32 ? v >>> 0 : v & ((1 << width) - 1);
}

/** Appends values of varying widths to a stream of 32-bit words, least significant bit first. */
class BitWriter {
  private words = new Uint32Array(1024);
  private pos = 0;

  put(v: number, width: number): void {
    if (width === 0) return;
    const i = this.pos >>> 5,
      bit = this.pos & 31;
    if (i + 2 > this.words.length) this.words = grow(this.words, 2 * this.words.length);
    this.words[i] |= v << bit;
    if (bit + width > 32) this.words[i + 1] |= v >>> (32 - bit);
    this.pos += width;
  }

  /** The words written, the last padded with zeros. */
  done(): Uint32Array {
    return this.words.slice(0, Math.ceil(this.pos / 32));
  }
}

function tooLong(arcs: number): never {
  throw new RangeError(`hierarchy data: a path unpacks to more than the graph's ${arcs} arcs (a shortcut made of itself?)`);
}

function growTo(a: Uint32Array, size: number): Uint32Array {
  return grow(a, size);
}

function grow<T extends Uint32Array | Float64Array>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}

/** One query's two upward searches and what they found. */
class Search {
  readonly fwd: Labels;
  readonly bwd: Labels;
  best = Infinity;
  meet = -1;
  constructor(n: number) {
    this.fwd = new Labels(n);
    this.bwd = new Labels(n);
  }
}

/**
 * The scratch of one query on a Hierarchy, as RoutingKit keeps a ContractionHierarchyQuery
 * beside its ContractionHierarchy: the searches, the via chooser and the path buffers. A
 * query takes one from its hierarchy's pool and gives it back when done, so a query started
 * while another is under way (from one of its callbacks) works on scratch of its own.
 */
class Query {
  readonly main: Search;
  aux?: Search;
  chooser?: ViaChooser;
  readonly list = new ArcList();
  readonly stack = new ArcList();
  unpacking: Uint32Array = new Uint32Array(256);
  constructor(n: number) {
    this.main = new Search(n);
  }
}

/**
 * A contracted graph: answers cheapest-path queries with two upward Dijkstra searches
 * (forward from the sources, backward from the targets) with stall-on-demand, unpacking
 * shortcuts to the original arcs. Made by `contract()`, or restored by `Hierarchy.fromCompact()` (a snapshot's) or `Hierarchy.from()`.
 *
 * For routing, its nodes are the search nodes of a mode's edge-based graph (`ModeGraph` in
 * src/route/modes.ts: a directed road segment driven to its end; an arc a turn onto the next),
 * and a many-to-many search (a matrix: buckets, as RoutingKit and OSRM run them) uses it so:
 * - ends: `sourceEnds(router, m, snap)` and `targetEnds(router, m, snap)` (src/route/legs.ts)
 *   give a snapped point's search nodes and initial weights; every target weight carries the
 *   targets' `offset` on top (a target mid-edge is reached part-way along a segment the search
 *   counts whole), so a source–target cost is `forward + backward - offset` of that target;
 *   a pair on one segment, the target behind the source, is covered by its targets only when
 *   `targetEnds` is given the source (`End.enter`), so a matrix treats that pair alone;
 * - `data()`: `rank[node]` is a node's place in the order; the upward arcs out of rank r are
 *   slots `first[r] .. mid[r]` (forward searches relax these), the arcs into rank r from above
 *   are `mid[r] .. first[r + 1]` (backward searches relax these as upward arcs from r); each slot's
 *   `head` is the other end's rank and `weight` its cost (ms, with penalties);
 * - the arrays never change: per-query scratch belongs in a context of the caller's, as `Query` here.
 */
export class Hierarchy {
  readonly arcs: Arcs;
  private readonly d: HierarchyData;
  private byRank?: Uint32Array;
  /**
   * Query contexts not in use. The arrays above never change after the build; all a query
   * writes is its context's, taken at its start and given back at its end (one, unless a
   * query runs inside another's callback).
   */
  private readonly free: Query[] = [];

  constructor(arcs: Arcs, data: HierarchyData) {
    this.arcs = arcs;
    this.d = data;
    this.free.push(new Query(arcs.n));
  }

  /**
   * Restores a hierarchy from its `data()` and the arcs it was contracted from, without
   * recomputing anything. Throws a RangeError when the arrays do not fit together: every
   * slot is checked to be its arc or the path of two lower slots, so that no route can
   * unpack forever or into arcs that do not join (linear in the slots).
   */
  static from(arcs: Arcs, data: HierarchyData): Hierarchy {
    checkArcs(arcs);
    const { rank, first, mid, head, weight, ab } = data;
    const n = arcs.n,
      m = head?.length;
    const bad = (what: string) => {
      throw new RangeError(`hierarchy data: ${what}`);
    };
    if (rank?.length !== n || first?.length !== n + 1 || mid?.length !== n) bad(`rank, first and mid must have n = ${n} (+1) entries`);
    if (weight?.length !== m || ab?.length !== 2 * m) bad('head, weight and ab (twice as long) differ in length');
    if (first[0] !== 0 || first[n] !== m) bad('first does not cover the slots');
    for (let r = 0; r < n; r++) if (first[r] > mid[r] || mid[r] > first[r + 1]) bad(`slot ranges of rank ${r} are not ordered`);
    const seen = new Uint8Array(n);
    for (let v = 0; v < n; v++) {
      if (rank[v] >= n || seen[rank[v]]) bad('rank is not an order of the nodes');
      seen[rank[v]] = 1;
    }
    // Unpacking must end, in a path: slot k of rank r is an edge tail → tip between r and
    // head[k] > r; a shortcut is an in-slot then an out-slot of one lower rank v < r (tail → v,
    // v → tip), an original its own arc, at the weights they sum to. Each half then lies in a
    // lower block than its shortcut, so unpacking descends and ends.
    const owner = new Uint32Array(m);
    for (let r = 0; r < n; r++) owner.fill(r, first[r], first[r + 1]);
    for (let k = 0; k < m; k++) {
      const r = owner[k],
        h = head[k];
      if (h >= n || h <= r) bad(`slot ${k} of rank ${r} leads to rank ${h}, not up`);
      const tail = k < mid[r] ? r : h,
        tip = k < mid[r] ? h : r;
      const a = ab[2 * k],
        b = ab[2 * k + 1];
      if (b === NONE ? a >= arcs.from.length : a >= m || b >= m) bad(`slot ${k} refers past the arcs or slots`);
      if (b === NONE) {
        if (rank[arcs.from[a]] !== tail || rank[arcs.to[a]] !== tip || weight[k] !== arcs.weight[a]) {
          bad(`slot ${k} is not the arc ${a} it names`);
        }
        continue;
      }
      if (a >= first[r] || b >= first[r]) bad(`shortcut ${k} of rank ${r} is made of slots not below it`);
      const v = owner[a];
      if (owner[b] !== v || a < mid[v] || b >= mid[v] || head[a] !== tail || head[b] !== tip || weight[k] !== weight[a] + weight[b]) {
        bad(`shortcut ${k} is not the path of its halves ${a} and ${b}`);
      }
    }
    return new Hierarchy(arcs, data);
  }

  /** The arrays to store; `Hierarchy.from(arcs, data())` answers exactly like this one. */
  data(): HierarchyData {
    return this.d;
  }

  /**
   * Restores a hierarchy from its `compactData()` and the arcs it was contracted from: the slots'
   * heads, weights (a Float64Array once a sum passes 2^32 - 1, as `contract` makes them) and
   * halves are derived in one pass up the ranks, each shortcut from two slots of a lower rank,
   * which the pass has derived already; so what it derives unpacks, always, into arcs that join.
   * Throws a RangeError where the stream does not fit the arcs (a choice past the arcs or slots it
   * may name, a slot that does not lead up, counts that are not the slots', bits missing or left
   * over); linear in the slots.
   */
  static fromCompact(arcs: Arcs, compact: CompactHierarchy): Hierarchy {
    checkArcs(arcs);
    const { rank, first, mid, outTo, inTo, slots } = compact;
    const n = arcs.n;
    const bad = (what: string): never => {
      throw new RangeError(`hierarchy data: ${what}`);
    };
    if (rank?.length !== n || first?.length !== n + 1 || mid?.length !== n || outTo?.length !== n + 1 || inTo?.length !== n + 1)
      bad(`rank and mid must have n = ${n} entries, first, outTo and inTo n + 1`);
    if (!(slots instanceof Uint32Array)) bad('the slots are not 32-bit words');
    const m = first[n];
    if (first[0] !== 0 || outTo[0] !== 0 || inTo[0] !== 0) bad('offsets do not start at 0');
    for (let r = 0; r < n; r++) {
      if (first[r] > mid[r] || mid[r] > first[r + 1]) bad(`slot ranges of rank ${r} are not ordered`);
      if (outTo[r] > outTo[r + 1] || inTo[r] > inTo[r + 1]) bad(`the slots to rank ${r} are not counted`);
    }
    if (outTo[n] + inTo[n] !== m) bad(`${outTo[n]} + ${inTo[n]} slots lead up, of ${m}`);
    const order = new Uint32Array(n).fill(NONE);
    for (let v = 0; v < n; v++) {
      if (rank[v] >= n || order[rank[v]] !== NONE) bad('rank is not an order of the nodes');
      order[rank[v]] = v;
    }
    // Each half of a rank has at most one slot of 0 bits (two would be the same edge twice, which
    // contraction never makes), so the stream's bits bound the slots before any is allocated;
    // and bit positions stay below 2^32.
    if (slots.length >= 2 ** 27 || m > 2 * n + 32 * slots.length) bad(`${m} slots in ${slots.length} words of bits`);
    const outs = arcsByRank(arcs, rank, false),
      ins = arcsByRank(arcs, rank, true);
    const ab = new Uint32Array(2 * m);
    // Each slot's head and weight side by side, as the pass reads them (a shortcut's halves lie
    // in one block: one look at the cache for both); a Float64Array once a sum passes 2^32 - 1.
    let hw: Uint32Array | Float64Array = new Uint32Array(2 * m);
    // Per rank h, the lower slots that lead to it (out-slots in `lowOut`, in-slots in `lowIn`, at
    // outTo[h] and inTo[h] on): a shortcut's candidate halves, each as the slot and its rank;
    // filled as each slot is derived, so that reading them is one look, not a walk.
    const lowOut = new Uint32Array(2 * outTo[n]),
      lowIn = new Uint32Array(2 * inTo[n]);
    // per rank: out-slots to it so far and their end, in-slots to it so far and their end
    const fill = new Uint32Array(4 * n);
    for (let r = 0; r < n; r++) {
      fill[4 * r] = outTo[r];
      fill[4 * r + 1] = outTo[r + 1];
      fill[4 * r + 2] = inTo[r];
      fill[4 * r + 3] = inTo[r + 1];
    }
    // A slot that leads to a rank of a later bucket of ranks waits, in slot order, at the start
    // of that bucket's lists, until the pass reaches the bucket and puts it in its rank's list:
    // appending at a few thousand places, then placing within one bucket's lists, is a fifth
    // quicker than putting every slot straight into a list anywhere (a miss of the cache each).
    const nb = (n >>> BUCKET) + 1;
    const wait = new Uint32Array(4 * nb);
    for (let b = 0; b < nb; b++) {
      const lo = Math.min(n, b * 2 ** BUCKET),
        hi = Math.min(n, (b + 1) * 2 ** BUCKET);
      wait[4 * b] = outTo[lo];
      wait[4 * b + 1] = outTo[hi];
      wait[4 * b + 2] = inTo[lo];
      wait[4 * b + 3] = inTo[hi];
    }
    // the waiting slots' heads, within their bucket, beside them: placing them reads no slot's head
    const waitOut = new Uint16Array(outTo[n]),
      waitIn = new Uint16Array(inTo[n]);
    let moving = new Uint32Array(256);
    // each rank's first and mid side by side (a shortcut's middle's halves: one look, not two)
    const fm = new Uint32Array(2 * n + 1);
    for (let r = 0; r < n; r++) {
      fm[2 * r] = first[r];
      fm[2 * r + 1] = mid[r];
    }
    fm[2 * n] = m;
    const end = 32 * slots.length;
    let pos = 0;
    for (let r = 0; r < n; r++) {
      if ((r & ((1 << BUCKET) - 1)) === 0) {
        // a bucket begins: the slots that waited for it go to their ranks' lists
        const b = r >>> BUCKET;
        for (let kind = 0; kind < 2; kind++) {
          const low = kind === 0 ? lowOut : lowIn,
            heads = kind === 0 ? waitOut : waitIn;
          const from = kind === 0 ? outTo[r] : inTo[r],
            count = wait[4 * b + 2 * kind] - from;
          if (2 * count > moving.length) moving = new Uint32Array(Math.max(2 * count, 2 * moving.length));
          moving.set(low.subarray(2 * from, 2 * (from + count)));
          for (let i = 0; i < count; i++) {
            const h = r + heads[from + i],
              q = 4 * h + 2 * kind;
            const j = fill[q]++;
            if (j >= fill[q + 1]) bad(`more slots lead to rank ${h} than counted`);
            low[2 * j] = moving[2 * i];
            low[2 * j + 1] = moving[2 * i + 1];
          }
        }
      }
      const lo = first[r],
        md = mid[r],
        hi = first[r + 1];
      if (lo === hi) continue;
      for (let kind = 0; kind < 2; kind++) {
        const out = kind === 0;
        const from = out ? lo : md,
          to = out ? md : hi;
        if (from === to) continue;
        const by = out ? outs : ins,
          e = by.e;
        const at = by.start[r],
          deg = by.start[r + 1] - at;
        // an out-slot's candidates are the in-slots to r, an in-slot's the out-slots to r
        const low = out ? lowIn : lowOut,
          cs = out ? inTo[r] : outTo[r],
          len = (out ? inTo[r + 1] : outTo[r + 1]) - cs;
        if (fill[4 * r + (out ? 2 : 0)] !== cs + len) bad(`fewer slots lead to rank ${r} than counted`);
        const choices = deg + len;
        if (choices === 0 || choices > 2 ** 32) bad(`rank ${r} has ${choices} ways to make its slots`);
        const wx = widthOf(choices - 1);
        const to2 = out ? lowOut : lowIn,
          at4 = out ? 0 : 2;
        for (let k = from; k < to; k++) {
          if (pos + wx > end) bad(`the slots' bits end at slot ${k}`);
          const x = bitsAt(slots, pos, wx);
          pos += wx;
          if (x >= choices) bad(`slot ${k} names way ${x} of ${choices}`);
          let h: number;
          if (x < deg) {
            // an original: one of u's arcs, out of it or into it
            const j = 3 * (at + x);
            h = e[j + 1];
            hw[2 * k + 1] = e[j + 2];
            ab[2 * k] = e[j];
            ab[2 * k + 1] = NONE;
          } else {
            // a shortcut over v: the candidate, a slot of v with head r, and a slot of v's other half
            const i = 2 * (cs + x - deg);
            const c = low[i],
              v = low[i + 1];
            const vBase = fm[2 * v + kind],
              vSize = fm[2 * v + kind + 1] - vBase;
            if (vSize === 0) bad(`shortcut ${k} is over a rank without the other half`);
            const wy = widthOf(vSize - 1);
            if (pos + wy > end) bad(`the slots' bits end at slot ${k}`);
            const y = bitsAt(slots, pos, wy);
            pos += wy;
            if (y >= vSize) bad(`shortcut ${k} names slot ${y} of ${vSize}`);
            const o = vBase + y;
            h = hw[2 * o];
            const sum = hw[2 * c + 1] + hw[2 * o + 1];
            if (sum > 0xffffffff && hw instanceof Uint32Array) hw = Float64Array.from(hw);
            hw[2 * k + 1] = sum;
            ab[2 * k] = out ? c : o;
            ab[2 * k + 1] = out ? o : c;
          }
          if (h <= r) bad(`slot ${k} of rank ${r} leads to rank ${h}, not up`);
          hw[2 * k] = h;
          // into its rank's list now if that is in this bucket, else to wait for its bucket
          const q = h >>> BUCKET === r >>> BUCKET ? 4 * h + at4 : 4 * (h >>> BUCKET) + at4,
            counts = h >>> BUCKET === r >>> BUCKET ? fill : wait;
          const j = counts[q]++;
          if (j >= counts[q + 1]) bad(`more slots lead to rank ${h} than counted`);
          to2[2 * j] = k;
          to2[2 * j + 1] = r;
          (out ? waitOut : waitIn)[j] = h & ((1 << BUCKET) - 1);
        }
      }
    }
    if (Math.ceil(pos / 32) !== slots.length) bad(`${slots.length} words of bits for ${pos} bits of slots`);
    const head = new Uint32Array(m),
      weight = hw instanceof Float64Array ? new Float64Array(m) : new Uint32Array(m);
    for (let k = 0; k < m; k++) {
      head[k] = hw[2 * k];
      weight[k] = hw[2 * k + 1];
    }
    const h = new Hierarchy(arcs, { rank, first, mid, head, weight, ab });
    h.byRank = order;
    return h;
  }

  /**
   * The few bits per slot a snapshot stores (see CompactHierarchy): `Hierarchy.fromCompact(arcs,
   * compactData())` has the same arrays as this one, and answers exactly alike.
   */
  compactData(): CompactHierarchy {
    const { rank, first, mid, head, ab } = this.d;
    const { arcs } = this;
    const n = arcs.n,
      m = head.length;
    const order = this.order();
    const outs = arcsBy(arcs.from, n),
      ins = arcsBy(arcs.to, n);
    // each slot's place among the lower slots of its kind with its head (in slot order), and their offsets
    const owner = new Uint32Array(m),
      place = new Uint32Array(m);
    const outTo = new Uint32Array(n + 1),
      inTo = new Uint32Array(n + 1);
    for (let r = 0; r < n; r++) {
      owner.fill(r, first[r], first[r + 1]);
      for (let k = first[r]; k < first[r + 1]; k++) place[k] = (k < mid[r] ? outTo : inTo)[head[k] + 1]++;
    }
    for (let r = 0; r < n; r++) {
      outTo[r + 1] += outTo[r];
      inTo[r + 1] += inTo[r];
    }
    const w = new BitWriter();
    const wrong = (k: number) => {
      throw new Error(`hierarchy slot ${k} is neither an arc of its node nor a shortcut over a lower one`);
    };
    for (let r = 0; r < n; r++) {
      const u = order[r];
      for (let k = first[r]; k < first[r + 1]; k++) {
        const out = k < mid[r];
        const by = out ? outs : ins;
        const at = by.start[u],
          deg = by.start[u + 1] - at;
        const len = out ? inTo[r + 1] - inTo[r] : outTo[r + 1] - outTo[r];
        const wx = widthOf(deg + len - 1);
        if (ab[2 * k + 1] === NONE) {
          const x = by.arc.subarray(at, at + deg).indexOf(ab[2 * k]);
          if (x < 0) wrong(k);
          w.put(x, wx);
          continue;
        }
        // the half at the middle that has head r is the candidate; the other is named in its half
        const c = ab[2 * k + (out ? 0 : 1)],
          o = ab[2 * k + (out ? 1 : 0)];
        const v = owner[c],
          cOut = c < mid[v];
        const base = out ? first[v] : mid[v],
          size = (out ? mid[v] : first[v + 1]) - base;
        if (head[c] !== r || cOut === out || o < base || o >= base + size) wrong(k);
        w.put(deg + place[c], wx);
        w.put(o - base, widthOf(size - 1));
      }
    }
    return { rank, first, mid, outTo, inTo, slots: w.done() };
  }

  /** Nodes, and edges (originals kept plus shortcuts). */
  get size(): { nodes: number; edges: number } {
    return { nodes: this.arcs.n, edges: this.d.head.length };
  }

  /** The cheapest path from one of `sources` to one of `targets`, or null when none joins them. */
  route(sources: Ends, targets: Ends): Path | null {
    const q = this.take();
    try {
      const s = q.main;
      this.search(s, sources, targets, 1);
      return s.meet < 0 ? null : this.viaPath(q, s, s.meet, sources, targets).path;
    } finally {
      this.free.push(q);
    }
  }

  /**
   * The best path, then up to `options.count` alternatives (see AlternativeOptions), best
   * first; [] when no path joins the ends. Via candidates are the nodes settled (not stalled)
   * by both upward searches grown to maxStretch × best, cheapest first.
   */
  alternatives(sources: Ends, targets: Ends, options: AlternativeOptions = {}): Path[] {
    const q = this.take();
    try {
      return this.alternativesWith(q, sources, targets, options);
    } finally {
      this.free.push(q);
    }
  }

  /** A context of the pool, or a new one when all are in use (a query inside another's callback). */
  private take(): Query {
    return this.free.pop() ?? new Query(this.arcs.n);
  }

  private alternativesWith(q: Query, sources: Ends, targets: Ends, options: AlternativeOptions): Path[] {
    const stretch = Math.max(1, options.maxStretch ?? 1.4);
    const s = q.main;
    this.search(s, sources, targets, stretch);
    if (s.meet < 0) return [];
    const best = this.viaPath(q, s, s.meet, sources, targets).path;
    const F = s.fwd,
      B = s.bwd;
    const limit = stretch * s.best;
    const vias: number[] = [];
    for (let i = 0; i < F.size; i++) {
      const r = F.touched[i];
      if (F.state[r] === SETTLED && B.state[r] === SETTLED && F.dist[r] + B.dist[r] <= limit) vias.push(r);
    }
    vias.sort((x, y) => F.dist[x] + B.dist[x] - (F.dist[y] + B.dist[y]) || x - y);
    // the chooser speaks node ids, the searches ranks
    const order = this.order();
    const ids = vias.map((r) => order[r]);
    const aux = (q.aux ??= new Search(this.arcs.n)),
      rank = this.d.rank;
    q.chooser ??= new ViaChooser(this.arcs);
    return q.chooser.choose(
      best,
      {
        vias: ids,
        path: (v) => this.viaPath(q, s, rank[v], sources, targets),
        between: (x, y) => {
          this.search(aux, [x, 0], [y, 0], 1);
          return aux.best;
        },
      },
      options,
    );
  }

  /** Rank → node, made on the first call for alternatives: routes alone do not need it. */
  private order(): Uint32Array {
    if (!this.byRank) {
      const { rank } = this.d;
      this.byRank = new Uint32Array(rank.length);
      for (let v = 0; v < rank.length; v++) this.byRank[rank[v]] = v;
    }
    return this.byRank;
  }

  private search(s: Search, sources: Ends, targets: Ends, stretch: number): void {
    const { n } = this.arcs;
    checkEnds(sources, n, 'sources');
    checkEnds(targets, n, 'targets');
    const { rank } = this.d;
    const F = s.fwd,
      B = s.bwd;
    F.reset();
    B.reset();
    s.best = Infinity;
    s.meet = -1;
    for (let i = 0; i < sources.length; i += 2) {
      const r = rank[sources[i]];
      if (sources[i + 1] < F.dist[r]) F.label(r, sources[i + 1], NONE, r);
    }
    for (let i = 0; i < targets.length; i += 2) {
      const r = rank[targets[i]];
      if (targets[i + 1] < B.dist[r]) B.label(r, targets[i + 1], NONE, r);
    }
    for (;;) {
      const kf = F.top(),
        kb = B.top();
      const lim = stretch * s.best; // searches stop at best (route) or stretch × best (alternatives)
      const f = kf < lim || (stretch > 1 && kf === lim && kf !== Infinity);
      const b = kb < lim || (stretch > 1 && kb === lim && kb !== Infinity);
      if (!f && !b) break;
      if (f && (!b || kf <= kb)) this.step(s, F, B, true, kf);
      else this.step(s, B, F, false, kb);
    }
  }

  /**
   * Settles the top node of S: meets the other side O there, is stalled when a higher node
   * reaches it cheaper along an edge into it (its label cannot be on a shortest path), else
   * relaxes its upward edges.
   */
  private step(s: Search, S: Labels, O: Labels, forward: boolean, d: number): void {
    const v = S.queue.pop()!;
    const { head, weight, first, mid } = this.d;
    // forward: relax the edges out of v, stall on those into it; backward the other way round
    const lo = first[v],
      m = mid[v],
      hi = first[v + 1];
    if (O.state[v] !== 0) {
      const c = d + O.dist[v];
      if (c < s.best || (c === s.best && v < s.meet)) {
        s.best = c;
        s.meet = v;
      }
    }
    for (let k = forward ? m : lo, end = forward ? hi : m; k < end; k++) {
      if (S.dist[head[k]] + weight[k] < d) {
        S.state[v] = STALLED;
        return;
      }
    }
    S.state[v] = SETTLED;
    for (let k = forward ? lo : m, end = forward ? m : hi; k < end; k++) {
      const w = head[k],
        dw = d + weight[k];
      if (dw < S.dist[w]) S.label(w, dw, k, v);
    }
  }

  /** The path through rank r along both search trees, unpacked to original arcs. */
  private viaPath(q: Query, s: Search, r: number, sources: Ends, targets: Ends): ViaPath {
    const F = s.fwd,
      B = s.bwd,
      list = q.list;
    list.length = 0;
    // forward tree: the slots from r back to its source, then unpacked in path order
    const slots = q.stack;
    slots.length = 0;
    let x = r;
    while (F.parent[x] !== NONE) {
      slots.push(F.parent[x]);
      x = F.prev[x];
    }
    const source = x;
    for (let i = slots.length - 1; i >= 0; i--) this.unpack(q, slots.data[i]);
    const via = list.length;
    let y = r;
    while (B.parent[y] !== NONE) {
      this.unpack(q, B.parent[y]);
      y = B.prev[y];
    }
    const cost = F.dist[r] + B.dist[r];
    return {
      path: { cost, arcs: list.slice(), source: this.endAt(sources, source, F.dist[source]), target: this.endAt(targets, y, B.dist[y]) },
      via,
    };
  }

  /** The given end node of rank r with initial cost c. */
  private endAt(ends: Ends, r: number, c: number): number {
    for (let i = 0; i < ends.length; i += 2) if (this.d.rank[ends[i]] === r && ends[i + 1] === c) return ends[i];
    throw new Error(`no end of rank ${r} and cost ${c}`); // unreachable: every tree starts at an end
  }

  /**
   * Appends the original arcs of slot k, shortcuts expanded depth-first with an explicit
   * stack. A cheapest path uses each arc once at most, so a path longer than the graph's
   * arcs means data that `from()` would have refused: a RangeError, not an endless loop.
   */
  private unpack(q: Query, k: number): void {
    const { ab } = this.d;
    const limit = this.arcs.from.length;
    const list = q.list;
    let stack: Uint32Array = q.unpacking,
      sp = 0;
    stack[sp++] = k;
    while (sp > 0) {
      let t = stack[--sp];
      // down the left halves, leaving the right ones for later, to the original arc
      for (let b = ab[2 * t + 1]; b !== NONE; b = ab[2 * t + 1]) {
        // each pending half ends in at least one arc: past the graph's arcs, the data loops
        if (list.length + sp + 1 >= limit) tooLong(limit);
        if (sp === stack.length) stack = q.unpacking = growTo(stack, 2 * sp);
        stack[sp++] = b;
        t = ab[2 * t];
      }
      if (list.length >= limit) tooLong(limit);
      list.push(ab[2 * t]);
    }
  }
}
