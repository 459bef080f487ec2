import { deflateSync, Inflate } from 'fflate';
import { SnapshotError } from '../errors.js';
import type { Codec, Encoding } from '../model/encoding.js';
import { MAGIC, SNAPSHOT_VERSION, HEADER_SIZE, isSnapshot } from './format.js';
import { varintSize, writeVarints, readVarints, readDeltas64, type Stride } from './varint.js';
import { bitsFor, packedBytes, pack, unpack } from './bits.js';
import { xxhash32 } from './xxhash.js';
import { flatbushIds, flatbushFrom } from './flatbush.js';
import type { BoxOf } from '../geom/boxes.js';
import type { SectionName, StringsName, TreeName } from './names.js';
import type { ModeGraph } from '../route/modes.js';
import type Flatbush from 'flatbush';

export type { Codec, Encoding } from '../model/encoding.js';
export type { SectionName } from './names.js';

const STRIDE: Record<'varint' | 'delta' | 'delta2', Stride> = { varint: 0, delta: 1, delta2: 2 };

/** The typed arrays that sections hold. */
export type IntArray = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float32Array | Float64Array;
type UintArray = Uint8Array | Uint16Array | Uint32Array | Int32Array;

/**
 * What a thread that read a snapshot whole hands over with its bytes, transferred: its decoded
 * arrays and its router's per-mode graphs (here, below the reader and the roads' reader, so
 * that neither imports the other for it).
 */
export interface Handover {
  arrays: Decoded;
  modes?: ModeGraph[];
}

/** A typed array constructor that sections store. */
export type ArrayType<T extends IntArray = IntArray> = {
  new (length: number): T;
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
  readonly name: string;
};

/** One row of the section table. `offset` counts from the start of the sections, which is 8-byte aligned. */
export interface Entry {
  name: SectionName;
  enc: Encoding;
  /** The array's type, as its constructor's name. */
  type: string;
  offset: number;
  bytes: number;
  /** Values in the array. */
  count: number;
  /** Bytes per value (`fixed`); bits per value (`bits`, `steps`) or per dictionary index (`pairs`, `dict`). */
  width?: number;
  /** `bits`: the smallest value, subtracted from each. */
  base?: number;
  /** `pairs`, `dict`: entries in the dictionary; `pairs`: bits per dictionary value. */
  dict?: number;
  vwidth?: number;
  /** `dict`: values per dictionary entry. */
  group?: number;
  /** Deflated: the encoded bytes' length before deflating. */
  inflated?: number;
  /** The node size of a tree stored by its ids (`NAME.ids` of a Flatbush, a KDBush's ids). */
  nodeSize?: number;
  /** xxHash32 of the section's stored bytes, checked when the section is first read. */
  hash?: number;
}

/** The directory: the section table and the index's small fields. */
interface Directory {
  sections: Entry[];
  meta: unknown;
}

const align8 = (n: number) => (n + 7) & ~7;

/** Bytes of UTF-8 decoded per step of `SectionReader.stringSteps` (about a millisecond), and strings cut per step. */
const STRING_BYTES = 64 * 1024,
  STRING_COUNT = 32 * 1024;

/**
 * Where there is no zlib, deflated bytes are inflated this many at a time, and refused as soon as
 * they give more than their section declares: a crafted section that would inflate to gigabytes
 * stops within a chunk.
 */
const INFLATE_CHUNK = 1 << 20;

/**
 * Node's own zlib, where there is one (taken without an import, so that the browser's bundle has
 * none): it inflates 3–5 times faster than fflate, and starts fast, where fflate's first megabytes
 * run in the interpreter; a cold process opening a snapshot is the case that matters.
 */
const zlib = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('zlib') as
  { inflateRawSync(buf: Uint8Array, options: { maxOutputLength: number }): Uint8Array } | undefined;

/** `size` bytes inflated from `deflated` (raw deflate); throws when they are not exactly that many. */
function inflate(deflated: Uint8Array, size: number): Uint8Array {
  if (zlib) {
    // maxOutputLength stops zlib at size + 1 bytes: a longer stream is refused without inflating it whole
    const out = zlib.inflateRawSync(deflated, { maxOutputLength: size + 1 });
    if (out.length !== size) throw new RangeError(`${out.length} bytes inflated`);
    // zlib's Buffers may share a pool: the section gets a buffer of its own, 8-aligned
    return out.byteOffset % 8 === 0 && out.byteLength === out.buffer.byteLength ? out : out.slice();
  }
  const out = new Uint8Array(size);
  let at = 0;
  const inflater = new Inflate((chunk) => {
    if (at + chunk.length > size) throw new RangeError('too long');
    out.set(chunk, at);
    at += chunk.length;
  });
  for (let i = 0; ; i += INFLATE_CHUNK) {
    const last = i + INFLATE_CHUNK >= deflated.length;
    inflater.push(deflated.subarray(i, i + INFLATE_CHUNK), last);
    if (last) break;
  }
  if (at !== size) throw new RangeError(`${at} bytes inflated`);
  return out;
}

/** What an encoder made of an array: its bytes, and what its entry says of them. */
type Encoded = { out: Uint8Array } & Partial<Omit<Entry, 'bytes'>>;

/** Collects an index's arrays as named sections, then writes them as one snapshot. */
export class SectionWriter {
  private readonly entries: Entry[] = [];
  private readonly parts: Uint8Array[] = [];
  private size = 0;

  /**
   * Stores an array as `codec` says (an encoding, or one and `deflate`): the one call a new
   * section needs. The reader decodes it whatever its encoding (`SectionReader.array`).
   */
  put(name: SectionName, a: IntArray, codec: Codec | Encoding): void {
    const { enc, deflate, group } = typeof codec === 'string' ? { enc: codec, deflate: false, group: undefined } : codec;
    const encoded = encode(name, enc, a, group);
    if (deflate) {
      encoded.inflated = encoded.out.length;
      encoded.out = deflateSync(encoded.out, { level: 9 });
    }
    this.add(name, enc, a, encoded);
  }

  /** Stores an array's bytes as they are, for a zero-copy view on reading. */
  raw(name: SectionName, a: IntArray): void {
    this.put(name, a, 'raw');
  }

  /** Stores non-negative integers in the fewest whole bytes that hold the largest. */
  fixed(name: SectionName, a: Uint16Array | Uint32Array | Int32Array): void {
    this.put(name, a, 'fixed');
  }

  /** Stores integers bit-packed, less their smallest. */
  bits(name: SectionName, a: UintArray): void {
    this.put(name, a, 'bits');
  }

  /** Stores non-negative integers as varints. */
  varint(name: SectionName, a: UintArray): void {
    this.put(name, a, 'varint');
  }

  /** Stores integers as varint deltas: for ascending or clustered values. */
  delta(name: SectionName, a: Uint32Array | Int32Array | Float64Array): void {
    this.put(name, a, 'delta');
  }

  /** Stores interleaved pairs (lon, lat) as varint deltas from the previous pair. */
  delta2(name: SectionName, a: Int32Array): void {
    this.put(name, a, 'delta2');
  }

  /**
   * Stores strings as one UTF-8 run, deflated (text deflates to a third or less), and their
   * lengths (UTF-16 units), so that reading is one inflate and one decode.
   */
  strings(name: StringsName, list: readonly string[]): void {
    this.put(`${name}.utf8`, new TextEncoder().encode(list.join('')), { enc: 'raw', deflate: true });
    this.put(
      `${name}.len`,
      Uint32Array.from(list, (s) => s.length),
      'varint',
    );
  }

  /**
   * Stores a Flatbush of Int32 boxes by its leaves' item ids, bit-packed: the leaves' boxes follow
   * from their items (the index's box rule), the parents from them, in one pass on reading
   * (`SectionReader.flatbush`).
   */
  flatbush(name: TreeName, tree: Flatbush): void {
    this.put(`${name}.ids`, flatbushIds(tree), 'bits');
    this.entries[this.entries.length - 1].nodeSize = tree.nodeSize;
  }

  /** The sections written so far: name, encoding and bytes of each, in order. */
  sizes(): { name: SectionName; enc: Encoding; bytes: number }[] {
    return this.entries.map(({ name, enc, bytes }) => ({ name, enc, bytes }));
  }

  /** Sets a field of the last section's entry (the node size of a tree stored by its ids). */
  note(fields: Pick<Entry, 'nodeSize'>): void {
    Object.assign(this.entries[this.entries.length - 1], fields);
  }

  /** The snapshot: header, directory (section table and `meta`), sections. */
  finish(meta: unknown): Uint8Array {
    this.entries.forEach((e, i) => (e.hash = xxhash32(this.parts[i])));
    const dir = new TextEncoder().encode(JSON.stringify({ sections: this.entries, meta } satisfies Directory));
    const start = align8(HEADER_SIZE + 4 + dir.length);
    const out = new Uint8Array(start + this.size);
    const view = new DataView(out.buffer);
    out.set(MAGIC, 0);
    view.setUint32(8, SNAPSHOT_VERSION, true);
    view.setUint32(12, out.length - HEADER_SIZE, true);
    view.setUint32(20, 0, true);
    view.setUint32(HEADER_SIZE, dir.length, true);
    out.set(dir, HEADER_SIZE + 4);
    this.entries.forEach((e, i) => out.set(this.parts[i], start + e.offset));
    view.setUint32(16, xxhash32(out.subarray(HEADER_SIZE, HEADER_SIZE + 4 + dir.length)), true);
    return out;
  }

  private add(name: SectionName, enc: Encoding, a: IntArray, { out: bytes, ...fields }: Encoded): void {
    if (this.entries.some((e) => e.name === name)) throw new Error(`section ${name} written twice`);
    const offset = this.size;
    this.entries.push({ name, enc, type: a.constructor.name, offset, bytes: bytes.length, count: a.length, ...fields });
    this.parts.push(bytes);
    this.size = align8(offset + bytes.length);
  }
}

/**
 * The section table of a snapshot as written (`SectionWriter.finish`): each section's name,
 * encoding and bytes, in file order. For reporting sizes: it checks nothing beyond the directory.
 */
export function sectionSizes(snapshot: Uint8Array): { name: SectionName; enc: Encoding; bytes: number }[] {
  const view = new DataView(snapshot.buffer, snapshot.byteOffset, snapshot.byteLength);
  const n = view.getUint32(HEADER_SIZE, true);
  const dir = JSON.parse(new TextDecoder().decode(snapshot.subarray(HEADER_SIZE + 4, HEADER_SIZE + 4 + n))) as Directory;
  return dir.sections.map(({ name, enc, bytes }) => ({ name, enc, bytes }));
}

/** An array's bytes in an encoding; throws RangeError for values the encoding cannot hold. */
function encode(name: string, enc: Encoding, a: IntArray, group = 1): Encoded {
  const ints = () => {
    if (a instanceof Float32Array || a instanceof Float64Array)
      if (!(enc === 'delta' && a instanceof Float64Array)) throw new RangeError(`section ${name}: ${enc} stores integers, not floats`);
  };
  switch (enc) {
    case 'raw':
      // a copy: the array may be a view of a larger buffer, or change before finish()
      return { out: new Uint8Array(a.buffer, a.byteOffset, a.byteLength).slice() };
    case 'fixed': {
      ints();
      const max = range(name, a, 0).max;
      const width = max < 0x100 ? 1 : max < 0x10000 ? 2 : max < 0x1000000 ? 3 : 4;
      const out = new Uint8Array(a.length * width);
      for (let i = 0, pos = 0; i < a.length; i++) {
        const v = a[i];
        for (let k = 0; k < width; k++) out[pos++] = (v >>> (8 * k)) & 0xff;
      }
      return { out: out, width };
    }
    case 'bits': {
      ints();
      const { min, max } = range(name, a);
      const width = bitsFor(max - min);
      const out = new Uint8Array(packedBytes(a.length, width));
      pack(a, min, width, out);
      return { out: out, width, base: min };
    }
    case 'steps': {
      ints();
      const d = new Float64Array(a.length);
      for (let i = 0; i < a.length; i++) d[i] = a[i] - (i ? a[i - 1] : 0);
      const { max } = range(name, d, 0);
      const width = bitsFor(max);
      const out = new Uint8Array(packedBytes(d.length, width));
      pack(d, 0, width, out);
      return { out: out, width };
    }
    case 'pairs': {
      ints();
      if (a.length % 2) throw new RangeError(`section ${name}: ${a.length} values are not pairs`);
      range(name, a, 0);
      const ids = new Map<number, Map<number, number>>();
      const vals: number[] = [];
      const index = new Uint32Array(a.length / 2);
      for (let i = 0; i < index.length; i++) {
        const k = a[2 * i],
          v = a[2 * i + 1];
        let byValue = ids.get(k);
        if (!byValue) ids.set(k, (byValue = new Map()));
        let id = byValue.get(v);
        if (id === undefined) {
          id = vals.length / 2;
          byValue.set(v, id);
          vals.push(k, v);
        }
        index[i] = id;
      }
      const dict = vals.length / 2;
      const vwidth = bitsFor(range(name, vals, 0).max),
        width = bitsFor(dict - 1);
      const head = packedBytes(vals.length, vwidth);
      const out = new Uint8Array(head + packedBytes(index.length, width));
      pack(vals, 0, vwidth, out.subarray(0, head));
      pack(index, 0, width, out.subarray(head));
      return { out: out, width, dict, vwidth };
    }
    case 'dict':
      return encodeDict(name, a, group);
    case 'varint':
    case 'delta':
    case 'delta2': {
      ints();
      const stride = STRIDE[enc];
      const out = new Uint8Array(varintSize(a, stride));
      writeVarints(a, stride, out, 0);
      return { out: out };
    }
  }
}

/** 32-bit words per value of a float type that `dict` stores; 0 for the types it does not store. */
const dictWords = (type: unknown) => (type === Float32Array ? 1 : type === Float64Array ? 2 : 0);

/**
 * `dict`: the distinct runs of `group` values, by their bits (so NaN payloads and -0 come back as
 * they were), as 32-bit words sorted ascending (each value's high word first), then the index of
 * each run in the fewest bits that hold the largest.
 */
function encodeDict(name: string, a: IntArray, group: number): Encoded {
  const wpv = dictWords(a.constructor);
  if (!wpv) throw new RangeError(`section ${name}: dict stores floats, not a ${a.constructor.name}`);
  if (!(Number.isInteger(group) && group >= 1 && group <= MAX_GROUP && a.length % group === 0))
    throw new RangeError(`section ${name}: ${a.length} values are not runs of ${group}`);
  const words = new Uint32Array(a.buffer, a.byteOffset, a.length * wpv);
  const tw = group * wpv;
  const runs = a.length / group;
  // each run's words in comparison order: a Float64's high word (sign, exponent) before its low
  const order = Array.from({ length: tw }, (_, j) => (wpv === 2 ? j ^ 1 : j));
  const first = new Map<string, number>();
  const of = new Uint32Array(runs);
  for (let i = 0; i < runs; i++) {
    const key = words.subarray(i * tw, (i + 1) * tw).join(',');
    let k = first.get(key);
    if (k === undefined) first.set(key, (k = i));
    of[i] = k;
  }
  const distinct = [...new Set(of)].sort((x, y) => {
    for (const j of order) if (words[x * tw + j] !== words[y * tw + j]) return words[x * tw + j] - words[y * tw + j];
    return 0;
  });
  const rank = new Map(distinct.map((r, k) => [r, k]));
  const dict = distinct.length,
    width = bitsFor(dict - 1);
  const head = 4 * dict * tw;
  const out = new Uint8Array(head + packedBytes(runs, width));
  const table = new Uint32Array(out.buffer, 0, dict * tw);
  distinct.forEach((r, k) => table.set(words.subarray(r * tw, (r + 1) * tw), k * tw));
  pack(
    Uint32Array.from(of, (r) => rank.get(r)!),
    0,
    width,
    out.subarray(head),
  );
  return { out, width, dict, group };
}

/** The most values a `dict` entry holds (a row's values: a few). */
const MAX_GROUP = 64;

/** The smallest and largest of integer values, each at least `floor` and below 2^32 above the smallest. */
function range(name: string, a: ArrayLike<number>, floor = -Infinity): { min: number; max: number } {
  let min = Infinity,
    max = -Infinity;
  for (let i = 0; i < a.length; i++) {
    const v = a[i];
    if (!Number.isSafeInteger(v) || v < floor) throw new RangeError(`cannot store ${v} in section ${name}`);
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (a.length === 0) return { min: 0, max: 0 };
  if (max - min >= 2 ** 32) throw new RangeError(`section ${name} spans more than 32 bits`);
  return { min, max };
}

/**
 * The arrays one reader decoded from a snapshot (each in a buffer of its own), by section, for
 * another reader of the same bytes: a thread that has read and checked them whole hands them over
 * (transferred, not copied) with the bytes, so that the serving thread decodes and checks nothing again.
 */
export type Decoded = Map<string, IntArray>;

/** Options of `SectionReader` (internal: the library's `fromSnapshot` passes none, and checks everything). */
export interface ReaderOptions {
  /** Collect every array decoded into this map, to hand over with the bytes. */
  keep?: Decoded;
  /**
   * What a reader that read these very bytes whole, without an error, kept: its arrays are taken
   * instead of decoding the sections again, and the checksum and the values' checks are skipped.
   */
  proven?: Decoded;
}

/**
 * Reads the sections of a snapshot, after checking what it is, in this order:
 * not a snapshot (foreign), another version, cut short (truncated), damaged (corrupted).
 * Every inconsistency found later is `corrupted` too.
 */
export class SectionReader {
  /** The index's small fields, as written. */
  readonly meta: unknown;
  /** Whether another reader proved these bytes whole (`ReaderOptions.proven`): what it checked need not be checked again. */
  readonly proven: boolean;
  private readonly bytes: Uint8Array;
  private readonly start: number;
  private readonly entries = new Map<SectionName, Entry>();
  private readonly keep?: Decoded;
  private readonly given?: Decoded;
  /** The sections whose hash has been checked: each is hashed once, when first read. */
  private readonly hashed = new Set<SectionName>();

  constructor(
    input: Uint8Array | ArrayBuffer,
    private readonly file: string,
    options: ReaderOptions = {},
  ) {
    this.keep = options.keep;
    this.given = options.proven;
    this.proven = this.given !== undefined;
    let bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
    if (bytes.length < MAGIC.length && MAGIC.subarray(0, bytes.length).every((b, i) => bytes[i] === b)) {
      throw this.fail('truncated', `${bytes.length} bytes hold no whole header`);
    }
    if (!isSnapshot(bytes)) {
      const what =
        bytes.length >= 8 && bytes[4] === 0x0a && bytes[5] === 0x09 && String.fromCharCode(...bytes.subarray(6, 15)) === 'OSMHeader'
          ? 'this is an OSM PBF: load it with loadPbf()'
          : 'no snapshot magic at its start';
      throw this.fail('foreign', what);
    }
    if (bytes.length < HEADER_SIZE) throw this.fail('truncated', `${bytes.length} bytes hold no whole header`);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const version = view.getUint32(8, true);
    if (version !== SNAPSHOT_VERSION) {
      throw this.fail(
        'wrong-version',
        `format version ${version}; this nepal-places reads version ${SNAPSHOT_VERSION}: build the snapshot again from its PBF (nepal-places build)`,
      );
    }
    const length = view.getUint32(12, true);
    if (bytes.length < HEADER_SIZE + length) throw this.fail('truncated', `${bytes.length} bytes of ${HEADER_SIZE + length}`);
    if (bytes.length > HEADER_SIZE + length) throw this.fail('corrupted', `${bytes.length - HEADER_SIZE - length} bytes past its end`);
    const dirLength = bytes.length >= HEADER_SIZE + 4 ? view.getUint32(HEADER_SIZE, true) : -1;
    if (dirLength < 0 || HEADER_SIZE + 4 + dirLength > bytes.length)
      throw this.fail('corrupted', 'checksum mismatch: the directory runs past the end');
    // the header's hash covers the directory; each section's, in the directory, its bytes (`source`)
    if (!this.proven && xxhash32(bytes.subarray(HEADER_SIZE, HEADER_SIZE + 4 + dirLength)) !== view.getUint32(16, true))
      throw this.fail('corrupted', 'checksum mismatch in the directory');
    // typed arrays view the bytes where they lie: they must lie at multiples of 8
    if (bytes.byteOffset % 8 !== 0) bytes = bytes.slice();
    this.bytes = bytes;
    let dir: Directory;
    try {
      dir = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(HEADER_SIZE + 4, HEADER_SIZE + 4 + dirLength)));
      if (!Array.isArray(dir.sections)) throw new Error('no section table');
    } catch (err) {
      throw this.fail('corrupted', `unreadable directory (${(err as Error).message})`);
    }
    this.start = align8(HEADER_SIZE + 4 + dirLength);
    for (const e of dir.sections) {
      if (!(
        Number.isSafeInteger(e.offset) &&
        Number.isSafeInteger(e.bytes) &&
        Number.isSafeInteger(e.count) &&
        e.offset >= 0 &&
        e.bytes >= 0 &&
        e.count >= 0 &&
        this.start + e.offset + e.bytes <= bytes.length
      )) {
        throw this.fail('corrupted', `section ${e.name} lies outside the file`);
      }
      if (!(Number.isInteger(e.hash) && e.hash! >= 0 && e.hash! < 2 ** 32)) throw this.fail('corrupted', `section ${e.name} has no hash`);
      this.entries.set(e.name, e);
    }
    this.meta = dir.meta;
  }

  /** Whether the snapshot has a section (some are left out when empty). */
  has(name: SectionName): boolean {
    return this.entries.has(name);
  }

  /** The section table: name, encoding and bytes of each section, in file order. */
  sizes(): { name: SectionName; enc: Encoding; bytes: number }[] {
    return [...this.entries.values()].map(({ name, enc, bytes }) => ({ name, enc, bytes }));
  }

  /**
   * The array of a section, whatever its encoding: a view of the bytes where it is stored as
   * it is in memory, else decoded (and kept for a handover). Integers must be below `below`
   * (an index into something of that length), or the file is corrupted.
   */
  array<T extends IntArray>(name: SectionName, type: ArrayType<T>, below = 2 ** 32): T {
    return this.decoded(name, type, () => this.decode(this.entry(name, type), type, below));
  }

  /** `array()`, for a section stored `raw` (kept for the readers that ask for one by that name). */
  raw<T extends IntArray>(name: SectionName, type: ArrayType<T>): T {
    return this.array(name, type);
  }

  /** `array()`, for an integer section. */
  ints<T extends UintArray>(name: SectionName, type: ArrayType<T>, below = 2 ** 32): T {
    return this.array(name, type, below);
  }

  /** The values a section holds, as the directory says (its array, decoded, holds that many). */
  count(name: SectionName): number {
    const e = this.entries.get(name);
    if (!e) throw this.fail('corrupted', `no section ${name}`);
    return e.count;
  }

  /** The node size its writer noted for a section that holds a tree's ids. */
  nodeSize(name: SectionName): number | undefined {
    return this.entries.get(name)?.nodeSize;
  }

  /**
   * A copy of `bytes` bytes at `at` of a raw section, in a buffer of its own: KDBush.from
   * wants a spatial index's data at the start of a buffer.
   */
  buffer(name: SectionName, at = 0, bytes?: number): ArrayBuffer {
    const e = this.entry(name, Uint8Array);
    if (e.enc !== 'raw' || e.inflated !== undefined) throw this.fail('corrupted', `section ${name} is not raw bytes`);
    const n = bytes ?? e.bytes - at;
    if (!(Number.isSafeInteger(at) && Number.isSafeInteger(n) && at >= 0 && n >= 0 && at + n <= e.bytes)) {
      throw this.fail('corrupted', `${n} bytes at ${at} lie outside section ${name}`);
    }
    this.stored(e);
    const from = this.bytes.byteOffset + this.start + e.offset + at;
    return this.bytes.buffer.slice(from, from + n) as ArrayBuffer;
  }

  /**
   * The Flatbush of `items` items that `SectionWriter.flatbush` stored by its leaves' ids: they
   * must be each item once; each leaf's box is its item's, as `box` (the index's box rule) gives
   * it, and the parents are computed again from them, so that every node is sound.
   */
  flatbush(name: TreeName, items: number, box: BoxOf): Flatbush {
    const e = this.entry(`${name}.ids`, Uint32Array);
    const nodeSize = e.nodeSize;
    if (!(Number.isSafeInteger(nodeSize) && nodeSize! >= 2 && nodeSize! <= 0xffff))
      throw this.fail('corrupted', `the ${name} tree has a node size of ${nodeSize}`);
    if (e.count === 0 || e.count !== items) throw this.fail('corrupted', `the ${name} tree has ${e.count} leaves, for ${items} items`);
    const ids = this.array(`${name}.ids`, Uint32Array, items);
    if (ids.length !== items) throw this.fail('corrupted', `the ${name} tree has ${ids.length} leaves, for ${items} items`);
    if (!this.proven && !isPermutation(ids)) throw this.fail('corrupted', `the ${name} tree's item ids are not its items`);
    return flatbushFrom(ids, nodeSize!, box);
  }

  /**
   * The array `make` decodes (and perhaps adjusts in place) from section `name`, or the one a
   * proven reader handed over for it; kept for a handover when asked to.
   */
  decoded<T extends IntArray>(name: SectionName, type: ArrayType<T>, make: () => T): T {
    const given = this.given?.get(name);
    if (given) {
      if (!(given instanceof type))
        throw this.fail('corrupted', `the ${name} handed over is a ${given.constructor.name}, not a ${type.name}`);
      return given;
    }
    const out = make();
    // views of the bytes are views again on the other side: only arrays of their own are handed over
    if (out.buffer !== this.bytes.buffer) this.keep?.set(name, out);
    return out;
  }

  /** The strings of a `strings` section: `stringSteps` in one, its UTF-8 decoded at once. */
  strings(name: StringsName): string[] {
    const steps = this.stringSteps(name, Infinity);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * `strings()` in steps, for a reader that yields between them (see `snapshotSteps`): UTF-8 is
   * decoded `chunk` bytes at a time (STRING_BYTES, some ms; a country's names are megabytes) and
   * cut into strings STRING_COUNT at a time.
   */
  *stringSteps(name: StringsName, chunk = STRING_BYTES): Generator<string, string[]> {
    const utf8 = this.array(`${name}.utf8`, Uint8Array);
    yield name;
    const len = this.array(`${name}.len`, Uint32Array);
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const parts: string[] = [];
    for (let at = 0; at < utf8.length; at += chunk) {
      try {
        // a character cut at the chunk's end is held back for the next (stream)
        parts.push(decoder.decode(utf8.subarray(at, at + chunk), { stream: true }));
      } catch {
        throw this.fail('corrupted', `section ${name} is not UTF-8`);
      }
      yield name;
    }
    try {
      parts.push(decoder.decode());
    } catch {
      throw this.fail('corrupted', `section ${name} is not UTF-8`);
    }
    const all = parts.join('');
    const out: string[] = new Array(len.length);
    let at = 0;
    for (let i = 0; i < len.length; i++) {
      out[i] = all.slice(at, (at += len[i]));
      if (i % STRING_COUNT === STRING_COUNT - 1) yield name;
    }
    if (at !== all.length) throw this.fail('corrupted', `section ${name} holds ${all.length} characters, its lengths ${at}`);
    return out;
  }

  /** A `SnapshotError` about this file. */
  fail(problem: 'foreign' | 'wrong-version' | 'truncated' | 'corrupted', message: string): SnapshotError {
    return new SnapshotError(problem, message, this.file);
  }

  private entry(name: SectionName, type: ArrayType): Entry {
    const e = this.entries.get(name);
    if (!e) throw this.fail('corrupted', `no section ${name}`);
    if (e.type !== type.name) throw this.fail('corrupted', `section ${name} is ${e.type}, not ${type.name}`);
    return e;
  }

  /** A section's stored bytes, their hash checked the first time (not for a proven reader's bytes). */
  private stored(e: Entry): Uint8Array {
    const stored = this.bytes.subarray(this.start + e.offset, this.start + e.offset + e.bytes);
    if (!this.proven && !this.hashed.has(e.name)) {
      if (xxhash32(stored) !== e.hash) throw this.fail('corrupted', `checksum mismatch in section ${e.name}`);
      this.hashed.add(e.name);
    }
    return stored;
  }

  /** A section's encoded bytes, inflated if they are deflated; 8-aligned in their buffer either way. */
  private source(e: Entry): Uint8Array {
    const stored = this.stored(e);
    if (e.inflated === undefined) return stored;
    const n = e.inflated;
    // deflate gives at most 1032 bytes a byte: a larger claim is no deflate's
    if (!(Number.isSafeInteger(n) && n >= 0 && n <= 1032 * e.bytes + 1024 && n < 2 ** 31))
      throw this.fail('corrupted', `section ${e.name} claims ${n} bytes inflated from ${e.bytes}`);
    let out: Uint8Array;
    try {
      out = inflate(stored, n);
    } catch {
      throw this.fail('corrupted', `section ${e.name} does not inflate to ${n} bytes`);
    }
    const at = out.length;
    if (at !== n) throw this.fail('corrupted', `section ${e.name} inflates to ${at} bytes, not ${n}`);
    return out;
  }

  private decode<T extends IntArray>(e: Entry, type: ArrayType<T>, below: number): T {
    const n = e.count;
    const src = this.source(e);
    const bad = (what: string) => this.fail('corrupted', `section ${e.name} ${what}`);
    // compared as a plain value: TypeScript finds no overlap between the generic and each constructor
    const ctor: unknown = type;
    const float = ctor === Float64Array || ctor === Float32Array;
    if (float && e.enc !== 'raw' && e.enc !== 'dict' && !(e.enc === 'delta' && ctor === Float64Array))
      throw bad(`is ${e.enc}, which holds no floats`);
    // the range a value must lie in: its type's, and below `below`
    const [lo, hi] = float ? [-Infinity, Infinity] : RANGE[type.name as keyof typeof RANGE];
    const limit = Math.min(hi, below);
    switch (e.enc) {
      case 'raw': {
        if (src.length !== n * type.BYTES_PER_ELEMENT) throw bad(`has ${src.length} bytes for ${n} values`);
        const out = new type(src.buffer, src.byteOffset, n);
        if (!float && limit < hi && !this.proven) checkBelow(out, limit, bad);
        return out;
      }
      case 'fixed':
        return this.fixed(e, src, type as ArrayType<UintArray>, below) as T;
      case 'bits': {
        const w = e.width ?? -1,
          base = e.base ?? NaN;
        if (!(Number.isInteger(w) && w >= 0 && w <= 32 && Number.isSafeInteger(base) && src.length === packedBytes(n, w)))
          throw bad(`has ${src.length} bytes for ${n} values of ${w} bits`);
        const out = new type(n) as UintArray;
        const words = new Uint32Array(src.buffer, src.byteOffset, src.length >> 2);
        // values that may lie outside the range are checked as they are unpacked, before a typed array wraps them
        const checked = !this.proven && (base < lo || base + 2 ** w > limit);
        if (!unpack(words, w, base, out, checked ? lo : -Infinity, checked ? limit : Infinity))
          throw bad(`holds a value below ${lo} or not below ${limit}`);
        return out as T;
      }
      case 'steps': {
        const w = e.width ?? -1;
        if (!(Number.isInteger(w) && w >= 0 && w <= 32 && src.length === packedBytes(n, w)))
          throw bad(`has ${src.length} bytes for ${n} steps of ${w} bits`);
        const d = new Uint32Array(n);
        unpack(new Uint32Array(src.buffer, src.byteOffset, src.length >> 2), w, 0, d);
        const out = new type(n) as UintArray;
        let sum = 0;
        for (let i = 0; i < n; i++) {
          sum += d[i];
          out[i] = sum;
        }
        if (sum >= limit) throw bad(`sums to ${sum}, not below ${limit}`);
        return out as T;
      }
      case 'pairs': {
        const w = e.width ?? -1,
          vw = e.vwidth ?? -1,
          dict = e.dict ?? -1;
        const head = packedBytes(2 * dict, vw);
        if (
          !(ctor === Uint32Array || ctor === Int32Array) ||
          !(Number.isInteger(w) && w >= 0 && w <= 32 && Number.isInteger(vw) && vw >= 0 && vw <= 32) ||
          !(Number.isSafeInteger(dict) && dict >= 0 && n % 2 === 0 && src.length === head + packedBytes(n / 2, w))
        )
          throw bad(`has ${src.length} bytes for ${n / 2} pairs of a dictionary of ${dict}`);
        const vals = new Uint32Array(2 * dict);
        if (!unpack(new Uint32Array(src.buffer, src.byteOffset, head >> 2), vw, 0, vals, lo, this.proven ? Infinity : limit))
          throw bad(`holds a value below ${lo} or not below ${limit}`);
        const out = new type(n) as Uint32Array;
        if (!unpairs(new Uint32Array(src.buffer, src.byteOffset + head, (src.length - head) >> 2), w, vals, out))
          throw bad(`refers past its dictionary of ${dict} pairs`);
        return out as unknown as T;
      }
      case 'dict':
        return this.dict(e, src, type);
      case 'varint':
      case 'delta':
      case 'delta2': {
        if (ctor === Float64Array) {
          const out = new Float64Array(n);
          if (!readDeltas64(src, 0, src.length, out)) throw bad(`does not decode to ${n} numbers`);
          return out as T;
        }
        const out = new Int32Array(n);
        const plain = e.enc === 'varint';
        if (!readVarints(src, 0, src.length, out, STRIDE[e.enc], plain ? Math.min(limit, 2 ** 32) : 2 ** 32))
          throw bad(`does not decode to ${n} numbers${plain ? ` below ${limit}` : ''}`);
        if (ctor === Int32Array) {
          if (!plain && limit < hi && !this.proven) checkBelow(out, limit, bad);
          return out as T;
        }
        const wide = new Uint32Array(out.buffer, 0, n);
        if (!plain && !this.proven) checkBelow(wide, limit, bad);
        if (ctor === Uint32Array) return wide as unknown as T;
        const narrow = new type(n);
        narrow.set(wide);
        return narrow;
      }
      default:
        throw bad(`has an unknown encoding ${String(e.enc)}`);
    }
  }

  /** A `dict` section: each run's index checked against the dictionary, its words copied as they are. */
  private dict<T extends IntArray>(e: Entry, src: Uint8Array, type: ArrayType<T>): T {
    const n = e.count,
      w = e.width ?? -1,
      dict = e.dict ?? -1,
      group = e.group ?? -1;
    const bad = (what: string) => this.fail('corrupted', `section ${e.name} ${what}`);
    const wpv = dictWords(type);
    if (!wpv) throw bad(`is dict, which holds floats alone, not a ${type.name}`);
    if (!(Number.isInteger(group) && group >= 1 && group <= MAX_GROUP && n % group === 0)) throw bad(`has ${n} values in runs of ${group}`);
    const runs = n / group,
      tw = group * wpv;
    const head = 4 * dict * tw;
    if (
      !(Number.isInteger(w) && w >= 0 && w <= 32 && Number.isSafeInteger(dict) && dict >= (runs ? 1 : 0) && dict <= runs) ||
      src.length !== head + packedBytes(runs, w)
    )
      throw bad(`has ${src.length} bytes for ${runs} runs of a dictionary of ${dict}`);
    const table = new Uint32Array(src.buffer, src.byteOffset, dict * tw);
    if (!this.proven) {
      // sorted and each once, as written: a changed entry shows
      for (let k = 1; k < dict; k++) {
        let c = 0;
        for (let j = 0; j < tw && c === 0; j++) {
          const at = wpv === 2 ? j ^ 1 : j;
          c = table[k * tw + at] - table[(k - 1) * tw + at];
        }
        if (c <= 0) throw bad(`has dictionary entry ${k} out of order`);
      }
    }
    const index = new Uint32Array(runs);
    if (!unpack(new Uint32Array(src.buffer, src.byteOffset + head, (src.length - head) >> 2), w, 0, index, 0, dict))
      throw bad(`refers past its dictionary of ${dict}`);
    const words = new Uint32Array(n * wpv);
    if (tw === 1) for (let i = 0; i < runs; i++) words[i] = table[index[i]];
    else
      for (let i = 0, o = 0; i < runs; i++) {
        const from = index[i] * tw;
        for (let j = 0; j < tw; j++) words[o++] = table[from + j];
      }
    return new type(words.buffer, 0, n);
  }

  private fixed<T extends UintArray>(e: Entry, src: Uint8Array, type: ArrayType<T>, below: number): T {
    const n = e.count,
      w = e.width ?? 0;
    if (!(w >= 1 && w <= type.BYTES_PER_ELEMENT && src.length === n * w))
      throw this.fail('corrupted', `section ${e.name} has ${src.length} bytes for ${n} values of ${w}`);
    const at = src.byteOffset;
    const buf = src.buffer;
    let out: T;
    if (w === type.BYTES_PER_ELEMENT) {
      out = new type(buf, at, n);
    } else {
      out = new type(n);
      // sections lie at multiples of 8: 2-byte values are a Uint16Array where they lie
      if (w === 1) out.set(new Uint8Array(buf, at, n));
      else if (w === 2) out.set(new Uint16Array(buf, at, n));
      else {
        const b = new Uint8Array(buf, at, 3 * n);
        for (let i = 0, p = 0; i < n; i++, p += 3) out[i] = b[p] | (b[p + 1] << 8) | (b[p + 2] << 16);
      }
    }
    if (below < 2 ** (8 * w) && !this.proven) {
      // a Uint32 column reads as unsigned; an Int32 one holds no values of 2^31 or more here
      for (let i = 0; i < n; i++)
        if (!(out[i] >= 0 && out[i] < below)) throw this.fail('corrupted', `section ${e.name} holds ${out[i]}, not below ${below}`);
    }
    return out;
  }
}

/**
 * `out.length / 2` indexes of `width` bits unpacked from `words`, each pair of `vals` it names put
 * in `out`; false at an index past them. One pass, without an array of the indexes between: tag
 * pairs are millions at Nepal scale, read at a first query.
 */
function unpairs(words: Uint32Array, width: number, vals: Uint32Array, out: Uint32Array): boolean {
  const n = out.length >> 1,
    dict = vals.length >> 1;
  if (width === 0) {
    if (n && !dict) return false;
    for (let i = 0; i < n; i++) {
      out[2 * i] = vals[0];
      out[2 * i + 1] = vals[1];
    }
    return true;
  }
  const mask = width === 32 ? -1 : 2 ** width - 1;
  for (let i = 0, p = 0; i < n; i++, p += width) {
    const word = p >>> 5,
      bit = p & 31;
    let v = words[word] >>> bit;
    if (bit + width > 32) v |= words[word + 1] << (32 - bit);
    const k = (v & mask) >>> 0;
    if (k >= dict) return false;
    out[2 * i] = vals[2 * k];
    out[2 * i + 1] = vals[2 * k + 1];
  }
  return true;
}

/** The values each integer type holds: from, and below. */
const RANGE = {
  Uint8Array: [0, 2 ** 8],
  Uint16Array: [0, 2 ** 16],
  Uint32Array: [0, 2 ** 32],
  Int32Array: [-(2 ** 31), 2 ** 31],
} as const;

function checkBelow(a: ArrayLike<number>, limit: number, bad: (what: string) => SnapshotError): void {
  for (let i = 0; i < a.length; i++) if (!(a[i] < limit)) throw bad(`holds ${a[i]}, not below ${limit}`);
}

/** Whether `ids` holds each of 0 .. length - 1 once. */
export function isPermutation(ids: ArrayLike<number>): boolean {
  const n = ids.length;
  const seen = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const id = ids[i];
    if (!(id < n) || seen[id]) return false;
    seen[id] = 1;
  }
  return true;
}
