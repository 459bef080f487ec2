import type { Lang } from './osm/name.js';
import type { Mode } from './osm/profile.js';

/** A point as the API writes it. */
export interface Centroid {
  lat: number;
  lon: number;
}

/** A GeoJSON position, `[lon, lat]`. */
export type Position = [number, number];

/** A place's shape as GeoJSON (`[lon, lat]` order). */
export type Geometry =
  | { type: 'Point'; coordinates: Position }
  | { type: 'LineString'; coordinates: Position[] }
  | { type: 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] };

/** One record of `nearby()`: exactly the 12 fields of the API v1 `NearbyPlace`. */
export interface NearbyPlace {
  /** Stable project id: `osmId * 4 + kind` (kind 0 node, 1 way, 2 relation). */
  placeId: number;
  /** The OSM id of the node, way or relation. */
  osmId: number;
  license: string;
  /** `name`, else `name:en`, else `name:ne`, else `""`; with `lang`, the name in that language (`nameIn` of `osm/name.ts`). */
  name: string;
  /** With `lang` only: whether `name` is a transliteration from the other script (the place has no name in the language asked for). */
  nameTransliterated?: boolean;
  /** The textual address, most specific part first, joined with `", "` (see the README's Addresses); with `lang`, of parts named in that language. */
  address: string;
  /** The type that matched the query (for a merged type, the member type). */
  type: string;
  centroid: Centroid;
  /** Every tag as `"key|value"`, in the file's order. */
  tags: string[];
  geometry: Geometry;
  /** Relevance, higher is better: prominence with a distance decay. */
  score: number;
  /** Haversine distance from the query point to the centroid (R = 6371.0088 km). */
  radialDistanceInKm: number;
  /** `opening_hours` evaluated at the query instant in Nepal Time (with `by: 'time'`, at the instant one arrives). */
  open: boolean;
  /** With `by: 'time'` only (an extension): the travel time from the query point, ms, as `route()` reports it. */
  travelTimeInMs?: number;
  /** With `by: 'time'` only: the length of that trip along the roads, metres. */
  travelDistanceInMeters?: number;
}

/** The arguments of `nearby()`. */
export interface NearbyQuery {
  /** A place type (`cafe`) or a merged type (`eat`). */
  type: string;
  lat: number;
  lon: number;
  /** Search radius in whole kilometres (default 10). */
  radius?: number;
  /** How many places at most (default 5). */
  limit?: number;
  /** `true`: nearest first; otherwise highest score first. */
  sortBy?: boolean;
  /** `true`: only places open at `at`. */
  isOpen?: boolean;
  /** The instant to evaluate opening hours at (default: now). */
  at?: Date;
  /** `'distance'` (default: within `radius`) or `'time'`: the places reachable within `minutes` by `mode` (docs/travel-time.md). */
  by?: 'distance' | 'time';
  /** With `by: 'time'`: `'foot'` (default), `'bike'` or `'car'`. */
  mode?: Mode;
  /** With `by: 'time'`: whole minutes, 1 to the mode's cap (default 15). */
  minutes?: number;
  /** The language of `name` and `address` (see `Lang`); default: the names as mapped. */
  lang?: Lang;
}

/** Progress of a load: bytes of the PBF handed to the loader so far, and the OSM objects in them. */
export interface LoadProgress {
  /** Bytes of the file read and decoded so far (`bytesTotal` only once the index is ready). */
  bytesRead: number;
  /** The file's size in bytes. */
  bytesTotal: number;
  /** OSM objects (nodes, ways and relations) decoded so far. */
  objects: number;
}

/** Whether a load contracts its road graph: `'auto'` decides by the graph's size. */
export type Contract = 'auto' | 'always' | 'never';

/** Options of `loadPbf()`. */
export interface LoadOptions {
  /** The `license` string of every record (default `"© OpenStreetMap contributors, ODbL 1.0"`). */
  license?: string;
  /** Called after the header, as each block of the file is decoded, and once the index is ready. */
  onProgress?: (p: LoadProgress) => void;
  /** Decoder threads; 0 decodes on the calling thread (default: by file size and cores). */
  workers?: number;
  /** Build the road graph for `route()` (default true); `false` saves its time and memory where nothing routes. */
  roads?: boolean;
  /**
   * Contract the road graph at load (contraction hierarchies per mode, as `buildSnapshot` does), so
   * that routes answer fast and exactly as from a snapshot: `'always'`, `'never'`, or `'auto'` (the
   * default): only graphs of at most 20,000 junctions (a city: under a second). An uncontracted graph
   * routes with a bidirectional Dijkstra, which finds routes of the same time (alternatives and ties
   * may differ) more slowly.
   */
  contract?: Contract;
  /**
   * The routing profiles (docs/routing.md, "Profiles"): a profiles document (parsed JSON) whose
   * modes replace the shipped ones; checked first, a bad one rejects with `ProfileError` naming
   * the field. Default: the shipped profiles (`DEFAULT_PROFILES`).
   */
  profiles?: unknown;
  /**
   * `true`: refuse (with `PbfError`) a file with blobs of unknown type, which the format
   * asks readers to skip but which are, in practice, damaged data blobs. Default `false`:
   * they are skipped and counted in `stats.skippedBlobs`.
   */
  strict?: boolean;
}

/** What a load read, built and skipped. */
export interface LoadStats {
  nodes: number;
  ways: number;
  relations: number;
  /** Places by geometry kind. */
  points: number;
  lineStrings: number;
  polygons: number;
  multiPolygons: number;
  /** Places built from an incomplete way or relation (some members missing). */
  partial: number;
  /** Objects with feature tags but no usable geometry, by OSM type. */
  skippedWays: number;
  skippedRelations: number;
  /** Distinct `opening_hours` values, and how many of them failed to parse. */
  schedules: number;
  badSchedules: number;
  /** The road graph: junction nodes and edges; turn restrictions obeyed, and those that could not be (via ways, members outside the file). */
  roadNodes: number;
  roadEdges: number;
  restrictions: number;
  skippedRestrictions: number;
  /**
   * Blobs of a type other than `OSMHeader`/`OSMData`, skipped as the format asks. Not 0
   * means data may be missing: a damaged `OSMData` type is read as unknown.
   */
  skippedBlobs: number;
  /** Objects dropped because a later object of the same type and id superseded them (merged extracts repeat ids): the last version is kept. */
  duplicates: number;
}

/**
 * Wall milliseconds of a load's phases: reading the file; decoding it and building
 * the places and roads (overlapped); the per-type spatial indexes; the addresses; the
 * lookup, text and reverse indexes; the router.
 */
export interface LoadTimings {
  read: number;
  decode: number;
  types: number;
  /** The addresses: nothing at a load, which makes each row's on first ask (`openWhole` makes them all). */
  addresses: number;
  /** The lookup, text and reverse indexes: nothing at a load, which leaves them to their first use. */
  search: number;
  /** The router: each mode's graph and the snapping index. */
  roads: number;
}

/**
 * One record of `place()`: the fields of `NearbyPlace` without `osmId` (only `nearby`
 * returns it) and without `radialDistanceInKm` (there is no query point). No score
 * is computed: `score` is the string `"NaN"`.
 */
export interface Place extends Omit<
  NearbyPlace,
  'osmId' | 'radialDistanceInKm' | 'score' | 'type' | 'travelTimeInMs' | 'travelDistanceInMeters'
> {
  /** The row's own type: its first feature type, else its `place`, `highway` or `building` value. */
  type: string;
  /** No score is computed: always the string `"NaN"`. */
  score: 'NaN';
}

/** One record of `reverse()`: a `Place` and its distance from the query point. */
export interface ReversePlace extends Place {
  /** Haversine distance from the query point to the centroid (R = 6371.0088 km). */
  radialDistanceInKm: number;
}

/** One record of `search()`: what a search box lists, without coordinates, geometry or tags. */
export interface Suggestion {
  placeId: number;
  /** As `NearbyPlace.name`, in `lang` when the query gives one. */
  name: string;
  /** With `lang` only, as `NearbyPlace.nameTransliterated`. */
  nameTransliterated?: boolean;
  address: string;
  /** The row's own type, or with a `type` filter the type that matched (a member, for a merged type). */
  type: string;
  /** Text relevance (BM25+ over the names), higher is better. */
  score: number;
}

/** The arguments of `search()`. */
export interface SearchQuery {
  /** What the user typed: words, the last one possibly unfinished. */
  q: string;
  /** How many suggestions at most (default 10). */
  limit?: number;
  /** With `lon`: nearer places rank first among equally good matches. */
  lat?: number;
  lon?: number;
  /** With `lat`/`lon`: only places within this many whole kilometres. */
  radius?: number;
  /** Only places of this type (`cafe`) or merged type (`eat`). */
  type?: string;
  /** The language of `name` and `address` (see `Lang`); default: the names as mapped. Matching is the same in every language. */
  lang?: Lang;
}

/** The arguments of `reverse()`. */
export interface ReverseQuery {
  lat: number;
  lon: number;
  /** How far to look, in km (default 0.5; fractions are fine). */
  radius?: number;
  /** How many places at most (default 1). */
  limit?: number;
  /** The instant to evaluate opening hours at (default: now). */
  at?: Date;
  /** The language of `name` and `address` (see `Lang`); default: the names as mapped. */
  lang?: Lang;
}
