import { SnapshotError } from '../errors.js';
import { MAGIC, SNAPSHOT_VERSION, HEADER_SIZE, isSnapshot } from './format.js';
import { varintSize, writeVarints, readVarints, type Stride } from './varint.js';
import { xxhash32 } from './xxhash.js';
import type { ModeGraph } from '../route/modes.js';

/**
 * How a section's bytes hold its array: as they are in memory; as unsigned integers
 * of the fewest whole bytes that hold its largest (`width`); as varints; as zigzag
 * varint deltas; or as deltas within interleaved pairs (lon, lat).
 */
type Encoding = 'raw' | 'fixed' | 'varint' | 'delta' | 'delta2';
const STRIDE: Record<'varint' | 'delta' | 'delta2', Stride> = { varint: 0, delta: 1, delta2: 2 };

/** The typed arrays that sections hold. */
export type IntArray = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

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
type ArrayType<T extends IntArray = IntArray> = {
  new (length: number): T;
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
  readonly name: string;
};

/** One row of the section table. `offset` counts from the start of the sections, which is 8-byte aligned. */
interface Entry {
  name: string;
  enc: Encoding;
  type: string;
  offset: number;
  bytes: number;
  count: number;
  /** Bytes per value of a `fixed` section. */
  width?: number;
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

/** Collects an index's arrays as named sections, then writes them as one snapshot. */
export class SectionWriter {
  private readonly entries: Entry[] = [];
  private readonly parts: { at: number; write: (out: Uint8Array, pos: number) => void }[] = [];
  private size = 0;

  /** Stores an array's bytes as they are, for a zero-copy view on reading. */
  raw(name: string, a: IntArray): void {
    const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    this.add(name, 'raw', a, bytes.length, (out, pos) => out.set(bytes, pos));
  }

  /** Stores a spatial index's `data` buffer as it is. */
  buffer(name: string, data: ArrayBufferLike): void {
    this.raw(name, new Uint8Array(data));
  }

  /**
   * Stores an array of non-negative integers in the fewest whole bytes that hold its
   * largest: for indexes spread over a range (string indexes), where a varint's length
   * varies from value to value and reading them is a branch mispredicted per value.
   */
  fixed(name: string, a: Uint16Array | Uint32Array | Int32Array): void {
    let max = 0;
    for (let i = 0; i < a.length; i++) {
      if (!(a[i] >= 0)) throw new RangeError(`cannot store ${a[i]} in section ${name}`);
      if (a[i] > max) max = a[i];
    }
    const width = max < 0x100 ? 1 : max < 0x10000 ? 2 : max < 0x1000000 ? 3 : 4;
    this.add(
      name,
      'fixed',
      a,
      a.length * width,
      (out, pos) => {
        for (let i = 0; i < a.length; i++) {
          const v = a[i];
          for (let k = 0; k < width; k++) out[pos++] = (v >>> (8 * k)) & 0xff;
        }
      },
      width,
    );
  }

  /** Stores an array of non-negative integers as varints. */
  varint(name: string, a: Uint8Array | Uint16Array | Uint32Array | Int32Array): void {
    this.ints(name, 'varint', a);
  }

  /** Stores an array of integers as varint deltas: for ascending or clustered values. */
  delta(name: string, a: Uint32Array | Int32Array): void {
    this.ints(name, 'delta', a);
  }

  /** Stores interleaved pairs (lon, lat) as varint deltas from the previous pair. */
  delta2(name: string, a: Int32Array): void {
    this.ints(name, 'delta2', a);
  }

  /** Stores strings as one UTF-8 run and their lengths (UTF-16 units), so reading is one decode. */
  strings(name: string, list: readonly string[]): void {
    this.raw(`${name}.utf8`, new TextEncoder().encode(list.join('')));
    this.varint(
      `${name}.len`,
      Uint32Array.from(list, (s) => s.length),
    );
  }

  /** The snapshot: header, directory (section table and `meta`), sections. */
  finish(meta: unknown): Uint8Array {
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
    for (const p of this.parts) p.write(out, start + p.at);
    view.setUint32(16, xxhash32(out.subarray(HEADER_SIZE)), true);
    return out;
  }

  private ints(name: string, enc: 'varint' | 'delta' | 'delta2', a: IntArray): void {
    const stride = STRIDE[enc];
    this.add(name, enc, a, varintSize(a, stride), (out, pos) => writeVarints(a, stride, out, pos));
  }

  private add(
    name: string,
    enc: Encoding,
    a: IntArray,
    bytes: number,
    write: (out: Uint8Array, pos: number) => void,
    width?: number,
  ): void {
    if (this.entries.some((e) => e.name === name)) throw new Error(`section ${name} written twice`);
    const offset = this.size;
    this.entries.push({ name, enc, type: a.constructor.name, offset, bytes, count: a.length, ...(width ? { width } : {}) });
    this.parts.push({ at: offset, write });
    this.size = align8(offset + bytes);
  }
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
  private readonly entries = new Map<string, Entry>();
  private readonly keep?: Decoded;
  private readonly given?: Decoded;

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
        `format version ${version}; this nepal-places reads version ${SNAPSHOT_VERSION}: build the snapshot again`,
      );
    }
    const length = view.getUint32(12, true);
    if (bytes.length < HEADER_SIZE + length) throw this.fail('truncated', `${bytes.length} bytes of ${HEADER_SIZE + length}`);
    if (bytes.length > HEADER_SIZE + length) throw this.fail('corrupted', `${bytes.length - HEADER_SIZE - length} bytes past its end`);
    if (!this.proven && xxhash32(bytes.subarray(HEADER_SIZE)) !== view.getUint32(16, true))
      throw this.fail('corrupted', 'checksum mismatch');
    // typed arrays view the bytes where they lie: they must lie at multiples of 8
    if (bytes.byteOffset % 8 !== 0) bytes = bytes.slice();
    this.bytes = bytes;
    const dirLength = view.getUint32(HEADER_SIZE, true);
    let dir: Directory;
    try {
      if (HEADER_SIZE + 4 + dirLength > bytes.length) throw new Error('it runs past the end');
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
      this.entries.set(e.name, e);
    }
    this.meta = dir.meta;
  }

  /** Whether the snapshot has a section (some are left out when empty). */
  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The array of a `raw` section: a view of the bytes, not a copy. */
  raw<T extends IntArray>(name: string, type: ArrayType<T>): T {
    const e = this.entry(name, 'raw', type);
    if (e.bytes !== e.count * type.BYTES_PER_ELEMENT)
      throw this.fail('corrupted', `section ${name} has ${e.bytes} bytes for ${e.count} items`);
    return new type(this.bytes.buffer, this.bytes.byteOffset + this.start + e.offset, e.count);
  }

  /**
   * A copy of `bytes` bytes at `at` of a raw section, in a buffer of its own: KDBush.from
   * wants a spatial index's data at the start of a buffer.
   */
  buffer(name: string, at = 0, bytes?: number): ArrayBuffer {
    const e = this.entry(name, 'raw', Uint8Array);
    const n = bytes ?? e.bytes - at;
    if (!(Number.isSafeInteger(at) && Number.isSafeInteger(n) && at >= 0 && n >= 0 && at + n <= e.bytes)) {
      throw this.fail('corrupted', `${n} bytes at ${at} lie outside section ${name}`);
    }
    const from = this.bytes.byteOffset + this.start + e.offset + at;
    return this.bytes.buffer.slice(from, from + n) as ArrayBuffer;
  }

  /** A spatial index's `data` where it lies, for Flatbush.from(buffer, byteOffset): no copy. */
  place(name: string): { buffer: ArrayBuffer; byteOffset: number } {
    const e = this.entry(name, 'raw', Uint8Array);
    return { buffer: this.bytes.buffer as ArrayBuffer, byteOffset: this.bytes.byteOffset + this.start + e.offset };
  }

  /**
   * The array of an integer section, decoded; for `fixed` and plain varints, every
   * value must be below `below` (an index into something of that length), or the file
   * is corrupted.
   */
  ints<T extends Uint8Array | Uint16Array | Uint32Array | Int32Array>(name: string, type: ArrayType<T>, below = 2 ** 32): T {
    return this.decoded(name, type, () => this.decode(name, type, below));
  }

  /**
   * The array `make` decodes (and perhaps adjusts in place) from section `name`, or the one a
   * proven reader handed over for it; kept for a handover when asked to.
   */
  decoded<T extends IntArray>(name: string, type: ArrayType<T>, make: () => T): T {
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

  private decode<T extends Uint8Array | Uint16Array | Uint32Array | Int32Array>(name: string, type: ArrayType<T>, below: number): T {
    const found = this.entries.get(name);
    if (found?.enc === 'fixed') return this.fixed(found, type, below);
    const enc = found?.enc === 'delta' || found?.enc === 'delta2' ? found.enc : 'varint';
    const { count: n, offset, bytes } = this.entry(name, enc, type);
    const wide = type.BYTES_PER_ELEMENT === 4;
    const out = new Int32Array(n);
    const at = this.start + offset;
    const limit = wide ? below : Math.min(below, 2 ** (8 * type.BYTES_PER_ELEMENT));
    if (!readVarints(this.bytes, at, at + bytes, out, STRIDE[enc], limit)) {
      throw this.fail('corrupted', `section ${name} does not decode to ${n} numbers${enc === 'varint' ? ` below ${limit}` : ''}`);
    }
    if (wide) return new type(out.buffer, 0, n);
    const narrow = new type(n);
    narrow.set(out);
    return narrow;
  }

  /** The strings of a `strings` section. */
  strings(name: string): string[] {
    const steps = this.stringSteps(name);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * `strings()` in steps, for a reader that yields between them (see `snapshotSteps`): UTF-8 is
   * decoded STRING_BYTES at a time (some ms; a country's names are megabytes) and cut into strings
   * STRING_COUNT at a time.
   */
  *stringSteps(name: string): Generator<string, string[]> {
    const utf8 = this.raw(`${name}.utf8`, Uint8Array);
    const len = this.ints(`${name}.len`, Uint32Array);
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const parts: string[] = [];
    for (let at = 0; at < utf8.length; at += STRING_BYTES) {
      try {
        // a character cut at the chunk's end is held back for the next (stream)
        parts.push(decoder.decode(utf8.subarray(at, at + STRING_BYTES), { stream: true }));
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

  private fixed<T extends Uint8Array | Uint16Array | Uint32Array | Int32Array>(e: Entry, type: ArrayType<T>, below: number): T {
    this.entry(e.name, 'fixed', type);
    const n = e.count,
      w = e.width ?? 0;
    if (!(w >= 1 && w <= type.BYTES_PER_ELEMENT && e.bytes === n * w))
      throw this.fail('corrupted', `section ${e.name} has ${e.bytes} bytes for ${n} values of ${w}`);
    const at = this.bytes.byteOffset + this.start + e.offset;
    const buf = this.bytes.buffer;
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

  private entry(name: string, enc: Encoding, type: ArrayType): Entry {
    const e = this.entries.get(name);
    if (!e) throw this.fail('corrupted', `no section ${name}`);
    if (e.enc !== enc || e.type !== type.name)
      throw this.fail('corrupted', `section ${name} is ${e.enc} ${e.type}, not ${enc} ${type.name}`);
    return e;
  }
}
