import { InvalidQueryError, RouteError, type QueryParam } from '../errors.js';
import type { PlaceIndex } from '../index/place-index.js';
import { MODES, type Mode } from '../osm/profile.js';
import type { Router } from '../route/router.js';
import type { Snap } from '../route/snap.js';
import { alongEdge, snapFor, sourceSeeds, targetSeeds, type Seed } from '../route/seeds.js';
import { tableFor } from '../route/matrix.js';
import { reachFor } from '../route/reach.js';
import { SNAP_KM } from './route.js';
import { show } from './validate.js';
import { checkNotSwapped } from './swapped.js';
import { checkRouting } from './pack.js';

/** Most sources, and most destinations, one `matrix()` call may take (a million cells: about a second). */
export const MATRIX_MAX = 1000;
/** Most sources, and most destinations, one HTTP request may ask for: what keeps the slowest request short. */
export const MATRIX_HTTP_MAX = 100;

/** The arguments of `matrix()`. */
export interface MatrixQuery {
  /** Where the trips start: `[lat, lon]` pairs or `"lat,lon"` strings, as `route()` takes points. */
  sources: readonly (readonly [number, number] | string)[];
  /** Where they end, likewise. */
  destinations: readonly (readonly [number, number] | string)[];
  /** `'foot'` (default), `'bike'` or `'car'`, as for `route()`. */
  mode?: Mode;
}

/** Where a point of a matrix snapped to. */
export interface MatrixPoint {
  /** The snapped point, degrees. */
  lat: number;
  lon: number;
  /** How far the given point lies from it, metres. */
  snapDistanceInMeters: number;
}

/** The answer of `matrix()`. */
export interface Matrix {
  /** `durations[i][j]`: travel time from source i to destination j, ms, as `route()`'s `timeInMs`; null where no road of the mode joins them. */
  durations: (number | null)[][];
  /** `distances[i][j]`: the length of that trip along the roads, metres; null likewise. */
  distances: (number | null)[][];
  /** Where each source, and each destination, snapped. */
  sources: MatrixPoint[];
  destinations: MatrixPoint[];
}

/**
 * `matrix()`'s answer as two row-major grids (`[i * cols + j]`) instead of rows of arrays: what
 * the HTTP answer writes straight into JSON, without making 2 × rows arrays of boxed numbers.
 */
export interface MatrixGrid {
  /** Sources, and destinations. */
  rows: number;
  cols: number;
  /** Travel time from source i to destination j, ms; NaN where no road of the mode joins them. */
  durations: Float64Array;
  /** The length of that trip along the roads, metres to 0.1 m; NaN likewise. */
  distances: Float64Array;
  /** Where each source, and each destination, snapped. */
  sources: MatrixPoint[];
  destinations: MatrixPoint[];
}

/**
 * Travel times and distances from every source to every destination by `mode`: the trips
 * `route()` finds between the same points, without their shapes. Points snap as `route()`'s do.
 * Runs one upward search per point on the mode's contraction hierarchy (the bucket method); an
 * index without hierarchies runs one bounded search per source over the plain graph.
 *
 * Throws `InvalidQueryError` naming `sources`, `destinations` or `mode`, and `RouteError`
 * (`too-far`) naming the list and index of a point farther than 1 km from any road of the mode
 * (its `point` is that index), or (`too-long`) where an index without hierarchies would have to
 * search too far. `options.max` lowers the most points per list (an HTTP server's
 * `MATRIX_HTTP_MAX`).
 *
 * @example
 * matrix(index, { sources: [[27.7172, 85.324]], destinations: [[27.6939, 85.2817], '27.70,85.31'], mode: 'car' });
 */
export function matrix(index: PlaceIndex, query: MatrixQuery, options: { max?: number } = {}): Matrix {
  const { rows, cols, durations: time, distances: metres, sources, destinations } = matrixGrid(index, query, options);
  const durations: (number | null)[][] = [],
    distances: (number | null)[][] = [];
  for (let i = 0; i < rows; i++) {
    const dRow: (number | null)[] = [],
      mRow: (number | null)[] = [];
    for (let c = i * cols, end = c + cols; c < end; c++) {
      dRow.push(Number.isNaN(time[c]) ? null : time[c]);
      mRow.push(Number.isNaN(metres[c]) ? null : metres[c]);
    }
    durations.push(dRow);
    distances.push(mRow);
  }
  return { durations, distances, sources, destinations };
}

/** `matrix()` as two row-major grids (`MatrixGrid`): the same query, checks, errors and numbers. */
export function matrixGrid(index: PlaceIndex, query: MatrixQuery, options: { max?: number } = {}): MatrixGrid {
  const q = checkMatrix(query, index, Math.min(options.max ?? MATRIX_MAX, MATRIX_MAX));
  checkRouting(index, q.mode);
  const router = index.router;
  const m = MODES.indexOf(q.mode);
  const snapAll = (list: [number, number][], name: 'sources' | 'destinations') =>
    list.map((p, i) => {
      const s = router && router.graph.edgeFrom.length ? snapFor(router, m, p[0], p[1], SNAP_KM) : undefined;
      if (!s) {
        throw new RouteError(
          'too-far',
          i,
          q.mode,
          `${name}[${i}] (${p[0]},${p[1]}) is farther than ${SNAP_KM} km from any road usable by ${q.mode}${router?.graph.edgeFrom.length ? '' : ': the data has no roads'}`,
        );
      }
      return s;
    });
  const from = snapAll(q.sources, 'sources'),
    to = snapAll(q.destinations, 'destinations');
  const cells = table(router!, m, from, to, q.mode);
  const g = router!.graph;
  const ns = from.length,
    nt = to.length;
  const durations = new Float64Array(ns * nt),
    distances = new Float64Array(ns * nt);
  for (let i = 0; i < ns; i++) {
    const s = from[i],
      a = g.edgeFrom[s.edge],
      b = g.edgeTo[s.edge];
    for (let j = 0; j < nt; j++) {
      const c = i * nt + j;
      let w = cells.weight[c],
        time = cells.time[c],
        metres = cells.metres[c];
      // along the one edge both lie on, when no dearer than the search's path (as route() takes
      // it); only two points on one edge, or on two edges with a common end, may have such a trip
      const t = to[j],
        f = t.edge;
      if (f === s.edge || g.edgeFrom[f] === a || g.edgeFrom[f] === b || g.edgeTo[f] === a || g.edgeTo[f] === b) {
        const direct = alongEdge(router!, m, s, t);
        if (direct && direct.time <= w) {
          w = direct.time;
          time = direct.time;
          metres = direct.metres;
        }
      }
      durations[c] = w === Infinity ? NaN : time;
      distances[c] = w === Infinity ? NaN : Math.round(metres * 10) / 10;
    }
  }
  const where = (snaps: Snap[]): MatrixPoint[] =>
    snaps.map((s) => ({
      lat: Math.round(s.lat * 1e6) / 1e6,
      lon: Math.round(s.lon * 1e6) / 1e6,
      snapDistanceInMeters: Math.round(s.km * 10000) / 10,
    }));
  return { rows: ns, cols: nt, durations, distances, sources: where(from), destinations: where(to) };
}

/** Least weight, and the time and metres of that trip, per cell (row-major), Infinity where none. */
function table(
  router: Router,
  m: number,
  from: Snap[],
  to: Snap[],
  mode: string,
): { weight: Float64Array; time: Float64Array; metres: Float64Array } {
  const sources = from.map((s) => sourceSeeds(router, m, s)),
    targets = to.map((t) => targetSeeds(router, m, t));
  const t = tableFor(router, m);
  if (t) return t.many(sources, targets);
  return plainTable(router, m, sources, targets, mode);
}

// Without a hierarchy: one search per source over the plain graph until every target's nodes are
// settled, each bounded as route()'s searches are without one.
function plainTable(
  router: Router,
  m: number,
  sources: Seed[][],
  targets: Seed[][],
  mode: string,
): { weight: Float64Array; time: Float64Array; metres: Float64Array } {
  const ns = sources.length,
    nt = targets.length;
  const weight = new Float64Array(ns * nt).fill(Infinity),
    time = new Float64Array(ns * nt),
    metres = new Float64Array(ns * nt);
  const goals = [...new Set(targets.flatMap((list) => list.map((s) => s.node)))];
  const reach = reachFor(router, m);
  for (let i = 0; i < ns; i++) {
    reach.run(sources[i], { goals, maxSettled: router.plainLimit }, (ctx) => {
      if (!ctx.finished) {
        throw new RouteError(
          'too-long',
          i,
          mode,
          `the trips from sources[${i}] (${mode}) need a longer search than this index does without contraction hierarchies: load a snapshot (nepal-places build) or contract the index (loadPbf({ contract: 'always' }))`,
        );
      }
      for (let j = 0; j < nt; j++) {
        const c = i * nt + j;
        for (const s of targets[j]) {
          if (ctx.state[s.node] !== 2) continue;
          const w = ctx.dist[s.node] + s.weight;
          if (w < weight[c]) {
            weight[c] = w;
            time[c] = ctx.t[s.node] + s.time;
            metres[c] = ctx.m[s.node] + s.metres;
          }
        }
      }
    });
  }
  return { weight, time, metres };
}

interface Checked {
  sources: [number, number][];
  destinations: [number, number][];
  mode: Mode;
}

/** Checks a matrix query, throwing `InvalidQueryError` naming the first bad argument (with `max`, the most points per list). */
export function checkMatrix(q: MatrixQuery, index?: PlaceIndex, max = MATRIX_MAX): Checked {
  if (q === null || typeof q !== 'object') throw new InvalidQueryError('query', 'must be an object');
  const list = (name: 'sources' | 'destinations', v: unknown): [number, number][] => {
    if (!Array.isArray(v)) throw new InvalidQueryError(name, `must be a list of [lat, lon] pairs or "lat,lon" strings, got ${show(v)}`);
    if (v.length < 1 || v.length > max) throw new InvalidQueryError(name, `must hold 1 to ${max} points, got ${v.length}`);
    const points = v.map((p, i) => parsePoint(p, name, i));
    if (index)
      points.forEach(([lat, lon], i) => checkNotSwapped(index, lat, lon, { param: name, marginKm: SNAP_KM, what: `${name}[${i}]` }));
    return points;
  };
  const sources = list('sources', q.sources);
  const destinations = list('destinations', q.destinations);
  const mode = q.mode ?? 'foot';
  if (!MODES.includes(mode)) throw new InvalidQueryError('mode', `must be one of ${MODES.join(', ')}, got ${show(mode)}`);
  return { sources, destinations, mode };
}

/** A point as [lat, lon], from a `[lat, lon]` pair or a `"lat,lon"` string; `name[i]` in the error. */
export function parsePoint(p: unknown, name: QueryParam, i: number): [number, number] {
  let lat: unknown, lon: unknown;
  if (typeof p === 'string') {
    const parts = p.split(',');
    if (parts.length === 2 && parts.every((s) => /^\s*[-+]?(\d+\.?\d*|\.\d+)\s*$/.test(s))) [lat, lon] = parts.map(Number);
  } else if (Array.isArray(p) && p.length === 2) [lat, lon] = p;
  const ok = (v: unknown, max: number) => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= max;
  if (!ok(lat, 90) || !ok(lon, 180)) {
    throw new InvalidQueryError(
      name,
      `${name}[${i}] must be [lat, lon] or "lat,lon" with lat in -90..90 and lon in -180..180, got ${show(Array.isArray(p) ? JSON.stringify(p) : p)}`,
    );
  }
  return [lat as number, lon as number];
}
