/**
 * The contract's score from raw tags: prominence (name, wikidata/wikipedia, website, phone,
 * opening_hours, area by @turf/area) divided by (1 + distance in km).
 */
import area from '@turf/area';
import type { ExpectedPlace } from './places.js';
import { tag } from './raw.js';

/** Spherical area in m² (@turf/area 7: R = 6371008.8 m, as the distances) of a (Multi)Polygon place, 0 otherwise. */
export function areaM2(place: ExpectedPlace): number {
  const g = place.geometry;
  if (g.type !== 'Polygon' && g.type !== 'MultiPolygon') return 0;
  return area({ type: 'Feature', properties: {}, geometry: g });
}

/** Prominence of a place, before the distance decay. */
export function prominence(place: ExpectedPlace): number {
  const has = (...keys: string[]) => keys.some((k) => tag(place.rawTags, k) !== undefined);
  let p = 1;
  if (place.name !== '') p += 1;
  if (has('wikidata', 'wikipedia')) p += 1;
  if (has('website', 'contact:website', 'url')) p += 0.5;
  if (has('phone', 'contact:phone')) p += 0.5;
  if (has('opening_hours')) p += 0.5;
  p += Math.min(2, Math.log10(1 + areaM2(place) / 100) / 2);
  return p;
}

/** The score of a place at a distance. */
export function scoreAt(place: ExpectedPlace, km: number): number {
  return prominence(place) / (1 + km);
}
