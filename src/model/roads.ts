import type { ProfilesDoc } from '../osm/profiles.js';

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
  /** Access bits (`FOOT_FWD`…`MOTO_BWD`). */
  edgeAccess: Uint8Array;
  /**
   * Per edge and mode, km/h: `edgeKmh[e * MODES.length + m]` (0 where the mode may not use it);
   * the profile's class speed, in a built-up area its built-up one, capped by `maxspeed` and the
   * national limits, or a ferry's length over its `duration`. A bike pushed (`PUSH_FWD`, `PUSH_BWD`)
   * goes at the edge's walking speed.
   */
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
  /** The routing profiles document the graph was built with (undefined in snapshots written before profiles). */
  profiles?: ProfilesDoc;
  /**
   * Per junction: the delay its `highway` tag makes (`SIGNALS`, `STOP`, `GIVE_WAY`, `CROSSING`,
   * with the direction bits it holds for), 0 for none. Nodes so tagged on a road
   * are junctions, so that a route passes them only between two edges.
   */
  nodeDelay: Uint8Array;
  /**
   * Turn restrictions, resolved to directed edges (`edge * 2`, `+ 1` against the way's node
   * order), one record after another: the number n ≥ 2 of its edges, then `kind | modes << 1`
   * (kind `NO_TURN` or `ONLY_TURN`; bit `1 << m` of modes: it binds mode m), then the n edges:
   * the from edge arriving at the via, the edges of its via ways in order (none for a via node),
   * and the to edge leaving. See `restrictionsOf`.
   */
  restrictions: Uint32Array;
}

/** `RoadGraph.nodeDelay`: what a junction's `highway` tag is (low 3 bits)… */
export const SIGNALS = 1,
  STOP = 2,
  GIVE_WAY = 3,
  CROSSING = 4,
  /** …and whether it holds only for traffic along its way's node order (`direction=forward`)… */
  DELAY_FORWARD = 8,
  /** …or only against it (`direction=backward`). */
  DELAY_BACKWARD = 16;

/** One turn restriction of `RoadGraph.restrictions`. */
export interface Restriction {
  kind: number;
  /** Bit `1 << m`: binds mode m. */
  modes: number;
  /** From edge, via edges, to edge (directed: `edge * 2`, `+ 1` against the way). */
  keys: Uint32Array;
}

/** The records of `RoadGraph.restrictions`, in order (throws a RangeError on a record cut short). */
export function restrictionsOf(r: Uint32Array): Restriction[] {
  const out: Restriction[] = [];
  for (let i = 0; i < r.length;) {
    const n = r[i];
    if (n < 2 || i + 2 + n > r.length) throw new RangeError(`restriction record at ${i} is cut short or has fewer than 2 edges`);
    out.push({ kind: r[i + 1] & 1, modes: r[i + 1] >>> 1, keys: r.subarray(i + 2, i + 2 + n) });
    i += 2 + n;
  }
  return out;
}

/** `RoadGraph.wayFlags`: the way is part of a roundabout. */
export const ROUNDABOUT = 1;

/** `RoadGraph.wayFlags`: a bike is walked (pushed) along the way's node order, and against it. */
export const PUSH_FWD = 32,
  PUSH_BWD = 64;

/** `RoadGraph.wayFlags`: mode `m` (0 foot, 1 bike, 2 car, 3 motorbike) may use the way only to reach or leave a place on it (`access=destination`…). */
export function destinationFlag(m: number): number {
  return 2 << m;
}

/** Kinds of a turn restriction in `RoadGraph.restrictions`. */
export const NO_TURN = 0,
  ONLY_TURN = 1;
