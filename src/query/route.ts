import polyline from '@mapbox/polyline';
import { InvalidQueryError, RouteError } from '../errors.js';
import type { PlaceIndex } from '../index/place-index.js';
import type { Snap } from '../index/snap.js';
import { MODES, forwardBit, type Mode } from '../road/profile.js';
import { timeOf, NO_NODE } from '../route/modes.js';
import type { Router } from '../route/router.js';
import type { Path } from '../route/ends.js';
import { Track } from '../route/track.js';
import { instructions, type Instruction } from '../route/instructions.js';
import { EARTH_RADIUS_KM } from '../geom/haversine.js';
import { show } from './validate.js';

/** Most points a route may pass through (start, vias, end). */
export const MAX_POINTS = 25;
/** How far (km) a point may lie from the nearest road its mode may use. */
export const SNAP_KM = 1;
/** Alternatives: at most this many besides the best, sharing at most `maxShare` of its length and costing at most `maxStretch` times it. */
export const ALTERNATIVES = { count: 2, maxShare: 0.7, maxStretch: 1.4 } as const;

/** The arguments of `route()`. */
export interface RouteQuery {
  /** Two or more points to pass in order: `[lat, lon]` pairs or `"lat,lon"` strings. */
  points: readonly (readonly [number, number] | string)[];
  /** `'foot'` (default: the shortest walk), `'bike'` or `'car'` (the fastest drive). */
  mode?: Mode;
  /** `true`: turn-by-turn `instructionList` (default false: null). */
  instructions?: boolean;
  /** `true`: up to two alternatives after the best route (two points only). */
  alternatives?: boolean;
}

/** One route, as the API v1 `/directions` returns it. */
export interface Route {
  /** Google encoded polyline (precision 5, lat,lon) of every vertex from the first snapped point to the last. */
  encodedPolyline: string;
  /** Length of that polyline, metres (haversine, R = 6371.0088 km). */
  distanceInMeters: number;
  /** Travel time, milliseconds. */
  timeInMs: number;
  /** What the search minimised: the travel time in seconds. */
  routeWeight: number;
  /** The turn-by-turn steps with `instructions: true`, else null. */
  instructionList: Instruction[] | null;
}

/**
 * Routes through `points` in order by `mode`: the best route first, then with
 * `alternatives` up to two more that differ meaningfully. Each point snaps to
 * the nearest point on a road the mode may use (within 1 km). Throws
 * `InvalidQueryError` on bad arguments and `RouteError` where a point is too
 * far from every road or no road joins two points.
 *
 * @example
 * route(index, { points: [[27.71772, 85.32784], [27.73449, 85.33714]], mode: 'car', instructions: true });
 */
export function route(index: PlaceIndex, query: RouteQuery): Route[] {
  const q = checkRoute(query);
  const router = index.router;
  const m = MODES.indexOf(q.mode);
  if (!router || router.graph.edgeFrom.length === 0) {
    throw new RouteError('too-far', 0, q.mode, `point 1 (${q.points[0].join(',')}) is farther than ${SNAP_KM} km from any road usable by ${q.mode}: the data has no roads`);
  }
  const snaps = q.points.map((p, i) => snapPoint(router, m, p, i, q.mode));
  if (q.alternatives) {
    const legs = legPaths(router, m, snaps[0], snaps[1], true, q.mode);
    return legs.map((leg) => build(router, m, [leg], q.instructions));
  }
  const legs: Leg[] = [];
  for (let i = 0; i + 1 < snaps.length; i++) legs.push(legPaths(router, m, snaps[i], snaps[i + 1], false, q.mode, i)[0]);
  return [build(router, m, legs, q.instructions)];
}

interface Checked {
  points: [number, number][];
  mode: Mode;
  instructions: boolean;
  alternatives: boolean;
}

/** Checks a route query, throwing `InvalidQueryError` naming the first bad argument. */
export function checkRoute(q: RouteQuery): Checked {
  if (q === null || typeof q !== 'object') throw new InvalidQueryError('query', 'must be an object');
  if (!Array.isArray(q.points)) throw new InvalidQueryError('points', `must be a list of [lat, lon] pairs or "lat,lon" strings, got ${show(q.points)}`);
  if (q.points.length < 2 || q.points.length > MAX_POINTS) {
    throw new InvalidQueryError('points', `must hold 2 to ${MAX_POINTS} points, got ${q.points.length}`);
  }
  const points = q.points.map((p, i) => point(p, i));
  const mode = q.mode ?? 'foot';
  if (!MODES.includes(mode)) throw new InvalidQueryError('mode', `must be one of ${MODES.join(', ')}, got ${show(mode)}`);
  const bool = (name: 'instructions' | 'alternatives', v: unknown): boolean => {
    if (v === undefined) return false;
    if (typeof v !== 'boolean') throw new InvalidQueryError(name, `must be true or false, got ${show(v)}`);
    return v;
  };
  const withInstructions = bool('instructions', q.instructions);
  const alternatives = bool('alternatives', q.alternatives);
  if (alternatives && points.length !== 2) throw new InvalidQueryError('alternatives', `need exactly 2 points, got ${points.length}`);
  return { points, mode, instructions: withInstructions, alternatives };
}

// A point as [lat, lon], from a pair or a "lat,lon" string.
function point(p: unknown, i: number): [number, number] {
  let lat: unknown, lon: unknown;
  if (typeof p === 'string') {
    const parts = p.split(',');
    if (parts.length === 2 && parts.every((s) => /^\s*[-+]?(\d+\.?\d*|\.\d+)\s*$/.test(s))) [lat, lon] = parts.map(Number);
  } else if (Array.isArray(p) && p.length === 2) [lat, lon] = p;
  const ok = (v: unknown, max: number) => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= max;
  if (!ok(lat, 90) || !ok(lon, 180)) {
    throw new InvalidQueryError('points', `point ${i + 1} must be [lat, lon] or "lat,lon" with lat in -90..90 and lon in -180..180, got ${show(Array.isArray(p) ? JSON.stringify(p) : p)}`);
  }
  return [lat as number, lon as number];
}

function snapPoint(router: Router, m: number, p: [number, number], i: number, mode: string): Snap {
  const g = router.graph;
  const bits = forwardBit(m) * 3;
  const s = router.snapper.snap(p[1], p[0], SNAP_KM, (e) => (g.edgeAccess[e] & bits) !== 0);
  if (!s) throw new RouteError('too-far', i, mode, `point ${i + 1} (${p[0]},${p[1]}) is farther than ${SNAP_KM} km from any road usable by ${mode}`);
  return s;
}

// A leg: its ends, and how the search joined them (a path between the ends' edges,
// or along the one edge both lie on).
interface Leg {
  s: Snap;
  t: Snap;
  cost: number;
  path: Path | undefined;
  /** Along the shared edge: 0 forward, 1 backward (when `path` is undefined). */
  dir: number;
}

// The best leg from s to t (and with `alternatives` up to two more).
function legPaths(router: Router, m: number, s: Snap, t: Snap, alternatives: boolean, mode: string, i = 0): Leg[] {
  const g = router.graph, mg = router.modes[m];
  const sources: number[] = [], targets: number[] = [];
  const e = s.edge, f = t.edge;
  // leaving s: forward to the edge's end, or backward to its start
  if (mg.head[2 * e] !== NO_NODE) sources.push(mg.head[2 * e], timeOf(g, m, e, g.edgeMeters[e] - s.offset));
  if (mg.head[2 * e + 1] !== NO_NODE) sources.push(mg.head[2 * e + 1], timeOf(g, m, e, s.offset));
  // reaching t: from the tail of any arc along its edge
  for (let dir = 0; dir < 2; dir++) {
    const k = 2 * f + dir;
    const c = timeOf(g, m, f, dir === 0 ? t.offset : g.edgeMeters[f] - t.offset);
    for (let a = mg.keyStart[k]; a < mg.keyStart[k + 1]; a++) targets.push(mg.arcs.from[mg.keyArcs[a]], c);
  }
  // along the edge both lie on, if the mode may go that way
  let direct: Leg | undefined;
  if (e === f) {
    const fwd = forwardBit(m);
    const dir = t.offset >= s.offset ? 0 : 1;
    if (g.edgeAccess[e] & (fwd << dir)) direct = { s, t, cost: timeOf(g, m, e, Math.abs(t.offset - s.offset)), path: undefined, dir };
  }
  const search = router.search(m);
  const paths = sources.length && targets.length
    ? alternatives ? search.alternatives(sources, targets, ALTERNATIVES) : [search.route(sources, targets)].filter((p): p is Path => p !== null)
    : [];
  const legs: Leg[] = paths.map((path) => ({ s, t, cost: path.cost, path, dir: 0 }));
  if (direct && (legs.length === 0 || direct.cost <= legs[0].cost)) legs.unshift(direct);
  if (legs.length === 0) throw new RouteError('no-route', i, mode, `no route between point ${i + 1} and point ${i + 2} (${mode})`);
  return alternatives ? legs.slice(0, 1 + ALTERNATIVES.count) : legs.slice(0, 1);
}

// The route of a list of legs: its track, polyline, distance, time and steps.
function build(router: Router, m: number, legs: Leg[], withSteps: boolean): Route {
  const g = router.graph, mg = router.modes[m];
  const track = new Track();
  const vias: number[] = [];
  let cost = 0;
  for (const leg of legs) {
    if (track.length) vias.push(track.length - 1);
    const { s, t } = leg;
    track.start(s.lon, s.lat, -1);
    cost += leg.cost;
    if (!leg.path) {
      track.walk(g, s.edge, s, t, leg.cost);
      continue;
    }
    const { path } = leg;
    // which way the leg leaves s's edge: toward the head its source node is
    const e = s.edge;
    const fwdCost = timeOf(g, m, e, g.edgeMeters[e] - s.offset), bwdCost = timeOf(g, m, e, s.offset);
    const fwd = mg.head[2 * e] === path.source && (mg.head[2 * e + 1] !== path.source || fwdCost <= bwdCost);
    track.walk(g, e, s, fwd ? 'to' : 'from', fwd ? fwdCost : bwdCost);
    for (const a of path.arcs) {
      const k = mg.key[a];
      track.walk(g, k >> 1, k & 1 ? 'to' : 'from', k & 1 ? 'from' : 'to', mg.arcs.weight[a]);
    }
    // the arc into t's edge: the one of its keys whose tail the path ends at
    const f = t.edge;
    const inFwd = arrivesForward(mg, f, path.target, t, g, m);
    track.walk(g, f, inFwd ? 'from' : 'to', t, timeOf(g, m, f, inFwd ? t.offset : g.edgeMeters[f] - t.offset));
  }
  const points: [number, number][] = track.lat.map((lat, i) => [lat, track.lon[i]]);
  const encoded = polyline.encode(points, 5);
  const decoded = polyline.decode(encoded, 5);
  const metres = new Float64Array(Math.max(0, decoded.length - 1));
  let distance = 0;
  for (let i = 0; i + 1 < decoded.length; i++) {
    metres[i] = haversineMetres(decoded[i], decoded[i + 1]);
    distance += metres[i];
  }
  return {
    encodedPolyline: encoded,
    distanceInMeters: distance,
    timeInMs: cost,
    routeWeight: cost / 1000,
    instructionList: withSteps ? instructions(g, router.degree, track, metres, vias) : null,
  };
}

// Whether a path ending at node `tail` reaches t along its edge forward (from the
// edge's start): the key whose arcs leave `tail` at the lower cost.
function arrivesForward(mg: Router['modes'][number], f: number, tail: number, t: Snap, g: Router['graph'], m: number): boolean {
  const has = (k: number) => {
    for (let a = mg.keyStart[k]; a < mg.keyStart[k + 1]; a++) if (mg.arcs.from[mg.keyArcs[a]] === tail) return true;
    return false;
  };
  const fwd = has(2 * f), bwd = has(2 * f + 1);
  if (fwd !== bwd) return fwd;
  // both ends are the one node (a loop): the cheaper way in, as the search took it
  return timeOf(g, m, f, t.offset) <= timeOf(g, m, f, g.edgeMeters[f] - t.offset);
}

// Haversine metres between two [lat, lon] points, with @turf/distance's operations.
function haversineMetres(a: [number, number], b: [number, number]): number {
  const rad = Math.PI / 180;
  const dLat = (b[0] - a[0]) * rad, dLon = (b[1] - a[1]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.sin(dLon / 2) ** 2 * Math.cos(a[0] * rad) * Math.cos(b[0] * rad);
  return 2 * Math.atan2(Math.sqrt(h), Math.sqrt(1 - h)) * EARTH_RADIUS_KM * 1000;
}
