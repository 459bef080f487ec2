/**
 * The answer of a nearby query computed from raw data alone: the places whose type matches,
 * their centroid (our formulas), distance (@turf/distance), score and opening state.
 */
import distance from '@turf/distance';
import type { ExpectedPlace } from './places.js';
import { centroidOf, type LatLon } from './centroid.js';
import { membersOf } from './merged.js';
import { scoreAt } from './score.js';
import { openAt } from './hours.js';
import { tag } from './raw.js';

/** One expected record, with what ordering and filtering need. */
export interface Candidate {
  place: ExpectedPlace;
  type: string;
  centroid: LatLon;
  km: number;
  score: number;
}

const centroids = new WeakMap<ExpectedPlace, LatLon>();

/** Our centroid of a place, memoised. */
export function centroidOfPlace(place: ExpectedPlace): LatLon {
  let c = centroids.get(place);
  if (!c) {
    c = centroidOf(place.geometry);
    centroids.set(place, c);
  }
  return c;
}

/** The first own type of the place that the query type stands for, or undefined. */
export function matchedType(place: ExpectedPlace, type: string): string | undefined {
  const members = membersOf(type);
  return place.types.find((t) => members.includes(t));
}

/** Great-circle km from a query point to a centroid. */
export function km(lat: number, lon: number, c: LatLon): number {
  return distance([lon, lat], [c.lon, c.lat]);
}

/** Every matching place within the radius, unsorted and unlimited. */
export function candidates(
  places: ExpectedPlace[],
  q: { type: string; lat: number; lon: number; radius: number; isOpen?: boolean; at?: Date },
): Candidate[] {
  const out: Candidate[] = [];
  for (const place of places) {
    const type = matchedType(place, q.type);
    if (type === undefined) continue;
    const centroid = centroidOfPlace(place);
    const d = km(q.lat, q.lon, centroid);
    if (d > q.radius) continue;
    if (q.isOpen && !openAt(tag(place.rawTags, 'opening_hours'), q.at!)) continue;
    out.push({ place, type, centroid, km: d, score: scoreAt(place, d) });
  }
  return out;
}

/** Places closer to the radius than this are left out of set comparisons: our centroid may differ by 1e-6°. */
export const EDGE_KM = 1e-3;
