import type KDBush from 'kdbush';
import { PlaceIndex, type PackInfo } from '../index/place-index.js';
import { MODES, type Mode } from '../osm/modes.js';
import { typeTree, type TypeTree } from '../index/type-trees.js';
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
import { readRoads } from './roads.js';
import type { LoadStats } from '../types.js';

/**
 * Reads a snapshot written by `buildSnapshot` into an index that answers every query
 * as the one it was built from. Spatial indexes are restored with their `from()`,
 * and most arrays view `bytes` instead of copying them: do not modify them afterwards.
 * Bytes that are truncated, damaged, of another format version or not a snapshot
 * throw `SnapshotError`, saying which; `file` names them in its message.
 *
 * @example
 * const res = await fetch('/nepal.places');
 * const index = fromSnapshot(await res.arrayBuffer());
 */
export function fromSnapshot(bytes: Uint8Array | ArrayBuffer, file = '<buffer>'): PlaceIndex {
  return allSteps(snapshotSteps(bytes, file));
}

/** Runs steps (`snapshotSteps`) to their end, at once; what the last returns. */
export function allSteps<T>(steps: Generator<string, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * Internal options of `snapshotSteps` (the library's `fromSnapshot` passes none: it checks everything).
 * `keep` and `proven` are `SectionReader`'s: a thread reading the bytes keeps its arrays and its
 * router's graphs, and the serving thread, handed both with the bytes, takes them as proven.
 */
export interface StepOptions {
  keep?: Handover;
  proven?: Handover;
}

/**
 * `fromSnapshot` as steps: each `next()` does a part of the reading (a few sections, one spatial
 * index, one mode's hierarchy) and yields what it did, the last returns the index. A server
 * drives them a turn of its event loop each (`loadOffThread`), so that requests are answered in
 * between. Throws `SnapshotError` as `fromSnapshot` does.
 */
export function* snapshotSteps(bytes: Uint8Array | ArrayBuffer, file: string, options: StepOptions = {}): Generator<string, PlaceIndex> {
  const t0 = performance.now();
  if (!(bytes instanceof Uint8Array) && !(bytes instanceof ArrayBuffer)) {
    throw new SnapshotError('foreign', 'bytes must be a Uint8Array or an ArrayBuffer', file);
  }
  const r = new SectionReader(bytes, file, { keep: options.keep?.arrays, proven: options.proven?.arrays });
  yield 'header';
  let index: PlaceIndex;
  try {
    index = yield* read(r, options);
  } catch (err) {
    // the checksum matched, so this is a file written wrong, not one damaged since
    if (err instanceof SnapshotError) throw err;
    throw r.fail('corrupted', (err as Error).message);
  }
  index.timings = { read: 0, decode: Math.round((performance.now() - t0) * 10) / 10, types: 0, addresses: 0, search: 0, roads: 0 };
  return index;
}

function* read(r: SectionReader, options: StepOptions): Generator<string, PlaceIndex> {
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
  const strings = yield* r.stringSteps('strings');
  const columns: Partial<Record<ColumnName, ColumnArray<ColumnName>>> = {};
  for (const name of COLUMN_NAMES) {
    const c: Column = COLUMNS[name];
    const below = c.strings ? strings.length : undefined;
    const like = c.like;
    // stored as 0 for the value of column `like` in the row, else the value plus 1
    columns[name] = (
      like
        ? r.decoded(name, Uint32Array, () =>
            likeColumn(r.array(name, Uint32Array, below === undefined ? undefined : below + 1), columns[like] as Uint32Array, true),
          )
        : r.array<IntArray>(name, c.type as ArrayType, below)
    ) as ColumnArray<ColumnName>;
  }
  const t = {
    ...(columns as { [K in ColumnName]: ColumnArray<K> }),
    size: meta.rows,
    strings,
    schedules: Schedules.of(meta.schedules.map(String), Number(meta.badSchedules) || 0),
  } satisfies PlaceTable;
  yield 'table';
  if (!r.proven) {
    checkTable(t);
    yield 'table checked';
  }

  const ids = r.array('typeIds', Uint32Array);
  const places = r.array('typePlace', Uint32Array, t.size);
  const matched = r.array('typeMatched', Uint32Array, strings.length);
  if (ids.length !== places.length || matched.length !== places.length) throw new RangeError("the types' items do not fit together");
  const types = new Map<string, TypeTree>();
  let at = 0;
  for (const [i, { name, items, nodeSize }] of meta.types.entries()) {
    if (typeof name !== 'string' || !Number.isSafeInteger(items) || items < 0 || at + items > places.length) {
      throw new RangeError(`type ${i} does not fit its places`);
    }
    const rows = places.subarray(at, at + items);
    const tree = kdbush(r, ids.subarray(at, at + items), nodeSize, t, rows, `type ${name}`);
    types.set(name, typeTree(t, tree, rows, matched.subarray(at, at + items)));
    at += items;
    // types are many and mostly small: a step every few hundred thousand items
    if (items > 50_000 || i % 16 === 15) yield `types to ${name}`;
  }
  if (at !== places.length) throw new RangeError(`${places.length - at} type items belong to no type`);
  yield 'types';

  const landmarkIds = r.array('landmarkIds', Uint32Array);
  const landmarks = new Landmarks(t, {
    tree: (rows) => kdbush(r, landmarkIds, r.nodeSize('landmarkIds'), t, rows, 'landmarks'),
    boxes: r.has('landmarkBoxes.ids') ? (items, box) => r.flatbush('landmarkBoxes', items, box) : undefined,
    areaM2: r.array('landmarkAreas', Float64Array),
  });
  yield 'landmarks';
  const streets = new Streets(t, r.has('streets.ids') ? (items, box) => r.flatbush('streets', items, box) : undefined);
  yield 'streets';
  const sorted = yield* r.stringSteps('words');
  const words = new Words({
    sorted,
    sortedId: r.array('wordId', Uint32Array),
    docRow: r.array('docRow', Uint32Array),
    docLen: r.array('docLen', Uint16Array),
    docOld: r.array('docOld', Uint8Array),
    avgLen: Number(meta.avgLen),
    start: r.array('postingStart', Uint32Array),
    doc: r.array('postingDoc', Uint32Array),
    tf: r.array('postingTf', Uint8Array),
  });
  if (!r.proven) checkWords(words, t.size);
  yield 'text index';
  const lookup = new PlaceLookup(t, r.array('lookup', Uint32Array, t.size));
  const index = new PlaceIndex(t, types, streets, meta.license, checkStats(meta.stats), { lookup, words, landmarks });
  yield 'index';
  if (meta.roads) index.router = yield* readRoads(r, meta.roads, options);
  if (meta.pack !== undefined) index.pack = checkPackMeta(meta.pack, index);
  return index;
}

// A pack's record, as `packIndex` writes it: a box of four numbers or null, modes among MODES
// (none without routing; each with its hierarchy), two flags.
function checkPackMeta(p: PackInfo, index: PlaceIndex): PackInfo {
  const bad = (what: string) => new RangeError(`the pack's record ${what}`);
  if (typeof p !== 'object' || p === null) throw bad('is not an object');
  if (p.bbox !== null && !(Array.isArray(p.bbox) && p.bbox.length === 4 && p.bbox.every(Number.isFinite))) throw bad('has no box');
  if (p.region !== undefined && typeof p.region !== 'string') throw bad('has a region that is no name');
  if (typeof p.routing !== 'boolean' || typeof p.search !== 'boolean') throw bad('lacks its flags');
  if (!Array.isArray(p.modes) || !p.modes.every((m) => MODES.includes(m as Mode))) throw bad('has unknown modes');
  if (p.routing !== !!index.router)
    throw bad(`says it ${p.routing ? 'routes' : 'does not route'}, but it has ${index.router ? 'roads' : 'no roads'}`);
  for (const m of p.modes) if (!index.router?.has(MODES.indexOf(m as Mode))) throw bad(`lists ${m}, whose hierarchy it lacks`);
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

// The checksum catches damage; these catch a file written wrong, whose bad offsets
// would otherwise read out of range or loop over a bogus count. All linear and cheap.
function checkTable(t: PlaceTable): void {
  const n = t.size;
  for (const name of COLUMN_NAMES)
    if (COLUMNS[name].size === 'rows' && t[name].length !== n) throw new RangeError(`table column ${name} is not ${n} rows long`);
  const starts: [Uint32Array, number][] = [
    [t.tagStart, t.tagKV.length / 2],
    [t.typeStart, t.typeList.length],
    [t.shapeStart, t.shape.length],
    [t.coordStart, t.coords.length],
  ];
  for (const [s, end] of starts) {
    if (s.length !== n + 1 || s[0] !== 0 || s[n] !== end) throw new RangeError('a table offset column does not fit its data');
    for (let i = 0; i < n; i++) if (s[i + 1] < s[i]) throw new RangeError('a table offset column goes backwards');
  }
  for (let i = 0; i < n; i++) {
    // placeId = osmId * 4 + kind must be a whole number, exact in a double: a fractional,
    // NaN or huge id would come out of every query as a placeId that place() cannot find
    const id = t.osmId[i];
    if (!(Number.isInteger(id) && Math.abs(id) < MAX_OSM_ID))
      throw new RangeError(`row ${i} has osmId ${id}, not a whole number below 2^51`);
    if (t.kind[i] > 2 || t.what[i] > BUILDING || t.geom[i] > MULTIPOLYGON || t.hours[i] >= t.schedules.size) {
      throw new RangeError(`row ${i} has an unknown kind`);
    }
    if (!shapeFits(t, i)) throw new RangeError(`row ${i}'s shape does not fit its coordinates`);
  }
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
function shapeFits(t: PlaceTable, r: number): boolean {
  const s0 = t.shapeStart[r],
    s1 = t.shapeStart[r + 1];
  const coords = t.coordStart[r + 1] - t.coordStart[r];
  const g = t.geom[r];
  if (g === POINT) return s1 === s0 && coords === 0;
  if (g === LINE) return s1 - s0 === 1 && 2 * t.shape[s0] === coords;
  let s = s0,
    points = 0;
  const polygons = g === POLYGON ? 1 : t.shape[s++];
  for (let p = 0; p < polygons && s < s1; p++) {
    const rings = t.shape[s++];
    if (rings > s1 - s) return false;
    for (let k = 0; k < rings; k++) points += t.shape[s++];
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
