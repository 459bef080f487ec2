import type { PlaceIndex } from '../index/place-index.js';
import type { ReversePlace, ReverseQuery } from '../types.js';
import { InvalidQueryError } from '../errors.js';
import { around } from '../index/around.js';
import { placeId } from './record.js';
import { placeRecord, instant } from './place.js';
import { coord, positiveInt, show } from './validate.js';
import { kmTo } from '../geom/haversine.js';
import { REVERSE_LIMIT, REVERSE_RADIUS } from './limits.js';
import { checkNotSwapped } from './swapped.js';
import type { Lang } from '../osm/name.js';
import { checkLang } from './lang.js';

export { REVERSE_RADIUS } from './limits.js';

/**
 * What is at a point ("where am I"): the landmarks nearest to it within `radius` km
 * (default 0.5, fractions welcome), best first, at most `limit` (default 1).
 *
 * Landmarks are named places and localities and addressed buildings. One whose area
 * contains the point ranks as if at distance 0; the others by the distance to their
 * centroid. Ties: a point before an area, a smaller area before a larger one (the
 * shop node one stands on, else the building one stands in, before the park around
 * it), then placeId. Only when no landmark is within reach does the nearest named
 * street within `radius` (by distance to its line) answer. `[]` when nothing is near.
 *
 * `radialDistanceInKm` is, as everywhere, the distance to the centroid: for an area
 * one stands in, or a long street, it can exceed `radius`.
 *
 * @example
 * reverse(index, { lat: 27.7154, lon: 85.3123 })[0]?.name;
 */
export function reverse(index: PlaceIndex, query: ReverseQuery): ReversePlace[] {
  const q = checkReverse(query);
  checkNotSwapped(index, q.lat, q.lon, { marginKm: q.radius });
  const t = index.table;
  const { lon, lat, limit } = q;

  // row -> [reach km, area m² (0 unless containing), centroid km]
  const found = new Map<number, [number, number, number]>();
  index.landmarks.containing(lon, lat, (r, m2) => found.set(r, [0, m2, kmTo(lon, lat, t.lon[r], t.lat[r])]));
  // Centroids come nearest first; after the limit, the walk goes on through those at
  // the same distance as the last, so the tie-breaks see them all: at 0 too, where a
  // node exactly at the point ties with the areas around it (and wins).
  const lm = index.landmarks;
  let taken = found.size;
  let last = 0;
  around(
    lm.tree,
    lon,
    lat,
    q.radius,
    (i, km) => {
      if (taken >= limit && km > last) return true;
      const r = lm.rows[i];
      if (!found.has(r)) {
        found.set(r, [km, 0, km]);
        taken++;
        last = km;
      }
      return false;
    },
    { walks: index.walks },
  );

  const ranked = [...found].map(([row, [reach, m2, km]]) => ({ row, reach, m2, km, id: placeId(t, row) }));
  if (!ranked.length) {
    const street = index.streets.nearest(lon, lat, q.radius);
    if (street)
      ranked.push({
        row: street.row,
        reach: street.km,
        m2: 0,
        km: kmTo(lon, lat, t.lon[street.row], t.lat[street.row]),
        id: placeId(t, street.row),
      });
  }
  ranked.sort((a, b) => a.reach - b.reach || a.m2 - b.m2 || a.id - b.id);
  ranked.length = Math.min(ranked.length, limit);
  return ranked.map(({ row, km }) => ({ ...placeRecord(index, row, q.at, q.lang), radialDistanceInKm: km }));
}

/** A checked reverse query with its defaults filled in. */
interface CheckedReverse {
  lat: number;
  lon: number;
  radius: number;
  limit: number;
  at: number;
  lang: Lang | undefined;
}

/** Checks a reverse query, throwing `InvalidQueryError` naming the first bad argument. */
export function checkReverse(q: ReverseQuery): CheckedReverse {
  if (q === null || typeof q !== 'object') throw new InvalidQueryError('query', 'must be an object');
  coord('lat', q.lat, 90);
  coord('lon', q.lon, 180);
  let radius = REVERSE_RADIUS;
  if (q.radius !== undefined) {
    if (typeof q.radius !== 'number' || !Number.isFinite(q.radius) || q.radius <= 0) {
      throw new InvalidQueryError('radius', `must be a positive number of km, got ${show(q.radius)}`);
    }
    radius = q.radius;
  }
  const limit = positiveInt('limit', q.limit, REVERSE_LIMIT);
  return { lat: q.lat, lon: q.lon, radius, limit, at: instant(q.at), lang: checkLang(q.lang) };
}
