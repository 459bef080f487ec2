import type { Schedules } from '../hours/schedules.js';

/** Geometry kinds, as stored in `PlaceTable.geom`. */
export const POINT = 0,
  LINE = 1,
  POLYGON = 2,
  MULTIPOLYGON = 3;

/**
 * What a row is, as stored in `PlaceTable.what`: a place (it has feature keys and
 * is what `nearby` finds), or a row kept for search, reverse geocoding and
 * addresses only: a locality (`place=*`), a named street, an addressed building.
 */
export const PLACE = 0,
  LOCALITY = 1,
  STREET = 2,
  BUILDING = 3;

/**
 * All places of a file as parallel typed arrays, one row per place. Geometry is a
 * flat `coords` array (lon, lat pairs in 1e-7 degrees) described by `shape`:
 * a line is `[n]`, a polygon `[rings, n1, n2…]`, a multipolygon
 * `[polygons, rings, n1…, rings, n1…]`; a point has neither (it is its centroid).
 */
export interface PlaceTable {
  size: number;
  osmId: Float64Array;
  /** 0 node, 1 way, 2 relation. */
  kind: Uint8Array;
  /** Centroid, 1e-7 degrees. */
  lat: Int32Array;
  lon: Int32Array;
  /** String-table indexes. */
  name: Uint32Array;
  /** The address of the names as mapped, and in English and in Nepali (`address/assign.ts`). */
  address: Uint32Array;
  addressEn: Uint32Array;
  addressNe: Uint32Array;
  /** `tagStart[i]..tagStart[i+1]` are place i's tag pairs in `tagKV` (pairs of string indexes). */
  tagStart: Uint32Array;
  tagKV: Uint32Array;
  /** `typeStart[i]..typeStart[i+1]` are place i's types (string indexes) in `typeList`. */
  typeStart: Uint32Array;
  typeList: Uint32Array;
  geom: Uint8Array;
  /** PLACE, LOCALITY, STREET or BUILDING. */
  what: Uint8Array;
  /** String index of the row's type outside `nearby`: its first type, else its `place`, `highway` or `building` value. */
  primary: Uint32Array;
  shapeStart: Uint32Array;
  shape: Uint32Array;
  coordStart: Uint32Array;
  coords: Int32Array;
  prominence: Float64Array;
  /** Schedule index of `opening_hours`, or -1. */
  hours: Int32Array;
  strings: string[];
  schedules: Schedules;
}

/** Capacities for a place table: places, tag pairs and way node refs. */
export interface Sizes {
  places: number;
  pairs: number;
  refs: number;
}
