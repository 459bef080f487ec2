import { InvalidQueryError } from '../errors.js';
import type { Centroid, Geometry } from '../types.js';
import { show } from './validate.js';

/** What `toFeatureCollection` needs of a record: `nearby`'s, `place`'s and `reverse`'s all have it. */
export interface GeoRecord {
  placeId: number;
  centroid: Centroid;
  geometry: Geometry;
  /** `"key|value"` strings, as the records carry them. */
  tags: readonly string[];
}

/** Which shape a feature gets: the record's full `geometry`, or a `Point` at its `centroid`. */
export type FeatureGeometry = 'full' | 'centroid';

/** Options of `toFeatureCollection()`. */
export interface FeatureOptions {
  /** `'full'` (default): the record's geometry; `'centroid'`: a `Point` at its centroid. */
  geometry?: FeatureGeometry;
}

/**
 * A record's properties in a feature: every field but the ones the feature's geometry carries
 * (`geometry`, and `centroid` when the point is the centroid), with the tags as an object.
 */
export type FeatureProperties<R extends GeoRecord> = Omit<R, 'geometry' | 'centroid' | 'tags'> & {
  centroid?: Centroid;
  tags: Record<string, string>;
};

/** A GeoJSON Feature of one record; its `id` is the record's `placeId`. */
export interface Feature<R extends GeoRecord = GeoRecord> {
  type: 'Feature';
  id: number;
  geometry: Geometry;
  properties: FeatureProperties<R>;
}

/** A GeoJSON FeatureCollection (RFC 7946). */
export interface FeatureCollection<R extends GeoRecord = GeoRecord> {
  type: 'FeatureCollection';
  features: Feature<R>[];
}

/**
 * The records of `nearby`, `place` or `reverse` as a GeoJSON FeatureCollection, in their order,
 * for a map: one Feature per record, `id` its `placeId`, the geometry the record's own
 * (`geometry: 'full'`, the default) or a Point at its centroid (`geometry: 'centroid'`), and
 * as properties the record's other fields, its tags as an object `{ key: value }`.
 * Coordinates are `[lon, lat]` as GeoJSON wants, polygon rings counter-clockwise (RFC 7946).
 * The records are not modified; the features share their geometry's arrays.
 *
 * @example
 * toFeatureCollection(nearby(index, { type: 'cafe', lat: 27.7154, lon: 85.3123 }), { geometry: 'centroid' });
 * @throws {InvalidQueryError} when `records` is not an array of records or `geometry` is neither option
 */
export function toFeatureCollection<R extends GeoRecord>(records: readonly R[], options: FeatureOptions = {}): FeatureCollection<R> {
  if (!Array.isArray(records)) throw new InvalidQueryError('records', `must be an array of records, got ${show(records)}`);
  const mode = options?.geometry ?? 'full';
  if (mode !== 'full' && mode !== 'centroid') {
    throw new InvalidQueryError('geometry', `must be 'full' or 'centroid', got ${show(mode)}`);
  }
  const features: Feature<R>[] = [];
  for (let i = 0; i < records.length; i++) features.push(toFeature(records[i]!, mode, i));
  return { type: 'FeatureCollection', features };
}

function toFeature<R extends GeoRecord>(record: R, mode: FeatureGeometry, i: number): Feature<R> {
  if (record === null || typeof record !== 'object' || !Array.isArray(record.tags) || !record.centroid || !record.geometry) {
    throw new InvalidQueryError(
      'records',
      `record ${i} is not a record of nearby, place or reverse (it needs placeId, centroid, geometry and tags)`,
    );
  }
  const { geometry, centroid, tags, ...rest } = record;
  const properties = rest as unknown as FeatureProperties<R>;
  let shape: Geometry;
  if (mode === 'centroid') shape = { type: 'Point', coordinates: [centroid.lon, centroid.lat] };
  else {
    shape = geometry;
    // the full geometry does not carry the centroid, so it stays a property
    properties.centroid = centroid;
  }
  properties.tags = tagObject(tags);
  return { type: 'Feature', id: record.placeId, geometry: shape, properties };
}

// `"key|value"` back to `{ key: value }`. OSM keys hold no `|` in practice, values may: split at
// the first one. A key appears once per OSM object, so nothing is lost; Object.fromEntries
// defines each as an own property, so even a `__proto__` key stays a tag.
function tagObject(tags: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    tags.map((kv) => {
      const bar = kv.indexOf('|');
      return bar < 0 ? [kv, ''] : [kv.slice(0, bar), kv.slice(bar + 1)];
    }),
  );
}
