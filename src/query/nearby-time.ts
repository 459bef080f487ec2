import { InvalidQueryError, RouteError } from '../errors.js';
import type { PlaceIndex } from '../index/place-index.js';
import type { NearbyQuery } from '../types.js';
import { MODES, type Mode } from '../osm/profile.js';
import { aToKm, haversineA } from '../geom/haversine.js';
import { KM_PER_DEGREE } from '../geom/local.js';
import type { Router } from '../route/router.js';
import type { Snap } from '../route/snap.js';
import { NO_NODE, copiesOf, timeOf, type ModeGraph } from '../route/modes.js';
import { alongEdge, junctionAt, snapFor, sourceSeeds, targetSeeds } from '../route/seeds.js';
import { reachFor, type Reach, type ReachContext } from '../route/reach.js';
import type { Attachments } from '../route/attach.js';
import { checkQuery, show } from './validate.js';
import { checkNotSwapped } from './swapped.js';
import { isKnownType, unknownTypeError } from './types.js';
import { placeId } from './record.js';
import { ATTACH_KM, attachedPlaces, checkMinutes } from './isochrone.js';
import { SNAP_KM } from './route.js';
import { checkRouting } from './pack.js';

/** Default `minutes` of nearby by travel time. */
export const NEARBY_MINUTES = 15;
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
 * The hits of `nearby()` with `by: 'time'`: the places of the type reachable within `minutes` by
 * `mode`, ranked by travel time (`sortBy`) or by score with travel time in place of distance
 * (`prominence / (1 + minutes / 5)`); with `isOpen`, those open when one arrives (at `at` plus
 * the travel time). One search from the query point reaches every place (see `Reach`); each
 * place's trip is then read from the search at the ends of the road it is attached to.
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
  const places = attachedPlaces(index)!;
  const reach = reachFor(router!, m);
  const cosLat = Math.cos(q.lat * (Math.PI / 180)); // as `around` measures radialDistanceInKm
  const found: { item: number; km: number; score: number; ms: number; metres: number }[] = [];
  reach.run(sourceSeeds(router!, m, origin), { maxTime: T }, (ctx) => {
    const trips = new Trips(router!, m, ctx, places, origin);
    // the places of the type that can stand on a road reached in time (see `reachedBox`)
    const [x0, y0, x1, y1] = reachedBox(router!, m, reach, ctx, origin);
    for (const i of tt.tree.range(x0, y0, x1, y1)) {
      const p = tt.place[i];
      if (!trips.to(p) || trips.time > T) continue;
      const ms = trips.time;
      if (q.isOpen && !t.schedules.isOpen(t.hours[p], q.at + ms)) continue;
      const km = aToKm(haversineA(q.lon, q.lat, cosLat, t.lon[p], t.lat[p]));
      found.push({ item: i, km, score: tt.prom[i] / (1 + ms / 60_000 / HALF_MINUTES), ms, metres: trips.metres });
    }
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

/**
 * A box (1e-7 degrees: minLon, minLat, maxLon, maxLat) holding every place a search may have
 * reached: a place stands within `ATTACH_KM` of its road, and its road leaves the junction of a
 * node settled in time (it is reached part way, at most its length from there) or is the
 * point's own.
 */
function reachedBox(router: Router, m: number, reach: Reach, ctx: ReachContext, origin: Snap): [number, number, number, number] {
  const g = router.graph,
    key = router.modes[m].key;
  const { start, metres } = reach;
  const n = ctx.settledCount,
    margin = ATTACH_KM + 0.01,
    perDegree = KM_PER_DEGREE;
  // per node reached (the point first), its junction and how far (degrees of latitude) a place reached from it may stand
  const lon = new Float64Array(n + 1),
    lat = new Float64Array(n + 1),
    r = new Float64Array(n + 1);
  lon[n] = origin.lon;
  lat[n] = origin.lat;
  r[n] = (g.edgeMeters[origin.edge] / 1000 + margin) / perDegree;
  for (let i = 0; i < n; i++) {
    const v = ctx.settled[i];
    const k = key[v],
      j = k & 1 ? g.edgeFrom[k >> 1] : g.edgeTo[k >> 1]; // the junction it stands at (headOf)
    let longest = 0;
    for (let a = start[v]; a < start[v + 1]; a++) if (metres[a] > longest) longest = metres[a];
    lon[i] = g.nodeLon[j] / 1e7;
    lat[i] = g.nodeLat[j] / 1e7;
    r[i] = (longest / 1000 + margin) / perDegree;
  }
  let minY = Infinity,
    maxY = -Infinity;
  for (let i = 0; i <= n; i++) {
    if (lat[i] - r[i] < minY) minY = lat[i] - r[i];
    if (lat[i] + r[i] > maxY) maxY = lat[i] + r[i];
  }
  // a degree of longitude is shortest at the box's latitude farthest from the equator
  const wide = 1 / Math.max(1e-9, Math.cos((Math.min(89.9, Math.max(Math.abs(minY), Math.abs(maxY))) * Math.PI) / 180));
  let minX = Infinity,
    maxX = -Infinity;
  for (let i = 0; i <= n; i++) {
    if (lon[i] - r[i] * wide < minX) minX = lon[i] - r[i] * wide;
    if (lon[i] + r[i] * wide > maxX) maxX = lon[i] + r[i] * wide;
  }
  return [Math.floor(minX * 1e7), Math.floor(minY * 1e7), Math.ceil(maxX * 1e7), Math.ceil(maxY * 1e7)];
}

/**
 * The trips a search found to places, read where each place's road starts: after the search,
 * the label of a road's search node (the road driven to its end) is the cheapest over every arc
 * turning onto it from a node settled in time, so less the road's time and length and plus the
 * part up to the place, it is the cheapest trip to the place over that turn (as `targetSeeds`
 * and `route()` weigh it: an arc's weight is the turn, the road whole and any penalty for
 * entering it). At a junction, the trip is the cheapest node reaching it. A place on a road the
 * search starts on (whose nodes are seeds, labelled from the point rather than by a turn) is
 * measured as `route()` takes it, from its `targetSeeds` and along the road. Scratch of one
 * query; `to` leaves its answer in `time` and `metres`.
 */
class Trips {
  time = 0;
  metres = 0;
  private w = Infinity;
  private readonly js: number;
  constructor(
    private readonly router: Router,
    private readonly m: number,
    private readonly ctx: ReachContext,
    private readonly places: Attachments,
    private readonly origin: Snap,
  ) {
    this.js = junctionAt(router, origin);
  }

  /** Whether place row `p` was reached; if so its trip is in `time` and `metres`. */
  to(p: number): boolean {
    const { router, m, ctx } = this,
      g = router.graph,
      mg = router.modes[m];
    const f = this.places.edge[m][p];
    if (f < 0) return false;
    const js = this.js;
    if (f === this.origin.edge || (js >= 0 && (g.edgeFrom[f] === js || g.edgeTo[f] === js))) return this.near(p);
    this.w = Infinity;
    const jt = this.places.junction[m][p];
    if (jt >= 0) {
      const { start, at } = router.incidence;
      for (let i = start[jt]; i < start[jt + 1]; i++) {
        const e = at[i];
        if (i > start[jt] && at[i - 1] === e) continue; // a loop edge is listed twice
        if (g.edgeTo[e] === jt) this.ending(mg, 2 * e, 0, 0);
        if (g.edgeFrom[e] === jt) this.ending(mg, 2 * e + 1, 0, 0);
      }
      return this.w !== Infinity;
    }
    const off = this.places.offset[m][p],
      len = g.edgeMeters[f];
    for (let dir = 0; dir < 2; dir++) {
      const k = 2 * f + dir;
      const u = mg.node[k];
      if (u === NO_NODE || (ctx.state[u] === 0 && mg.base === mg.key.length)) continue; // not reached, and no copies
      const back = dir === 1,
        metres = back ? len - off : off;
      const less = timeOf(g, m, f, len, back) - timeOf(g, m, f, metres, back);
      this.ending(mg, k, less, len - metres);
    }
    return this.w !== Infinity;
  }

  // The search nodes of directed edge k (its own and its copies), where labelled: each label
  // less `less` ms and `short` metres (the part of the edge not driven).
  private ending(mg: ModeGraph, k: number, less: number, short: number): void {
    const u = mg.node[k];
    if (u === NO_NODE) return;
    this.label(u, less, short);
    if (mg.base < mg.key.length) {
      const [lo, hi] = copiesOf(mg, k);
      for (let c = lo; c < hi; c++) this.label(c, less, short);
    }
  }

  private label(u: number, less: number, short: number): void {
    const { dist, t, m, state } = this.ctx;
    if (state[u] === 0) return;
    const c = dist[u] - less,
      time = t[u] - less,
      mm = m[u] - short;
    if (c < this.w || (c === this.w && (time < this.time || (time === this.time && mm < this.metres)))) {
      this.w = c;
      this.time = time;
      this.metres = mm;
    }
  }

  // A place on a road the search starts on, as the search used to measure every place.
  private near(p: number): boolean {
    const { router, m, ctx } = this;
    const s = this.places.snap(router, m, p, this.origin.lon, this.origin.lat)!;
    let w = Infinity;
    for (const x of targetSeeds(router, m, s)) {
      if (ctx.state[x.node] !== 2) continue;
      const c = ctx.dist[x.node] + x.weight;
      if (c < w) {
        w = c;
        this.time = ctx.t[x.node] + x.time;
        this.metres = ctx.m[x.node] + x.metres;
      }
    }
    const direct = alongEdge(router, m, this.origin, s);
    if (direct && direct.time <= w) {
      this.time = direct.time;
      this.metres = direct.metres;
      return true;
    }
    return w !== Infinity;
  }
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
