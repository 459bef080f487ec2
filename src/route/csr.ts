/**
 * Directed arcs over nodes `0..n-1`, one arc per index (its id): what every search in
 * src/route/ runs over. It knows nothing of OSM; the road graph builder makes one per mode.
 */
export interface Arcs {
  /** Number of nodes. */
  n: number;
  from: Uint32Array;
  to: Uint32Array;
  /** Travel time in ms (any non-negative integer cost works). */
  weight: Uint32Array;
}

/**
 * One direction of a graph's adjacency in compressed sparse rows: node v's slots are
 * `start[v] .. start[v + 1]`; slot k leads along arc `arc[k]` to `head[k]` at `weight[k]`.
 * Slots of a node keep their arcs' id order, so every search over them is deterministic.
 */
export interface Adjacency {
  start: Uint32Array;
  head: Uint32Array;
  weight: Uint32Array;
  arc: Uint32Array;
}

/** Throws a RangeError naming the first thing that makes `arcs` unusable. */
export function checkArcs(arcs: Arcs): void {
  const { n, from, to, weight } = arcs;
  if (!Number.isInteger(n) || n < 0 || n > 0xfffffffe) throw new RangeError(`arcs.n must be an integer in [0, 2^32 - 1), got ${n}`);
  if (to.length !== from.length || weight.length !== from.length) {
    throw new RangeError(`arcs.from, .to and .weight differ in length (${from.length}, ${to.length}, ${weight.length})`);
  }
  for (let i = 0; i < from.length; i++) {
    if (from[i] >= n || to[i] >= n) throw new RangeError(`arc ${i} (${from[i]} -> ${to[i]}) leaves the nodes 0..${n - 1}`);
  }
}

/** The outgoing arcs of every node (`reverse`: the incoming ones, `head` then being the arc's tail). */
export function adjacency(arcs: Arcs, reverse = false): Adjacency {
  const { n, weight } = arcs;
  const tail = reverse ? arcs.to : arcs.from;
  const other = reverse ? arcs.from : arcs.to;
  const m = tail.length;
  // counting sort by tail: stable, so a node's slots stay in arc id order
  const start = new Uint32Array(n + 1);
  for (let i = 0; i < m; i++) start[tail[i] + 1]++;
  for (let v = 0; v < n; v++) start[v + 1] += start[v];
  const fill = start.slice(0, n);
  const head = new Uint32Array(m);
  const w = new Uint32Array(m);
  const arc = new Uint32Array(m);
  for (let i = 0; i < m; i++) {
    const k = fill[tail[i]]++;
    head[k] = other[i];
    w[k] = weight[i];
    arc[k] = i;
  }
  return { start, head, weight: w, arc };
}
