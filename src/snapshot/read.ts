import type KDBush from 'kdbush';
import { PlaceIndex, type PackInfo } from '../index/place-index.js';
import { MODES, type Mode } from '../osm/modes.js';
import { lazyTypeTree, typeTree, type TypeTree } from '../index/type-trees.js';
import { Streets } from '../index/streets.js';
import { PlaceLookup } from '../index/lookup.js';
import { Landmarks } from '../index/landmarks.js';
import { OLD, Words } from '../search/words.js';
import { Schedules } from '../hours/schedules.js';
import {
  MULTIPOLYGON,
  BUILDING,
  POINT,
  LINE,
  POLYGON,
  COLUMNS,
  COLUMN_NAMES,
  likeColumn,
  type Column,
  type ColumnArray,
  type ColumnName,
  type PlaceTable,
} from '../model/table.js';
import { SnapshotError } from '../errors.js';
import { SectionReader, isPermutation, type ArrayType, type Handover, type IntArray } from './sections.js';
import { kdbushFrom } from './kdbush.js';
import type { Meta } from './build.js';
import { readRoads, type RoadMeta } from './roads.js';
import { Later, lazyFields, isMade } from '../index/later.js';
import type { LoadStats } from '../types.js';

/** Options of `fromSnapshot`. */
export interface SnapshotOptions {
  /**
   * Decode and check every part now, as the first query of each kind would (`openWhole`): a
   * damaged section is refused by the open, not by a later query. Slower to open (seconds at
   * Nepal scale), for a tool that vets a file before shipping it.
   */
  whole?: boolean;
}

/**
 * Reads a snapshot written by `buildSnapshot` into an index that answers every query
 * as the one it was built from. Opening reads the header and the directory alone (its
 * hash checked); each part is decoded, its sections' hashes and values checked, when a
 * query first needs it (the spatial index of a type at the first `nearby` of that type,
 * the text index at the first `search`, the landmarks and streets at the first `reverse`,
 * the road graph at the first route; each mode's hierarchy at that mode's first route),
 * then kept. Most arrays view `bytes` instead of copying them: do not modify them afterwards.
 *
 * Bytes that are truncated, of another format version or not a snapshot, or a damaged header
 * or directory, throw `SnapshotError` here, saying which; `file` names them in its message. A
 * damaged section throws `SnapshotError` `corrupted` from the first query that needs it (and
 * from every later one), never a wrong answer; `{ whole: true }` checks every section now.
 *
 * @example
 * const res = await fetch('/nepal.places');
 * const index = fromSnapshot(await res.arrayBuffer());
 */
export function fromSnapshot(bytes: Uint8Array | ArrayBuffer, file = '<buffer>', options: SnapshotOptions = {}): PlaceIndex {
  return allSteps(snapshotSteps(bytes, file, options));
}

/**
 * Makes now every part of an index that `fromSnapshot` or `loadPbf` left to its first use (nothing
 * for an index made whole), so that no query pays for one; a snapshot's throws `SnapshotError`
 * `corrupted` as the first query that needs a damaged part would. Returns the index.
 */
export function openWhole(index: PlaceIndex): PlaceIndex {
  if (index.unmade) allSteps(index.unmade());
  return index;
}

/** Runs steps (`snapshotSteps`) to their end, at once; what the last returns. */
export function allSteps<T>(steps: Generator<string, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * Internal options of `snapshotSteps` (the library's `fromSnapshot` passes none, or `whole`).
 * `keep` and `proven` are `SectionReader`'s: a thread reading the bytes keeps its arrays and its
 * router's graphs, and the serving thread, handed both with the bytes, takes them as proven.
 * Either makes every part in the steps.
 */
export interface StepOptions extends SnapshotOptions {
  keep?: Handover;
  proven?: Handover;
}

/**
 * `fromSnapshot` as steps: each `next()` does a part of the reading (a few sections, one spatial
 * index, one mode's hierarchy) and yields what it did, the last returns the index. A server
 * drives them a turn of its event loop each (`loadOffThread`), so that requests are answered in
 * between; it makes every part in them (`keep`, `proven`). Throws `SnapshotError` as `fromSnapshot` does.
 */
export function* snapshotSteps(bytes: Uint8Array | ArrayBuffer, file: string, options: StepOptions = {}): Generator<string, PlaceIndex> {
  const t0 = performance.now();
  if (!(bytes instanceof Uint8Array) && !(bytes instanceof ArrayBuffer)) {
    throw new SnapshotError('foreign', 'bytes must be a Uint8Array or an ArrayBuffer', file);
  }
  const r = new SectionReader(bytes, file, { keep: options.keep?.arrays, proven: options.proven?.arrays });
  yield 'header';
  const index = sound(r, () => read(r, options));
  yield 'index';
  if (options.whole || options.keep || options.proven) yield* index.unmade!();
  index.timings = { read: 0, decode: Math.round((performance.now() - t0) * 10) / 10, types: 0, addresses: 0, search: 0, roads: 0 };
  return index;
}

/**
 * What `make` returns; any error but a SnapshotError thrown as `corrupted`: the hashes matched, so
 * a section that does not fit is a file written wrong (or crafted), not one damaged since.
 */
function sound<T>(r: SectionReader, make: () => T): T {
  try {
    return make();
  } catch (err) {
    if (err instanceof SnapshotError) throw err;
    throw r.fail('corrupted', (err as Error).message);
  }
}

/** A `Later` whose maker's errors are `corrupted` (`sound`). */
const later = <T>(r: SectionReader, make: () => T) => new Later(() => sound(r, make));

// Every part is made on first use (`Later`, `lazyFields`), each checked as it is made; `unmade`
// makes them all, in steps. Only the directory's small fields are checked here.
function read(r: SectionReader, options: StepOptions): PlaceIndex {
  const meta = r.meta as Meta;
  if (
    typeof meta !== 'object' ||
    meta === null ||
    !Number.isSafeInteger(meta.rows) ||
    !Array.isArray(meta.types) ||
    !Array.isArray(meta.schedules) ||
    typeof meta.license !== 'string' ||
    typeof meta.stats !== 'object'
  ) {
    throw new RangeError('the directory lacks the index fields');
  }
  const n = meta.rows;
  const stringCount = r.count('strings.len');
  // the shape layout is checked against the coordinates when either of its columns is first read
  const shapes = later(r, () => checkShapes(r, t, r.array('shapeStart', Uint32Array), r.array('shape', Uint32Array)));
  const t: PlaceTable = lazyFields<PlaceTable, 'strings' | ColumnName>(
    { size: n, schedules: Schedules.of(meta.schedules.map(String), Number(meta.badSchedules) || 0) },
    ['strings', ...COLUMN_NAMES],
    (name) =>
      (name === 'strings'
        ? sound(r, () => r.strings('strings'))
        : name === 'shapeStart'
          ? shapes.get().starts
          : name === 'shape'
            ? shapes.get().shape
            : sound(r, () => column(r, t, name, stringCount))) as PlaceTable[typeof name],
  );

  const types = typeTrees(r, t, meta, stringCount);
  const landmarks = later(r, () => {
    const landmarkIds = r.array('landmarkIds', Uint32Array);
    return new Landmarks(t, {
      tree: (rows) => kdbush(r, landmarkIds, r.nodeSize('landmarkIds'), t, rows, 'landmarks'),
      boxes: r.has('landmarkBoxes.ids') ? (items, box) => r.flatbush('landmarkBoxes', items, box) : undefined,
      areaM2: r.array('landmarkAreas', Float64Array),
    });
  });
  const streets = later(r, () => new Streets(t, r.has('streets.ids') ? (items, box) => r.flatbush('streets', items, box) : undefined));
  const sorted = later(r, () => r.strings('words'));
  const words = later(r, () => {
    const w = new Words({
      sorted: sorted.get(),
      sortedId: r.array('wordId', Uint32Array),
      docRow: r.array('docRow', Uint32Array),
      docLen: r.array('docLen', Uint16Array),
      docOld: r.array('docOld', Uint8Array),
      avgLen: Number(meta.avgLen),
      start: r.array('postingStart', Uint32Array),
      doc: r.array('postingDoc', Uint32Array),
      tf: r.array('postingTf', Uint8Array),
    });
    if (!r.proven) checkWords(w, n);
    return w;
  });
  const lookup = later(r, () => new PlaceLookup(t, r.array('lookup', Uint32Array, n)));
  const roads = meta.roads;
  const router = later(r, () => (roads ? allSteps(readRoads(r, roads, options)) : undefined));
  const pack = meta.pack !== undefined ? checkPackMeta(meta.pack, roads) : undefined;

  function* unmade(): Generator<string, void> {
    if (!isMade(t, 'strings')) t.strings = yield* sounds(r, r.stringSteps('strings'));
    for (const name of COLUMN_NAMES) {
      void t[name];
      yield name;
    }
    let i = 0;
    for (const [name, tree] of types) {
      void tree.nodeMax;
      // types are many and mostly small: a step every few hundred thousand items
      if (tree.place.length > 50_000 || i++ % 16 === 15) yield `types to ${name}`;
    }
    yield 'types';
    void landmarks.get();
    yield 'landmarks';
    void streets.get();
    yield 'streets';
    if (!sorted.made) sorted.set(yield* r.stringSteps('words'));
    void words.get();
    yield 'text index';
    void lookup.get();
    void index.bounds;
    yield 'lookup';
    if (roads && !router.made) router.set(yield* sounds(r, readRoads(r, roads, options)));
    // a plain read leaves each mode's hierarchy to its first use: made here, every one
    const rt = router.get();
    if (rt) for (let m = 0; m < rt.modes.length; m++) if (rt.has(m)) void rt.hierarchies[m];
  }
  const index = new PlaceIndex(t, types, streets, meta.license, checkStats(meta.stats), { lookup, words, landmarks, router, unmade });
  index.pack = pack;
  return index;
}

/** Steps whose errors are `corrupted` (`sound`). */
function* sounds<T>(r: SectionReader, steps: Generator<string, T>): Generator<string, T> {
  for (;;) {
    const step = sound(r, () => steps.next());
    if (step.done) return step.value;
    yield step.value;
  }
}

/**
 * Column `name` of the table, decoded and checked against what the directory says of the others
 * (their lengths, the strings' count): a file written wrong must not read out of range or loop
 * over a bogus count. All linear and cheap; each column alone, so that a query pays for the columns it reads.
 */
function column(r: SectionReader, t: PlaceTable, name: ColumnName, strings: number): ColumnArray<ColumnName> {
  const c: Column = COLUMNS[name];
  const n = t.size;
  const below = c.strings ? strings : name === 'kind' ? 3 : name === 'what' ? BUILDING + 1 : name === 'geom' ? MULTIPOLYGON + 1 : undefined;
  const like = c.like;
  // stored as 0 for the value of column `like` in the row, else the value plus 1
  const a = (
    like
      ? r.decoded(name, Uint32Array, () =>
          likeColumn(r.array(name, Uint32Array, below === undefined ? undefined : below + 1), t[like], true),
        )
      : r.array<IntArray>(name, c.type as ArrayType, below)
  ) as ColumnArray<ColumnName>;
  if (r.proven) return a;
  if (c.size === 'rows' && a.length !== n) throw new RangeError(`table column ${name} is not ${n} rows long`);
  if (c.size === 'starts') {
    // the values a row's range indexes: tag pairs, types, shape numbers, coordinates
    const end = {
      tagStart: r.count('tagKV') / 2,
      typeStart: r.count('typeList'),
      shapeStart: r.count('shape'),
      coordStart: r.count('coords'),
    }[name as 'tagStart'];
    const s = a as Uint32Array;
    if (s.length !== n + 1 || s[0] !== 0 || s[n] !== end) throw new RangeError('a table offset column does not fit its data');
    for (let i = 0; i < n; i++) if (s[i + 1] < s[i]) throw new RangeError('a table offset column goes backwards');
  }
  if (name === 'osmId') {
    const ids = a as Float64Array;
    for (let i = 0; i < n; i++) {
      // placeId = osmId * 4 + kind must be a whole number, exact in a double: a fractional,
      // NaN or huge id would come out of every query as a placeId that place() cannot find
      const id = ids[i];
      if (!(Number.isInteger(id) && Math.abs(id) < MAX_OSM_ID))
        throw new RangeError(`row ${i} has osmId ${id}, not a whole number below 2^51`);
    }
  }
  if (name === 'hours') {
    const h = a as Int32Array;
    for (let i = 0; i < n; i++) if (h[i] >= t.schedules.size) throw new RangeError(`row ${i} has an unknown kind`);
  }
  return a;
}

/** The shape columns, once each row's layout (see PlaceTable) accounts for exactly its coordinates. */
function checkShapes(
  r: SectionReader,
  t: PlaceTable,
  starts: Uint32Array,
  shape: Uint32Array,
): { starts: Uint32Array; shape: Uint32Array } {
  const n = t.size;
  if (r.proven) return { starts, shape };
  if (starts.length !== n + 1 || starts[0] !== 0 || starts[n] !== shape.length)
    throw new RangeError('a table offset column does not fit its data');
  for (let i = 0; i < n; i++) if (starts[i + 1] < starts[i]) throw new RangeError('a table offset column goes backwards');
  const { geom, coordStart } = t;
  for (let i = 0; i < n; i++)
    if (!shapeFits(geom, coordStart, starts, shape, i)) throw new RangeError(`row ${i}'s shape does not fit its coordinates`);
  return { starts, shape };
}

/**
 * The types' spatial indexes, each made on its first use: its places and matched types are views
 * of two sections decoded for all, its KDBush and score bounds its own.
 */
function typeTrees(r: SectionReader, t: PlaceTable, meta: Meta, strings: number): Map<string, TypeTree> {
  const total = r.count('typeIds');
  if (r.count('typePlace') !== total || r.count('typeMatched') !== total) throw new RangeError("the types' items do not fit together");
  // each decoded for all types at the first that needs it: a type's places alone (its count) need no tree
  const ids = later(r, () => r.array('typeIds', Uint32Array));
  const places = later(r, () => r.array('typePlace', Uint32Array, t.size));
  const matched = later(r, () => r.array('typeMatched', Uint32Array, strings));
  const types = new Map<string, TypeTree>();
  let at = 0;
  for (const [i, { name, items, nodeSize }] of meta.types.entries()) {
    if (typeof name !== 'string' || !Number.isSafeInteger(items) || items < 0 || at + items > total) {
      throw new RangeError(`type ${i} does not fit its places`);
    }
    const from = at;
    const rows = later(r, () => places.get().subarray(from, from + items));
    const made = later(r, () => {
      const place = rows.get();
      const tree = kdbush(r, ids.get().subarray(from, from + items), nodeSize, t, place, `type ${name}`);
      return typeTree(t, tree, place, matched.get().subarray(from, from + items));
    });
    types.set(
      name,
      lazyTypeTree(
        () => rows.get(),
        () => made.get().matched,
        made,
      ),
    );
    at += items;
  }
  if (at !== total) throw new RangeError(`${total - at} type items belong to no type`);
  return types;
}

// A pack's record, as `packIndex` writes it: a box of four numbers or null, modes among MODES
// (none without routing; each with its hierarchy), two flags.
function checkPackMeta(p: PackInfo, roads: RoadMeta | undefined): PackInfo {
  const bad = (what: string) => new RangeError(`the pack's record ${what}`);
  if (typeof p !== 'object' || p === null) throw bad('is not an object');
  if (p.bbox !== null && !(Array.isArray(p.bbox) && p.bbox.length === 4 && p.bbox.every(Number.isFinite))) throw bad('has no box');
  if (p.region !== undefined && typeof p.region !== 'string') throw bad('has a region that is no name');
  if (typeof p.routing !== 'boolean' || typeof p.search !== 'boolean') throw bad('lacks its flags');
  if (!Array.isArray(p.modes) || !p.modes.every((m) => MODES.includes(m as Mode))) throw bad('has unknown modes');
  if (p.routing !== !!roads) throw bad(`says it ${p.routing ? 'routes' : 'does not route'}, but it has ${roads ? 'roads' : 'no roads'}`);
  for (const m of p.modes) if (!roads?.hierarchies?.[MODES.indexOf(m as Mode)]) throw bad(`lists ${m}, whose hierarchy it lacks`);
  return {
    bbox: p.bbox && [...p.bbox],
    ...(p.region !== undefined && { region: p.region }),
    modes: [...p.modes],
    routing: p.routing,
    search: p.search,
  };
}

const STATS: (keyof LoadStats)[] = [
  'nodes',
  'ways',
  'relations',
  'points',
  'lineStrings',
  'polygons',
  'multiPolygons',
  'partial',
  'skippedWays',
  'skippedRelations',
  'schedules',
  'badSchedules',
  'roadNodes',
  'roadEdges',
  'restrictions',
  'skippedRestrictions',
  'skippedBlobs',
  'duplicates',
];

// The stats are counts (the index's size is their sum): whole and not negative.
function checkStats(stats: LoadStats): LoadStats {
  if (stats === null || Array.isArray(stats)) throw new RangeError("the directory's stats are not an object");
  // snapshots written before skippedBlobs and duplicates were counted skipped and dropped none they know of
  const out = { ...stats, skippedBlobs: stats.skippedBlobs ?? 0, duplicates: stats.duplicates ?? 0 };
  for (const name of STATS) {
    const v = out[name];
    if (!(Number.isSafeInteger(v) && v >= 0))
      throw new RangeError(`stats.${name} is ${typeof v === 'number' ? v : JSON.stringify(v)}, not a count`);
  }
  return out;
}

/** OSM ids must stay below this in magnitude for `osmId * 4 + kind` to be exact. */
const MAX_OSM_ID = 2 ** 51;

// A spatial index's item ids are what its searches return and the index maps to rows:
// each must be an item (below numItems), and each item once (a permutation), or a
// search would return a row twice or one that does not exist. Its points are the rows'
// own centroids, put in place here: none can lie elsewhere than its row.
function kdbush(r: SectionReader, ids: Uint32Array, nodeSize: unknown, t: PlaceTable, rows: Uint32Array, what: string): KDBush {
  if (!(Number.isSafeInteger(nodeSize) && (nodeSize as number) >= 2 && (nodeSize as number) <= 0xffff))
    throw new RangeError(`the ${what} tree has a node size of ${String(nodeSize)}`);
  if (ids.length !== rows.length || (!r.proven && !isPermutation(ids)))
    throw new RangeError(`the ${what} tree's item ids are not its items`);
  return kdbushFrom(ids, nodeSize as number, t.lon, t.lat, rows);
}

// Whether row r's shape layout (see PlaceTable) accounts for exactly its coordinates.
function shapeFits(geom: Uint8Array, coordStart: Uint32Array, shapeStart: Uint32Array, shape: Uint32Array, r: number): boolean {
  const s0 = shapeStart[r],
    s1 = shapeStart[r + 1];
  const coords = coordStart[r + 1] - coordStart[r];
  const g = geom[r];
  if (g === POINT) return s1 === s0 && coords === 0;
  if (g === LINE) return s1 - s0 === 1 && 2 * shape[s0] === coords;
  let s = s0,
    points = 0;
  const polygons = g === POLYGON ? 1 : shape[s++];
  for (let p = 0; p < polygons && s < s1; p++) {
    const rings = shape[s++];
    if (rings > s1 - s) return false;
    for (let k = 0; k < rings; k++) points += shape[s++];
  }
  return s === s1 && 2 * points === coords;
}

function checkWords(w: Words, rows: number): void {
  const { sorted, sortedId, docRow, docLen, docOld, start, doc, tf } = w.data;
  const words = sorted.length,
    docs = docRow.length;
  if (
    sortedId.length !== words ||
    docLen.length !== docs ||
    docOld.length !== docs ||
    start.length !== words + 1 ||
    start[words] !== doc.length ||
    tf.length !== doc.length
  ) {
    throw new RangeError('the text index arrays do not fit together');
  }
  for (let i = 0; i < words; i++) {
    if (sortedId[i] >= words || start[i + 1] < start[i] || (i > 0 && !(sorted[i - 1] < sorted[i])))
      throw new RangeError('the text index words are out of order');
  }
  for (let d = 0; d < docs; d++)
    if (docRow[d] >= rows || (d > 0 && docRow[d] < docRow[d - 1])) throw new RangeError('a text index document is out of range');
  for (let d = 0; d < docs; d++) if (docOld[d] > OLD) throw new RangeError(`a text index document of unknown kind ${docOld[d]}`);
  for (let k = 0; k < doc.length; k++) if (doc[k] >= docs) throw new RangeError('a text index posting is out of range');
}
