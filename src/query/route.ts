import { InvalidQueryError, RouteError } from '../errors.js';
import type { PlaceIndex } from '../index/place-index.js';
import type { Snap } from '../route/snap.js';
import { MODES, MODE_SYNONYMS, forwardBit, type Mode } from '../osm/profile.js';
import type { Router } from '../route/router.js';
import { SearchLimitError } from '../route/dijkstra.js';
import { legPaths as searchLegs, walkLeg, type Leg } from '../route/legs.js';
import { Track } from '../route/track.js';
import { pushed } from '../route/modes.js';
import { encodePolyline } from '../route/polyline.js';
import { instructions, type Instruction } from '../route/instructions.js';
import { kmTo, lineMetres } from '../geom/haversine.js';
import { show } from './validate.js';
import { checkNotSwapped } from './swapped.js';
import type { Lang } from '../osm/name.js';
import { checkLang, stepWords, type StepWords } from './lang.js';
import { checkRouting } from './pack.js';

/** Most points a route may pass through (start, vias, end). */
export const MAX_POINTS = 25;
/**
 * Longest trip one request may ask for: the straight-line km from point to point, summed.
 * A route's work grows with its length (its search, unpacking, polyline and steps): 25 points
 * zigzagging across Nepal would be 30,000 km of road and a second and a half of one core.
 * Twice across the country and back fits.
 */
export const MAX_TRIP_KM = 2000;
/** How far (km) a point may lie from the nearest road its mode may use. */
export const SNAP_KM = 1;
/** Alternatives: at most this many besides the best, sharing at most `maxShare` of its length and costing at most `maxStretch` times it. */
export const ALTERNATIVES = { count: 2, maxShare: 0.7, maxStretch: 1.4 } as const;

/** The arguments of `route()`. */
export interface RouteQuery {
  /** Two or more points to pass in order: `[lat, lon]` pairs or `"lat,lon"` strings. */
  points: readonly (readonly [number, number] | string)[];
  /** `'foot'` (default: the shortest walk), `'bike'`, `'car'` or `'motorbike'` (the fastest ride; `'motorcycle'` is the same). */
  mode?: Mode | 'motorcycle';
  /** `true`: turn-by-turn `instructionList` (default false: null). */
  instructions?: boolean;
  /** `true`: up to two alternatives after the best route (two points only). */
  alternatives?: boolean;
  /** The language of the instructions and their street names (see `Lang`); default: English texts, the names as mapped. */
  lang?: Lang;
}

/** One route, as the API v1 `/directions` returns it. */
export interface Route {
  /** Google encoded polyline (precision 5, lat,lon) of every vertex from the first snapped point to the last. */
  encodedPolyline: string;
  /** Length of that polyline, metres (haversine, R = 6371.0088 km). */
  distanceInMeters: number;
  /** Travel time, milliseconds. */
  timeInMs: number;
  /** What the search minimised, in seconds: the travel time, plus a day for each entry into a destination-only road (`DESTINATION_PENALTY_MS`). */
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
  const q = checkRoute(query, index);
  checkRouting(index, q.mode);
  const router = index.router;
  const m = MODES.indexOf(q.mode); // FOOT, BIKE or CAR of route/modes.ts
  if (!router || router.graph.edgeFrom.length === 0) {
    throw new RouteError(
      'too-far',
      0,
      q.mode,
      `point 1 (${q.points[0].join(',')}) is farther than ${SNAP_KM} km from any road usable by ${q.mode}: the data has no roads`,
    );
  }
  const snaps = q.points.map((p, i) => snapPoint(router, m, p, i, q.mode));
  const words = stepWords(index, router.graph, q.lang);
  if (q.alternatives) {
    const legs = legPaths(router, m, snaps[0], snaps[1], true, q.mode);
    const routes = legs.map((leg) => build(router, m, [leg], q.instructions, words));
    // two searches' paths can draw the same line (a zero-length route, a loop): list it once
    return routes.filter((r, k) => routes.findIndex((o) => o.encodedPolyline === r.encodedPolyline) === k);
  }
  const legs: Leg[] = [];
  let arrived = -1; // the edge the route reached a via point by: it may go on or turn back there
  for (let i = 0; i + 1 < snaps.length; i++) {
    const leg = legPaths(router, m, snaps[i], snaps[i + 1], false, q.mode, i, arrived)[0];
    legs.push(leg);
    if (leg.keys.length) arrived = leg.keys[leg.keys.length - 1];
  }
  return [build(router, m, legs, q.instructions, words)];
}

interface Checked {
  points: [number, number][];
  mode: Mode;
  instructions: boolean;
  alternatives: boolean;
  lang: Lang | undefined;
}

/**
 * Checks a route query, throwing `InvalidQueryError` naming the first bad argument; with
 * `index`, also a point given as `lon,lat` (outside the data, but inside it swapped).
 */
export function checkRoute(q: RouteQuery, index?: PlaceIndex): Checked {
  if (q === null || typeof q !== 'object') throw new InvalidQueryError('query', 'must be an object');
  if (!Array.isArray(q.points))
    throw new InvalidQueryError('points', `must be a list of [lat, lon] pairs or "lat,lon" strings, got ${show(q.points)}`);
  if (q.points.length < 2 || q.points.length > MAX_POINTS) {
    throw new InvalidQueryError('points', `must hold 2 to ${MAX_POINTS} points, got ${q.points.length}`);
  }
  const points = q.points.map((p, i) => point(p, i));
  if (index)
    points.forEach(([lat, lon], i) => checkNotSwapped(index, lat, lon, { param: 'points', marginKm: SNAP_KM, what: `point ${i + 1}` }));
  let km = 0;
  for (let i = 0; i + 1 < points.length; i++) km += kmTo(points[i][1], points[i][0], points[i + 1][1] * 1e7, points[i + 1][0] * 1e7);
  if (km > MAX_TRIP_KM) {
    throw new InvalidQueryError(
      'points',
      `are ${Math.round(km)} km apart in a straight line, point to point; one request may ask for at most ${MAX_TRIP_KM} km: split the trip`,
    );
  }
  const asked = q.mode ?? 'foot';
  const mode = (Object.hasOwn(MODE_SYNONYMS, asked) ? MODE_SYNONYMS[asked] : asked) as Mode;
  if (!MODES.includes(mode))
    throw new InvalidQueryError('mode', `must be one of ${MODES.join(', ')} (motorcycle for motorbike), got ${show(asked)}`);
  const bool = (name: 'instructions' | 'alternatives', v: unknown): boolean => {
    if (v === undefined) return false;
    if (typeof v !== 'boolean') throw new InvalidQueryError(name, `must be true or false, got ${show(v)}`);
    return v;
  };
  const withInstructions = bool('instructions', q.instructions);
  const alternatives = bool('alternatives', q.alternatives);
  if (alternatives && points.length !== 2) throw new InvalidQueryError('alternatives', `need exactly 2 points, got ${points.length}`);
  return { points, mode, instructions: withInstructions, alternatives, lang: checkLang(q.lang) };
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
    throw new InvalidQueryError(
      'points',
      `point ${i + 1} must be [lat, lon] or "lat,lon" with lat in -90..90 and lon in -180..180, got ${show(Array.isArray(p) ? JSON.stringify(p) : p)}`,
    );
  }
  return [lat as number, lon as number];
}

function snapPoint(router: Router, m: number, p: [number, number], i: number, mode: string): Snap {
  const g = router.graph;
  const bits = forwardBit(m) * 3;
  const s = router.snapper.snap(p[1], p[0], SNAP_KM, (e) => (g.edgeAccess[e] & bits) !== 0);
  if (!s)
    throw new RouteError(
      'too-far',
      i,
      mode,
      `point ${i + 1} (${p[0]},${p[1]}) is farther than ${SNAP_KM} km from any road usable by ${mode}`,
    );
  return s;
}

// The best leg from s to t (with `alternatives` up to two more), arriving at s by key `arrived`
// (a via point; -1 at the start): RouteError where none joins them or the search is too long.
function legPaths(router: Router, m: number, s: Snap, t: Snap, alternatives: boolean, mode: string, i = 0, arrived = -1): Leg[] {
  let legs: Leg[];
  try {
    legs = searchLegs(router, m, s, t, { arrived, alternatives: alternatives ? ALTERNATIVES : undefined });
  } catch (err) {
    if (!(err instanceof SearchLimitError)) throw err;
    throw new RouteError(
      'too-long',
      i,
      mode,
      `the route from point ${i + 1} to point ${i + 2} (${mode}) needs a longer search than this index does without contraction hierarchies: load a snapshot (nepal-places build) or contract the index (loadPbf({ contract: 'always' })) to route any distance`,
    );
  }
  if (legs.length === 0) throw new RouteError('no-route', i, mode, `no route between point ${i + 1} and point ${i + 2} (${mode})`);
  return alternatives ? legs.slice(0, 1 + ALTERNATIVES.count) : legs.slice(0, 1);
}

// The route of a list of legs: its track, polyline, distance, time and steps.
function build(router: Router, m: number, legs: Leg[], withSteps: boolean, words?: StepWords): Route {
  const say = (list: Instruction[]) => (words ? words.say(list) : list);
  const g = router.graph;
  const track = new Track(withSteps);
  const vias: number[] = [];
  // cost: what the search minimised (with the penalty of entering destination-only roads); ms: the travel time
  let cost = 0,
    ms = 0;
  for (const leg of legs) {
    if (track.length) vias.push(track.length - 1);
    const { s } = leg;
    track.start(s.lon, s.lat, -1);
    cost += leg.cost;
    ms += walkLeg(router, m, leg, track);
  }
  const { encoded, lat5, lon5 } = encodePolyline(track.lat, track.lon);
  // the length of the polyline as it decodes (whole 1e-5 degrees), haversine as @turf/distance
  const metres = new Float64Array(Math.max(0, lat5.length - 1));
  const distance = lineMetres(lat5, lon5, metres);
  return {
    encodedPolyline: encoded,
    distanceInMeters: distance,
    timeInMs: ms,
    routeWeight: cost / 1000,
    instructionList: withSteps
      ? say(
          instructions(g, router.degree, (v) => router.isExit(m, v), track, metres, vias, {
            street: words?.street,
            pushed: MODES[m] === 'bike' ? (e, back) => pushed(g, e, back) : undefined,
          }),
        )
      : null,
  };
}
