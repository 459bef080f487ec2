// The OSM PBF block decoder, written on `pbf` rather than taken from osm-read or
// similar: those build a JS object per node and per tag (osm-read parses ~5 MB/s
// here), where a loader for tens of millions of nodes needs ids and coordinates
// decoded straight into typed arrays, and tags kept only for the few objects that
// become rows.

import { PbfReader as Pbf } from 'pbf';
import { List } from '../model/list.js';

/** Tags of the kept objects of one kind: pairs of string-table indexes. */
export interface TagRuns {
  /** Index (within the block, per kind) of each object whose tags were kept. */
  owner: Uint32Array;
  /** `start[i]..start[i+1]` are the pairs of `owner[i]` in `kv` (in pairs, not elements). */
  start: Uint32Array;
  /** Key and value string indexes, interleaved. */
  kv: Uint32Array;
}

/** No tags: what a reader reads before it is pointed at a block's. */
const NO_TAGS: TagRuns = { owner: new Uint32Array(0), start: new Uint32Array(1), kv: new Uint32Array(0) };

/**
 * The one way tags are read out of `TagRuns`: a cursor over one object's pairs at a time, reused
 * from object to object (nothing allocated per object). `get` is a bound function, so it can be
 * handed to the rules of src/osm/ as their tag getter.
 *
 * @example
 * const tags = new TagReader(blk.wayTags, blk.strings);
 * for (let i = 0; i < blk.wayTags.owner.length; i++) if (tags.at(i).get('highway')) …
 */
export class TagReader {
  private from = 0;
  private to = 0;
  constructor(
    private runs: TagRuns = NO_TAGS,
    private strings: readonly string[] = [],
  ) {}

  /** Points the reader at other runs (another block's), so one reader serves a whole file. */
  on(runs: TagRuns, strings: readonly string[]): this {
    this.runs = runs;
    this.strings = strings;
    this.from = this.to = 0;
    return this;
  }

  /** Points the reader at object `i` of the runs (its `owner[i]`). */
  at(i: number): this {
    this.from = this.runs.start[i];
    this.to = this.runs.start[i + 1];
    return this;
  }

  /** How many tags the object has. */
  get count(): number {
    return this.to - this.from;
  }

  /** The string-table index of the key of tag j (0 ≤ j < count). */
  keyIndex(j: number): number {
    return this.runs.kv[2 * (this.from + j)];
  }

  /** The string-table index of the value of tag j. */
  valueIndex(j: number): number {
    return this.runs.kv[2 * (this.from + j) + 1];
  }

  /** The key of tag j. */
  key(j: number): string {
    return this.strings[this.keyIndex(j)];
  }

  /** The value of tag j. */
  value(j: number): string {
    return this.strings[this.valueIndex(j)];
  }

  /** The value of `key` on the current object, or undefined. */
  readonly get = (key: string): string | undefined => {
    const { kv } = this.runs,
      s = this.strings;
    for (let j = this.from; j < this.to; j++) if (s[kv[2 * j]] === key) return s[kv[2 * j + 1]];
    return undefined;
  };

  /** The current object's tags as a map (`into` cleared and filled, or a new one). */
  map(into = new Map<string, string>()): Map<string, string> {
    into.clear();
    for (let j = 0; j < this.count; j++) into.set(this.key(j), this.value(j));
    return into;
  }
}

/**
 * One decoded `PrimitiveBlock`, as flat typed arrays (transferable between threads).
 * Coordinates are fixed-point 1e-7 degrees, as OSM stores them.
 */
export interface Block {
  strings: string[];
  /**
   * Node i's id is `nodeBase + nodeId[i]`: offsets from one of the block's ids (its first, or its
   * smallest) where its ids span less than 2^31 (4 bytes a node, not 8: at Nepal scale the ids of
   * every node are held through a load), else the ids themselves with a base of 0.
   */
  nodeId: Float64Array | Int32Array;
  nodeBase: number;
  nodeLat: Int32Array;
  nodeLon: Int32Array;
  nodeTags: TagRuns;
  wayId: Float64Array;
  /** `wayRefStart[i]..wayRefStart[i+1]` index the node refs of way `i` in `wayRef`. */
  wayRefStart: Uint32Array;
  wayRef: Float64Array;
  wayTags: TagRuns;
  relId: Float64Array;
  relMemStart: Uint32Array;
  /** 0 node, 1 way, 2 relation (as in the format). */
  relMemType: Uint8Array;
  relMemRef: Float64Array;
  relMemRole: Uint32Array;
  relTags: TagRuns;
}

/**
 * Which objects' tags the decoder keeps (every node keeps its id and coordinates regardless).
 * Plain data, so that it crosses to decoder threads; the policy (which keys matter) belongs to
 * the caller, e.g. `PLACE_KEEP` in `src/osm/place.ts`. Relations, which are few, keep all tags.
 */
export interface Keep {
  /** Flag bits per tag key (at most 8 bits); keys not listed have none. */
  flags: Readonly<Record<string, number>>;
  /** A tagged node keeps its tags when its keys' flags share a bit with `any`, or hold every bit of `all`. */
  node: { any: number; all: number };
  /** The same rule for ways. */
  way: { any: number; all: number };
}

/** Keeps the tags of every tagged object (what a map draws: roads, buildings, water…). */
export const KEEP_ALL: Keep = { flags: {}, node: { any: 0, all: 0 }, way: { any: 0, all: 0 } };

// whether flags `f` meet rule `r` (an `all` of 0 is met by anything)
const meets = (f: number, r: { any: number; all: number }) => (f & r.any) !== 0 || (f & r.all) === r.all;

class Runs {
  owner = new List(Uint32Array, 256);
  start = new List(Uint32Array, 256);
  kv = new List(Uint32Array, 1024);
  reset(): void {
    this.owner.length = this.kv.length = this.start.length = 0;
    this.start.push(0);
  }
  add(owner: number): void {
    this.owner.push(owner);
    this.start.push(this.kv.length >> 1);
  }
  finish(): TagRuns {
    return { owner: this.owner.copy(), start: this.start.copy(), kv: this.kv.copy() };
  }
}

/** Transferable buffers of a block, for `postMessage`. */
export function blockBuffers(b: Block): ArrayBuffer[] {
  const arrays = [
    b.nodeId,
    b.nodeLat,
    b.nodeLon,
    b.wayId,
    b.wayRefStart,
    b.wayRef,
    b.relId,
    b.relMemStart,
    b.relMemType,
    b.relMemRef,
    b.relMemRole,
  ];
  for (const t of [b.nodeTags, b.wayTags, b.relTags]) arrays.push(t.owner, t.start, t.kv);
  return arrays.map((a) => a.buffer as ArrayBuffer);
}

/**
 * Decodes an inflated `PrimitiveBlock`. Every node keeps its id and coordinates
 * (ways need them); tags are kept only for the objects a place or an address can
 * come from, as `keep` says, and for all relations, which are few. `decoder` is the scratch to decode
 * with: one kept by the caller across the blocks it decodes (one per thread) stops
 * growing after the first few; without it, a block gets scratch of its own.
 */
export function decodeBlock(bytes: Uint8Array, keep: Keep, decoder = new BlockDecoder()): Block {
  const pbf = new Pbf(bytes);
  const strings: string[] = [];
  const groups: number[] = [];
  let gran = 100;
  let latOff = 0;
  let lonOff = 0;

  // granularity and offsets may follow the groups, so find everything first
  while (pbf.pos < pbf.length) {
    const val = pbf.readVarint();
    const tag = val >> 3;
    if (tag === 1) {
      const end = pbf.readVarint() + pbf.pos;
      while (pbf.pos < end) {
        const v = pbf.readVarint();
        if (v >> 3 === 1) strings.push(pbf.readString());
        else pbf.skip(v);
      }
    } else if (tag === 2) {
      const len = pbf.readVarint();
      groups.push(pbf.pos, pbf.pos + len);
      pbf.pos += len;
    } else if (tag === 17) gran = pbf.readVarint();
    else if (tag === 19) latOff = pbf.readVarint(true);
    else if (tag === 20) lonOff = pbf.readVarint(true);
    else pbf.skip(val);
  }
  if (pbf.pos !== pbf.length) throw new Error('primitive block overruns its blob');

  const d = decoder;
  const flagOf = d.flagsOf(keep);
  const flags = new Uint8Array(strings.length);
  for (let i = 0; i < strings.length; i++) flags[i] = flagOf.get(strings[i]) ?? 0;
  d.reset(pbf, flags, gran, latOff, lonOff, keep);
  for (let g = 0; g < groups.length; g += 2) {
    pbf.pos = groups[g];
    const end = groups[g + 1];
    while (pbf.pos < end) {
      const val = pbf.readVarint();
      const tag = val >> 3;
      const len = tag >= 1 && tag <= 4 ? pbf.readVarint() : -1;
      const stop = pbf.pos + len;
      if (tag === 1) d.node(stop);
      else if (tag === 2) d.dense(stop);
      else if (tag === 3) d.way(stop);
      else if (tag === 4) d.relation(stop);
      else {
        pbf.skip(val);
        continue;
      }
      if (pbf.pos !== stop) throw new Error('malformed primitive group');
    }
  }
  return d.finish(strings);
}

/**
 * The scratch of decoding blocks one at a time: lists filled group by group, emptied for
 * each block (what a block returns is copied or taken out of them). Not shared: a block's
 * decoding runs to its end on the decoder it is given.
 */
export class BlockDecoder {
  nodeId = new List(Float64Array, 8000);
  // the usual block's ids (one dense group, spanning less than 2^31) as decoded: offsets from its
  // first id, `nodeId` unused; made wide (into `nodeId`) if more nodes follow
  private offsets: Int32Array | undefined;
  private base = 0;
  nodeLat = new List(Int32Array, 8000);
  nodeLon = new List(Int32Array, 8000);
  nodeTags = new Runs();
  wayId = new List(Float64Array, 1024);
  wayRefStart = new List(Uint32Array, 1024);
  wayRef = new List(Float64Array, 8192);
  wayTags = new Runs();
  relId = new List(Float64Array, 64);
  relMemStart = new List(Uint32Array, 64);
  relMemType = new List(Uint8Array, 512);
  relMemRef = new List(Float64Array, 512);
  relMemRole = new List(Uint32Array, 512);
  relTags = new Runs();
  // scratch for a way's or relation's keys and values
  keys = new List(Uint32Array, 64);
  vals = new List(Uint32Array, 64);

  pbf!: Pbf;
  flags!: Uint8Array;
  keep: Keep = KEEP_ALL;
  // the flags of the last `Keep` seen, as a Map (a plain object would answer `constructor`)
  private flagKeep?: Keep;
  private flagMap = new Map<string, number>();
  gran = 100;
  latOff = 0;
  lonOff = 0;

  // the lists are reused block after block: they stop growing after the first few
  /** The flags of `keep`'s keys as a Map, built once per `Keep`. */
  flagsOf(keep: Keep): Map<string, number> {
    if (this.flagKeep !== keep) {
      this.flagMap = new Map(Object.entries(keep.flags));
      this.flagKeep = keep;
    }
    return this.flagMap;
  }

  reset(pbf: Pbf, flags: Uint8Array, gran: number, latOff: number, lonOff: number, keep: Keep): void {
    this.pbf = pbf;
    this.flags = flags;
    this.gran = gran;
    this.latOff = latOff;
    this.lonOff = lonOff;
    this.keep = keep;
    for (const l of [
      this.nodeId,
      this.nodeLat,
      this.nodeLon,
      this.wayId,
      this.wayRefStart,
      this.wayRef,
      this.relId,
      this.relMemStart,
      this.relMemType,
      this.relMemRef,
      this.relMemRole,
    ])
      l.length = 0;
    for (const r of [this.nodeTags, this.wayTags, this.relTags]) r.reset();
    this.offsets = undefined;
    this.wayRefStart.push(0);
    this.relMemStart.push(0);
  }

  // nanodegrees (offset + granularity * v) to 1e-7 degrees
  lat(v: number): number {
    return this.gran === 100 && this.latOff === 0 ? v : Math.round((this.latOff + this.gran * v) / 100);
  }
  lon(v: number): number {
    return this.gran === 100 && this.lonOff === 0 ? v : Math.round((this.lonOff + this.gran * v) / 100);
  }

  str(i: number): number {
    if (i >= this.flags.length) throw new Error(`string index ${i} outside the block's string table`);
    return i;
  }

  dense(end: number): void {
    const pbf = this.pbf;
    let ids = -1,
      idsEnd = -1,
      lats = -1,
      latsEnd = -1,
      lons = -1,
      lonsEnd = -1,
      kv = -1,
      kvEnd = -1;
    while (pbf.pos < end) {
      const val = pbf.readVarint();
      const tag = val >> 3;
      if ((val & 7) !== 2) {
        pbf.skip(val);
        continue;
      }
      const len = pbf.readVarint();
      const start = pbf.pos;
      pbf.pos += len;
      if (tag === 1) {
        ids = start;
        idsEnd = pbf.pos;
      } else if (tag === 8) {
        lats = start;
        latsEnd = pbf.pos;
      } else if (tag === 9) {
        lons = start;
        lonsEnd = pbf.pos;
      } else if (tag === 10) {
        kv = start;
        kvEnd = pbf.pos;
      }
    }
    if (ids < 0) return;
    const n = countVarints(pbf.buf, ids, idsEnd);
    if (lats < 0 || lons < 0) throw new Error('dense nodes: ids, lats and lons differ in length');
    const first = this.nodeLat.length;
    if (first === 0) {
      // the usual block: one dense group; decode into arrays of its exact size, which
      // are then handed over (transferred) without a copy
      this.nodeLat.adopt(new Int32Array(n));
      this.nodeLon.adopt(new Int32Array(n));
      const offsets = new Int32Array(n);
      this.base = idOffsets(pbf.buf, ids, idsEnd, offsets);
      if (!Number.isNaN(this.base)) this.offsets = offsets;
    } else this.widen();
    this.nodeLat.reserve(n);
    this.nodeLon.reserve(n);
    if (!this.offsets) {
      if (first === 0) this.nodeId.adopt(new Float64Array(n));
      this.nodeId.reserve(n);
      deltas64(pbf.buf, ids, idsEnd, this.nodeId.data, first);
    }
    // the coordinates' counts checked as they are decoded, not counted first: a pass less over the block
    if (
      deltas32(pbf.buf, lats, latsEnd, this.nodeLat.data, first) !== first + n ||
      deltas32(pbf.buf, lons, lonsEnd, this.nodeLon.data, first) !== first + n
    ) {
      throw new Error('dense nodes: ids, lats and lons differ in length');
    }
    if (this.gran !== 100 || this.latOff !== 0 || this.lonOff !== 0) {
      for (let i = first; i < first + n; i++) {
        this.nodeLat.data[i] = this.lat(this.nodeLat.data[i]);
        this.nodeLon.data[i] = this.lon(this.nodeLon.data[i]);
      }
    }
    this.nodeLat.length = this.nodeLon.length = first + n;
    if (!this.offsets) this.nodeId.length = first + n;
    if (kv < 0) {
      pbf.pos = end;
      return;
    }

    // keys_vals: per node, key/value pairs closed by a 0
    pbf.pos = kv;
    const runs = this.nodeTags;
    for (let i = 0; i < n && pbf.pos < kvEnd; i++) {
      const from = pbf.pos;
      let f = 0;
      let k: number;
      while ((k = pbf.readVarint()) !== 0) {
        f |= this.flags[this.str(k)];
        this.str(pbf.readVarint());
      }
      // (a node without tags is a lone 0: one byte)
      if (pbf.pos - from === 1 || !meets(f, this.keep.node)) continue;
      const after = pbf.pos;
      pbf.pos = from;
      while ((k = pbf.readVarint()) !== 0) {
        runs.kv.push(k);
        runs.kv.push(pbf.readVarint());
      }
      pbf.pos = after;
      runs.add(first + i);
    }
    pbf.pos = end;
  }

  node(end: number): void {
    const pbf = this.pbf;
    let id = 0,
      lat = 0,
      lon = 0;
    this.keys.length = this.vals.length = 0;
    while (pbf.pos < end) {
      const val = pbf.readVarint();
      const tag = val >> 3;
      if (tag === 1) id = pbf.readSVarint();
      else if (tag === 2) this.packed(this.keys);
      else if (tag === 3) this.packed(this.vals);
      else if (tag === 8) lat = pbf.readSVarint();
      else if (tag === 9) lon = pbf.readSVarint();
      else pbf.skip(val);
    }
    this.widen();
    const i = this.nodeLat.length;
    this.nodeId.push(id);
    this.nodeLat.push(this.lat(lat));
    this.nodeLon.push(this.lon(lon));
    this.tags(this.nodeTags, i, this.keep.node);
  }

  way(end: number): void {
    const pbf = this.pbf;
    let id = 0;
    this.keys.length = this.vals.length = 0;
    while (pbf.pos < end) {
      const val = pbf.readVarint();
      const tag = val >> 3;
      if (tag === 1) id = pbf.readVarint(true);
      else if (tag === 2) this.packed(this.keys);
      else if (tag === 3) this.packed(this.vals);
      else if (tag === 8 && (val & 7) === 2) {
        const stop = pbf.readVarint() + pbf.pos;
        const n = countVarints(pbf.buf, pbf.pos, stop);
        this.wayRef.reserve(n);
        deltas64(pbf.buf, pbf.pos, stop, this.wayRef.data, this.wayRef.length);
        this.wayRef.length += n;
        pbf.pos = stop;
      } else pbf.skip(val);
    }
    const i = this.wayId.length;
    this.wayId.push(id);
    this.wayRefStart.push(this.wayRef.length);
    this.tags(this.wayTags, i, this.keep.way);
  }

  relation(end: number): void {
    const pbf = this.pbf;
    let id = 0;
    this.keys.length = this.vals.length = 0;
    let roles = 0,
      refs = 0,
      types = 0;
    while (pbf.pos < end) {
      const val = pbf.readVarint();
      const tag = val >> 3;
      if (tag === 1) id = pbf.readVarint(true);
      else if (tag === 2) this.packed(this.keys);
      else if (tag === 3) this.packed(this.vals);
      else if (tag === 8 && (val & 7) === 2) {
        const stop = pbf.readVarint() + pbf.pos;
        while (pbf.pos < stop) {
          this.relMemRole.push(this.str(pbf.readVarint()));
          roles++;
        }
      } else if (tag === 9 && (val & 7) === 2) {
        const stop = pbf.readVarint() + pbf.pos;
        let ref = 0;
        while (pbf.pos < stop) {
          ref += pbf.readSVarint();
          this.relMemRef.push(ref);
          refs++;
        }
      } else if (tag === 10 && (val & 7) === 2) {
        const stop = pbf.readVarint() + pbf.pos;
        while (pbf.pos < stop) {
          const t = pbf.readVarint();
          if (t > 2) throw new Error(`relation ${id}: member type ${t}`);
          this.relMemType.push(t);
          types++;
        }
      } else pbf.skip(val);
    }
    if (roles !== refs || types !== refs) throw new Error(`relation ${id}: member roles, ids and types differ in length`);
    const i = this.relId.length;
    this.relId.push(id);
    this.relMemStart.push(this.relMemRef.length);
    this.tags(this.relTags, i, KEEP_ALL.way);
  }

  // A packed field of string indexes (keys, values) into `list`, its room made once and written
  // straight (a push a value was most of what a way's tags cost to decode).
  packed(list: List<Uint32Array>): void {
    const pbf = this.pbf;
    const stop = pbf.readVarint() + pbf.pos;
    if (stop > pbf.length) throw new Error('packed field overruns its group');
    list.reserve(countVarints(pbf.buf, pbf.pos, stop));
    const out = list.data,
      strings = this.flags.length;
    let at = list.length;
    while (pbf.pos < stop) {
      const v = pbf.readVarint();
      if (v >= strings) throw new Error(`string index ${v} outside the block's string table`);
      out[at++] = v;
    }
    if (pbf.pos !== stop) throw new Error('packed field overruns its group');
    list.length = at;
  }

  // keep the scratch keys/vals as tags of object `i` when its keys ask for it
  tags(runs: Runs, i: number, rule: { any: number; all: number }): void {
    const n = this.keys.length;
    if (n !== this.vals.length) throw new Error('keys and values differ in length');
    if (n === 0) return;
    let f = 0;
    for (let j = 0; j < n; j++) f |= this.flags[this.keys.data[j]];
    if (!meets(f, rule)) return;
    for (let j = 0; j < n; j++) {
      runs.kv.push(this.keys.data[j]);
      runs.kv.push(this.vals.data[j]);
    }
    runs.add(i);
  }

  // the ids decoded as offsets, made plain ids in `nodeId`: more nodes follow them in the block
  private widen(): void {
    const o = this.offsets;
    if (!o) return;
    this.offsets = undefined;
    this.nodeId.length = 0;
    this.nodeId.reserve(o.length);
    for (let i = 0; i < o.length; i++) this.nodeId.data[i] = this.base + o[i];
    this.nodeId.length = o.length;
  }

  finish(strings: string[]): Block {
    const ids = this.offsets ? { ids: this.offsets, base: this.base } : narrow(this.nodeId.take());
    this.offsets = undefined;
    return {
      strings,
      nodeId: ids.ids,
      nodeBase: ids.base,
      nodeLat: this.nodeLat.take(),
      nodeLon: this.nodeLon.take(),
      nodeTags: this.nodeTags.finish(),
      wayId: this.wayId.copy(),
      wayRefStart: this.wayRefStart.copy(),
      wayRef: this.wayRef.copy(),
      wayTags: this.wayTags.finish(),
      relId: this.relId.copy(),
      relMemStart: this.relMemStart.copy(),
      relMemType: this.relMemType.copy(),
      relMemRef: this.relMemRef.copy(),
      relMemRole: this.relMemRole.copy(),
      relTags: this.relTags.finish(),
    };
  }
}

// Ids as Int32 offsets from their smallest, where they all fit (`Block.nodeId`).
function narrow(a: Float64Array): { ids: Float64Array | Int32Array; base: number } {
  if (a.length === 0) return { ids: a, base: 0 };
  let min = a[0],
    max = a[0];
  for (let i = 1; i < a.length; i++) {
    const v = a[i];
    if (v < min) min = v;
    else if (v > max) max = v;
  }
  if (max - min > 0x7fffffff) return { ids: a, base: 0 };
  const out = new Int32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i] - min;
  return { ids: out, base: min };
}

/**
 * Decodes a packed, delta-coded sint64 field (ids, coordinates, way refs) into
 * `out` from `at`. This is the loader's hottest loop, so the varints are read
 * inline, in one copy per array type (a shared one would see two element kinds
 * and stay slow); values past 28 bits continue in float arithmetic, exact to 2^53.
 */
function deltas64(buf: Uint8Array, pos: number, end: number, out: Float64Array, at: number): void {
  let acc = 0;
  while (pos < end) {
    let b = buf[pos++];
    let v = b & 0x7f;
    if (b >= 0x80) {
      b = buf[pos++];
      v |= (b & 0x7f) << 7;
      if (b >= 0x80) {
        b = buf[pos++];
        v |= (b & 0x7f) << 14;
        if (b >= 0x80) {
          b = buf[pos++];
          v |= (b & 0x7f) << 21;
          if (b >= 0x80) {
            let mul = 0x10000000;
            do {
              b = buf[pos++];
              v += (b & 0x7f) * mul;
              mul *= 128;
            } while (b >= 0x80 && pos < end);
            acc += v % 2 === 1 ? -(v + 1) / 2 : v / 2;
            out[at++] = acc;
            continue;
          }
        }
      }
    }
    acc += (v >>> 1) ^ -(v & 1); // zigzag, below 2^28
    out[at++] = acc;
  }
}

/**
 * `deltas64` for node ids as Int32 offsets from the first (`Block.nodeId`), decoded in one pass with
 * no 8-byte array between; returns the first id, or NaN as soon as an id lies 2^31 or more from it.
 */
function idOffsets(buf: Uint8Array, pos: number, end: number, out: Int32Array): number {
  let acc = 0,
    at = 0,
    base = 0;
  while (pos < end) {
    let b = buf[pos++];
    let v = b & 0x7f;
    if (b >= 0x80) {
      b = buf[pos++];
      v |= (b & 0x7f) << 7;
      if (b >= 0x80) {
        b = buf[pos++];
        v |= (b & 0x7f) << 14;
        if (b >= 0x80) {
          b = buf[pos++];
          v |= (b & 0x7f) << 21;
          if (b >= 0x80) {
            let mul = 0x10000000;
            do {
              b = buf[pos++];
              v += (b & 0x7f) * mul;
              mul *= 128;
            } while (b >= 0x80 && pos < end);
            acc += v % 2 === 1 ? -(v + 1) / 2 : v / 2;
            if (at === 0) base = acc;
            const o = acc - base;
            if (o > 0x7fffffff || o < -0x80000000) return NaN;
            out[at++] = o;
            continue;
          }
        }
      }
    }
    acc += (v >>> 1) ^ -(v & 1);
    if (at === 0) base = acc;
    const o = acc - base;
    if (o > 0x7fffffff || o < -0x80000000) return NaN;
    out[at++] = o;
  }
  return base;
}

/** `deltas64` for 32-bit outputs (coordinates); returns the index after the last value written. */
function deltas32(buf: Uint8Array, pos: number, end: number, out: Int32Array, at: number): number {
  let acc = 0;
  while (pos < end) {
    let b = buf[pos++];
    let v = b & 0x7f;
    if (b >= 0x80) {
      b = buf[pos++];
      v |= (b & 0x7f) << 7;
      if (b >= 0x80) {
        b = buf[pos++];
        v |= (b & 0x7f) << 14;
        if (b >= 0x80) {
          b = buf[pos++];
          v |= (b & 0x7f) << 21;
          if (b >= 0x80) {
            let mul = 0x10000000;
            do {
              b = buf[pos++];
              v += (b & 0x7f) * mul;
              mul *= 128;
            } while (b >= 0x80 && pos < end);
            acc += v % 2 === 1 ? -(v + 1) / 2 : v / 2;
            out[at++] = acc;
            continue;
          }
        }
      }
    }
    acc += (v >>> 1) ^ -(v & 1);
    out[at++] = acc;
  }
  return at;
}

// a varint ends at each byte below 0x80
function countVarints(buf: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (buf[i] < 0x80) n++;
  return n;
}
