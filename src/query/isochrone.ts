import { InvalidQueryError, RouteError } from '../errors.js';
import type { PlaceIndex } from '../index/place-index.js';
import { MODES, type Mode } from '../osm/profile.js';
import type { Router } from '../route/router.js';
import type { Snap } from '../route/snap.js';
import { junctionAt, msPerMetre, nodeKey, snapFor, sourceSeeds } from '../route/seeds.js';
import { reachFor, type Reach, type ReachContext } from '../route/reach.js';
import { Attachments } from '../route/attach.js';
import { contourReached, Reached, type MultiPolygon } from '../route/isochrone.js';
import { SNAP_KM } from './route.js';
import { coord, show } from './validate.js';
import { checkNotSwapped } from './swapped.js';
import { checkRouting } from './pack.js';

/**
 * Largest `minutes` per mode, of isochrones and of nearby by travel time: what keeps one search
 * (and its grid) within tens of milliseconds on a national network. A mode not listed: `DEFAULT`.
 */
export const MAX_MINUTES: Readonly<Record<string, number>> = { foot: 120, bike: 60, car: 60, DEFAULT: 60 };
/** Most contours one isochrone may ask for. */
export const MAX_CONTOURS = 4;

/** The largest `minutes` mode `mode` takes. */
export function maxMinutes(mode: string): number {
  return Object.hasOwn(MAX_MINUTES, mode) ? MAX_MINUTES[mode] : MAX_MINUTES.DEFAULT;
}

/**
 * Makes what the travel-time queries (isochrones, nearby by travel time, matrices without
 * hierarchies) build on their first use: each mode's one-to-all search (every arc's time and
 * length) and every place attached to each mode's roads (`attachedPlaces`), seconds at national
 * scale. A server calls it before it answers, so that no request waits for that.
 */
export function prepareTravel(index: PlaceIndex): void {
  const router = index.router;
  if (!router || !router.graph.edgeFrom.length) return;
  for (let m = 0; m < router.modes.length; m++) if (router.modes[m]) reachFor(router, m);
  attachedPlaces(index);
}

/** How far (km) a place may stand from the nearest road a mode may use and be reached by it. */
export const ATTACH_KM = 1;

// Made once per index (its router), then only read; a WeakMap, so it goes with the index.
const attachments = new WeakMap<Router, Attachments>();

/** Whether the places of an index are attached to its roads already (`attachedPlaces`). */
export function attachedMade(index: PlaceIndex): boolean {
  return index.router !== undefined && attachments.has(index.router);
}

/**
 * Every place of the index (of any type) attached to every mode's roads (`Attachments`): the
 * nearest point within `ATTACH_KM` of a road the mode may use, as `route()` snaps, found once
 * per place and mode. Made on first use, or by `prepareTravel`; undefined without roads.
 */
export function attachedPlaces(index: PlaceIndex): Attachments | undefined {
  const router = index.router;
  if (!router || !router.graph.edgeFrom.length) return undefined;
  let a = attachments.get(router);
  if (!a) {
    const rows = new Uint8Array(index.table.lat.length);
    for (const tt of index.types.values()) for (const p of tt.place) rows[p] = 1;
    const list: number[] = [];
    for (let p = 0; p < rows.length; p++) if (rows[p]) list.push(p);
    attachments.set(router, (a = new Attachments(router, index.table, list, ATTACH_KM)));
  }
  return a;
}

/** The arguments of `isochrone()`. */
export interface IsochroneQuery {
  lat: number;
  lon: number;
  /** `'foot'` (default), `'bike'` or `'car'`. */
  mode?: Mode;
  /** The contours, whole minutes: one number or 1 to 4 distinct ones, each 1 to the mode's `MAX_MINUTES`. */
  minutes: number | readonly number[];
}

/** One contour of an isochrone. */
export interface IsochroneFeature {
  type: 'Feature';
  properties: { minutes: number; mode: Mode };
  geometry: MultiPolygon;
}

/** What `isochrone()` answers: its contours, largest first. */
export interface Isochrone {
  type: 'FeatureCollection';
  features: IsochroneFeature[];
}

/**
 * Where one can get from a point within each of `minutes` by `mode`: a GeoJSON FeatureCollection
 * of one MultiPolygon per contour, largest first (so that a map drawing them in order stacks
 * them), each with its `minutes`, with holes where the network does not reach in time. The point
 * snaps as `route()`'s do; one search over the mode's whole graph, bounded by the largest
 * `minutes`, then a time grid traced by marching squares (see `contourReached`).
 *
 * Throws `InvalidQueryError` naming `lat`, `lon`, `mode` or `minutes`, and `RouteError`
 * (`too-far`) for a point farther than 1 km from any road of the mode.
 *
 * @example
 * isochrone(index, { lat: 27.7172, lon: 85.324, mode: 'car', minutes: [5, 10, 15] });
 */
export function isochrone(index: PlaceIndex, query: IsochroneQuery): Isochrone {
  const q = checkIsochrone(query, index);
  checkRouting(index, q.mode);
  const router = index.router;
  const m = MODES.indexOf(q.mode);
  const s = router && router.graph.edgeFrom.length ? snapFor(router, m, q.lat, q.lon, SNAP_KM) : undefined;
  if (!s) {
    throw new RouteError(
      'too-far',
      0,
      q.mode,
      `the point (${q.lat},${q.lon}) is farther than ${SNAP_KM} km from any road usable by ${q.mode}`,
    );
  }
  const limits = q.minutes.map((x) => x * 60_000);
  const top = limits[0];
  const reached = reachedRoads(router!, m, s, top);
  const shapes = contourReached(reached, limits);
  return {
    type: 'FeatureCollection',
    features: q.minutes.map((minutes, i) => ({ type: 'Feature', properties: { minutes, mode: q.mode }, geometry: shapes[i] })),
  };
}

/** The stretches of road mode `m` reaches from `s` within `top` ms, with their times. */
export function reachedRoads(router: Router, m: number, s: Snap, top: number): Reached {
  const reached = new Reached();
  const seeds = sourceSeeds(router, m, s);
  const reach = reachFor(router, m);
  reach.run(seeds, { maxTime: top }, (ctx) => {
    // the edges the search starts on: from the point to their ends (at a junction, each edge leaving it)
    const atJunction = junctionAt(router, s) >= 0;
    for (const seed of seeds) {
      const key = nodeKey(router, m, seed.node);
      stretch(router, reached, key, 0, top, msPerMetre(router, m, key), atJunction ? undefined : s);
    }
    fromNodes(router, m, reach, ctx, reached, top);
  });
  return reached;
}

// Every edge out of a node reached in time, as far along it as time allows. An edge is turned
// onto from every node reaching its tail, each time later by the difference of their times; the
// earliest covers it whole, and a later one's points are the same with later times, so that
// they lower no grid value: of those, only the segment where time runs out counts (it ends
// where the earliest's does not), and only it is added.
function fromNodes(router: Router, m: number, reach: Reach, ctx: ReachContext, reached: Reached, top: number): void {
  const g = router.graph,
    mg = router.modes[m],
    to = mg.arcs.to,
    key = mg.key,
    metresOf = g.edgeMeters;
  const { start, arc, time } = reach,
    lead = reach.lead!;
  // per arc out of a node reached in time: the time it enters its edge at, and the edge's own time
  let slots = new Float64Array(8192),
    count = 0;
  // per node turned onto: the least of those times; once its edge is added, -1 less the time
  // it took end to end (-Infinity where time ran out on it)
  const earliest = ctx.scratch();
  for (let i = 0; i < ctx.settledCount; i++) {
    const v = ctx.settled[i];
    const tv = ctx.t[v];
    for (let k = start[v]; k < start[v + 1]; k++) {
      // the arc's time is its turn (`lead`, kept with the search) and then the edge it turns
      // onto (as arcEdge() gives it), read rather than worked out again for every request
      const w = to[arc[k]];
      const own = time[k] - lead[k],
        t0 = tv + lead[k];
      if (2 * count + 2 > slots.length) {
        const more = new Float64Array(2 * slots.length);
        more.set(slots);
        slots = more;
      }
      slots[2 * count] = t0;
      slots[2 * count + 1] = own;
      count++;
      if (t0 <= top && t0 < earliest[w]) earliest[w] = t0;
    }
  }
  // the earliest onto each edge, whole
  count = 0;
  for (let i = 0; i < ctx.settledCount; i++) {
    const v = ctx.settled[i];
    for (let k = start[v]; k < start[v + 1]; k++, count++) {
      const t0 = slots[2 * count],
        w = to[arc[k]];
      if (t0 > top || t0 !== earliest[w]) continue;
      const metres = metresOf[key[w] >> 1],
        own = slots[2 * count + 1];
      const end = stretch(router, reached, key[w], t0, top, metres > 0 ? own / metres : 0);
      earliest[w] = end === Infinity ? -Infinity : -1 - (end - t0);
      slots[2 * count] = Infinity; // added
    }
  }
  // the others onto it: where time runs out on them (as the walk along it sums, to well within a
  // microsecond), their last segment
  count = 0;
  for (let i = 0; i < ctx.settledCount; i++) {
    const v = ctx.settled[i];
    for (let k = start[v]; k < start[v + 1]; k++, count++) {
      const t0 = slots[2 * count],
        w = to[arc[k]];
      if (t0 > top || earliest[w] >= 0) continue;
      if (t0 + (-1 - earliest[w]) <= top - 1e-3) continue;
      const metres = metresOf[key[w] >> 1],
        own = slots[2 * count + 1];
      stretch(router, reached, key[w], t0, top, metres > 0 ? own / metres : 0, undefined, true);
    }
  }
  for (let i = 0; i < ctx.settledCount; i++) {
    const v = ctx.settled[i];
    for (let k = start[v]; k < start[v + 1]; k++) earliest[to[arc[k]]] = Infinity;
  }
}

const E7 = 1e7;
/** Metres per degree of latitude (R = 6371.0088 km). */
const M_PER_DEG = (6371008.8 * Math.PI) / 180;

/**
 * Adds directed edge `key` to `reached`: from its tail (or from the snapped point `from`, on its
 * own edge) at time `t0`, time growing by `msPerM` a metre, cut where the time passes `top`;
 * `cut`: only the segment where it is cut (nothing where it is not). Returns the time at its
 * end, Infinity where it is cut.
 */
function stretch(router: Router, reached: Reached, key: number, t0: number, top: number, msPerM: number, from?: Snap, cut = false): number {
  const g = router.graph,
    c = g.coords,
    e = key >> 1,
    back = (key & 1) === 1;
  const lo = g.coordStart[e],
    hi = g.coordStart[e + 1] - 1; // first and last point of the edge
  // the points in travel order: i from a to b, stepping `dir`
  const dir = back ? -1 : 1;
  let i = back ? hi : lo;
  const last = back ? lo : hi;
  let px: number, py: number;
  if (from) {
    px = from.lon;
    py = from.lat;
    // the segment the point lies on is from.at .. from.at + 1: start at its far point in travel order
    i = back ? from.at : from.at + 1;
  } else {
    px = c[2 * i] / E7;
    py = c[2 * i + 1] / E7;
    i += dir;
  }
  const k = Math.cos((py * Math.PI) / 180);
  let t = t0;
  if (!cut) {
    reached.begin();
    reached.point(px, py, t);
  }
  for (; dir > 0 ? i <= last : i >= last; i += dir) {
    const x = c[2 * i] / E7,
      y = c[2 * i + 1] / E7;
    const dx = (x - px) * k,
      dy = y - py;
    const metres = Math.sqrt(dx * dx + dy * dy) * M_PER_DEG;
    const t1 = t + metres * msPerM;
    if (t1 > top) {
      const f = metres > 0 ? (top - t) / (t1 - t) : 0;
      if (cut) {
        reached.begin();
        reached.point(px, py, t);
      }
      reached.point(px + f * (x - px), py + f * (y - py), top);
      return Infinity;
    }
    if (!cut) reached.point(x, y, t1);
    px = x;
    py = y;
    t = t1;
  }
  return t;
}

interface Checked {
  lat: number;
  lon: number;
  mode: Mode;
  /** Distinct, largest first. */
  minutes: number[];
}

/** Checks an isochrone query, throwing `InvalidQueryError` naming the first bad argument. */
export function checkIsochrone(q: IsochroneQuery, index?: PlaceIndex): Checked {
  if (q === null || typeof q !== 'object') throw new InvalidQueryError('query', 'must be an object');
  coord('lat', q.lat, 90);
  coord('lon', q.lon, 180);
  const mode = q.mode ?? 'foot';
  if (!MODES.includes(mode)) throw new InvalidQueryError('mode', `must be one of ${MODES.join(', ')}, got ${show(mode)}`);
  const minutes = checkMinutes(q.minutes, mode, MAX_CONTOURS);
  if (index) checkNotSwapped(index, q.lat, q.lon, { marginKm: SNAP_KM });
  return { lat: q.lat, lon: q.lon, mode, minutes };
}

/** `minutes`, one whole number or a list of 1 to `most` distinct ones, each 1 to the mode's cap: largest first. */
export function checkMinutes(v: unknown, mode: string, most: number): number[] {
  const cap = maxMinutes(mode);
  const list = Array.isArray(v) ? v : [v];
  if (v === undefined) throw new InvalidQueryError('minutes', `is required: whole minutes, 1 to ${cap} for ${mode}`);
  if (list.length < 1 || list.length > most) throw new InvalidQueryError('minutes', `must be 1 to ${most} values, got ${list.length}`);
  for (const x of list) {
    if (typeof x !== 'number' || !Number.isInteger(x) || x < 1 || x > cap) {
      throw new InvalidQueryError('minutes', `must be whole minutes from 1 to ${cap} for ${mode}, got ${show(x)}`);
    }
  }
  if (new Set(list).size !== list.length) throw new InvalidQueryError('minutes', `must not repeat a value, got ${list.join(',')}`);
  return (list as number[]).slice().sort((a, b) => b - a);
}
