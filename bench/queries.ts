// The fixed query set of the nearby and scaling sections: the same classes, points
// and instant on every run, so runs can be compared.

import type { NearbyQuery, PlaceIndex } from '../src/index.js';

/** A named kind of query; its `queries` cycle over the query points. */
export interface QueryClass {
  name: string;
  queries: NearbyQuery[];
}

/** The instant of every `isOpen` query: Wednesday 14 January 2026, 12:00 Nepal Time. */
export const AT = new Date('2026-01-14T06:15:00Z');

/** A type most tiles have hundreds of. */
export const COMMON = 'restaurant';
/** A merged type (cafe, restaurant, bakery). */
export const MERGED = 'eat';
/** A type a tile has a handful of. */
export const RARE = 'bicycle_rental';

/** Query points per class (the points cycle over the tile centres). */
export const POINTS = 128;

type Shape = Omit<NearbyQuery, 'lat' | 'lon' | 'at'>;

// one knob turned at a time from `restaurant, radius 10, limit 5, by score`, plus the
// combinations the targets name
const SHAPES: [string, Shape][] = [
  ['common r1', { type: COMMON, radius: 1 }],
  ['common r5', { type: COMMON, radius: 5 }],
  ['common r10', { type: COMMON, radius: 10 }],
  ['common r50', { type: COMMON, radius: 50 }],
  ['common r10 limit50', { type: COMMON, radius: 10, limit: 50 }],
  ['common r10 sortBy', { type: COMMON, radius: 10, sortBy: true }],
  ['common r50 sortBy', { type: COMMON, radius: 50, sortBy: true }],
  ['common r10 isOpen', { type: COMMON, radius: 10, isOpen: true }],
  ['merged r10', { type: MERGED, radius: 10 }],
  ['merged r10 isOpen', { type: MERGED, radius: 10, isOpen: true }],
  ['merged r50 l50 sortBy isOpen', { type: MERGED, radius: 50, limit: 50, sortBy: true, isOpen: true }],
  ['rare r10', { type: RARE, radius: 10 }],
  ['rare r50', { type: RARE, radius: 50 }],
];

/** Pairs of classes the isOpen target compares: with it, and the same without. */
export const OPEN_PAIRS: [string, string][] = [
  ['common r10 isOpen', 'common r10'],
  ['merged r10 isOpen', 'merged r10'],
];
/** Classes of the p99 target (limit 5, radius 50 km). */
export const LIMIT5_R50 = ['common r50', 'common r50 sortBy', 'rare r50'];
/** Classes of the rare-type target. */
export const RARE_CLASSES = ['rare r10', 'rare r50'];
/** The class of the scaling curve. */
export const SCALING_CLASS = 'common r10';
/** The class mixing every knob. */
export const MIXED = 'mixed';
/** Every class's name, in table order. */
export const CLASS_NAMES: readonly string[] = [...SHAPES.map(([name]) => name), MIXED];

/**
 * The query classes at `points`: the single-knob classes, and `mixed`, which walks the
 * whole product of type (common, merged, rare) × radius 1/5/10/50 × limit 5/50 ×
 * sortBy × isOpen, one combination per point.
 */
export function queryClasses(points: [number, number][]): QueryClass[] {
  const at = (p: [number, number], s: Shape): NearbyQuery => ({ ...s, lon: p[0], lat: p[1], ...(s.isOpen ? { at: AT } : {}) });
  const classes = SHAPES.map(([name, s]) => ({ name, queries: points.map((p) => at(p, s)) }));
  const mixed: Shape[] = [];
  for (const type of [COMMON, MERGED, RARE]) {
    for (const radius of [1, 5, 10, 50]) {
      for (const limit of [5, 50]) {
        for (const sortBy of [false, true]) {
          for (const isOpen of [false, true]) mixed.push({ type, radius, limit, sortBy, isOpen });
        }
      }
    }
  }
  // a stride coprime with the product's 96, so consecutive points get unrelated combinations
  classes.push({ name: MIXED, queries: points.map((p, i) => at(p, mixed[(i * 37) % mixed.length])) });
  return classes;
}

/**
 * `POINTS` query points `[lon, lat]`: each a tile centre (cycled) moved by a fixed
 * pseudo-random offset of up to ±0.015° lon, ±0.006° lat, which keeps it inside a
 * fixture-sized tile (about 0.04° × 0.015°). Without centres, the centre of the
 * index's places: the middle of the Kathmandu fixture.
 */
export function queryPoints(index: PlaceIndex, centres: [number, number][]): [number, number][] {
  const c = centres.length ? centres : [middle(index)];
  const rand = mulberry32(0x6e6570);
  const out: [number, number][] = [];
  for (let i = 0; i < POINTS; i++) {
    const [lon, lat] = c[i % c.length];
    out.push([lon + (rand() - 0.5) * 0.03, lat + (rand() - 0.5) * 0.012]);
  }
  return out;
}

// the middle of the bounding box of the places' centroids
function middle(index: PlaceIndex): [number, number] {
  const { lat, lon, size } = index.table;
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (let i = 0; i < size; i++) {
    x0 = Math.min(x0, lon[i]);
    x1 = Math.max(x1, lon[i]);
    y0 = Math.min(y0, lat[i]);
    y1 = Math.max(y1, lat[i]);
  }
  return [(x0 + x1) / 2e7, (y0 + y1) / 2e7];
}

/** A small seeded generator (mulberry32) of numbers in [0, 1): the same points on every run and machine. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
