/**
 * The road network of a file as parallel typed arrays: junction nodes, and edges
 * between them that carry the geometry of the chain of plain nodes in between.
 * Access and speed are per edge (from its way's tags, see `osm/profile.ts`);
 * names and classes per way, for instructions.
 */
export interface RoadGraph {
  /** Junctions: nodes where roads meet or end, 1e-7 degrees. */
  nodeLon: Int32Array;
  nodeLat: Int32Array;
  /** Per edge: its end nodes (forward = from `edgeFrom` to `edgeTo`, the way's node order). */
  edgeFrom: Uint32Array;
  edgeTo: Uint32Array;
  /** Access bits (`FOOT_FWD`…`CAR_BWD`). */
  edgeAccess: Uint8Array;
  /** Car speed, km/h (0: no cars); a `maxspeed` in mph stays exact (20 mph = 32.19 km/h). */
  edgeKmh: Float32Array;
  /** Length along its geometry, metres (haversine, R = 6371.0088 km). */
  edgeMeters: Float64Array;
  /** The road way the edge belongs to (index into the `way*` columns). */
  edgeWay: Uint32Array;
  /** `coordStart[e]..coordStart[e+1]` are edge e's points (lon, lat pairs, both ends included) in `coords`, in points. */
  coordStart: Uint32Array;
  coords: Int32Array;
  /** Per road way: OSM id, name (`name:en`, else `name`, else `ref`; string index, 0 = none), highway class (string index), flags (`ROUNDABOUT`, `destinationFlag(m)`). */
  wayId: Float64Array;
  wayName: Uint32Array;
  wayClass: Uint32Array;
  wayFlags: Uint8Array;
  /** Names and classes; index 0 is `''`. */
  strings: string[];
  /** Turn restrictions (cars), four numbers each: from way, via node, to way, `ONLY` or `NO`. */
  restrictions: Uint32Array;
}

/** `RoadGraph.wayFlags`: the way is part of a roundabout. */
export const ROUNDABOUT = 1;

/** `RoadGraph.wayFlags`: mode `m` (0 foot, 1 bike, 2 car) may use the way only to reach or leave a place on it (`access=destination`…). */
export function destinationFlag(m: number): number {
  return 2 << m;
}

/** Kinds of a turn restriction in `RoadGraph.restrictions`. */
export const NO_TURN = 0,
  ONLY_TURN = 1;
