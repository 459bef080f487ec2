import { forwardBit } from '../osm/profile.js';
import { NO_NODE, choiceAfter, copiesOf, entryPenalty, headOf, timeOf } from './modes.js';
import { junctionAt as junctionOf } from './legs.js';
import { turnMs } from './turns.js';
import type { Router } from './router.js';
import type { Snap } from './snap.js';

/**
 * Where the searches of the travel-time queries (matrix, isochrone, nearby by time) start and
 * end for a snapped point, on a mode's edge-based graph (`ModeGraph`: a search node is a
 * directed edge driven to its end, an arc a turn onto the next), each with the travel time and
 * metres of the part of the point's edge it stands for. Kept in one module so that a change of
 * the graph (what a search node is) changes this file, not its users.
 *
 * A source is the point's edge driven on from the point (or, at a junction, each edge leaving it,
 * driven whole); a target is each search node with a turn onto the point's edge, the turn and the
 * part of the edge up to the point in its weight (at a junction, each search node reaching it, at
 * 0). So a source and a target meet only across a turn, and the trips no turn makes (along the one
 * edge both lie on, or from a junction onto the edge the target lies on) are `alongEdge`'s.
 */
export interface Seed {
  /** A node of the mode's graph (its `arcs`, and its hierarchy's node ids). */
  node: number;
  /** Initial weight: what the route weighs between the point and the node (ms, a penalty included where it enters a destination-only road). */
  weight: number;
  /** That part's travel time, ms (a turn's cost included). */
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
  return junctionOf(router.graph, s);
}

// The directed edges reaching (`into`) or leaving junction v, each once.
function keysAt(router: Router, v: number, into: boolean): number[] {
  const g = router.graph,
    { start, at } = router.incidence;
  const out: number[] = [];
  for (let i = start[v]; i < start[v + 1]; i++) {
    const e = at[i];
    if (i > start[v] && at[i - 1] === e) continue; // a loop edge is listed twice
    if (g.edgeTo[e] === v) out.push(into ? 2 * e : 2 * e + 1);
    if (g.edgeFrom[e] === v) out.push(into ? 2 * e + 1 : 2 * e);
  }
  return out;
}

/** Where a search from `s` starts: its edge's search nodes, each at the part of the edge to its end; at a junction, each edge leaving it, whole. */
export function sourceSeeds(router: Router, m: number, s: Snap): Seed[] {
  const g = router.graph,
    mg = router.modes[m];
  const out: Seed[] = [];
  const j = junctionAt(router, s);
  if (j >= 0) {
    const open = router.open(m);
    for (const k of keysAt(router, j, false)) {
      if (mg.node[k] === NO_NODE) continue;
      const e = k >> 1,
        time = timeOf(g, m, e, g.edgeMeters[e], (k & 1) === 1);
      out.push({ node: mg.node[k], weight: time + entryPenalty(g, m, open, k, j), time, metres: g.edgeMeters[e] });
    }
    return out;
  }
  const e = s.edge;
  for (let dir = 0; dir < 2; dir++) {
    const k = 2 * e + dir;
    if (mg.node[k] === NO_NODE) continue;
    const metres = dir ? s.offset : g.edgeMeters[e] - s.offset,
      time = timeOf(g, m, e, metres, dir === 1);
    out.push({ node: mg.node[k], weight: time, time, metres });
  }
  return out;
}

/** Where a search ends at `t`: every search node with a turn onto its edge, weighing the turn and the part up to t; at a junction, every search node reaching it, at 0. */
export function targetSeeds(router: Router, m: number, t: Snap): Seed[] {
  const g = router.graph,
    mg = router.modes[m];
  const out: Seed[] = [];
  const nodesOf = (k: number, each: (u: number) => void) => {
    if (mg.node[k] === NO_NODE) return;
    each(mg.node[k]);
    const [lo, hi] = copiesOf(mg, k);
    for (let u = lo; u < hi; u++) each(u);
  };
  const j = junctionAt(router, t);
  if (j >= 0) {
    for (const a of keysAt(router, j, true)) nodesOf(a, (u) => out.push({ node: u, weight: 0, time: 0, metres: 0 }));
    return out;
  }
  const f = t.edge,
    costs = router.turnCosts[m],
    open = router.open(m);
  for (let dir = 0; dir < 2; dir++) {
    const k = 2 * f + dir;
    if (mg.node[k] === NO_NODE) continue;
    const metres = dir ? g.edgeMeters[f] - t.offset : t.offset,
      part = timeOf(g, m, f, metres, dir === 1);
    const tail = headOf(g, k ^ 1);
    for (const a of keysAt(router, tail, true)) {
      nodesOf(a, (u) => {
        for (let i = mg.out[u]; i < mg.out[u + 1]; i++) {
          if (mg.key[mg.arcs.to[i]] !== k) continue;
          const turn = turnMs(g, costs, a, k, choiceAfter(g, router.incidence, m, a));
          out.push({ node: u, weight: turn + entryPenalty(g, m, open, k, tail) + part, time: turn + part, metres });
        }
      });
    }
  }
  return out;
}

/**
 * The trips no turn makes, where the mode may go that way: along the one edge both points lie on
 * (t ahead of s), from a junction onto the edge t lies on, and from a junction to itself;
 * undefined otherwise.
 */
export function alongEdge(router: Router, m: number, s: Snap, t: Snap): { time: number; metres: number } | undefined {
  const g = router.graph,
    f = t.edge;
  const js = junctionAt(router, s),
    jt = junctionAt(router, t);
  if (js >= 0 && js === jt) return { time: 0, metres: 0 };
  if (jt >= 0) return undefined;
  let from: number;
  if (js >= 0) {
    if (g.edgeFrom[f] === js) from = 0;
    else if (g.edgeTo[f] === js) from = g.edgeMeters[f];
    else return undefined;
  } else if (s.edge === f) from = s.offset;
  else return undefined;
  const dir = t.offset >= from ? 0 : 1;
  if (!(g.edgeAccess[f] & (forwardBit(m) << dir))) return undefined;
  const metres = Math.abs(t.offset - from);
  return { time: timeOf(g, m, f, metres, dir === 1), metres };
}

/** Per arc of mode `m`'s graph: its travel time (ms: the turn and the edge turned onto, without the penalty of `route()`'s weight) and its length (metres). */
export function arcMeasures(router: Router, m: number): { time: Float64Array; metres: Float64Array } {
  const g = router.graph,
    mg = router.modes[m];
  const time = new Float64Array(mg.arcs.from.length);
  for (let a = 0; a < time.length; a++) {
    const { key, lead } = arcEdge(router, m, a);
    time[a] = lead + timeOf(g, m, key >> 1, g.edgeMeters[key >> 1], (key & 1) === 1);
  }
  return { time, metres: router.arcMetres(m) };
}

/**
 * The directed edge (`edge * 2`, `+ 1` against its direction) that arc `a` of mode `m` runs
 * along (the edge it turns onto), and the travel time (ms) at which it enters that edge, counted
 * from the arc's tail: the turn's cost.
 */
export function arcEdge(router: Router, m: number, a: number): { key: number; lead: number } {
  const g = router.graph,
    mg = router.modes[m];
  const from = mg.key[mg.arcs.from[a]],
    key = mg.key[mg.arcs.to[a]];
  return { key, lead: turnMs(g, router.turnCosts[m], from, key, choiceAfter(g, router.incidence, m, from)) };
}

/** Milliseconds a metre of directed edge `key` takes in mode `m`. */
export function msPerMetre(router: Router, m: number, key: number): number {
  const g = router.graph,
    e = key >> 1;
  return g.edgeMeters[e] > 0 ? timeOf(g, m, e, g.edgeMeters[e], (key & 1) === 1) / g.edgeMeters[e] : 0;
}

/** The junction search node `v` of mode `m` stands at: the end of the directed edge it stands for. */
export function nodeJunction(router: Router, m: number, v: number): number {
  return headOf(router.graph, router.modes[m].key[v]);
}

/** The directed edge (`edge * 2`, `+ 1` against its direction) search node `v` of mode `m` stands for. */
export function nodeKey(router: Router, m: number, v: number): number {
  return router.modes[m].key[v];
}
