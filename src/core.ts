/**
 * nepal-places/core: the query engine and snapshots, without the PBF loader. It
 * imports no Node built-ins, so it runs in browsers and bundles for apps.
 */
export { nearby } from './query/nearby.js';
export { place, type PlaceOptions } from './query/place.js';
export { search, MAX_QUERY_LENGTH } from './query/search.js';
export { reverse, REVERSE_RADIUS } from './query/reverse.js';
export {
  toFeatureCollection, type FeatureCollection, type Feature, type FeatureProperties, type FeatureOptions, type FeatureGeometry, type GeoRecord,
} from './query/geojson.js';
export { PlaceIndex } from './index/place-index.js';
export { buildSnapshot } from './snapshot/build.js';
export { fromSnapshot } from './snapshot/read.js';
export { isSnapshot, SNAPSHOT_VERSION } from './snapshot/format.js';
export { MERGED_TYPES, FEATURE_KEYS, NODE_FEATURE_KEYS } from './place/feature.js';
export { InvalidQueryError, PbfError, SnapshotError, type SnapshotProblem } from './errors.js';
export type {
  NearbyPlace, NearbyQuery, Centroid, Geometry, Position, LoadOptions, LoadProgress, LoadStats, LoadTimings,
  Place, ReversePlace, Suggestion, SearchQuery, ReverseQuery,
} from './types.js';
