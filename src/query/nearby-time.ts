import { InvalidQueryError, RouteError } from '../errors.js';
import type { PlaceIndex } from '../index/place-index.js';
import type { NearbyQuery } from '../types.js';
import { around } from '../index/around.js';
import { MODES, type Mode } from '../osm/profile.js';
import type { Router } from '../route/router.js';
import type { Snap } from '../route/snap.js';
import { alongEdge, nodeJunction, snapFor, sourceSeeds, targetSeeds } from '../route/seeds.js';
import { reachFor, type ReachContext } from '../route/reach.js';
import { checkQuery, show } from './validate.js';
import { checkNotSwapped } from './swapped.js';
import { isKnownType, unknownTypeError } from './types.js';
import { placeId } from './record.js';
import { checkMinutes } from './isochrone.js';
import { SNAP_KM } from './route.js';
import { checkRouting } from './pack.js';

/** Default `minutes` of nearby by travel time. */
export const NEARBY_MINUTES = 15;
/** How far (km) a place may stand from the nearest road a mode may use and be reached by it. */
export const ATTACH_KM = 1;
/** Minutes at which the travel-time score halves, as the plain score halves at 1 km. */
const HALF_MINUTES = 5;

/** A hit of nearby by travel time: what `nearby.ts`'s `NearbyHit` holds, and the trip. */
export interface TimedHit {
  row: number;
  type: string;
  score: number;
  radialDistanceInKm: number;
  /** Open when one arrives. */
  open: boolean;
  travelTimeInMs: number;
  travelDistanceInMeters: number;
}

/**
 * Where each place stands on one mode's network: the nearest point within `ATTACH_KM` of a road
 * the mode may use, found once per place and mode, the first time a query meets the place (so an
 * index never snaps places no query asks about). A cache beside the index, not query state: what
 * it holds depends on the place alone.
 */
class Attachments {
  /** Per place row: its edge, -1 where no road is near enough, -2 not attached yet. */
  readonly edge: Int32Array;
  readonly at: Uint32Array;
  readonly t: Float64Array;
  readonly offset: Float64Array;
  constructor(rows: number) {
    this.edge = new Int32Array(rows).fill(-2);
    this.at = new Uint32Array(rows);
    this.t = new Float64Array(rows);
    this.offset = new Float64Array(rows);
  }

  /** Where place `row` (at `lat`, `lon`) stands on mode `m`'s network, or undefined where it is not reachable. */
  of(router: Router, m: number, row: number, lat: number, lon: number): Snap | undefined {
    if (this.edge[row] === -2) {
      const s = snapFor(router, m, lat, lon, ATTACH_KM);
      this.edge[row] = s ? s.edge : -1;
      if (s) {
        this.at[row] = s.at;
        this.t[row] = s.t;
        this.offset[row] = s.offset;
      }
    }
    const e = this.edge[row];
    return e < 0 ? undefined : { edge: e, at: this.at[row], t: this.t[row], offset: this.offset[row], lon, lat, km: 0 };
  }
}

// per index (its router) and mode; a WeakMap, so the cache goes with the index
const attachments = new WeakMap<Router, Attachments[]>();

function attached(index: PlaceIndex, router: Router, m: number): Attachments {
  let list = attachments.get(router);
  if (!list) attachments.set(router, (list = []));
  return (list[m] ??= new Attachments(index.table.lat.length));
}

/**
 * The hits of `nearby()` with `by: 'time'`: the places of the type reachable within `minutes` by
 * `mode`, ranked by travel time (`sortBy`) or by score with travel time in place of distance
 * (`prominence / (1 + minutes / 5)`); with `isOpen`, those open when one arrives (at `at` plus
 * the travel time). One search from the query point reaches every place (see `Reach`).
 */
export function nearbyTimeHits(index: PlaceIndex, query: NearbyQuery): TimedHit[] {
  const q = checkByTime(query);
  checkRouting(index, q.mode);
  const tt = index.types.get(q.type);
  if (!tt && !isKnownType(index, q.type)) throw unknownTypeError(index, q.type);
  checkNotSwapped(index, q.lat, q.lon, { marginKm: SNAP_KM });
  const router = index.router;
  const m = MODES.indexOf(q.mode);
  const origin = router && router.graph.edgeFrom.length ? snapFor(router, m, q.lat, q.lon, SNAP_KM) : undefined;
  if (!origin) {
    throw new RouteError(
      'too-far',
      0,
      q.mode,
      `the point (${q.lat},${q.lon}) is farther than ${SNAP_KM} km from any road usable by ${q.mode}`,
    );
  }
  if (!tt) return [];
  const T = q.minutes * 60_000;
  const t = index.table;
  const places = attached(index, router!, m);
  const found: { item: number; km: number; score: number; ms: number; metres: number }[] = [];
  reachFor(router!, m).run(sourceSeeds(router!, m, origin), { maxTime: T }, (ctx) => {
    // no place stands farther from the point than the farthest node reached, plus its attachment
    const maxKm = farthest(router!, m, ctx, origin, q.lat, q.lon) + ATTACH_KM + 0.01;
    around(
      tt.tree,
      q.lon,
      q.lat,
      maxKm,
      (i, km) => {
        const p = tt.place[i];
        const s = places.of(router!, m, p, t.lat[p] / 1e7, t.lon[p] / 1e7);
        if (!s) return false;
        const trip = tripTo(router!, m, ctx, origin, s);
        if (!trip || trip.time > T) return false;
        if (q.isOpen && !t.schedules.isOpen(t.hours[p], q.at + trip.time)) return false;
        found.push({ item: i, km, score: tt.prom[i] / (1 + trip.time / 60_000 / HALF_MINUTES), ms: trip.time, metres: trip.metres });
        return false;
      },
      { walks: index.walks },
    );
  });
  const id = (a: { item: number }) => placeId(t, tt.place[a.item]);
  found.sort(q.sortBy ? (a, b) => a.ms - b.ms || id(a) - id(b) : (a, b) => b.score - a.score || id(a) - id(b));
  found.length = Math.min(found.length, q.limit);
  return found.map(({ item, km, score, ms, metres }) => {
    const p = tt.place[item];
    return {
      row: p,
      type: t.strings[tt.matched[item]],
      score,
      radialDistanceInKm: km,
      open: t.schedules.isOpen(t.hours[p], q.at + ms),
      travelTimeInMs: ms,
      travelDistanceInMeters: Math.round(metres * 10) / 10,
    };
  });
}

// A bound on the straight-line km from (lat, lon) to any road point the search reached in time:
// the farthest node reached plus the longest edge out of it (an edge may be reached part way),
// and the point's own edge.
function farthest(router: Router, m: number, ctx: ReachContext, origin: Snap, lat: number, lon: number): number {
  const g = router.graph;
  const reach = reachFor(router, m);
  const k = Math.cos((lat * Math.PI) / 180);
  let best = g.edgeMeters[origin.edge] / 1000;
  for (let i = 0; i < ctx.settledCount; i++) {
    const v = ctx.settled[i];
    const j = nodeJunction(router, m, v);
    const dx = (g.nodeLon[j] / 1e7 - lon) * k,
      dy = g.nodeLat[j] / 1e7 - lat;
    let longest = 0;
    for (let a = reach.start[v]; a < reach.start[v + 1]; a++) if (reach.metres[a] > longest) longest = reach.metres[a];
    const km = Math.sqrt(dx * dx + dy * dy) * 111.195 + longest / 1000;
    if (km > best) best = km;
  }
  return best;
}

// The trip the search found to a place snapped at s: through the cheapest of its ends, or along
// the one edge it shares with the point, as route() takes them.
function tripTo(router: Router, m: number, ctx: ReachContext, origin: Snap, s: Snap): { time: number; metres: number } | undefined {
  let w = Infinity,
    time = 0,
    metres = 0;
  for (const x of targetSeeds(router, m, s)) {
    if (ctx.state[x.node] !== 2) continue;
    const c = ctx.dist[x.node] + x.weight;
    if (c < w) {
      w = c;
      time = ctx.t[x.node] + x.time;
      metres = ctx.m[x.node] + x.metres;
    }
  }
  const direct = alongEdge(router, m, origin, s);
  if (direct && direct.time <= w) return direct;
  return w === Infinity ? undefined : { time, metres };
}

interface Checked {
  type: string;
  lat: number;
  lon: number;
  limit: number;
  sortBy: boolean;
  isOpen: boolean;
  at: number;
  mode: Mode;
  minutes: number;
}

/** Checks a nearby query with `by: 'time'`, throwing `InvalidQueryError` naming the first bad argument. */
export function checkByTime(q: NearbyQuery): Checked {
  if (q === null || typeof q !== 'object') throw new InvalidQueryError('query', 'must be an object');
  if (q.radius !== undefined) {
    throw new InvalidQueryError('radius', 'does not apply with by: "time": `minutes` bounds the search (leave radius out)');
  }
  const c = checkQuery({ ...q, radius: undefined });
  const mode = q.mode ?? 'foot';
  if (!MODES.includes(mode)) throw new InvalidQueryError('mode', `must be one of ${MODES.join(', ')}, got ${show(mode)}`);
  if (q.minutes !== undefined && typeof q.minutes !== 'number') {
    throw new InvalidQueryError('minutes', `must be one whole number of minutes, got ${show(q.minutes)}`);
  }
  const [minutes] = checkMinutes(q.minutes ?? NEARBY_MINUTES, mode, 1);
  return { type: c.type, lat: c.lat, lon: c.lon, limit: c.limit, sortBy: c.sortBy, isOpen: c.isOpen, at: c.at, mode, minutes };
}

/**
 * Whether a nearby query asks `by: 'time'` (else by distance, the default); throws
 * `InvalidQueryError` naming `by`, or `mode` or `minutes` given without `by: 'time'`.
 */
export function byTime(q: NearbyQuery): boolean {
  if (q === null || typeof q !== 'object') return false;
  if (q.by === 'time') return true;
  if (q.by !== undefined && q.by !== 'distance') throw new InvalidQueryError('by', `must be "distance" or "time", got ${show(q.by)}`);
  if (q.mode !== undefined) throw new InvalidQueryError('mode', 'applies only with by: "time"');
  if (q.minutes !== undefined) throw new InvalidQueryError('minutes', 'applies only with by: "time"');
  return false;
}
