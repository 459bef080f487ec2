import { ONLY_TURN, PUSH_BWD, PUSH_FWD, destinationFlag, restrictionsOf, type RoadGraph } from '../model/roads.js';
import { List } from '../model/list.js';
import { bearings, turnCostsOf, turnMs, type Bearings } from './turns.js';
import { MODES, forwardBit } from '../osm/profile.js';
import type { Arcs } from './csr.js';

/** Mode numbers, the index of a mode in `MODES`. */
export const FOOT = 0,
  BIKE = 1,
  CAR = 2,
  MOTORBIKE = 3;

/**
 * The edge-based graph one mode routes on, as OSRM and GraphHopper route: a search node is a
 * directed edge (`edge * 2`, `+ 1` against the edge's direction: a key) the mode may drive, the
 * state of having driven it to its head; an arc is a turn from one onto the next at their
 * junction, weighted by the turn's cost (src/route/turns.ts) plus the travel time of the edge
 * turned onto, in ms (plus `DESTINATION_PENALTY_MS` where it enters a destination-only road from
 * the open network). No arc turns back onto the edge just driven except at a dead end (where the
 * mode has no other way on). Turn restrictions are built in: a banned turn has no arc, and a
 * restriction with via ways makes copies of the search nodes along its via edges (nodes from
 * `base` up), reached only from its from edge, whose arcs obey it.
 *
 * A route's keys are its source's key, then the key of each arc's head (`key[arcs.to[a]]`).
 */
export interface ModeGraph {
  mode: number;
  /** Turns, over search nodes; ordered by tail, so that search node u's are `out[u] .. out[u + 1]`. */
  arcs: Arcs;
  out: Uint32Array;
  /** Per search node: its key. */
  key: Uint32Array;
  /** Per key: its search node (the first, not a copy), NO_NODE where the mode may not go that way. */
  node: Uint32Array;
  /** Search nodes from here up are copies made by restrictions, ordered by key. */
  base: number;
}

/** `ModeGraph.node` of a key the mode cannot use. */
export const NO_NODE = 0xffffffff;

/**
 * What entering a destination-only road (`access=destination`, `customers`) from the rest of the
 * network adds to a route's weight, ms: a day, so that no route passes through such a road while
 * any other way exists, and a route to a place on it enters it once, at the entrance nearest
 * its end. Leaving one costs nothing, and a route that starts or ends on its first edge pays for
 * the part it uses only. Not travel time: `route()` reports the time without it.
 */
export const DESTINATION_PENALTY_MS = 86_400_000;

/** Milliseconds a metre takes in `mode` on edge `e`, along it or (`back`) against it: a bike pushed goes at the walking speed. */
function msPerMetre(g: RoadGraph, mode: number, e: number, back: boolean): number {
  const m = mode === BIKE && g.wayFlags[g.edgeWay[e]] & (back ? PUSH_BWD : PUSH_FWD) ? FOOT : mode;
  return 3600 / g.edgeKmh[e * MODES.length + m];
}

/**
 * Travel time in whole ms of `metres` along edge `e` in `mode` (`back`: against the edge's
 * direction): the integer weights every search sums exactly.
 */
export function timeOf(g: RoadGraph, mode: number, e: number, metres: number, back = false): number {
  return Math.round(metres * msPerMetre(g, mode, e, back));
}

/** Whether a bike is walked (pushed) along edge `e` (`back`: against it). */
export function pushed(g: RoadGraph, e: number, back: boolean): boolean {
  return (g.wayFlags[g.edgeWay[e]] & (back ? PUSH_BWD : PUSH_FWD)) !== 0;
}

/** The junction directed edge `k` leaves. */
export function tailOf(g: RoadGraph, k: number): number {
  return k & 1 ? g.edgeTo[k >> 1] : g.edgeFrom[k >> 1];
}

/** The junction directed edge `k` reaches. */
export function headOf(g: RoadGraph, k: number): number {
  return k & 1 ? g.edgeFrom[k >> 1] : g.edgeTo[k >> 1];
}

/** The search nodes of key `k`: its own, then its copies (`[first, end)` of the copies, by binary search). */
export function copiesOf(mg: ModeGraph, k: number): [number, number] {
  const { key, base } = mg;
  const n = key.length;
  let lo = base,
    hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key[mid] < k) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  while (end < n && key[end] === k) end++;
  return [lo, end];
}

/** What entering key `k` from junction `v` adds for a destination-only road (see `DESTINATION_PENALTY_MS`), as `modeGraph` weighs it. */
export function entryPenalty(g: RoadGraph, mode: number, open: Uint8Array | undefined, k: number, v: number): number {
  return open && g.wayFlags[g.edgeWay[k >> 1]] & destinationFlag(mode) && open[v] ? DESTINATION_PENALTY_MS : 0;
}

/** What the turns of a restriction prefix allow next: the union of the `only_*` to-edges (null: any), and the `no_*` ones. */
interface Rule {
  only: number[] | null;
  no: number[];
}

/**
 * Builds the graph of `mode` over a road graph (see `ModeGraph`). Deterministic: the same graph
 * gives the same arcs. A restriction one of whose edges the mode may not use is left out for
 * it: it can never match (`no_*`), or would ban every turn (`only_*` onto a road the mode may not take).
 * `angles`: the graph's `bearings`, when made already (they are the same for every mode).
 */
export function modeGraph(g: RoadGraph, mode: number, angles: Bearings = bearings(g)): ModeGraph {
  const junctions = g.nodeLon.length;
  const keys = g.edgeFrom.length * 2;
  const fwd = forwardBit(mode);
  const node = new Uint32Array(keys).fill(NO_NODE);
  let base = 0;
  for (let k = 0; k < keys; k++) if (g.edgeAccess[k >> 1] & (fwd << (k & 1))) node[k] = base++;
  // the keys leaving each junction, in key order
  const outStart = new Uint32Array(junctions + 1);
  for (let k = 0; k < keys; k++) if (node[k] !== NO_NODE) outStart[tailOf(g, k) + 1]++;
  for (let v = 0; v < junctions; v++) outStart[v + 1] += outStart[v];
  const fill = outStart.slice(0, junctions);
  const outKeys = new Uint32Array(base);
  for (let k = 0; k < keys; k++) if (node[k] !== NO_NODE) outKeys[fill[tailOf(g, k)]++] = k;

  // restrictions: rules per prefix of edges (one edge: by key; longer: by the list joined), and
  // a copy per prefix of two or more edges that a longer restriction continues
  const rule1 = new Map<number, Rule>(),
    ruleN = new Map<string, Rule>();
  const copyOf = new Map<string, number[]>();
  const ruleAt = (prefix: ArrayLike<number>, len: number): Rule => {
    let r: Rule | undefined;
    if (len === 1) {
      r = rule1.get(prefix[0]);
      if (!r) rule1.set(prefix[0], (r = { only: null, no: [] }));
    } else {
      const s = Array.prototype.slice.call(prefix, 0, len).join(',');
      r = ruleN.get(s);
      if (!r) ruleN.set(s, (r = { only: null, no: [] }));
    }
    return r;
  };
  for (const { kind, modes, keys: ks } of restrictionsOf(g.restrictions)) {
    if (!(modes & (1 << mode)) || ks.some((k) => node[k] === NO_NODE)) continue;
    const n = ks.length;
    if (kind === ONLY_TURN) {
      // from the from edge, along the via edges, the only way on is the restriction's
      for (let i = 1; i < n; i++) {
        const r = ruleAt(ks, i);
        if (!r.only) r.only = [];
        if (!r.only.includes(ks[i])) r.only.push(ks[i]);
      }
    } else ruleAt(ks, n - 1).no.push(ks[n - 1]);
    for (let i = 2; i < n; i++) copyOf.set(Array.prototype.slice.call(ks, 0, i).join(','), Array.from(ks.subarray(0, i)));
  }
  // copies in key order (then by their edges), so that `copiesOf` finds a key's by binary search
  const prefixes = [...copyOf.values()].sort((a, b) => a[a.length - 1] - b[b.length - 1] || cmp(a, b));
  const copyId = new Map<string, number>();
  prefixes.forEach((p, i) => copyId.set(p.join(','), base + i));
  const n = base + prefixes.length;
  const key = new Uint32Array(n);
  for (let k = 0; k < keys; k++) if (node[k] !== NO_NODE) key[node[k]] = k;
  prefixes.forEach((p, i) => (key[base + i] = p[p.length - 1]));
  // keys some rule or copy starts from: the only ones whose turns need the maps
  const marked = new Uint8Array(keys);
  for (const k of rule1.keys()) marked[k] = 1;
  for (const p of prefixes) marked[p[0]] = 1;

  const costs = turnCostsOf(g, mode);
  const open = openJunctions(g, mode);
  const from = new List(Uint32Array, Math.max(16, base * 2)),
    to = new List(Uint32Array, Math.max(16, base * 2)),
    weight = new List(Uint32Array, Math.max(16, base * 2));
  const out = new Uint32Array(n + 1);
  const path: number[] = [];
  for (let u = 0; u < n; u++) {
    const k = key[u];
    const v = headOf(g, k);
    const lo = outStart[v],
      hi = outStart[v + 1];
    // a dead end: the mode has no way on but back; a choice: two or more
    let ways = 0;
    for (let i = lo; i < hi; i++) if (outKeys[i] !== (k ^ 1)) ways++;
    const dead = ways === 0;
    // what the restrictions say here: every suffix of the edges this node stands for
    let only: number[] | null = null,
      no: number[] | null = null;
    const special = u >= base || marked[k];
    if (special) {
      path.length = 0;
      if (u >= base) path.push(...prefixes[u - base]);
      else path.push(k);
      for (let j = 0; j < path.length; j++) {
        const r = j === path.length - 1 ? rule1.get(k) : ruleN.get(path.slice(j).join(','));
        if (!r) continue;
        if (r.no.length) no = (no ?? ([] as number[])).concat(r.no);
        if (r.only) only = only ? only.filter((x) => r.only!.includes(x)) : r.only.slice();
      }
    }
    for (let i = lo; i < hi; i++) {
      const b = outKeys[i];
      if (b === (k ^ 1) && !dead) continue;
      if ((only && !only.includes(b)) || (no && no.includes(b))) continue;
      let next = node[b];
      if (special && prefixes.length) {
        // the longest run of edges ending in b that a copy stands for
        for (let j = 0; j < path.length; j++) {
          const c = copyId.get(`${path.slice(j).join(',')},${b}`);
          if (c !== undefined) {
            next = c;
            break;
          }
        }
      }
      const w =
        turnMs(g, costs, k, b, ways >= 2, angles) +
        timeOf(g, mode, b >> 1, g.edgeMeters[b >> 1], (b & 1) === 1) +
        entryPenalty(g, mode, open, b, v);
      from.push(u);
      to.push(next);
      weight.push(Math.min(w, 0xffffffff));
    }
    out[u + 1] = from.length;
  }
  return { mode, arcs: { n, from: from.copy(), to: to.copy(), weight: weight.copy() }, out, key, node, base };
}

/** Whether mode `m` may leave the junction directed edge `a` reaches by two or more edges besides `a` back (a turn there is a choice, see `turnMs`). */
export function choiceAfter(g: RoadGraph, incidence: { start: Uint32Array; at: Uint32Array }, m: number, a: number): boolean {
  const v = headOf(g, a),
    fwd = forwardBit(m);
  let ways = 0,
    last = -1;
  for (let i = incidence.start[v]; i < incidence.start[v + 1]; i++) {
    const e = incidence.at[i];
    if (e === last) continue; // a loop edge is listed twice
    last = e;
    if (g.edgeFrom[e] === v && g.edgeAccess[e] & fwd && 2 * e !== (a ^ 1)) ways++;
    if (g.edgeTo[e] === v && g.edgeAccess[e] & (fwd << 1) && 2 * e + 1 !== (a ^ 1)) ways++;
  }
  return ways >= 2;
}

/** The typed arrays of a mode's graph: what a thread hands over (transferred) with a snapshot. */
export function graphArrays(mg: ModeGraph): Uint32Array[] {
  return [mg.arcs.from, mg.arcs.to, mg.arcs.weight, mg.out, mg.key, mg.node];
}

function cmp(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/**
 * Per junction, whether a road `mode` may use without being destination-only meets it (the
 * entrances of destination-only roads); undefined where the mode has no destination-only road.
 */
export function openJunctions(g: RoadGraph, mode: number): Uint8Array | undefined {
  const dest = destinationFlag(mode),
    bits = forwardBit(mode) * 3;
  let any = false;
  for (let w = 0; w < g.wayFlags.length && !any; w++) any = (g.wayFlags[w] & dest) !== 0;
  if (!any) return undefined;
  const open = new Uint8Array(g.nodeLon.length);
  for (let e = 0; e < g.edgeFrom.length; e++) {
    if (!(g.edgeAccess[e] & bits) || g.wayFlags[g.edgeWay[e]] & dest) continue;
    open[g.edgeFrom[e]] = 1;
    open[g.edgeTo[e]] = 1;
  }
  return open;
}
