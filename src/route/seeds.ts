import { forwardBit } from '../osm/profile.js';
import { timeOf, NO_NODE } from './modes.js';
import type { Router } from './router.js';
import type { Snap } from './snap.js';

/**
 * Where the searches of the travel-time queries (matrix, isochrone, nearby by time) start and
 * end for a snapped point: the same nodes and initial costs as `route()` seeds its searches with
 * (src/query/route.ts, `starts` and `ends`), each with the travel time and metres of the part of
 * the point's edge it stands for. Kept in one module so that a change of the graph (what a
 * search node is) changes this file, not its users.
 */
export interface Seed {
  /** A node of the mode's graph (its `arcs`, and its hierarchy's node ids). */
  node: number;
  /** Initial weight: the travel time of the part of the edge between the point and the node, ms. */
  weight: number;
  /** That part's travel time, ms (equal to `weight`: no penalty applies to part of an edge). */
  time: number;
  /** That part's length, metres. */
  metres: number;
}

/** The nearest point within `maxKm` on a road mode `m` may use (either way), as `route()` snaps; undefined when none. */
export function snapFor(router: Router, m: number, lat: number, lon: number, maxKm: number): Snap | undefined {
  const g = router.graph;
  const bits = forwardBit(m) * 3;
  return router.snapper.snap(lon, lat, maxKm, (e) => (g.edgeAccess[e] & bits) !== 0);
}

/** The junction a snapped point is exactly at (an end of its edge), or -1. */
export function junctionAt(router: Router, s: Snap): number {
  const g = router.graph,
    e = s.edge;
  if (s.t === 0 && s.at === g.coordStart[e]) return g.edgeFrom[e];
  if (s.t === 1 && s.at === g.coordStart[e + 1] - 2) return g.edgeTo[e];
  return -1;
}

/**
 * Where a search from `s` starts: the heads of its edge the mode may go to, each at the cost of
 * the part of the edge it skips; or, when `s` is a junction, that junction alone.
 */
export function sourceSeeds(router: Router, m: number, s: Snap): Seed[] {
  const g = router.graph,
    mg = router.modes[m],
    e = s.edge;
  const j = junctionAt(router, s);
  if (j >= 0) return [{ node: j, weight: 0, time: 0, metres: 0 }];
  const out: Seed[] = [];
  const part = (metres: number, node: number) => {
    const t = timeOf(g, m, e, metres);
    out.push({ node, weight: t, time: t, metres });
  };
  if (mg.head[2 * e] !== NO_NODE) part(g.edgeMeters[e] - s.offset, mg.head[2 * e]);
  if (mg.head[2 * e + 1] !== NO_NODE) part(s.offset, mg.head[2 * e + 1]);
  return out;
}

/**
 * Where a search ends at `t`: the tails of the arcs along its edge (a split junction's copies
 * included), each at the cost of the part of the edge from there to the point; or, when `t` is a
 * junction, that junction and its copies at 0.
 */
export function targetSeeds(router: Router, m: number, t: Snap): Seed[] {
  const g = router.graph,
    mg = router.modes[m],
    f = t.edge;
  const out: Seed[] = [];
  const j = junctionAt(router, t);
  if (j >= 0) {
    out.push({ node: j, weight: 0, time: 0, metres: 0 });
    const junctions = g.nodeLon.length;
    for (let c = 0; c < mg.copyOf.length; c++) if (mg.copyOf[c] === j) out.push({ node: junctions + c, weight: 0, time: 0, metres: 0 });
    return out;
  }
  for (let dir = 0; dir < 2; dir++) {
    const k = 2 * f + dir;
    const metres = dir === 0 ? t.offset : g.edgeMeters[f] - t.offset;
    const time = timeOf(g, m, f, metres);
    for (let a = mg.keyStart[k]; a < mg.keyStart[k + 1]; a++) out.push({ node: mg.arcs.from[mg.keyArcs[a]], weight: time, time, metres });
  }
  return out;
}

/**
 * The trip from `s` to `t` along the one edge both lie on, where the mode may go that way (as
 * `route()` takes it when it is no dearer than a search's path); undefined otherwise.
 */
export function alongEdge(router: Router, m: number, s: Snap, t: Snap): { time: number; metres: number } | undefined {
  const g = router.graph,
    e = s.edge;
  if (e !== t.edge || junctionAt(router, s) >= 0 || junctionAt(router, t) >= 0) return undefined;
  const dir = t.offset >= s.offset ? 0 : 1;
  if (!(g.edgeAccess[e] & (forwardBit(m) << dir))) return undefined;
  const metres = Math.abs(t.offset - s.offset);
  return { time: timeOf(g, m, e, metres), metres };
}

/** Per arc of mode `m`'s graph: its travel time (ms, without the penalty of `route()`'s weight) and its length (metres). */
export function arcMeasures(router: Router, m: number): { time: Float64Array; metres: Float64Array } {
  const g = router.graph,
    key = router.modes[m].key;
  const time = new Float64Array(key.length);
  for (let a = 0; a < key.length; a++) {
    const e = key[a] >> 1;
    time[a] = timeOf(g, m, e, g.edgeMeters[e]);
  }
  return { time, metres: router.arcMetres(m) };
}

/**
 * The directed edge (`edge * 2`, `+ 1` against its direction) that arc `a` of mode `m` runs
 * along, and the travel time (ms) at which it enters that edge, counted from the arc's tail: an
 * arc is one edge, entered at once.
 */
export function arcEdge(router: Router, m: number, a: number): { key: number; lead: number } {
  return { key: router.modes[m].key[a], lead: 0 };
}

/** Milliseconds a metre of directed edge `key` takes in mode `m`. */
export function msPerMetre(router: Router, m: number, key: number): number {
  const g = router.graph,
    e = key >> 1;
  return g.edgeMeters[e] > 0 ? timeOf(g, m, e, g.edgeMeters[e]) / g.edgeMeters[e] : 0;
}
