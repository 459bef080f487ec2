import { toFeatureCollection, type FeatureGeometry, type GeoRecord } from '../query/geojson.js';
import { SUCCESS } from './envelope.js';
import { nptTimestamp } from './timestamp.js';

/** The media type of GeoJSON (RFC 7946). */
export const GEOJSON = 'application/geo+json';

/**
 * The body of a 200 answer with `format=geojson`: the records as a FeatureCollection, with the
 * envelope's `timestamp`, `status` and `message` as foreign members (RFC 7946 §6.1), so a map
 * client reads it as GeoJSON and the rest of the envelope is still there.
 * @param now milliseconds since the epoch, for the timestamp
 */
export function geoJsonBody(records: GeoRecord[], geometry: FeatureGeometry, now: number): string {
  const { type, features } = toFeatureCollection(records, { geometry });
  return JSON.stringify({ type, timestamp: nptTimestamp(now), status: 200, message: SUCCESS, features });
}
