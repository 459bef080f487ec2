import FlatQueue from 'flatqueue';

/** `parent` of a node no arc leads to: a source or target itself. */
export const NONE = 0xffffffff;

/** `state` of a node: labelled (in the queue), settled, or settled but stalled (CH only). */
export const LABELLED = 1;
export const SETTLED = 2;
export const STALLED = 3;

/**
 * One search direction's per-node scratch, sized n once and reused by every query: a
 * query resets only the nodes it touched, so its cost follows its search space, not n.
 */
export class Labels {
  readonly dist: Float64Array;
  /** The arc (or CH edge) a node's label came along; NONE at a search's start. */
  readonly parent: Uint32Array;
  /** The node a label came from (CH only: there an edge's slot does not tell its tail). */
  readonly prev: Uint32Array;
  readonly state: Uint8Array;
  /** The nodes labelled since the last reset, `touched[0 .. size)`; grown on demand, as most searches touch few nodes. */
  touched: Uint32Array;
  size = 0;
  /** Lazy-deletion heap: a node is pushed again when its label improves; stale entries are skipped. */
  readonly queue = new FlatQueue<number>();

  constructor(n: number) {
    this.dist = new Float64Array(n).fill(Infinity);
    this.parent = new Uint32Array(n);
    this.prev = new Uint32Array(n);
    this.state = new Uint8Array(n);
    this.touched = new Uint32Array(Math.min(n, 1024));
  }

  /** Forgets the last query. */
  reset(): void {
    const { dist, state, touched } = this;
    for (let i = 0; i < this.size; i++) {
      const v = touched[i];
      dist[v] = Infinity;
      state[v] = 0;
    }
    this.size = 0;
    this.queue.clear();
  }

  /** Gives v the label `d` reached along `parent` (from `prev`) and queues it; the caller checked that it improves. */
  label(v: number, d: number, parent: number, prev = v): void {
    if (this.state[v] === 0) {
      if (this.size === this.touched.length) this.grow();
      this.touched[this.size++] = v;
      this.state[v] = LABELLED;
    }
    this.dist[v] = d;
    this.parent[v] = parent;
    this.prev[v] = prev;
    this.queue.push(v, d);
  }

  /** Doubles `touched` (never past n, as a node is touched once). */
  grow(): void {
    const t = new Uint32Array(Math.min(this.dist.length, this.touched.length * 2));
    t.set(this.touched);
    this.touched = t;
  }

  /** The smallest queued key, skipping stale entries; Infinity when the queue is empty. */
  top(): number {
    const q = this.queue;
    while (q.length) {
      const v = q.peek()!;
      if (this.state[v] === LABELLED && q.peekValue() === this.dist[v]) return q.peekValue()!;
      q.pop();
    }
    return Infinity;
  }
}
