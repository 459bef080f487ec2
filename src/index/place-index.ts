import type { PlaceTable } from '../model/table.js';
import type { TypeTree } from './type-trees.js';
import type { Streets } from './streets.js';
import type { LoadStats, LoadTimings } from '../types.js';
import { PlaceLookup } from './lookup.js';
import { Landmarks } from './landmarks.js';
import { Words } from '../search/words.js';
import { Walks } from './around.js';
import type { Router } from '../route/router.js';
import { tableBounds, type Bounds } from './bounds.js';

/**
 * What a pack holds (`buildSnapshot(index, { bbox, modes, routing, search })`, docs/api.md):
 * its area, the modes it routes and whether it has a text index. Queries outside what it holds
 * throw `InvalidQueryError` saying so.
 */
export interface PackInfo {
  /** The area, `[west, south, east, north]` degrees; null when the pack keeps the whole data. */
  bbox: [number, number, number, number] | null;
  /** The named region the area is (`REGIONS`), if it was asked by name. */
  region?: string;
  /** The modes it routes (empty without routing). */
  modes: string[];
  /** Whether it has the road graph (`route`, `matrix`, `isochrone`, `nearby` by time). */
  routing: boolean;
  /** Whether it has the text index (`search`). */
  search: boolean;
}

/**
 * A loaded set of places: the place table, one spatial index per type, and the
 * parsed opening hours. Built by `loadPbf()`; read by the query functions.
 * Its fields are the engine's own layout, not a stable API.
 */
export class PlaceIndex {
  /** The `license` of every record. */
  readonly license: string;
  /** How long the load's phases took, in wall milliseconds. */
  timings: LoadTimings = { read: 0, decode: 0, types: 0, addresses: 0, search: 0, roads: 0 };
  /** What the load read, built and skipped. */
  readonly stats: LoadStats;
  /** @internal */
  readonly table: PlaceTable;
  /** @internal */
  readonly types: Map<string, TypeTree>;
  /** @internal Every row by placeId. */
  readonly lookup: PlaceLookup;
  /** @internal The text index of the named rows, for `search`. */
  readonly words: Words;
  /** @internal Named places, localities and addressed buildings, for `reverse`. */
  readonly landmarks: Landmarks;
  /** @internal The named streets, segment by segment, for the nearest street to a point. */
  readonly streets: Streets;
  /** @internal The road network and its searches, for `route`. */
  router: Router | undefined;
  /** What a pack (a snapshot of one area, or of some parts) holds; undefined for a whole index. */
  pack: PackInfo | undefined;
  /** @internal The scratch of the walks over `types` and `landmarks` (see `around`): lent per walk, never index data. */
  readonly walks = new Walks();
  /** The box around every row's centroid (undefined when the data is empty), degrees. */
  readonly bounds: Bounds | undefined;

  /** @internal `built`: the lookup, text index and landmarks when they were found before (a snapshot's). */
  constructor(
    table: PlaceTable,
    types: Map<string, TypeTree>,
    streets: Streets,
    license: string,
    stats: LoadStats,
    built?: { lookup: PlaceLookup; words: Words; landmarks: Landmarks },
  ) {
    this.table = table;
    this.types = types;
    this.lookup = built?.lookup ?? new PlaceLookup(table);
    this.words = built?.words ?? Words.build(table);
    this.landmarks = built?.landmarks ?? new Landmarks(table);
    this.streets = streets;
    this.license = license;
    this.stats = stats;
    this.size = stats.points + stats.lineStrings + stats.polygons + stats.multiPolygons;
    this.bounds = tableBounds(table);
  }

  /** Number of places (rows that `nearby` can answer with; the table also holds localities, streets and buildings). */
  readonly size: number;

  /** The queryable types (plain and merged) and how many places each has. */
  typeCounts(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [type, t] of [...this.types].sort((a, b) => (a[0] < b[0] ? -1 : 1))) out[type] = t.place.length;
    return out;
  }
}
