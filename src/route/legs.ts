import type { RoadGraph } from '../model/roads.js';
import type { Snap } from './snap.js';
import type { Router } from './router.js';
import type { Path } from './ends.js';
import type { AlternativeOptions } from './alternatives.js';
import { DESTINATION_PENALTY_MS, NO_NODE, choiceAfter, copiesOf, entryPenalty, headOf, tailOf, timeOf } from './modes.js';
import { turnMs } from './turns.js';
import type { Track } from './track.js';

/**
 * One end of a leg's search: a search node of the mode's graph, its initial cost, and how the
 * route runs between the snapped point and it.
 */
export interface End {
  /** Search node (`ModeGraph`: a directed edge driven to its head). */
  node: number;
  /** Sources: the cost of driving from the point to the node's head. Targets: what remains from the node's head to the point, plus the ends' `offset`. */
  cost: number;
  /** The point is a junction: the node's edge is driven whole (from the junction, or up to it). */
  at: boolean;
  /** Sources only: the turn from the previous leg's last edge onto the first (a U-turn at a via point), ms, within `cost`. */
  startMs?: number;
  /** Targets only: the route enters this key after the node, and stops on it at the point (the point lies behind the start on the start's own edge). */
  enter?: number;
}

/** The targets of a point, and what their costs carry on top of the route's (subtract it from a path's cost). */
export interface Targets {
  ends: End[];
  offset: number;
}

/** The junction a snapped point is exactly at (an end of its edge), or -1. */
export function junctionAt(g: RoadGraph, s: Snap): number {
  const e = s.edge;
  if (s.t === 0 && s.at === g.coordStart[e]) return g.edgeFrom[e];
  if (s.t === 1 && s.at === g.coordStart[e + 1] - 2) return g.edgeTo[e];
  return -1;
}

/** Per junction: the edges that meet there (each edge under both its ends), as `Router` keeps them. */
export interface Incidence {
  start: Uint32Array;
  at: Uint32Array;
}

/**
 * Where a search of mode `m` may start from point s: mid-edge, the edge's search nodes, each
 * with the time to the end it drives to; at a junction, every edge the mode may leave it by,
 * driven whole (with what entering a destination-only road costs). `arrived`: the key the
 * previous leg reached s by (a via point): the route stops there, so it may go on any way or turn
 * back, paying nothing for the turn but a U-turn's cost where it turns back.
 */
export function sourceEnds(router: Router, m: number, s: Snap, arrived = -1): End[] {
  const g = router.graph,
    mg = router.modes[m];
  const costs = router.turnCosts[m];
  const out: End[] = [];
  const j = junctionAt(g, s);
  if (j >= 0) {
    const open = router.open(m);
    eachKey(router.incidence, g, j, false, (b) => {
      if (mg.node[b] === NO_NODE) return;
      const turn = b === (arrived ^ 1) && arrived >= 0 ? costs.uTurn : 0;
      out.push({
        node: mg.node[b],
        cost: timeOf(g, m, b >> 1, g.edgeMeters[b >> 1], (b & 1) === 1) + entryPenalty(g, m, open, b, j) + turn,
        at: true,
        startMs: turn,
      });
    });
    return out;
  }
  const e = s.edge;
  for (let dir = 0; dir < 2; dir++) {
    const k = 2 * e + dir;
    if (mg.node[k] === NO_NODE) continue;
    const back = arrived >= 0 && arrived !== k ? costs.uTurn : 0;
    out.push({
      node: mg.node[k],
      cost: timeOf(g, m, e, dir ? s.offset : g.edgeMeters[e] - s.offset, dir === 1) + back,
      at: false,
      startMs: back,
    });
  }
  return out;
}

/**
 * Where a search of mode `m` may end at point t: mid-edge, the search nodes of the edge's
 * directions (copies included), each with what remains from the edge's head back to t, which is
 * negative, so every cost carries `offset` (the edge's whole time) on top; at a junction, every
 * search node reaching it, at no cost. Where t lies behind `s` on the edge both are on, in a
 * direction, the route must leave that edge and come back onto it: its targets are then the
 * search nodes with a turn onto it, and the route enters the edge after them (`End.enter`).
 */
export function targetEnds(router: Router, m: number, t: Snap, s?: Snap): Targets {
  const g = router.graph,
    mg = router.modes[m];
  const out: End[] = [];
  const j = junctionAt(g, t);
  const nodes = (k: number, each: (u: number) => void) => {
    if (mg.node[k] === NO_NODE) return;
    each(mg.node[k]);
    const [lo, hi] = copiesOf(mg, k);
    for (let u = lo; u < hi; u++) each(u);
  };
  if (j >= 0) {
    eachKey(router.incidence, g, j, true, (a) => nodes(a, (u) => out.push({ node: u, cost: 0, at: true })));
    return { ends: out, offset: 0 };
  }
  const f = t.edge;
  // what remains from the head is the part up to t less the whole edge (by direction: a pushed bike's differ)
  const whole = [timeOf(g, m, f, g.edgeMeters[f]), timeOf(g, m, f, g.edgeMeters[f], true)];
  const offset = Math.max(whole[0], whole[1]);
  const sMid = s && s.edge === f && junctionAt(g, s) < 0;
  for (let dir = 0; dir < 2; dir++) {
    const k = 2 * f + dir;
    if (mg.node[k] === NO_NODE) continue;
    const part = timeOf(g, m, f, dir ? g.edgeMeters[f] - t.offset : t.offset, dir === 1) + offset - whole[dir];
    const behind = sMid && (dir ? s!.offset < t.offset : s!.offset > t.offset);
    if (!behind) {
      nodes(k, (u) => out.push({ node: u, cost: part, at: false }));
      continue;
    }
    // the turns onto k: from the search nodes of every key reaching its tail
    const tail = headOf(g, k ^ 1);
    eachKey(router.incidence, g, tail, true, (a) =>
      nodes(a, (u) => {
        for (let i = mg.out[u]; i < mg.out[u + 1]; i++) {
          if (mg.key[mg.arcs.to[i]] === k) out.push({ node: u, cost: mg.arcs.weight[i] + part, at: false, enter: k });
        }
      }),
    );
  }
  return { ends: out, offset };
}

// The directed edges reaching (`into`) or leaving junction v, each once.
function eachKey(inc: Incidence, g: RoadGraph, v: number, into: boolean, each: (k: number) => void): void {
  let last = -1;
  for (let i = inc.start[v]; i < inc.start[v + 1]; i++) {
    const e = inc.at[i];
    if (e === last) continue; // a loop edge is listed under both its ends
    last = e;
    // reaching v: forward where v is its head, backward where v is its tail; leaving: the other way
    if (g.edgeTo[e] === v) each(into ? 2 * e : 2 * e + 1);
    if (g.edgeFrom[e] === v) each(into ? 2 * e + 1 : 2 * e);
  }
}

/** A leg of a route: its ends, its weight, and the directed edges it drives. */
export interface Leg {
  s: Snap;
  t: Snap;
  /** What the search minimised: the travel time plus penalties (ms). */
  cost: number;
  /** Directed edges in order: the first driven from s (whole where s is a junction), the last up to t (whole where t is a junction); none where s and t are one junction. */
  keys: number[];
  /** The first key's turn cost from the previous leg (a U-turn at a via point), ms. */
  startMs: number;
  /** The search's arcs: arc i turns from keys[i] onto keys[i + 1] (none where the leg has no turn, or past a target's `enter`). */
  arcs?: Uint32Array;
}

/** The cheapest of `list`'s ends at search node `node` (a search starts a node at its cheapest end). */
function used(list: End[], node: number): End {
  let best: End | undefined;
  for (const x of list) if (x.node === node && (!best || x.cost < best.cost)) best = x;
  return best!;
}

/**
 * The best leg of mode `m` from s to t (with `alternatives`, then up to that many more), or []
 * when no road joins them; `arrived`: the key the previous leg reached s by (-1 for the first).
 * Throws what the search throws (`SearchLimitError` past a plain search's bound).
 */
export function legPaths(
  router: Router,
  m: number,
  s: Snap,
  t: Snap,
  options: { arrived?: number; alternatives?: AlternativeOptions } = {},
): Leg[] {
  const g = router.graph,
    mg = router.modes[m];
  const arrived = options.arrived ?? -1;
  const js = junctionAt(g, s);
  if (js >= 0 && js === junctionAt(g, t)) return [{ s, t, cost: 0, keys: [], startMs: 0 }];
  const from = sourceEnds(router, m, s, arrived);
  const { ends: to, offset } = targetEnds(router, m, t, s);
  if (!from.length || !to.length) return [];
  const flat = (list: End[]) => list.flatMap((x) => [x.node, x.cost]);
  const search = router.search(m);
  const paths: Path[] = options.alternatives
    ? search.alternatives(flat(from), flat(to), { ...options.alternatives, share: router.arcMetres(m), along: router.arcEdges(m) })
    : [search.route(flat(from), flat(to))].filter((p): p is Path => p !== null);
  return paths.map((p) => {
    const a = used(from, p.source),
      b = used(to, p.target);
    const keys = [mg.key[p.source]];
    for (const arc of p.arcs) keys.push(mg.key[mg.arcs.to[arc]]);
    if (b.enter !== undefined) keys.push(b.enter);
    return { s, t, cost: p.cost - offset, keys, startMs: a.startMs ?? 0, arcs: p.arcs };
  });
}

// Travel time of keys[i] as the leg drives it: whole, or the part from s or up to t.
function pieceMs(g: RoadGraph, m: number, s: Snap, t: Snap, keys: number[], i: number, sAt: boolean, tAt: boolean): number {
  const k = keys[i],
    e = k >> 1;
  const len = g.edgeMeters[e];
  // offsets along the edge's own direction
  let a = k & 1 ? len : 0,
    b = k & 1 ? 0 : len;
  if (i === 0 && !sAt) a = s.offset;
  if (i === keys.length - 1 && !tAt) b = t.offset;
  return timeOf(g, m, e, Math.abs(b - a), (k & 1) === 1);
}

/**
 * Draws a leg onto `track` (each edge with its time: its travel time plus the turn onto it)
 * and returns the leg's travel time, ms.
 */
export function walkLeg(router: Router, m: number, leg: Leg, track: Track): number {
  const g = router.graph;
  const { s, t, keys } = leg;
  const sAt = junctionAt(g, s) >= 0,
    tAt = junctionAt(g, t) >= 0;
  const costs = router.turnCosts[m],
    weight = router.modes[m].arcs.weight,
    open = router.open(m);
  // the turn onto keys[i]: its arc's weight less the edge and any penalty (as the search summed
  // it, and without the angle's trigonometry a route of thousands of turns would repeat)
  const turn = (i: number): number => {
    const k = keys[i];
    if (leg.arcs && i - 1 < leg.arcs.length)
      return (
        weight[leg.arcs[i - 1]] - entryPenalty(g, m, open, k, tailOf(g, k)) - timeOf(g, m, k >> 1, g.edgeMeters[k >> 1], (k & 1) === 1)
      );
    return turnMs(g, costs, keys[i - 1], k, choiceAfter(g, router.incidence, m, keys[i - 1]));
  };
  const last = keys.length - 1;
  let ms = 0;
  for (let i = 0; i <= last; i++) {
    const k = keys[i],
      e = k >> 1;
    const whole = (i > 0 || sAt) && (i < last || tAt);
    if (whole && i > 0 && leg.arcs && i - 1 < leg.arcs.length) {
      // a whole edge after a turn of the search: its time and the turn's are the arc's weight less
      // any entry penalty, exactly (both are whole ms); looking up neither the edge's length nor its
      // speed saves two of a long route's cache misses per edge. A weight below the penalty holds none.
      const w = weight[leg.arcs[i - 1]];
      const time = w < DESTINATION_PENALTY_MS ? w : w - entryPenalty(g, m, open, k, tailOf(g, k));
      track.whole(g, e, (k & 1) === 0, time);
      ms += time;
      continue;
    }
    const time = pieceMs(g, m, s, t, keys, i, sAt, tAt) + (i > 0 ? turn(i) : leg.startMs);
    const a = i === 0 && !sAt ? s : k & 1 ? 'to' : 'from';
    const b = i === last && !tAt ? t : k & 1 ? 'from' : 'to';
    track.walk(g, e, a, b, time);
    ms += time;
  }
  return ms;
}
