import { ONLY_TURN, destinationFlag, type RoadGraph } from '../model/roads.js';
import { FOOT_KMH, BIKE_KMH, forwardBit } from '../osm/profile.js';
import type { Arcs } from './csr.js';

/** Mode numbers, the index of a mode in `MODES`. */
export const FOOT = 0,
  BIKE = 1,
  CAR = 2;

/**
 * The directed graph one mode routes on: an arc per edge and direction the mode may
 * use, weighted by travel time in ms (plus `DESTINATION_PENALTY_MS` on an arc entering a
 * destination-only road from the open network). Arc keys say which edge an arc runs along
 * (`edge * 2`, `+ 1` against the edge's direction). Turn restrictions (cars) are
 * built in by splitting their via node: an arc that a restriction limits leads
 * to a copy of its head, which has only the arcs the turn allows (node ids from
 * the graph's junction count up are such copies; `copyOf` says of which).
 */
export interface ModeGraph {
  mode: number;
  arcs: Arcs;
  /** Per arc: its key. */
  key: Uint32Array;
  /** Per node from the junction count up: the junction it copies. */
  copyOf: Uint32Array;
  /** Per key: the node its arcs lead to, or NO_NODE where the mode cannot go that way. */
  head: Uint32Array;
  /** Per key: its arcs are `keyArcs[keyStart[k]..keyStart[k+1]]` (more than one where a tail node was split). */
  keyStart: Uint32Array;
  keyArcs: Uint32Array;
}

/** `ModeGraph.head` of a key the mode cannot use. */
export const NO_NODE = 0xffffffff;

/**
 * What entering a destination-only road (`access=destination`, `customers`) from the rest of the
 * network adds to a route's weight, ms: a day, so that no route passes through such a road while
 * any other way exists, and a route to a place on it enters it once, at the entrance nearest
 * its end. Leaving one costs nothing, and a route that starts or ends on its first edge pays for
 * the part it uses only. Not travel time: `route()` reports the time without it.
 */
export const DESTINATION_PENALTY_MS = 86_400_000;

/** Milliseconds a metre takes in `mode` on edge `e`. */
function msPerMetre(g: RoadGraph, mode: number, e: number): number {
  return 3600 / (mode === FOOT ? FOOT_KMH : mode === BIKE ? BIKE_KMH : g.edgeKmh[e]);
}

/** Travel time in whole ms of `metres` along edge `e` in `mode`: the integer weights every search sums exactly. */
export function timeOf(g: RoadGraph, mode: number, e: number, metres: number): number {
  return Math.round(metres * msPerMetre(g, mode, e));
}

/** Builds the graph of `mode` over a road graph. Deterministic: the same graph gives the same arcs. */
export function modeGraph(g: RoadGraph, mode: number): ModeGraph {
  const junctions = g.nodeLon.length;
  const edges = g.edgeFrom.length;
  const fwd = forwardBit(mode),
    bwd = fwd << 1;
  const from: number[] = [],
    to: number[] = [],
    weight: number[] = [],
    key: number[] = [];
  const baseHead = new Uint32Array(edges * 2).fill(NO_NODE);
  const open = openJunctions(g, mode);
  const dest = destinationFlag(mode);
  for (let e = 0; e < edges; e++) {
    const a = g.edgeAccess[e];
    if (!(a & (fwd | bwd))) continue;
    const w = timeOf(g, mode, e, g.edgeMeters[e]);
    // a destination-only road is entered from a junction the open network reaches
    const enter = (v: number) =>
      open && g.wayFlags[g.edgeWay[e]] & dest && open[v] ? Math.min(w + DESTINATION_PENALTY_MS, 0xffffffff) : w;
    if (a & fwd) {
      from.push(g.edgeFrom[e]);
      to.push(g.edgeTo[e]);
      weight.push(enter(g.edgeFrom[e]));
      key.push(2 * e);
      baseHead[2 * e] = g.edgeTo[e];
    }
    if (a & bwd) {
      from.push(g.edgeTo[e]);
      to.push(g.edgeFrom[e]);
      weight.push(enter(g.edgeTo[e]));
      key.push(2 * e + 1);
      baseHead[2 * e + 1] = g.edgeFrom[e];
    }
  }
  const head = baseHead.slice();
  const copyOf: number[] = [];
  if (mode === CAR && g.restrictions.length) splitVias(g, junctions, from, to, weight, key, head, copyOf);
  // an arc leads to its key's head: where a via was split, the copy
  for (let i = 0; i < to.length; i++) to[i] = head[key[i]];

  const keyStart = new Uint32Array(edges * 2 + 1);
  for (const k of key) keyStart[k + 1]++;
  for (let k = 0; k < edges * 2; k++) keyStart[k + 1] += keyStart[k];
  const fill = keyStart.slice(0, edges * 2);
  const keyArcs = new Uint32Array(key.length);
  for (let i = 0; i < key.length; i++) keyArcs[fill[key[i]]++] = i;
  return {
    mode,
    arcs: { n: junctions + copyOf.length, from: Uint32Array.from(from), to: Uint32Array.from(to), weight: Uint32Array.from(weight) },
    key: Uint32Array.from(key),
    copyOf: Uint32Array.from(copyOf),
    head,
    keyStart,
    keyArcs,
  };
}

// Per junction, whether a road `mode` may use without being destination-only meets it (the
// entrances of destination-only roads); undefined where the mode has no destination-only road.
function openJunctions(g: RoadGraph, mode: number): Uint8Array | undefined {
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

// Splits the via node of each restriction: for each key arriving at a via node
// from a restriction's from-way, a copy of the node with the arcs the
// restrictions let it take (all but the `no_*` to-ways; with `only_*`, only its
// to-ways). Arcs leaving a junction are the base arcs, so the order in which vias
// are split does not matter; arcs are retargeted by key at the end.
function splitVias(
  g: RoadGraph,
  junctions: number,
  from: number[],
  to: number[],
  weight: number[],
  key: number[],
  head: Uint32Array,
  copyOf: number[],
): void {
  const base = from.length;
  const r = g.restrictions;
  const byVia = new Map<number, number[]>();
  for (let i = 0; i < r.length; i += 4) {
    const list = byVia.get(r[i + 1]);
    if (list) list.push(i);
    else byVia.set(r[i + 1], [i]);
  }
  // base arcs out of and into each via node
  const out = new Map<number, number[]>(),
    into = new Map<number, number[]>();
  const add = (m: Map<number, number[]>, v: number, i: number) => {
    const list = m.get(v);
    if (list) list.push(i);
    else m.set(v, [i]);
  };
  for (let i = 0; i < base; i++) {
    if (byVia.has(from[i])) add(out, from[i], i);
    if (byVia.has(to[i])) add(into, to[i], i);
  }
  const vias = [...byVia.keys()].sort((a, b) => a - b);
  for (const v of vias) {
    const rules = byVia.get(v)!;
    const outs = out.get(v) ?? [];
    for (const a of into.get(v) ?? []) {
      const way = g.edgeWay[key[a] >> 1];
      const mine = rules.filter((i) => r[i] === way);
      if (mine.length === 0) continue;
      const only = mine.filter((i) => r[i + 3] === ONLY_TURN).map((i) => r[i + 2]);
      const no = mine.filter((i) => r[i + 3] !== ONLY_TURN).map((i) => r[i + 2]);
      const allowed = outs.filter((b) => {
        const w = g.edgeWay[key[b] >> 1];
        return (only.length === 0 || only.includes(w)) && !no.includes(w);
      });
      if (allowed.length === outs.length) continue;
      const copy = junctions + copyOf.length;
      copyOf.push(v);
      head[key[a]] = copy;
      for (const b of allowed) {
        from.push(copy);
        to.push(0);
        weight.push(weight[b]);
        key.push(key[b]);
      }
    }
  }
}
