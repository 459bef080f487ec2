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
  NearbyPlace, NearbyQuery, Centroid, Geometry, Position, LoadOptions, LoadProgress, LoadStats, LoadTimings,
} from './types.js';
export { place, type PlaceOptions } from './query/place.js';
export { search, MAX_QUERY_LENGTH } from './query/search.js';
export { reverse, REVERSE_RADIUS } from './query/reverse.js';
export type { Place, ReversePlace, Suggestion, SearchQuery, ReverseQuery } from './types.js';
