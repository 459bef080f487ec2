/**
 * A tiny hand-made PBF for the shapes the real fixture lacks (explicit `off` days, name:ne
 * fallback, tags out of alphabetical order, multipolygons with two outers, a missing member,
 * no closed ring, ids near 2^50), written with the project's PBF writer into a temp folder.
 * Every expected value in the tests that use it is worked out by hand from the numbers here.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PbfWriter, type OsmNode, type OsmRelation, type OsmWay } from '../../scripts/pbf-writer.js';

/** Degrees of the grid origin, and one grid unit (0.001°) in 1e-7 degrees. */
export const LAT0 = 27.7;
export const LON0 = 85.3;
const UNIT = 10_000;

/** A node id for grid point (x, y), in units of 0.001° east and north of the origin. */
export function gridId(x: number, y: number): number {
  return 1000 + x * 100 + y;
}

/** Degrees [lon, lat] of grid point (x, y), exactly as the file stores it. */
export function gridPos(x: number, y: number): [number, number] {
  return [(853_000_000 + x * UNIT) / 1e7, (277_000_000 + y * UNIT) / 1e7];
}

/** A node id above 2^50: its placeId, osmId * 4, is still an exact double. */
export const BIG_ID = 2 ** 50 + 3;

type Tags = [string, string][];

const grid: [number, number][] = [
  [0, 0],
  [4, 0],
  [4, 4],
  [0, 4],
  [1, 1],
  [2, 1],
  [2, 2],
  [1, 2], // relation 20: outer and hole
  [10, 0],
  [11, 0],
  [11, 1],
  [10, 1],
  [12, 0],
  [14, 0],
  [14, 2],
  [12, 2], // relation 21: two outers
  [20, 0],
  [20, 1],
  [21, 1],
  [21, 0], // way 10: clockwise square
  [30, 0],
  [31, 0],
  [31, 1],
  [30, 1], // way 11: area=no
  [40, 0],
  [42, 0],
  [42, 1], // way 16: a line missing its middle node
  [50, 0],
  [51, 0],
  [51, 1],
  [50, 1], // way 12: pedestrian area
  [60, 0],
  [61, 0],
  [61, 1],
  [60, 1], // way 13: fence around a park
  [70, 0],
  [71, 0],
  [71, 1],
  [70, 1], // way 14: railway platform
  [80, 0],
  [81, 0],
  [81, 1],
  [80, 1], // relation 22: one outer, a member missing
  [90, 0],
  [91, 0],
  [91, 1], // relation 23: an open chain only
  [95, 0],
  [96, 0],
  [96, 1],
  [95, 1],
  [97, 0],
  [98, 0], // relation 25: a ring and a loose piece
];

/** Tagged nodes: [id, x, y, tags]. */
export const TAGGED: [number, number, number, Tags][] = [
  // tags out of alphabetical order, a value with "|", an address with repeats and padding
  [
    1,
    100,
    0,
    [
      ['shop', 'bakery'],
      ['name', 'Zed'],
      ['amenity', 'cafe'],
      ['addr:street', ' Main '],
      ['addr:housenumber', '12'],
      ['addr:city', 'Main'],
      ['note', 'a|b|c'],
    ],
  ],
  [
    2,
    100,
    1,
    [
      ['amenity', 'toilets'],
      ['name:ne', 'शौचालय'],
    ],
  ],
  [
    3,
    100,
    2,
    [
      ['amenity', 'toilets'],
      ['name:ne', 'शौचालय'],
      ['name:en', 'Toilet'],
    ],
  ],
  [
    4,
    100,
    3,
    [
      ['amenity', 'cafe'],
      ['name', 'Weds Off'],
      ['opening_hours', 'Mo-Su 08:00-20:00; We off'],
    ],
  ],
  [
    5,
    100,
    4,
    [
      ['amenity', 'cafe'],
      ['name', 'Weekdays'],
      ['opening_hours', 'Mo-Fr 09:00-17:00; Sa,Su off'],
    ],
  ],
  [
    6,
    100,
    5,
    [
      ['amenity', 'cafe'],
      ['name', 'Fridays Off'],
      ['opening_hours', '24/7; Fr off'],
    ],
  ],
  [
    7,
    100,
    6,
    [
      ['amenity', 'parking'],
      ['parking', 'multi-storey'],
    ],
  ],
  [8, 100, 7, [['historic', 'yes']]], // a place without a type
  [
    BIG_ID,
    100,
    8,
    [
      ['amenity', 'cafe'],
      ['name', 'Big'],
    ],
  ],
];

/** Ways: [id, grid refs (a number is a node id that is not in the file), tags]. */
const WAYS: [number, ([number, number] | number)[], Tags][] = [
  [
    10,
    [
      [20, 0],
      [20, 1],
      [21, 1],
      [21, 0],
      [20, 0],
    ],
    [
      ['amenity', 'school'],
      ['name', 'Clockwise'],
    ],
  ],
  [
    11,
    [
      [30, 0],
      [31, 0],
      [31, 1],
      [30, 1],
      [30, 0],
    ],
    [
      ['amenity', 'school'],
      ['area', 'no'],
    ],
  ],
  [
    12,
    [
      [50, 0],
      [51, 0],
      [51, 1],
      [50, 1],
      [50, 0],
    ],
    [
      ['amenity', 'marketplace'],
      ['area', 'yes'],
      ['highway', 'pedestrian'],
    ],
  ],
  [
    13,
    [
      [60, 0],
      [61, 0],
      [61, 1],
      [60, 1],
      [60, 0],
    ],
    [
      ['barrier', 'fence'],
      ['leisure', 'park'],
    ],
  ],
  [
    14,
    [
      [70, 0],
      [71, 0],
      [71, 1],
      [70, 1],
      [70, 0],
    ],
    [
      ['public_transport', 'platform'],
      ['railway', 'platform'],
    ],
  ],
  [15, [[90, 0], 999_001, 999_002], [['amenity', 'school']]], // one node left: no place
  [
    16,
    [[40, 0], 999_003, [42, 0], [42, 1]],
    [
      ['amenity', 'school'],
      ['name', 'Cut Line'],
    ],
  ],
  [
    17,
    [
      [0, 0],
      [4, 0],
    ],
    [['highway', 'bus_stop']],
  ], // highway on a way makes no place
  [
    20,
    [
      [0, 0],
      [4, 0],
      [4, 4],
    ],
    [],
  ],
  [
    21,
    [
      [4, 4],
      [0, 4],
      [0, 0],
    ],
    [],
  ],
  [
    22,
    [
      [1, 1],
      [1, 2],
      [2, 2],
      [2, 1],
      [1, 1],
    ],
    [],
  ],
  [
    23,
    [
      [10, 0],
      [11, 0],
      [11, 1],
      [10, 1],
      [10, 0],
    ],
    [],
  ],
  [
    24,
    [
      [12, 0],
      [14, 0],
      [14, 2],
      [12, 2],
      [12, 0],
    ],
    [],
  ],
  [
    25,
    [
      [80, 0],
      [81, 0],
      [81, 1],
      [80, 1],
      [80, 0],
    ],
    [],
  ],
  [
    26,
    [
      [90, 0],
      [91, 0],
      [91, 1],
    ],
    [],
  ],
  [
    27,
    [
      [95, 0],
      [96, 0],
      [96, 1],
      [95, 1],
      [95, 0],
    ],
    [],
  ],
  [
    28,
    [
      [97, 0],
      [98, 0],
    ],
    [],
  ],
];

const RELATIONS: OsmRelation[] = [
  // a square 4×4 with a 1×1 hole at (1..2, 1..2); the outer comes in two pieces
  {
    id: 20,
    members: [
      { type: 'way', ref: 20, role: 'outer' },
      { type: 'way', ref: 22, role: 'inner' },
      { type: 'way', ref: 21, role: 'outer' },
    ],
    tags: [
      ['amenity', 'school'],
      ['name', 'Holey'],
      ['type', 'multipolygon'],
    ],
  },
  // two outers: 1×1 at (10..11, 0..1) and 2×2 at (12..14, 0..2); empty role = outer
  {
    id: 21,
    members: [
      { type: 'way', ref: 23, role: '' },
      { type: 'way', ref: 24, role: 'outer' },
    ],
    tags: [
      ['amenity', 'school'],
      ['name', 'Twin'],
      ['type', 'multipolygon'],
    ],
  },
  // a member way that is not in the file
  {
    id: 22,
    members: [
      { type: 'way', ref: 25, role: 'outer' },
      { type: 'way', ref: 998, role: 'outer' },
    ],
    tags: [
      ['amenity', 'school'],
      ['name', 'Partial'],
      ['type', 'multipolygon'],
    ],
  },
  // nothing closes
  {
    id: 23,
    members: [{ type: 'way', ref: 26, role: 'outer' }],
    tags: [
      ['amenity', 'school'],
      ['name', 'Open'],
      ['type', 'multipolygon'],
    ],
  },
  // a closed outer and a piece that closes nothing (dropped)
  {
    id: 25,
    members: [
      { type: 'way', ref: 27, role: 'outer' },
      { type: 'way', ref: 28, role: 'outer' },
    ],
    tags: [
      ['amenity', 'school'],
      ['name', 'Loose'],
      ['type', 'multipolygon'],
    ],
  },
  // not a multipolygon: no place
  {
    id: 24,
    members: [{ type: 'way', ref: 10, role: '' }],
    tags: [
      ['amenity', 'school'],
      ['name', 'Site'],
      ['type', 'site'],
    ],
  },
];
RELATIONS.sort((a, b) => a.id - b.id);

/** Writes the file into a fresh temp folder and returns its path. */
export async function writeHandmade(): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'nepal-places-handmade-')), 'handmade.osm.pbf');
  const w = new PbfWriter(file, { sorted: true });
  const nodes: OsmNode[] = [
    ...grid.map(([x, y]) => ({ id: gridId(x, y), lat: 277_000_000 + y * UNIT, lon: 853_000_000 + x * UNIT })),
    ...TAGGED.map(([id, x, y, tags]) => ({ id, lat: 277_000_000 + y * UNIT, lon: 853_000_000 + x * UNIT, tags })),
  ].sort((a, b) => a.id - b.id);
  for (const n of nodes) w.node(n);
  const ways: OsmWay[] = WAYS.map(([id, refs, tags]) => ({
    id,
    refs: refs.map((r) => (typeof r === 'number' ? r : gridId(r[0], r[1]))),
    tags,
  }));
  for (const way of ways) w.way(way);
  for (const r of RELATIONS) w.relation(r);
  await w.close();
  return file;
}
