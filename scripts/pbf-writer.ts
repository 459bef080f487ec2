// A small streaming OSM PBF writer (fileformat.proto + osmformat.proto) on `pbf` and zlib.
// Blocks are encoded and flushed as they fill, so memory stays at one block whatever the file size.

import { PbfWriter as Pbf } from 'pbf';
import { createDeflate, deflateSync } from 'node:zlib';
import { Readable } from 'node:stream';
import { closeSync, openSync, writeSync } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';

/** Tags as `[key, value]` pairs, in the order they are written. */
export type Tags = readonly (readonly [string, string])[];

/** A node; `lat`/`lon` in fixed-point 1e-7 degrees (integers), as OSM stores them. */
export interface OsmNode {
  id: number;
  lat: number;
  lon: number;
  tags?: Tags;
}

/** A way: its node refs in order. */
export interface OsmWay {
  id: number;
  refs: readonly number[];
  tags?: Tags;
}

/** The OSM type a relation member points to. */
export type MemberType = 'node' | 'way' | 'relation';

/** A relation member. */
export interface OsmMember {
  type: MemberType;
  ref: number;
  role: string;
}

/** A relation: its members in order. */
export interface OsmRelation {
  id: number;
  members: readonly OsmMember[];
  tags?: Tags;
}

/** Where the bytes go: a file path (opened and closed by the writer), an open file descriptor, a stream, or a callback. */
export type PbfSink = string | number | Writable | ((chunk: Uint8Array) => void);

/** Options of `PbfWriter`. */
export interface PbfWriterOptions {
  /** Header bbox `[minLon, minLat, maxLon, maxLat]` in fixed-point 1e-7 degrees. */
  bbox?: readonly [number, number, number, number];
  /** The caller writes nodes, then ways, then relations, each by ascending id: checked, and announced as `Sort.Type_then_ID`. */
  sorted?: boolean;
  /** Header `osmosis_replication_timestamp`, seconds since the epoch. */
  replicationTimestamp?: number;
  /** Header `writingprogram` (default `"nepal-places pbf-writer"`). */
  writingProgram?: string;
  /** Header `source`. */
  source?: string;
  /** `false` writes raw (uncompressed) blobs, which some readers reject: for tests. Default `true`. */
  compress?: boolean;
  /** zlib level 0–9 (default 6). */
  level?: number;
  /** Entities per block (default and maximum 8000, as the format recommends). */
  blockSize?: number;
}

/** Ids and refs must stay below 2^51 in magnitude so that deltas and their zigzag encoding stay exact doubles. */
export const MAX_ID = 2 ** 51;

const MAX_BLOCK_ENTITIES = 8000;
// The format caps an uncompressed block at 32 MiB; flush well before.
const MAX_BLOCK_BYTES = 8 * 1024 * 1024;
const MAX_LAT = 900_000_000;
const MAX_LON = 1_800_000_000;
const NONE = 0,
  NODES = 1,
  WAYS = 2,
  RELATIONS = 3;
const KIND_NAMES = ['', 'node', 'way', 'relation'];

/**
 * Writes an OSM PBF file block by block: a header block, then primitive blocks of at most
 * 8000 entities, nodes as DenseNodes, without metadata.
 *
 * ```ts
 * const w = new PbfWriter('out.osm.pbf', { sorted: true });
 * w.node({ id: 1, lat: 277172000, lon: 853240000, tags: [['amenity', 'cafe']] });
 * w.way({ id: 1, refs: [1, 2], tags: [['highway', 'path']] });
 * await w.close();
 * ```
 */
export class PbfWriter {
  /** Bytes handed to the sink so far. */
  bytes = 0;
  /** Entities written so far, by kind. */
  readonly counts = { nodes: 0, ways: 0, relations: 0 };

  private readonly write: (chunk: Uint8Array) => void;
  private readonly ownedFd: number | null = null;
  private readonly sorted: boolean;
  private readonly compress: boolean;
  private readonly level: number;
  private readonly blockSize: number;
  private drain: Promise<unknown> | null = null;
  private closed = false;

  // the open block: its kind, its entity count, its string table
  private kind = NONE;
  private count = 0;
  private strings = new Map<string, number>([['', 0]]);
  private stringList: string[] = [''];
  private stringChars = 0;
  // dense nodes are buffered as plain values and delta-coded at flush
  private ids: number[] = [];
  private lats: number[] = [];
  private lons: number[] = [];
  private keysVals: number[] = [];
  private tagged = false;
  // ways and relations are encoded straight into the group buffer
  private group = new Pbf();
  private block = new Pbf();
  private keys: number[] = [];
  private vals: number[] = [];
  private deltas: number[] = [];
  private types: number[] = [];
  private lastKind = NONE;
  private lastId = -Infinity;

  /**
   * Opens the sink and writes the header block.
   * With a stream, `await writer.ready()` now and then to respect its backpressure.
   */
  constructor(sink: PbfSink, options: PbfWriterOptions = {}) {
    this.sorted = options.sorted ?? false;
    this.compress = options.compress ?? true;
    this.level = options.level ?? 6;
    this.blockSize = options.blockSize ?? MAX_BLOCK_ENTITIES;
    if (!Number.isInteger(this.blockSize) || this.blockSize < 1 || this.blockSize > MAX_BLOCK_ENTITIES) {
      throw new RangeError(`blockSize must be an integer in 1..${MAX_BLOCK_ENTITIES}, got ${this.blockSize}`);
    }
    if (!Number.isInteger(this.level) || this.level < 0 || this.level > 9) {
      throw new RangeError(`level must be an integer in 0..9, got ${this.level}`);
    }

    // everything that can reject the options runs before the sink is touched
    const header = encodeHeader(options);

    if (typeof sink === 'string') {
      const fd = openSync(sink, 'w');
      this.ownedFd = fd;
      this.write = (chunk) => writeAll(fd, chunk);
    } else if (typeof sink === 'number') {
      this.write = (chunk) => writeAll(sink, chunk);
    } else if (typeof sink === 'function') {
      this.write = sink;
    } else if (sink && typeof sink.write === 'function') {
      this.write = (chunk) => {
        if (!sink.write(chunk) && !this.drain) {
          const drained = once(sink, 'drain').finally(() => {
            this.drain = null;
          });
          drained.catch(() => {}); // a stream error reaches whoever awaits ready() or close()
          this.drain = drained;
        }
      };
    } else {
      throw new TypeError('sink must be a path, a file descriptor, a writable stream or a function');
    }

    this.emit(header);
  }

  /** Adds a node. */
  node(node: OsmNode): void {
    const { id, lat, lon, tags } = node;
    this.check(NODES, id);
    if (!Number.isInteger(lat) || lat < -MAX_LAT || lat > MAX_LAT) {
      throw new RangeError(`node ${id}: lat must be an integer in 1e-7 degrees within ±${MAX_LAT}, got ${lat}`);
    }
    if (!Number.isInteger(lon) || lon < -MAX_LON || lon > MAX_LON) {
      throw new RangeError(`node ${id}: lon must be an integer in 1e-7 degrees within ±${MAX_LON}, got ${lon}`);
    }
    checkTags(tags, 'node', id);
    // 0 ends a node's tags in keys_vals, so a key cannot be the empty string (index 0)
    if (tags?.some(([k]) => k === '')) throw new RangeError(`node ${id}: an empty tag key cannot be written in DenseNodes`);
    this.begin(NODES);
    this.ids.push(id);
    this.lats.push(lat);
    this.lons.push(lon);
    if (tags && tags.length) {
      for (const [k, v] of tags) this.keysVals.push(this.string(k), this.string(v));
      this.tagged = true;
    }
    this.keysVals.push(0);
    this.end(id);
  }

  /** Adds a way. */
  way(way: OsmWay): void {
    const { id, refs, tags } = way;
    this.check(WAYS, id);
    checkTags(tags, 'way', id);
    if (!Array.isArray(refs)) throw new TypeError(`way ${id}: refs must be an array`);
    this.deltaCode(refs, 'way', id);
    this.begin(WAYS);
    this.tagIndexes(tags);
    this.group.writeMessage(3, writeWay, this.fields(id));
    this.end(id);
  }

  /** Adds a relation. */
  relation(relation: OsmRelation): void {
    const { id, members, tags } = relation;
    this.check(RELATIONS, id);
    checkTags(tags, 'relation', id);
    if (!Array.isArray(members)) throw new TypeError(`relation ${id}: members must be an array`);
    const types = this.types;
    const refs: number[] = [];
    types.length = 0;
    for (const m of members) {
      const type = memberType(m?.type);
      if (type < 0) throw new TypeError(`relation ${id}: member type must be node, way or relation, got ${String(m?.type)}`);
      if (typeof m.role !== 'string') throw new TypeError(`relation ${id}: member role must be a string, got ${typeof m.role}`);
      types.push(type);
      refs.push(m.ref);
    }
    this.deltaCode(refs, 'relation', id);
    this.begin(RELATIONS);
    this.tagIndexes(tags);
    const roles = members.map((m) => this.string(m.role));
    this.group.writeMessage(4, writeRelation, { ...this.fields(id), roles, types });
    this.end(id);
  }

  /**
   * Flushes the open block and appends `bytes` as they are: with `encodeFrame` and `encodeBlob`,
   * this writes deliberately broken files for tests.
   */
  raw(bytes: Uint8Array): void {
    if (this.closed) throw new Error('PbfWriter: already closed');
    this.flush();
    this.emit(bytes);
  }

  /** Resolves when a stream sink can take more data. */
  async ready(): Promise<void> {
    while (this.drain) await this.drain;
  }

  /** Flushes the last block and waits for the sink; closes the file if the writer opened it. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    await this.ready();
    if (this.ownedFd !== null) closeSync(this.ownedFd);
  }

  // Validates an id and, when sorted, its order; changes nothing, so a rejected entity leaves no trace.
  private check(kind: number, id: number): void {
    if (this.closed) throw new Error('PbfWriter: already closed');
    if (!Number.isInteger(id) || Math.abs(id) >= MAX_ID) {
      throw new RangeError(`${KIND_NAMES[kind]} id must be an integer below 2^51 in magnitude, got ${id}`);
    }
    if (!this.sorted) return;
    if (kind < this.lastKind) {
      throw new RangeError(`sorted: ${KIND_NAMES[kind]} ${id} written after the ${KIND_NAMES[this.lastKind]}s`);
    }
    if (kind === this.lastKind && id <= this.lastId) {
      throw new RangeError(`sorted: ${KIND_NAMES[kind]} ${id} written after ${KIND_NAMES[kind]} ${this.lastId}`);
    }
  }

  // Starts a new block on a change of kind or when the open one is full.
  private begin(kind: number): void {
    if (this.kind !== kind || this.count >= this.blockSize) this.flush();
    this.kind = kind;
  }

  private end(id: number): void {
    this.count++;
    this.lastKind = this.kind;
    this.lastId = id;
    if (this.kind === NODES) this.counts.nodes++;
    else if (this.kind === WAYS) this.counts.ways++;
    else this.counts.relations++;
    if (this.group.pos + this.stringChars > MAX_BLOCK_BYTES) this.flush();
  }

  private string(s: string): number {
    let i = this.strings.get(s);
    if (i === undefined) {
      i = this.stringList.length;
      this.strings.set(s, i);
      this.stringList.push(s);
      this.stringChars += s.length * 3; // UTF-8 upper bound
    }
    return i;
  }

  private tagIndexes(tags: Tags | undefined): void {
    this.keys.length = 0;
    this.vals.length = 0;
    if (!tags) return;
    for (const [k, v] of tags) {
      this.keys.push(this.string(k));
      this.vals.push(this.string(v));
    }
  }

  private deltaCode(refs: readonly number[], kind: string, id: number): void {
    const d = this.deltas;
    d.length = refs.length;
    let prev = 0;
    for (let i = 0; i < refs.length; i++) {
      const r = refs[i];
      if (!Number.isInteger(r) || Math.abs(r) >= MAX_ID) {
        throw new RangeError(`${kind} ${id}: ref must be an integer below 2^51 in magnitude, got ${r}`);
      }
      d[i] = r - prev;
      prev = r;
    }
  }

  private fields(id: number): WayFields {
    return { id, keys: this.keys, vals: this.vals, deltas: this.deltas };
  }

  private flush(): void {
    if (this.count === 0) return;
    if (this.kind === NODES) this.group.writeMessage(2, writeDense, this.denseFields());

    const block = this.block;
    block.pos = 0;
    block.writeMessage(1, writeStringTable, this.stringList);
    block.writeBytesField(2, this.group.buf.subarray(0, this.group.pos));
    const data = block.buf.subarray(0, block.pos);
    this.emit(encodeFrame('OSMData', encodeBlob(data, this.compress, this.level)));

    this.count = 0;
    this.group.pos = 0;
    this.strings = new Map([['', 0]]);
    this.stringList = [''];
    this.stringChars = 0;
    this.ids.length = this.lats.length = this.lons.length = this.keysVals.length = 0;
    this.tagged = false;
  }

  private denseFields(): DenseFields {
    return {
      ids: deltaInPlace(this.ids),
      lats: deltaInPlace(this.lats),
      lons: deltaInPlace(this.lons),
      keysVals: this.tagged ? this.keysVals : null,
    };
  }

  private emit(bytes: Uint8Array): void {
    this.write(bytes);
    this.bytes += bytes.length;
  }
}

// The OSMHeader frame; throws on a bad bbox or timestamp.
function encodeHeader(options: PbfWriterOptions): Uint8Array {
  const pbf = new Pbf();
  const bbox = options.bbox;
  if (bbox) {
    const [minLon, minLat, maxLon, maxLat] = bbox;
    const ok =
      bbox.length === 4 &&
      bbox.every(Number.isInteger) &&
      Math.abs(minLon) <= MAX_LON &&
      Math.abs(maxLon) <= MAX_LON &&
      Math.abs(minLat) <= MAX_LAT &&
      Math.abs(maxLat) <= MAX_LAT;
    if (!ok) throw new RangeError(`bbox must be 4 integers [minLon, minLat, maxLon, maxLat] in 1e-7 degrees, got ${JSON.stringify(bbox)}`);
    // the header stores nanodegrees
    pbf.writeMessage(1, writeBBox, [minLon * 100, maxLon * 100, maxLat * 100, minLat * 100]);
  }
  pbf.writeStringField(4, 'OsmSchema-V0.6');
  pbf.writeStringField(4, 'DenseNodes');
  if (options.sorted) pbf.writeStringField(5, 'Sort.Type_then_ID');
  pbf.writeStringField(16, options.writingProgram ?? 'nepal-places pbf-writer');
  if (options.source !== undefined) pbf.writeStringField(17, options.source);
  const ts = options.replicationTimestamp;
  if (ts !== undefined) {
    if (!Number.isSafeInteger(ts) || ts < 0) throw new RangeError(`replicationTimestamp must be whole seconds >= 0, got ${ts}`);
    pbf.writeVarintField(32, ts);
  }
  return encodeFrame('OSMHeader', encodeBlob(pbf.finish(), options.compress ?? true, options.level ?? 6));
}

/**
 * Wraps block bytes in a `Blob`: zlib-compressed with `raw_size`, or raw when `compress` is false.
 */
export function encodeBlob(data: Uint8Array, compress = true, level = 6): Uint8Array {
  const pbf = new Pbf();
  if (compress) {
    pbf.writeVarintField(2, data.length);
    pbf.writeBytesField(3, deflateSync(data, { level }));
  } else {
    pbf.writeBytesField(1, data);
  }
  return pbf.finish();
}

/**
 * zlib data that inflates to `padding` zero bytes after a string table: a PrimitiveBlock that is
 * valid whatever its length (readers skip its unknown field 99), deflated as a stream, so that
 * a zlib bomb of any size is made without a buffer of that size. `size` is what it inflates to.
 */
export async function zlibBomb(padding: number, level = 1): Promise<{ zlib: Uint8Array; size: number }> {
  const pbf = new Pbf();
  pbf.writeMessage(1, (_: unknown, p: Pbf) => p.writeStringField(1, ''), null);
  pbf.writeTag(99, 2);
  pbf.writeVarint(padding);
  const prefix = pbf.finish();
  const step = 16 * 1024 * 1024;
  async function* parts() {
    yield prefix;
    for (let left = padding; left > 0; left -= step) yield new Uint8Array(Math.min(step, left));
  }
  const out: Buffer[] = [];
  for await (const c of Readable.from(parts()).pipe(createDeflate({ level }))) out.push(c as Buffer);
  return { zlib: Buffer.concat(out), size: prefix.length + padding };
}

/** A `Blob` of zlib data as given, with `raw_size` when given (the format makes it optional), true or not. */
export function zlibBlob(zlib: Uint8Array, rawSize?: number): Uint8Array {
  const pbf = new Pbf();
  if (rawSize !== undefined) pbf.writeVarintField(2, rawSize);
  pbf.writeBytesField(3, zlib);
  return pbf.finish();
}

/**
 * Frames a blob: 4-byte big-endian header length, `BlobHeader`, blob.
 * `datasize` overrides the header's blob size, to write a broken file on purpose.
 */
export function encodeFrame(type: string, blob: Uint8Array, datasize = blob.length): Uint8Array {
  const header = new Pbf();
  header.writeStringField(1, type);
  header.writeVarintField(3, datasize);
  const h = header.finish();
  const frame = new Uint8Array(4 + h.length + blob.length);
  new DataView(frame.buffer).setUint32(0, h.length);
  frame.set(h, 4);
  frame.set(blob, 4 + h.length);
  return frame;
}

interface WayFields {
  id: number;
  keys: number[];
  vals: number[];
  deltas: number[];
}

interface RelationFields extends WayFields {
  roles: number[];
  types: number[];
}

interface DenseFields {
  ids: number[];
  lats: number[];
  lons: number[];
  keysVals: number[] | null;
}

function memberType(type: unknown): number {
  return type === 'node' ? 0 : type === 'way' ? 1 : type === 'relation' ? 2 : -1;
}

function checkTags(tags: Tags | undefined, kind: string, id: number): void {
  if (tags === undefined) return;
  if (!Array.isArray(tags)) throw new TypeError(`${kind} ${id}: tags must be an array of [key, value] pairs`);
  for (const t of tags) {
    if (!Array.isArray(t) || typeof t[0] !== 'string' || typeof t[1] !== 'string') {
      throw new TypeError(`${kind} ${id}: each tag must be a [key, value] pair of strings, got ${JSON.stringify(t)}`);
    }
  }
}

function writeAll(fd: number, chunk: Uint8Array): void {
  let off = 0;
  while (off < chunk.length) off += writeSync(fd, chunk, off, chunk.length - off);
}

function deltaInPlace(a: number[]): number[] {
  let prev = 0;
  for (let i = 0; i < a.length; i++) {
    const v = a[i];
    a[i] = v - prev;
    prev = v;
  }
  return a;
}

function writeBBox(b: number[], pbf: Pbf): void {
  for (let i = 0; i < 4; i++) pbf.writeSVarintField(i + 1, b[i]);
}

function writeStringTable(strings: string[], pbf: Pbf): void {
  for (const s of strings) pbf.writeStringField(1, s);
}

function writeDense(d: DenseFields, pbf: Pbf): void {
  pbf.writePackedSVarint(1, d.ids);
  pbf.writePackedSVarint(8, d.lats);
  pbf.writePackedSVarint(9, d.lons);
  if (d.keysVals) pbf.writePackedVarint(10, d.keysVals);
}

function writeWay(w: WayFields, pbf: Pbf): void {
  pbf.writeVarintField(1, w.id);
  pbf.writePackedVarint(2, w.keys);
  pbf.writePackedVarint(3, w.vals);
  pbf.writePackedSVarint(8, w.deltas);
}

function writeRelation(r: RelationFields, pbf: Pbf): void {
  pbf.writeVarintField(1, r.id);
  pbf.writePackedVarint(2, r.keys);
  pbf.writePackedVarint(3, r.vals);
  pbf.writePackedVarint(8, r.roles);
  pbf.writePackedSVarint(9, r.deltas);
  pbf.writePackedVarint(10, r.types);
}
