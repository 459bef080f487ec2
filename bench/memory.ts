// Section 4, memory: bytes per place of the index, counted from what it holds (typed
// arrays and strings), without tags and geometry and with them, beside the heap the
// load actually kept.

import type { PlaceIndex } from '../src/index.js';
import { printTable, mb, type Cell } from './table.js';

/** The table's arrays that carry tags and geometry; every other typed array is the core. */
const TAGS_GEOMETRY = new Set(['tagStart', 'tagKV', 'geom', 'shapeStart', 'shape', 'coordStart', 'coords']);

/** One index's memory, bytes. */
export interface MemoryRow {
  dataset: string;
  places: number;
  /** Per-type spatial trees: KDBush data and each tree's per-item arrays. */
  trees: number;
  /** Per-place typed arrays other than tags and geometry (ids, centroids, types, prominence, hours…). */
  core: number;
  /** Tag and geometry arrays (tag pairs, shapes, coordinates). */
  tagsGeometry: number;
  /** The string table (names, addresses, tag keys and values, types), estimated as V8 keeps it. */
  strings: number;
  stringCount: number;
  /** `heapUsed` + `arrayBuffers` growth over the load, after gc. */
  heapDelta: number;
}

/** Counts what an index holds; `heapDelta` is what its load kept (see load-child.ts). */
export function measureMemory(dataset: string, index: PlaceIndex, heapDelta: number): MemoryRow {
  const seen = new Set<ArrayBufferLike>();
  // a buffer's whole allocation, once: a view may be a trimmed window of a larger buffer
  const bytes = (a: ArrayBufferView | ArrayBufferLike): number => {
    const buf = ArrayBuffer.isView(a) ? a.buffer : a;
    if (seen.has(buf)) return 0;
    seen.add(buf);
    return buf.byteLength;
  };
  let trees = 0;
  for (const t of index.types.values()) {
    trees += bytes(t.tree.data);
    for (const v of Object.values(t)) if (ArrayBuffer.isView(v)) trees += bytes(v);
  }
  let core = 0,
    tagsGeometry = 0;
  for (const [name, v] of Object.entries(index.table)) {
    if (!ArrayBuffer.isView(v)) continue;
    if (TAGS_GEOMETRY.has(name)) tagsGeometry += bytes(v);
    else core += bytes(v);
  }
  const strings = index.table.strings;
  return {
    dataset,
    places: index.size,
    trees,
    core,
    tagsGeometry,
    strings: stringBytes(strings),
    stringCount: strings.length,
    heapDelta,
  };
}

// V8 on 64-bit: a sequential string has a 16-byte header and 1 byte a character when all
// are Latin-1, else 2; the array holding it spends an 8-byte slot on it
function stringBytes(strings: string[]): number {
  let n = strings.length * 8;
  for (const s of strings) {
    let wide = false;
    for (let i = 0; i < s.length && !wide; i++) wide = s.charCodeAt(i) > 0xff;
    n += 16 + Math.ceil((s.length * (wide ? 2 : 1)) / 8) * 8;
  }
  return n;
}

/** Prints the memory table. */
export function memorySection(rows: MemoryRow[]): void {
  const per = (x: number, r: MemoryRow) => (r.places ? x / r.places : undefined);
  printTable(
    '4. Memory (bytes per place)',
    [
      'dataset',
      'places',
      'trees',
      'core arrays',
      'without tags+geom',
      'tags+geom arrays',
      'strings',
      'with tags+geom',
      'heap delta',
      'with, MB',
      'heap delta MB',
    ],
    [...rows]
      .sort((a, b) => a.places - b.places)
      .map((r): Cell[] => {
        const without = r.trees + r.core,
          all = without + r.tagsGeometry + r.strings;
        return [
          r.dataset,
          r.places,
          per(r.trees, r),
          per(r.core, r),
          per(without, r),
          per(r.tagsGeometry, r),
          per(r.strings, r),
          per(all, r),
          per(r.heapDelta, r),
          mb(all),
          mb(r.heapDelta),
        ];
      }),
    [
      "trees: each type's KDBush (Int32 lon/lat, ids) with its place, matched, prominence and node-bound arrays.",
      "core arrays: the place table's other typed arrays (osm id, kind, centroid, name/address refs, types, prominence, hours).",
      'without tags+geom = trees + core arrays. with tags+geom adds the tag and geometry arrays and the string table.',
      'Typed arrays count their whole buffer (unused capacity included). strings: estimated as V8 stores them',
      '  (16 B header + 1 or 2 B a character, 8 B array slot). Parsed opening_hours objects are not counted.',
      'heap delta: heapUsed + arrayBuffers kept by the load in its process, after gc: what the index really costs.',
    ],
  );
}
