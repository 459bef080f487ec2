import type { PlaceIndex } from '../index/place-index.js';
import type { NearbyPlace, NearbyQuery } from '../types.js';
import { around } from '../index/around.js';
import { checkQuery } from './validate.js';
import { checkNotSwapped } from './swapped.js';
import { isKnownType, unknownTypeError } from './types.js';
import { placeId, placeTags, placeGeometry } from './record.js';
import { score } from '../place/score.js';
import { byTime, nearbyTimeHits } from './nearby-time.js';
import type { Lang } from '../osm/name.js';
import { addressIn, checkLang, nameFields } from './lang.js';

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
 * examined, so fewer than `limit` may come back when few are open. A type the data does not
 * hold (and no merged type) throws `InvalidQueryError` suggesting the nearest known types
 * (`types()` lists them); so does a point outside the data whose swapped reading lies in it;
 * other bad arguments throw `InvalidQueryError` too.
 *
 * With `by: 'time'`, the places reachable within `minutes` by `mode` instead, ranked by travel
 * time or by score with travel time in place of distance, each with `travelTimeInMs` and
 * `travelDistanceInMeters`; `isOpen` asks for the places open when one arrives (see
 * `nearbyTimeHits`, docs/travel-time.md). A point farther than 1 km from any road of the mode
 * then throws `RouteError` (`too-far`).
 *
 * @example
 * nearby(index, { type: 'eat', lat: 27.7172, lon: 85.324, radius: 1, limit: 3 });
 * nearby(index, { type: 'pharmacy', lat: 27.7172, lon: 85.324, by: 'time', mode: 'car', minutes: 15, isOpen: true });
 */
export function nearby(index: PlaceIndex, query: NearbyQuery): NearbyPlace[] {
  return nearbyHits(index, query).map((hit) => nearbyRecord(index, hit));
}

/**
 * One place `nearby()` found, before it is made a record: its row, the type that matched and
 * the query-dependent fields. For writers that make the record's other fields once per place
 * (the HTTP adapter's JSON).
 */
export interface NearbyHit {
  /** The place's row in `index.table`. */
  row: number;
  /** The type that matched the query (`NearbyPlace.type`). */
  type: string;
  score: number;
  radialDistanceInKm: number;
  open: boolean;
  /** The query's language, if it gave one. */
  lang?: Lang;
  /** With `by: 'time'`: the trip to the place (and `open` is at the instant one arrives). */
  travelTimeInMs?: number;
  travelDistanceInMeters?: number;
}

/**
 * The places `nearby()` answers, in its order, as hits (same arguments, same errors).
 */
export function nearbyHits(index: PlaceIndex, query: NearbyQuery): NearbyHit[] {
  if (byTime(query)) {
    const hits: NearbyHit[] = nearbyTimeHits(index, query);
    const lang = checkLang(query.lang);
    if (lang) for (const h of hits) h.lang = lang;
    return hits;
  }
  const q = checkQuery(query);
  const tt = index.types.get(q.type);
  if (!tt && !isKnownType(index, q.type)) throw unknownTypeError(index, q.type);
  checkNotSwapped(index, q.lat, q.lon, { marginKm: q.radius });
  if (!tt) return []; // a merged type none of whose members the data holds
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
  around(
    tt.tree,
    q.lon,
    q.lat,
    q.radius,
    (i, km, s) => {
      if (++scanned > q.limit + MAX_SCANNED) return true;
      const key = byScore ? -s : km;
      if (key > last) return true;
      const p = tt.place[i];
      if (q.isOpen && !open(p)) return false;
      found.push({ item: i, km, score: byScore ? s : score(t.prominence[p], km) });
      if (found.length === q.limit) last = key;
      return false;
    },
    { prom: byScore ? tt.prom : undefined, nodeMax: byScore ? tt.nodeMax : undefined, walks: index.walks },
  );
  const id = (a: { item: number }) => placeId(t, tt.place[a.item]);
  order(found, byScore ? (a, b) => b.score - a.score || id(a) - id(b) : (a, b) => a.km - b.km || id(a) - id(b));
  found.length = Math.min(found.length, q.limit);

  return found.map(({ item, km, score }) => {
    const p = tt.place[item];
    const hit: NearbyHit = { row: p, type: t.strings[tt.matched[item]], score, radialDistanceInKm: km, open: open(p) };
    if (q.lang) hit.lang = q.lang;
    return hit;
  });
}

/** The fields of a nearby record that depend only on the place, the type that matched and the language, in the record's order. */
export function placeFields(
  index: PlaceIndex,
  row: number,
  type: string,
  lang?: Lang,
): Omit<NearbyPlace, 'score' | 'radialDistanceInKm' | 'open'> {
  const t = index.table;
  return {
    placeId: placeId(t, row),
    osmId: t.osmId[row],
    license: index.license,
    ...nameFields(t, row, lang),
    address: addressIn(t, row, lang),
    type,
    centroid: { lat: t.lat[row] / 1e7, lon: t.lon[row] / 1e7 },
    tags: placeTags(t, row),
    geometry: placeGeometry(t, row),
  };
}

/** The `NearbyPlace` record of a hit. */
export function nearbyRecord(index: PlaceIndex, hit: NearbyHit): NearbyPlace {
  const record = placeFields(index, hit.row, hit.type, hit.lang) as NearbyPlace;
  record.score = hit.score;
  record.radialDistanceInKm = hit.radialDistanceInKm;
  record.open = hit.open;
  if (hit.travelTimeInMs !== undefined) {
    record.travelTimeInMs = hit.travelTimeInMs;
    record.travelDistanceInMeters = hit.travelDistanceInMeters;
  }
  return record;
}

/**
 * Sorts `a` in place by `cmp`. A search finds a handful of hits (its limit and the ties of the
 * last): those are sorted by insertion, as `Array.prototype.sort` first copies the array into
 * a work area of its own.
 */
function order<T>(a: T[], cmp: (x: T, y: T) => number): void {
  if (a.length > 16) {
    a.sort(cmp);
    return;
  }
  for (let i = 1; i < a.length; i++) {
    const x = a[i]!;
    let j = i - 1;
    for (; j >= 0 && cmp(a[j]!, x) > 0; j--) a[j + 1] = a[j]!;
    a[j + 1] = x;
  }
}
