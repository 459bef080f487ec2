/**
 * A hand-made road network for the routing rules the fixtures cannot pin down: one small
 * case per rule (a one-way street, a roundabout, oneway=-1, turn restrictions, access=private,
 * maxspeed), each on its own patch of a 0.001° grid, far enough from the others that no road
 * joins them. Written with the project's PBF writer into a temp folder. Every expected route
 * in the tests is worked out by hand from these numbers: the ways are straight lines between
 * grid points, so a route is the list of grid points it passes.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import distance from '@turf/distance';
import { PbfWriter, type OsmNode, type OsmRelation, type OsmWay } from '../../scripts/pbf-writer.js';

/** One grid unit in 1e-7 degrees (0.001°: 111 m north–south, 98.5 m east–west at 27.7° N). */
const UNIT = 10_000;
const LAT7 = 277_000_000,
  LON7 = 853_000_000;

/** A grid point: x east, y north, in units. */
export type P = readonly [number, number];

/** The node id of grid point (x, y) (x ≥ 0, |y| < 500). */
export function nodeId([x, y]: P): number {
  return 1_000_000 + x * 1000 + (y + 500);
}

/** [lat, lon] of grid point p, as the file stores it. */
export function latLon([x, y]: P): [number, number] {
  return [(LAT7 + y * UNIT) / 1e7, (LON7 + x * UNIT) / 1e7];
}

/** The grid point of a [lat, lon] (as a decoded polyline gives it: 1e-5° steps, so grid points are exact). */
export function gridOf([lat, lon]: [number, number]): P {
  const x = (lon * 1e7 - LON7) / UNIT,
    y = (lat * 1e7 - LAT7) / UNIT;
  const rx = Math.round(x),
    ry = Math.round(y);
  // not a grid point: keep the fraction, so a comparison with grid points fails visibly
  return [Math.abs(x - rx) < 1e-6 ? rx : x, Math.abs(y - ry) < 1e-6 ? ry : y];
}

/** Metres between grid points, haversine (R = 6371.0088 km) by @turf/distance. */
export function gridMetres(a: P, b: P): number {
  const [la, lo] = latLon(a),
    [lb, lob] = latLon(b);
  return distance([lo, la], [lob, lb], { units: 'kilometers' }) * 1000;
}

type Tags = [string, string][];

/** A way of the network: id, grid points, tags; `gap`: a node the file lacks goes in before pts[gap]. */
export interface RoadWay {
  id: number;
  pts: P[];
  tags: Tags;
  gap?: number;
}

/** The id of the node a cut way refers to but the file lacks. */
export const MISSING_NODE = 999_999;

// each case's points are relative to its own origin, `ox` units east
const shift = (ox: number, pts: P[]): P[] => pts.map(([x, y]) => [x + ox, y] as P);

/** Where each case lies (x of its origin) and its named points, absolute. */
export const CASES = {
  /** A square A B C D; A→B is `oneway=yes`. */
  oneway: { ox: 0, A: [0, 0] as P, B: [1, 0] as P, C: [1, 1] as P, D: [0, 1] as P },
  /** The same square with `oneway=yes` + `oneway:bicycle=no` on A→B. */
  contraflow: { ox: 20, A: [20, 0] as P, B: [21, 0] as P, C: [21, 1] as P, D: [20, 1] as P },
  /** A square E F G H; E–F is `oneway=-1` (cars only F→E). */
  reverse: { ox: 40, E: [40, 0] as P, F: [41, 0] as P, G: [41, 1] as P, H: [40, 1] as P },
  /**
   * A four-arm roundabout, ring RW → RN → RE → RS → RW (clockwise, as Nepal drives on the
   * left), arms to W, N, E, S. The south arm is named in Nepali with `name:en` South Road.
   */
  roundabout: {
    ox: 60,
    RW: [62, 3] as P,
    RN: [63, 4] as P,
    RE: [64, 3] as P,
    RS: [63, 2] as P,
    W: [60, 3] as P,
    N: [63, 6] as P,
    E: [66, 3] as P,
    S: [63, 0] as P,
  },
  /** P → V → Q along the bottom, V → M north; `no_left_turn` from P–V via V to V–M; detour Q → R → M. */
  noLeft: { ox: 80, P: [80, 0] as P, V: [81, 0] as P, Q: [82, 0] as P, M: [81, 1] as P, R: [82, 1] as P },
  /**
   * A crossing V with arms W, E, N, S; `only_straight_on` from W–V via V to V–E; E–N is a
   * diagonal, so the legal way from W to N is W V E N. V–N is the first road way at V.
   */
  onlyStraight: { ox: 100, W: [100, 0] as P, V: [101, 0] as P, E: [102, 0] as P, N: [101, 1] as P, S: [101, -1] as P },
  /**
   * A second roundabout like the first, ring QW → QN → QE → QS → QW, where only W and S are roads a
   * car may leave by: N is a footway, E a one-way into the ring.
   */
  roundabout2: {
    ox: 220,
    QW: [222, 3] as P,
    QN: [223, 4] as P,
    QE: [224, 3] as P,
    QS: [223, 2] as P,
    W: [220, 3] as P,
    N: [223, 6] as P,
    E: [226, 3] as P,
    S: [223, 0] as P,
  },
  /** A way cut by the extract: K0 K1, a node the file lacks, K3 K4. */
  cut: { ox: 240, K0: [240, 0] as P, K1: [241, 0] as P, K3: [243, 0] as P, K4: [244, 0] as P },
  /** A0 → A1 straight through (1, 0) on `access=private`; the public way round via (0, 1), (2, 1). */
  private: { ox: 120, A0: [120, 0] as P, A1: [122, 0] as P },
  /** The same with `access=private` + `foot=yes`. */
  privateFoot: { ox: 140, A0: [140, 0] as P, A1: [142, 0] as P },
  /** The same with `access=private` + `motorcar=yes` (a more specific key lets cars in). */
  privateCar: { ox: 160, A0: [160, 0] as P, A1: [162, 0] as P },
  /**
   * S → T straight (2 units, residential, 25 km/h, `maxspeed=100` which must not raise it)
   * or round by a primary (65 km/h) via (0, 1), (2, 1): the primary is faster.
   */
  fastPrimary: { ox: 180, S: [180, 0] as P, T: [182, 0] as P },
  /** The same with the primary capped by `maxspeed=20 mph` (32.19 km/h): the residential is faster. */
  slowPrimary: { ox: 200, S: [200, 0] as P, T: [202, 0] as P },
} as const;

/** Every way of the network. */
export function roadWays(): RoadWay[] {
  const res: Tags = [['highway', 'residential']];
  const ways: RoadWay[] = [];
  const square = (id: number, ox: number, oneway: Tags) => {
    ways.push({
      id,
      pts: shift(ox, [
        [0, 0],
        [1, 0],
      ]),
      tags: [...res, ['name', `Square ${ox} South`], ...oneway],
    });
    ways.push({
      id: id + 1,
      pts: shift(ox, [
        [1, 0],
        [1, 1],
      ]),
      tags: [...res, ['name', `Square ${ox} East`]],
    });
    ways.push({
      id: id + 2,
      pts: shift(ox, [
        [1, 1],
        [0, 1],
      ]),
      tags: [...res, ['name', `Square ${ox} North`]],
    });
    ways.push({
      id: id + 3,
      pts: shift(ox, [
        [0, 1],
        [0, 0],
      ]),
      tags: [...res, ['name', `Square ${ox} West`]],
    });
  };
  square(101, 0, [['oneway', 'yes']]);
  square(201, 20, [
    ['oneway', 'yes'],
    ['oneway:bicycle', 'no'],
  ]);
  square(301, 40, [['oneway', '-1']]);

  const r = CASES.roundabout;
  ways.push({
    id: 401,
    pts: [r.RW, r.RN, r.RE, r.RS, r.RW],
    tags: [
      ['highway', 'tertiary'],
      ['junction', 'roundabout'],
      ['name', 'Ring'],
    ],
  });
  ways.push({
    id: 402,
    pts: [r.W, r.RW],
    tags: [
      ['highway', 'tertiary'],
      ['name', 'West Road'],
    ],
  });
  ways.push({
    id: 403,
    pts: [r.RN, r.N],
    tags: [
      ['highway', 'tertiary'],
      ['name', 'North Road'],
    ],
  });
  ways.push({
    id: 404,
    pts: [r.RE, r.E],
    tags: [
      ['highway', 'tertiary'],
      ['name', 'East Road'],
    ],
  });
  ways.push({
    id: 405,
    pts: [r.RS, r.S],
    tags: [
      ['highway', 'tertiary'],
      ['name', 'दक्षिण सडक'],
      ['name:en', 'South Road'],
    ],
  });

  const q = CASES.roundabout2;
  ways.push({
    id: 411,
    pts: [q.QW, q.QN, q.QE, q.QS, q.QW],
    tags: [
      ['highway', 'tertiary'],
      ['junction', 'roundabout'],
      ['name', 'Ring 2'],
    ],
  });
  ways.push({
    id: 412,
    pts: [q.W, q.QW],
    tags: [
      ['highway', 'tertiary'],
      ['name', 'West Road 2'],
    ],
  });
  ways.push({
    id: 413,
    pts: [q.QN, q.N],
    tags: [
      ['highway', 'footway'],
      ['name', 'North Path 2'],
    ],
  });
  ways.push({
    id: 414,
    pts: [q.E, q.QE],
    tags: [
      ['highway', 'tertiary'],
      ['oneway', 'yes'],
      ['name', 'East Road 2'],
    ],
  });
  ways.push({
    id: 415,
    pts: [q.QS, q.S],
    tags: [
      ['highway', 'tertiary'],
      ['name', 'South Road 2'],
    ],
  });

  const k = CASES.cut;
  ways.push({ id: 901, pts: [k.K0, k.K1, k.K3, k.K4], gap: 2, tags: [...res, ['name', 'Cut Street']] });

  const n = CASES.noLeft;
  ways.push({ id: 501, pts: [n.P, n.V], tags: [...res, ['name', 'Bottom West']] });
  ways.push({ id: 502, pts: [n.V, n.Q], tags: [...res, ['name', 'Bottom East']] });
  ways.push({ id: 503, pts: [n.V, n.M], tags: [...res, ['name', 'Middle']] });
  ways.push({ id: 504, pts: [n.Q, n.R], tags: [...res, ['name', 'Right']] });
  ways.push({ id: 505, pts: [n.M, n.R], tags: [...res, ['name', 'Top']] });

  const o = CASES.onlyStraight;
  ways.push({ id: 601, pts: [o.V, o.N], tags: [...res, ['name', 'North Arm']] });
  ways.push({ id: 602, pts: [o.W, o.V], tags: [...res, ['name', 'West Arm']] });
  ways.push({ id: 603, pts: [o.V, o.E], tags: [...res, ['name', 'East Arm']] });
  ways.push({ id: 604, pts: [o.V, o.S], tags: [...res, ['name', 'South Arm']] });
  ways.push({ id: 605, pts: [o.E, o.N], tags: [...res, ['name', 'Diagonal']] });

  const gate = (id: number, ox: number, extra: Tags) => {
    ways.push({
      id,
      pts: shift(ox, [
        [0, 0],
        [1, 0],
        [2, 0],
      ]),
      tags: [...res, ['access', 'private'], ...extra],
    });
    ways.push({
      id: id + 1,
      pts: shift(ox, [
        [0, 0],
        [0, 1],
        [2, 1],
        [2, 0],
      ]),
      tags: [...res, ['name', `Public ${ox}`]],
    });
  };
  gate(701, 120, []);
  gate(711, 140, [['foot', 'yes']]);
  gate(721, 160, [['motorcar', 'yes']]);

  const race = (id: number, ox: number, cap: Tags) => {
    ways.push({
      id,
      pts: shift(ox, [
        [0, 0],
        [1, 0],
        [2, 0],
      ]),
      tags: [...res, ['maxspeed', '100'], ['name', `Short ${ox}`]],
    });
    ways.push({
      id: id + 1,
      pts: shift(ox, [
        [0, 0],
        [0, 1],
        [2, 1],
        [2, 0],
      ]),
      tags: [['highway', 'primary'], ...cap, ['name', `Long ${ox}`]],
    });
  };
  race(801, 180, []);
  race(811, 200, [['maxspeed', '20 mph']]);
  return ways;
}

/** The turn restrictions: `no_left_turn` (noLeft) and `only_straight_on` (onlyStraight). */
export function roadRelations(): OsmRelation[] {
  return [
    {
      id: 510,
      members: [
        { type: 'way', ref: 501, role: 'from' },
        { type: 'node', ref: nodeId(CASES.noLeft.V), role: 'via' },
        { type: 'way', ref: 503, role: 'to' },
      ],
      tags: [
        ['type', 'restriction'],
        ['restriction', 'no_left_turn'],
      ],
    },
    {
      id: 610,
      members: [
        { type: 'way', ref: 602, role: 'from' },
        { type: 'node', ref: nodeId(CASES.onlyStraight.V), role: 'via' },
        { type: 'way', ref: 603, role: 'to' },
      ],
      tags: [
        ['type', 'restriction'],
        ['restriction', 'only_straight_on'],
      ],
    },
  ];
}

/** Writes the network into a fresh temp folder and returns the file's path. */
export async function writeRoads(): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'nepal-places-roads-')), 'roads.osm.pbf');
  const w = new PbfWriter(file, { sorted: true });
  const ways = roadWays();
  const pts = new Map<number, P>();
  for (const way of ways) for (const p of way.pts) pts.set(nodeId(p), p);
  const nodes: OsmNode[] = [...pts.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([id, [x, y]]) => ({ id, lat: LAT7 + y * UNIT, lon: LON7 + x * UNIT }));
  for (const n of nodes) w.node(n);
  const out: OsmWay[] = ways
    .sort((a, b) => a.id - b.id)
    .map((way) => {
      const refs = way.pts.map(nodeId);
      if (way.gap !== undefined) refs.splice(way.gap, 0, MISSING_NODE);
      return { id: way.id, refs, tags: way.tags };
    });
  for (const way of out) w.way(way);
  for (const r of roadRelations()) w.relation(r);
  await w.close();
  return file;
}
