import { CROSSING, DELAY_BACKWARD, DELAY_FORWARD, GIVE_WAY, SIGNALS, STOP, type RoadGraph } from '../model/roads.js';
import { MODES } from '../osm/profile.js';

import { DEFAULTS, isTurnCosts, type TurnCosts } from '../osm/profiles.js';

export type { TurnCosts };

/**
 * The turn model: what turning from one road segment onto the next costs each mode, in
 * ms, by the angle of the turn and the side it turns to, plus a delay at a junction with
 * traffic signals, a stop or give-way sign or a crossing. The numbers are each profile's
 * `turnCosts` in the profiles document the graph was built with (the shipped ones in
 * src/osm/default-profiles.ts); docs/routing.md, "Turns and restrictions", has the table.
 */

/** The shipped turn costs per mode name, ms: a view of the default profiles document. */
export const TURN_COSTS: Readonly<Record<string, TurnCosts>> = {
  foot: DEFAULTS.doc.foot.turnCosts,
  bike: DEFAULTS.doc.bike.turnCosts,
  car: DEFAULTS.doc.car.turnCosts,
  motorbike: DEFAULTS.doc.motorbike.turnCosts,
};

/**
 * The turn costs of mode number `m` (an index of `MODES`) in graph `g`: its profiles document's,
 * or the shipped ones where the graph records none valid (a snapshot written before turn costs
 * were data records an empty `turnCosts`).
 */
export function turnCostsOf(g: RoadGraph, m: number): TurnCosts {
  const name = MODES[m] as string | undefined;
  const own =
    name !== undefined ? (g.profiles as Record<string, { turnCosts?: unknown } | undefined> | undefined)?.[name]?.turnCosts : undefined;
  if (isTurnCosts(own)) return own;
  return (name !== undefined && TURN_COSTS[name]) || TURN_COSTS.car;
}

/** Angle classes, by the absolute turn angle in degrees: up to 25 straight, 60 slight, 120 normal, below 170 sharp, else a U-turn. */
export const STRAIGHT = 0,
  SLIGHT = 1,
  NORMAL = 2,
  SHARP = 3,
  U_TURN = 4;

/** The class of a turn of `deg` degrees (either side). */
export function angleClass(deg: number): number {
  const a = Math.abs(deg);
  return a <= 25 ? STRAIGHT : a <= 60 ? SLIGHT : a <= 120 ? NORMAL : a < 170 ? SHARP : U_TURN;
}

/** The direction of travel along directed edge `k` (`edge * 2`, `+ 1` against the way), degrees clockwise from north, where it leaves its tail (`end` false) or reaches its head. */
export function bearingOf(g: RoadGraph, k: number, end: boolean): number {
  const e = k >> 1;
  const first = g.coordStart[e],
    last = g.coordStart[e + 1] - 1;
  const c = g.coords;
  // the points in the order of travel: i-th is first + i forward, last - i backward (no closure: this runs per directed edge)
  const back = (k & 1) === 1,
    n = last - first + 1;
  const p = back ? last - (end ? n - 1 : 0) : first + (end ? n - 1 : 0);
  let i = end ? n - 2 : 1;
  let q = back ? last - i : first + i;
  while (i >= 0 && i < n && c[2 * q] === c[2 * p] && c[2 * q + 1] === c[2 * p + 1]) {
    i += end ? -1 : 1;
    q = back ? last - i : first + i;
  }
  if (i < 0 || i >= n) return NaN;
  const a = end ? q : p,
    b = end ? p : q;
  const k0 = Math.cos((c[2 * a + 1] / 1e7) * (Math.PI / 180));
  return (Math.atan2((c[2 * b] - c[2 * a]) * k0, c[2 * b + 1] - c[2 * a + 1]) * 180) / Math.PI;
}

/** The turn from directed edge `a` onto `b` at their junction, degrees in (-180, 180], positive to the right (0 where an edge has no length). */
export function turnAngle(g: RoadGraph, a: number, b: number): number {
  const d = bearingOf(g, b, false) - bearingOf(g, a, true);
  if (Number.isNaN(d)) return 0;
  return d > 180 ? d - 360 : d <= -180 ? d + 360 : d;
}

/**
 * What a mode pays, ms, to turn from directed edge `a` onto `b` at the junction between them:
 * where the junction offers a `choice` (two or more ways on besides back), the angle's cost on
 * its side (a road bending where nothing else meets it is no turn); a U-turn's where `b` is `a`
 * driven back; and the junction's delay where it holds for traffic arriving along `a`.
 */
export function turnMs(g: RoadGraph, costs: TurnCosts, a: number, b: number, choice: boolean, bearings?: Bearings): number {
  let ms = 0;
  if (b === (a ^ 1)) ms = costs.uTurn;
  else if (choice) {
    let deg: number;
    if (bearings) {
      const d = bearings.leave[b] - bearings.reach[a];
      deg = Number.isNaN(d) ? 0 : d > 180 ? d - 360 : d <= -180 ? d + 360 : d;
    } else deg = turnAngle(g, a, b);
    const c = angleClass(deg);
    const side = deg < 0 ? costs.left : costs.right;
    ms = c === STRAIGHT ? 0 : c === SLIGHT ? side.slight : c === NORMAL ? side.normal : c === SHARP ? side.sharp : costs.uTurn;
  }
  const v = a & 1 ? g.edgeFrom[a >> 1] : g.edgeTo[a >> 1];
  const d = g.nodeDelay[v];
  if (d) ms += delayMs(costs, d, a);
  return ms;
}

/** Per directed edge, its bearing where it leaves its tail and where it reaches its head (`bearingOf`), NaN where it has no length. */
export interface Bearings {
  leave: Float64Array;
  reach: Float64Array;
}

/** The bearings of every directed edge of `g`: what `turnMs` reads instead of computing two per turn (a graph build turns millions of times). */
export function bearings(g: RoadGraph): Bearings {
  const keys = g.edgeFrom.length * 2;
  const leave = new Float64Array(keys),
    reach = new Float64Array(keys);
  for (let k = 0; k < keys; k++) {
    leave[k] = bearingOf(g, k, false);
    reach[k] = bearingOf(g, k, true);
  }
  return { leave, reach };
}

/** The delay of a junction's tag `d` (`RoadGraph.nodeDelay`) for traffic arriving along directed edge `a`. */
export function delayMs(costs: TurnCosts, d: number, a: number): number {
  // `direction=forward|backward`: along or against the arriving edge's way
  if ((d & DELAY_FORWARD && a & 1) || (d & DELAY_BACKWARD && !(a & 1))) return 0;
  const kind = d & 7;
  return kind === SIGNALS
    ? costs.signals
    : kind === STOP
      ? costs.stop
      : kind === GIVE_WAY
        ? costs.giveWay
        : kind === CROSSING
          ? costs.crossing
          : 0;
}
