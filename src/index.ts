/**
 * nepal-places: an embedded, in-memory geospatial engine for Nepal.
 * OSM PBF in, the API v1's nearby places out.
 */
export { loadPbf, OSM_LICENSE } from './load/load.js';
export { nearby } from './query/nearby.js';
export { PlaceIndex } from './index/place-index.js';
export { MERGED_TYPES, FEATURE_KEYS, NODE_FEATURE_KEYS } from './place/feature.js';
export { InvalidQueryError, PbfError } from './errors.js';
export { DEFAULT_PBF } from './data.js';
export type {
  NearbyPlace, NearbyQuery, Centroid, Geometry, Position, LoadOptions, LoadProgress, LoadStats,
} from './types.js';
