import type { PlaceIndex } from '../index/place-index.js';
import type { NearbyPlace, NearbyQuery } from '../types.js';
import { around } from '../index/around.js';
import { checkQuery } from './validate.js';
import { placeId, placeTags, placeGeometry } from './record.js';
import { score } from '../place/score.js';

/**
 * Most places one `nearby` query examines beyond its `limit`, in its order (best
 * score, or nearest, first): what bounds an `isOpen` query when few places are open
 * (at night, the walk would otherwise go through every place of the type within the
 * radius). 100 times the API's largest limit.
 */
export const MAX_SCANNED = 10_000;

/**
 * Places of a type around a point, as the API's `NearbyPlace` records.
 *
 * Without `sortBy`, the `limit` best-scoring places within `radius` km; with
 * `sortBy: true`, the `limit` nearest. Ties break by placeId. With `isOpen: true`
 * only places open at `at` (default now, in Nepal Time) count, before the limit;
 * of the places in range only the first `limit + MAX_SCANNED` in that order are
 * examined, so fewer than `limit` may come back when few are open. An unknown type gives `[]`;
 * bad arguments throw `InvalidQueryError`.
 *
 * @example
 * nearby(index, { type: 'eat', lat: 27.7172, lon: 85.324, radius: 1, limit: 3 });
 */
export function nearby(index: PlaceIndex, query: NearbyQuery): NearbyPlace[] {
  const q = checkQuery(query);
  const tt = index.types.get(q.type);
  if (!tt) return [];
  const t = index.table;
  const hours = t.hours;
  const sched = t.schedules;
  const open = (p: number) => sched.isOpen(hours[p], q.at);

  // Points come in order (nearest, or best score, first); after the limit, the walk
  // goes on through the points tied with the last one, so the placeId tie-break
  // sees them all.
  const found: { item: number; km: number; score: number }[] = [];
  let last = NaN;
  let scanned = 0;
  const byScore = !q.sortBy;
  around(tt.tree, q.lon, q.lat, q.radius, (i, km, s) => {
    if (++scanned > q.limit + MAX_SCANNED) return true;
    const key = byScore ? -s : km;
    if (key > last) return true;
    const p = tt.place[i];
    if (q.isOpen && !open(p)) return false;
    found.push({ item: i, km, score: byScore ? s : score(t.prominence[p], km) });
    if (found.length === q.limit) last = key;
    return false;
  }, byScore ? tt.prom : undefined, byScore ? tt.nodeMax : undefined);
  const id = (a: { item: number }) => placeId(t, tt.place[a.item]);
  found.sort(byScore ? (a, b) => b.score - a.score || id(a) - id(b) : (a, b) => a.km - b.km || id(a) - id(b));
  found.length = Math.min(found.length, q.limit);

  return found.map(({ item, km, score }) => {
    const p = tt.place[item];
    return {
      placeId: placeId(t, p),
      osmId: t.osmId[p],
      license: index.license,
      name: t.strings[t.name[p]],
      address: t.strings[t.address[p]],
      type: t.strings[tt.matched[item]],
      centroid: { lat: t.lat[p] / 1e7, lon: t.lon[p] / 1e7 },
      tags: placeTags(t, p),
      geometry: placeGeometry(t, p),
      score,
      radialDistanceInKm: km,
      open: open(p),
    };
  });
}
