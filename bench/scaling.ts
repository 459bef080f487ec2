// Section 3, scaling: one fixed query on files of growing size; how its median
// latency grows next to log2(n).

import { nearby, type NearbyQuery, type PlaceIndex } from '../src/index.js';
import { Baselines } from './baselines.js';
import { COMMON } from './queries.js';
import { timeEach, type Timing } from './timing.js';
import { printTable, num, ratio, type Cell } from './table.js';

/** One file's point of the curve. */
export interface ScalingRow {
  dataset: string;
  places: number;
  /** Places of the query's type. */
  typeCount: number;
  hits: number;
  ours: Timing;
  bare: Timing;
}

/** The query of the curve: the common type, radius 10 km, limit 5, by score, at the first tile's centre. */
export function scalingQuery(centres: [number, number][]): NearbyQuery {
  const [lon, lat] = centres[0];
  return { type: COMMON, lat, lon, radius: 10, limit: 5 };
}

/** Times the scaling query on one index. */
export function measureScaling(dataset: string, index: PlaceIndex, centres: [number, number][]): ScalingRow {
  const q = scalingQuery(centres);
  const base = new Baselines(index);
  const t = timeEach([q], { ours: (x) => nearby(index, x), bare: base.bare });
  return {
    dataset,
    places: index.size,
    typeCount: index.typeCounts()[COMMON] ?? 0,
    hits: nearby(index, q).length,
    ours: t.ours,
    bare: t.bare,
  };
}

/** The curve's table: growth of p50 from the smallest file, beside the growth of log2(n). */
export interface ScalingPoint extends ScalingRow {
  growth: number;
  logGrowth: number;
  /** growth ÷ logGrowth: 1 is exactly logarithmic. */
  overLog: number;
}

/** Prints the scaling table. */
export function scalingSection(rows: ScalingRow[]): ScalingPoint[] {
  const sorted = [...rows].sort((a, b) => a.places - b.places);
  const first = sorted[0];
  const points = sorted.map((r) => {
    const growth = r.ours.p50 / first.ours.p50;
    const logGrowth = Math.log2(r.places) / Math.log2(first.places);
    return { ...r, growth, logGrowth, overLog: growth / logGrowth };
  });
  printTable(
    '3. Scaling',
    ['dataset', 'places', 'type n', 'hits', 'p50 µs', 'p99 µs', 'bare p50 µs', 'p50 growth', 'log2(n) growth', 'growth/log2'],
    points.map((r): Cell[] => [
      r.dataset,
      r.places,
      r.typeCount,
      r.hits,
      r.ours.p50,
      r.ours.p99,
      r.bare.p50,
      ratio(r.growth),
      ratio(r.logGrowth),
      num(r.overLog),
    ]),
    [
      `Query: ${COMMON}, radius 10 km, limit 5, by score, at the first tile's centre (central Kathmandu, the same in every file).`,
      'Growth is from the smallest file; growth/log2 near 1 (or below) means growth no faster than logarithmic.',
      'The generated files are tiles of the fixture spread over Nepal: more places means more tiles, not denser ones.',
    ],
  );
  return points;
}
