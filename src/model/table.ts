import type { Schedules } from '../hours/schedules.js';
import type { Codec } from './encoding.js';

/** Geometry kinds, as stored in `PlaceTable.geom`. */
export const POINT = 0,
  LINE = 1,
  POLYGON = 2,
  MULTIPOLYGON = 3;

/**
 * What a row is, as stored in `PlaceTable.what`: a place (it has feature keys and
 * is what `nearby` finds), or a row kept for search, reverse geocoding and
 * addresses only: a locality (`place=*`), a named street, an addressed building.
 */
export const PLACE = 0,
  LOCALITY = 1,
  STREET = 2,
  BUILDING = 3;

/** Where a column's capacity comes from when a table is built (see `Sizes`). */
export type ColumnSize = 'rows' | 'starts' | 'pairs' | 'types' | 'shape' | 'coords';

/** One column of the place table: its typed array, its snapshot encoding, and what sizes it. */
export interface Column {
  type: Float64ArrayConstructor | Int32ArrayConstructor | Uint32ArrayConstructor | Uint8ArrayConstructor;
  codec: Codec;
  /** Rows (one value a row), starts (one a row and one more), tag pairs (two a pair), types, shapes, coordinates (two a node ref). */
  size: ColumnSize;
  /** The values are indexes into `strings`: a snapshot holding one past its end is corrupted. */
  strings?: true;
  /**
   * A `Uint32Array` column mostly equal, row by row, to this earlier one: stored as 0 where it is,
   * else as its value plus 1, so that it deflates to next to nothing (see `likeColumn`).
   */
  like?: 'address';
}

/**
 * The place table's columns, in one place: the place builder makes a list of each, the snapshot
 * writer stores each with its codec, the reader reads each back as its array. Geometry is a
 * flat `coords` array (lon, lat pairs in 1e-7 degrees) described by `shape`: a line is `[n]`,
 * a polygon `[rings, n1, n2…]`, a multipolygon `[polygons, rings, n1…, rings, n1…]`; a point has
 * neither (it is its centroid). `xStart[i]..xStart[i+1]` are row i's values in the column after it.
 */
export const COLUMNS = {
  // `deflate` on top where the encoded bytes still repeat (small codes, runs of one value,
  // counts of 1): half their bytes or less on real data (most a tenth), for well under a
  // millisecond a megabyte inflated at opening
  // ascending within nodes, ways and relations: a byte or two a row as deltas
  osmId: { type: Float64Array, codec: { enc: 'delta' }, size: 'rows' },
  /** 0 node, 1 way, 2 relation. */
  kind: { type: Uint8Array, codec: { enc: 'bits', deflate: true }, size: 'rows' },
  /** Centroid, 1e-7 degrees. */
  lat: { type: Int32Array, codec: { enc: 'delta' }, size: 'rows' },
  lon: { type: Int32Array, codec: { enc: 'delta' }, size: 'rows' },
  name: { type: Uint32Array, codec: { enc: 'bits' }, size: 'rows', strings: true },
  /** The address of the names as mapped, and in English and in Nepali (`address/assign.ts`). */
  address: { type: Uint32Array, codec: { enc: 'bits' }, size: 'rows', strings: true },
  // the English address is the one as mapped in all but a few rows (where names have an English form)
  addressEn: { type: Uint32Array, codec: { enc: 'bits', deflate: true }, size: 'rows', strings: true, like: 'address' },
  addressNe: { type: Uint32Array, codec: { enc: 'bits' }, size: 'rows', strings: true },
  tagStart: { type: Uint32Array, codec: { enc: 'steps', deflate: true }, size: 'starts' },
  /** Pairs of string indexes (key, value). */
  tagKV: { type: Uint32Array, codec: { enc: 'pairs' }, size: 'pairs', strings: true },
  typeStart: { type: Uint32Array, codec: { enc: 'steps', deflate: true }, size: 'starts' },
  /** String indexes of the rows' types. */
  typeList: { type: Uint32Array, codec: { enc: 'bits' }, size: 'types', strings: true },
  geom: { type: Uint8Array, codec: { enc: 'bits', deflate: true }, size: 'rows' },
  /** PLACE, LOCALITY, STREET or BUILDING. */
  what: { type: Uint8Array, codec: { enc: 'bits', deflate: true }, size: 'rows' },
  /** String index of the row's type outside `nearby`: its first type, else its `place`, `highway` or `building` value. */
  primary: { type: Uint32Array, codec: { enc: 'bits' }, size: 'rows', strings: true },
  shapeStart: { type: Uint32Array, codec: { enc: 'steps', deflate: true }, size: 'starts' },
  shape: { type: Uint32Array, codec: { enc: 'varint', deflate: true }, size: 'shape' },
  // a long way's thousands of points would widen every row's step: varint deltas instead
  coordStart: { type: Uint32Array, codec: { enc: 'delta', deflate: true }, size: 'starts' },
  coords: { type: Int32Array, codec: { enc: 'delta2' }, size: 'coords' },
  // a few values of base prominence plus, for areas, a logarithm: deflate finds the repeats
  prominence: { type: Float64Array, codec: { enc: 'raw', deflate: true }, size: 'rows' },
  /** Schedule index of `opening_hours`, or -1. */
  hours: { type: Int32Array, codec: { enc: 'bits', deflate: true }, size: 'rows' },
} as const satisfies Record<string, Column>;

/** The name of a place table column. */
export type ColumnName = keyof typeof COLUMNS;

/** The names of the columns, in table order. */
export const COLUMN_NAMES = Object.keys(COLUMNS) as ColumnName[];

/** The array a column holds. */
export type ColumnArray<K extends ColumnName> = ArrayOf<(typeof COLUMNS)[K]['type']>;

type ArrayOf<C> = C extends Float64ArrayConstructor
  ? Float64Array
  : C extends Int32ArrayConstructor
    ? Int32Array
    : C extends Uint32ArrayConstructor
      ? Uint32Array
      : Uint8Array;

/** All places of a file as parallel typed arrays, one row per place: the `COLUMNS`, its size and its strings. */
export type PlaceTable = { -readonly [K in ColumnName]: ColumnArray<K> } & {
  size: number;
  strings: string[];
  schedules: Schedules;
  /**
   * A load's addresses while the address columns do not hold them yet (they hold `''`): each
   * row's made on first ask (`address/assign.ts`, `RowAddresses`). Undefined once they are stored
   * (`fill`), as a snapshot's always are.
   */
  pending?: PendingAddresses;
};

/** Addresses made row by row on first ask, before a table's address columns hold them. */
export interface PendingAddresses {
  /** Row `row`'s address in column 0 (`address`: as mapped), 1 (`addressEn`) or 2 (`addressNe`). */
  text(row: number, column: number): string;
  /** Makes every row's address and stores them in the table's columns and strings; the table then has no `pending`. */
  fill(): void;
}

/** Capacities for a place table: places, tag pairs and way node refs. */
export interface Sizes {
  places: number;
  pairs: number;
  refs: number;
}

/**
 * A column stored as `Column.like` says: 0 where a row's value is `base`'s, else the value plus 1
 * (`back` false); or the column again from that (`back` true), in place, throwing a RangeError
 * where the lengths differ.
 */
export function likeColumn(a: Uint32Array, base: Uint32Array, back: boolean): Uint32Array {
  if (a.length !== base.length) throw new RangeError(`a column of ${a.length} rows stored by one of ${base.length}`);
  if (back) {
    for (let i = 0; i < a.length; i++) a[i] = a[i] === 0 ? base[i] : a[i] - 1;
    return a;
  }
  return Uint32Array.from(a, (v, i) => (v === base[i] ? 0 : v + 1));
}
