/**
 * nepal-places/core: the query engine and snapshots, without the PBF loader. It
 * imports no Node built-ins, so it runs in browsers and bundles for apps.
 */
export { nearby, MAX_SCANNED } from './query/nearby.js';
export { types, suggestTypes, type TypeInfo } from './query/types.js';
export type { Bounds } from './index/bounds.js';
export { place, type PlaceOptions } from './query/place.js';
export { search, prepareSearch, MAX_QUERY_LENGTH, MAX_WORDS, MAX_POSTINGS } from './query/search.js';
export { reverse, REVERSE_RADIUS } from './query/reverse.js';
export { route, MAX_POINTS, SNAP_KM, ALTERNATIVES, type RouteQuery, type Route } from './query/route.js';
export type { Instruction } from './route/instructions.js';
export { matrix, MATRIX_MAX, type MatrixQuery, type Matrix, type MatrixPoint } from './query/matrix.js';
export {
  isochrone,
  prepareTravel,
  MAX_MINUTES,
  MAX_CONTOURS,
  type IsochroneQuery,
  type Isochrone,
  type IsochroneFeature,
} from './query/isochrone.js';
export type { Mode } from './osm/profile.js';
export { LANGS, type Lang } from './osm/name.js';
export { routesToGeoJSON, type RouteFeature, type RouteFeatureCollection } from './query/route-geojson.js';
export {
  toFeatureCollection,
  type FeatureCollection,
  type Feature,
  type FeatureProperties,
  type FeatureOptions,
  type FeatureGeometry,
  type GeoRecord,
} from './query/geojson.js';
export { PlaceIndex, type PackInfo } from './index/place-index.js';
export { buildSnapshot } from './snapshot/build.js';
export { packIndex, REGIONS, PackError, type PackOptions, type Bbox, type Region } from './snapshot/pack.js';
export { fromSnapshot, openWhole, type SnapshotOptions } from './snapshot/read.js';
export { isSnapshot, SNAPSHOT_VERSION } from './snapshot/format.js';
export { parseInstant, INSTANT_FORMAT } from './hours/instant.js';
export { MERGED_TYPES, FEATURE_KEYS, NODE_FEATURE_KEYS } from './osm/place.js';
export {
  InvalidQueryError,
  PbfError,
  SnapshotError,
  RouteError,
  type RouteProblem,
  type SnapshotProblem,
  type QueryParam,
  type FileErrorOptions,
} from './errors.js';
// LoadOptions and LoadProgress are the PBF loader's, exported by the Node entry only;
// LoadStats and LoadTimings describe any index, a snapshot's too
export type {
  NearbyPlace,
  NearbyQuery,
  Centroid,
  Geometry,
  Position,
  LoadStats,
  LoadTimings,
  Place,
  ReversePlace,
  Suggestion,
  SearchQuery,
  ReverseQuery,
} from './types.js';
