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
import { Later } from './later.js';

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

/** A part of an index given made, or a maker of it (a snapshot's parts are made on first use, see `Later`). */
export type Part<T> = T | Later<T>;

const later = <T>(p: Part<T>): Later<T> => (p instanceof Later ? p : Later.of(p));

/**
 * A loaded set of places: the place table, one spatial index per type, and the
 * parsed opening hours. Built by `loadPbf()`; read by the query functions.
 * Its fields are the engine's own layout, not a stable API. An index makes its parts (the text
 * index, the reverse and lookup indexes, each mode's road graph, …) on their first use, or all at
 * once by `openWhole`; a snapshot's may then throw `SnapshotError` `corrupted` where its bytes are
 * damaged.
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
  private readonly parts: {
    lookup: Later<PlaceLookup>;
    words: Later<Words>;
    landmarks: Later<Landmarks>;
    streets: Later<Streets>;
    bounds: Later<Bounds | undefined>;
    router: Later<Router | undefined>;
  };
  /**
   * @internal What the index left to first use, made now in steps, each yielding what it made
   * (`openWhole`, `fromSnapshot`'s `whole`, a server's handover).
   */
  readonly unmade: (() => Generator<string, void>) | undefined;

  /** @internal Every row by placeId. */
  get lookup(): PlaceLookup {
    return this.parts.lookup.get();
  }
  /** @internal The text index of the named rows, for `search`. */
  get words(): Words {
    return this.parts.words.get();
  }
  /** @internal Named places, localities and addressed buildings, for `reverse`. */
  get landmarks(): Landmarks {
    return this.parts.landmarks.get();
  }
  /** @internal The named streets, segment by segment, for the nearest street to a point. */
  get streets(): Streets {
    return this.parts.streets.get();
  }
  /** @internal The road network and its searches, for `route`. */
  get router(): Router | undefined {
    return this.parts.router.get();
  }
  set router(router: Router | undefined) {
    this.parts.router.set(router);
  }
  /** The box around every row's centroid (undefined when the data is empty), degrees. */
  get bounds(): Bounds | undefined {
    return this.parts.bounds.get();
  }

  /** What a pack (a snapshot of one area, or of some parts) holds; undefined for a whole index. */
  pack: PackInfo | undefined;
  /** @internal The scratch of the walks over `types` and `landmarks` (see `around`): lent per walk, never index data. */
  readonly walks = new Walks();

  /**
   * @internal `built`: the lookup, text index and landmarks when they were found before, or
   * their makers (a snapshot's), and a snapshot's router and `unmade`.
   */
  constructor(
    table: PlaceTable,
    types: Map<string, TypeTree>,
    streets: Part<Streets>,
    license: string,
    stats: LoadStats,
    built?: {
      lookup: Part<PlaceLookup>;
      words: Part<Words>;
      landmarks: Part<Landmarks>;
      router?: Later<Router | undefined>;
      unmade?: () => Generator<string, void>;
    },
  ) {
    this.table = table;
    this.types = types;
    // a load's are made on first use too: at Nepal scale they are seconds of work an app may never
    // ask for (a text index when it only looks for nearby places), and without them the addresses
    // take both threads at the end of a load
    this.parts = {
      lookup: built ? later(built.lookup) : new Later(() => new PlaceLookup(table)),
      words: built ? later(built.words) : new Later(() => Words.build(table)),
      landmarks: built ? later(built.landmarks) : new Later(() => new Landmarks(table)),
      streets: later(streets),
      // a snapshot's is made on first use, as its table's coordinates are
      bounds: built ? new Later(() => tableBounds(table)) : Later.of(tableBounds(table)),
      router: built?.router ?? Later.of(undefined),
    };
    this.unmade = built ? built.unmade : () => this.madeParts();
    this.license = license;
    this.stats = stats;
    this.size = stats.points + stats.lineStrings + stats.polygons + stats.multiPolygons;
  }

  /** Number of places (rows that `nearby` can answer with; the table also holds localities, streets and buildings). */
  readonly size: number;

  // A load's parts left to first use, made one after another (`unmade`).
  private *madeParts(): Generator<string, void> {
    for (const tt of this.types.values()) void tt.nodeMax;
    yield 'types';
    void this.landmarks;
    yield 'landmarks';
    void this.words;
    yield 'text index';
    void this.lookup;
    yield 'lookup';
    const rt = this.router;
    if (rt) for (let m = 0; m < rt.modes.length; m++) void rt.modes[m];
    yield 'routing';
    this.table.pending?.fill();
    yield 'addresses';
  }

  /** The queryable types (plain and merged) and how many places each has. */
  typeCounts(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [type, t] of [...this.types].sort((a, b) => (a[0] < b[0] ? -1 : 1))) out[type] = t.place.length;
    return out;
  }
}
