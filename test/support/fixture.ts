/**
 * The engine's index of each fixture and the matching raw expectations, loaded once per test
 * file (vitest isolates files, so each worker loads its own copy).
 */
import { loadPbf, nearby } from '../../src/index.js';
import type { NearbyPlace, PlaceIndex } from '../../src/index.js';
import { CORE, readRaw } from './raw.js';
import { expectedPlaces, type ExpectedPlace, type ExpectedPlaces } from './places.js';
import { centroidOfPlace } from './answer.js';

const indexes = new Map<string, Promise<PlaceIndex>>();

/** The engine's index of a fixture, loaded once. */
export function engine(file: string = CORE): Promise<PlaceIndex> {
  let p = indexes.get(file);
  if (!p) {
    p = loadPbf(file);
    indexes.set(file, p);
  }
  return p;
}

/** The places of a fixture as computed from osm-read's objects. */
export async function expected(file: string = CORE): Promise<ExpectedPlaces> {
  return expectedPlaces(await readRaw(file));
}

/** As good as unlimited. */
export const ALL = 1_000_000;

/** The engine's record of one expected place, found by querying its first type at its centroid. */
export function recordOf(index: PlaceIndex, place: ExpectedPlace, at?: Date): NearbyPlace | undefined {
  const type = place.types[0];
  if (type === undefined) throw new Error(`place ${place.placeId} has no type to query`);
  const c = centroidOfPlace(place);
  return nearby(index, { type, lat: c.lat, lon: c.lon, radius: 1, limit: ALL, sortBy: true, at }).find((r) => r.placeId === place.placeId);
}

/** Middle of the core fixture's bbox; every place of it lies within 3 km. */
export const CENTER = { lat: 27.7083, lon: 85.3206 };

/**
 * The engine's record of every place that has a type, keyed by
 * placeId: one query per distinct type at the bbox centre, radius 10 km, no limit.
 */
export function allRecords(index: PlaceIndex, places: ExpectedPlace[], at?: Date): Map<number, NearbyPlace> {
  const types = new Set<string>();
  for (const p of places) for (const t of p.types) types.add(t);
  const out = new Map<number, NearbyPlace>();
  for (const type of types) {
    for (const r of nearby(index, { type, ...CENTER, radius: 10, limit: ALL, at })) {
      if (!out.has(r.placeId)) out.set(r.placeId, r);
    }
  }
  return out;
}
