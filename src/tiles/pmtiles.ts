/**
 * A PMTiles v3 writer. The `pmtiles` package reads archives but writes none, and the
 * format's writers are Go and Python programs; this one streams tiles to a file in
 * tile-id order (a "clustered" archive), stores identical tiles once, folds runs of
 * them into run-length entries, and splits the directory into leaves when the root
 * would not fit the archive's first 16 KiB.
 *
 * Layout: the header and the root directory in the first 16 KiB (padded), then the
 * tile data as it streams in, then the metadata and the leaf directories, whose size
 * is known only at the end. Every section is found through the header's offsets, as
 * the format requires of readers.
 */
import { createHash } from 'node:crypto';
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { PbfWriter } from 'pbf';
import { zxyToTileId } from 'pmtiles';

/** Bytes of the fixed header. */
export const HEADER_BYTES = 127;
/** The header and the root directory must fit in this many bytes, read by clients in one request. */
export const ROOT_BYTES = 16384;

/** Header value of a gzip-compressed section or tile (PMTiles v3 `Compression`; 1 is none). */
export const GZIP = 2;
/** Header value of Mapbox Vector Tiles (PMTiles v3 `TileType`). */
export const MVT = 1;

/** One directory entry: `runLength` tiles from `tileId` on share the bytes at `offset`; 0 is a leaf directory. */
export interface Entry {
  tileId: number;
  offset: number;
  length: number;
  runLength: number;
}

/** What the header says besides the sections: the archive's zooms, bounds and centre. */
export interface ArchiveInfo {
  minZoom: number;
  maxZoom: number;
  /** `[west, south, east, north]`, degrees. */
  bounds: [number, number, number, number];
  /** `[lon, lat, zoom]`. */
  center: [number, number, number];
  /** PMTiles `TileType` (default `MVT`). */
  tileType?: number;
  /** PMTiles `Compression` of every tile's bytes (default `GZIP`). */
  tileCompression?: number;
}

/** What `finish` reports. */
export interface ArchiveStats {
  /** Tiles addressed (what a reader can ask for). */
  addressed: number;
  /** Directory entries after folding runs. */
  entries: number;
  /** Distinct tile contents stored. */
  contents: number;
  /** Leaf directories. */
  leaves: number;
  /** Bytes of the whole archive. */
  bytes: number;
}

/**
 * Serialises directory entries (sorted by tile id) as the format's columns: count,
 * id deltas, run lengths, lengths, then offsets (0 for "right after the previous
 * one", else offset + 1); not compressed.
 */
export function serializeDirectory(entries: readonly Entry[]): Uint8Array {
  const pbf = new PbfWriter();
  pbf.writeVarint(entries.length);
  let last = 0;
  for (const e of entries) {
    pbf.writeVarint(e.tileId - last);
    last = e.tileId;
  }
  for (const e of entries) pbf.writeVarint(e.runLength);
  for (const e of entries) pbf.writeVarint(e.length);
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const prev = entries[i - 1];
    if (i > 0 && e.offset === prev.offset + prev.length) pbf.writeVarint(0);
    else pbf.writeVarint(e.offset + 1);
  }
  return pbf.finish();
}

/**
 * Builds the root directory and the leaves from sorted entries: all in the root when
 * it fits beside the header, else leaves of `leafSize` entries (grown until the root
 * of leaf pointers fits). Directories are gzipped.
 */
export function buildDirectories(
  entries: readonly Entry[],
  rootRoom = ROOT_BYTES - HEADER_BYTES,
): { root: Uint8Array; leaves: Uint8Array; leafCount: number } {
  const whole = gzipSync(serializeDirectory(entries));
  if (whole.length <= rootRoom) return { root: whole, leaves: new Uint8Array(0), leafCount: 0 };
  for (let leafSize = 4096; ; leafSize *= 2) {
    const parts: Uint8Array[] = [];
    const pointers: Entry[] = [];
    let offset = 0;
    for (let i = 0; i < entries.length; i += leafSize) {
      const leaf = gzipSync(serializeDirectory(entries.slice(i, i + leafSize)));
      pointers.push({ tileId: entries[i].tileId, offset, length: leaf.length, runLength: 0 });
      parts.push(leaf);
      offset += leaf.length;
    }
    const root = gzipSync(serializeDirectory(pointers));
    if (root.length <= rootRoom) return { root, leaves: concat(parts, offset), leafCount: parts.length };
  }
}

/**
 * Writes a PMTiles v3 archive to `path`, tile by tile.
 *
 * @example
 * const w = new PmtilesWriter('out.pmtiles');
 * w.add(0, 0, 0, gzippedMvt);          // in ascending tile id: zoom by zoom, Hilbert order within
 * w.finish({ minZoom: 0, maxZoom: 0, bounds, center }, { vector_layers: [] });
 */
export class PmtilesWriter {
  private readonly fd: number;
  // pending tile bytes, written in chunks of about CHUNK
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  // the entries, as parallel arrays (a Nepal archive has hundreds of thousands)
  private ids: number[] = [];
  private offsets: number[] = [];
  private lengths: number[] = [];
  private readonly seen = new Map<string, number>(); // content hash -> entry index of its first tile
  private dataBytes = 0;
  private lastId = -1;
  private contents = 0;
  private closed = false;

  /** Opens (truncates) `path`. */
  constructor(readonly path: string) {
    this.fd = openSync(path, 'w', 0o644);
    // header and root directory go here at the end
    writeSync(this.fd, new Uint8Array(ROOT_BYTES), 0, ROOT_BYTES, 0);
  }

  /**
   * Adds tile z/x/y (its bytes as served: compressed as the header will say). Tiles
   * must come in ascending tile id; identical bytes are stored once.
   */
  add(z: number, x: number, y: number, bytes: Uint8Array): void {
    const id = zxyToTileId(z, x, y);
    if (id <= this.lastId)
      throw new Error(`tile ${z}/${x}/${y} (id ${id}) added after id ${this.lastId}: tiles must come in ascending tile id`);
    this.lastId = id;
    const hash = createHash('sha1').update(bytes).digest('base64');
    const first = this.seen.get(hash);
    this.ids.push(id);
    if (first !== undefined) {
      this.offsets.push(this.offsets[first]);
      this.lengths.push(this.lengths[first]);
      return;
    }
    this.seen.set(hash, this.ids.length - 1);
    this.offsets.push(this.dataBytes);
    this.lengths.push(bytes.length);
    this.dataBytes += bytes.length;
    this.contents++;
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= CHUNK) this.flush();
  }

  /** Number of tiles added so far. */
  get count(): number {
    return this.ids.length;
  }

  /**
   * Writes the directories, the metadata (JSON, gzipped) and the header, and closes
   * the file (flushed to disk).
   */
  finish(info: ArchiveInfo, metadata: object): ArchiveStats {
    if (this.closed) throw new Error('archive already finished');
    this.flush();
    const entries = this.entries();
    const { root, leaves, leafCount } = buildDirectories(entries);
    const meta = gzipSync(JSON.stringify(metadata));
    const dataOffset = ROOT_BYTES;
    const metaOffset = dataOffset + this.dataBytes;
    const leafOffset = metaOffset + meta.length;
    writeSync(this.fd, meta, 0, meta.length, metaOffset);
    if (leaves.length) writeSync(this.fd, leaves, 0, leaves.length, leafOffset);
    const header = encodeHeader({
      rootOffset: HEADER_BYTES,
      rootLength: root.length,
      metaOffset,
      metaLength: meta.length,
      leafOffset,
      leafLength: leaves.length,
      dataOffset,
      dataLength: this.dataBytes,
      addressed: this.ids.length,
      entries: entries.length,
      contents: this.contents,
      info,
    });
    const head = new Uint8Array(HEADER_BYTES + root.length);
    head.set(header);
    head.set(root, HEADER_BYTES);
    writeSync(this.fd, head, 0, head.length, 0);
    fsyncSync(this.fd);
    this.close();
    return {
      addressed: this.ids.length,
      entries: entries.length,
      contents: this.contents,
      leaves: leafCount,
      bytes: leafOffset + leaves.length,
    };
  }

  /** Closes the file without finishing it (after a failure). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  // the tiles' entries with runs of one content at consecutive ids folded
  private entries(): Entry[] {
    const out: Entry[] = [];
    for (let i = 0; i < this.ids.length; i++) {
      const last = out[out.length - 1];
      if (last && this.ids[i] === last.tileId + last.runLength && this.offsets[i] === last.offset && this.lengths[i] === last.length) {
        last.runLength++;
      } else {
        out.push({ tileId: this.ids[i], offset: this.offsets[i], length: this.lengths[i], runLength: 1 });
      }
    }
    return out;
  }

  private flush(): void {
    if (!this.pending.length) return;
    const at = ROOT_BYTES + this.dataBytes - this.pendingBytes;
    const chunk = concat(this.pending, this.pendingBytes);
    writeSync(this.fd, chunk, 0, chunk.length, at);
    this.pending = [];
    this.pendingBytes = 0;
  }
}

// tile bytes gathered before a write
const CHUNK = 4 << 20;

interface HeaderFields {
  rootOffset: number;
  rootLength: number;
  metaOffset: number;
  metaLength: number;
  leafOffset: number;
  leafLength: number;
  dataOffset: number;
  dataLength: number;
  addressed: number;
  entries: number;
  contents: number;
  info: ArchiveInfo;
}

/** The 127-byte header (little-endian, as the spec lays it out). */
function encodeHeader(h: HeaderFields): Uint8Array {
  const b = new Uint8Array(HEADER_BYTES);
  const v = new DataView(b.buffer);
  b.set([0x50, 0x4d, 0x54, 0x69, 0x6c, 0x65, 0x73], 0); // "PMTiles"
  b[7] = 3;
  const u64 = [
    h.rootOffset,
    h.rootLength,
    h.metaOffset,
    h.metaLength,
    h.leafOffset,
    h.leafLength,
    h.dataOffset,
    h.dataLength,
    h.addressed,
    h.entries,
    h.contents,
  ];
  u64.forEach((n, i) => v.setBigUint64(8 + 8 * i, BigInt(n), true));
  const { info } = h;
  b[96] = 1; // clustered: tile data in tile-id order
  b[97] = GZIP; // directories and metadata
  b[98] = info.tileCompression ?? GZIP;
  b[99] = info.tileType ?? MVT;
  b[100] = info.minZoom;
  b[101] = info.maxZoom;
  const e7 = (d: number) => Math.round(d * 1e7);
  v.setInt32(102, e7(info.bounds[0]), true);
  v.setInt32(106, e7(info.bounds[1]), true);
  v.setInt32(110, e7(info.bounds[2]), true);
  v.setInt32(114, e7(info.bounds[3]), true);
  b[118] = info.center[2];
  v.setInt32(119, e7(info.center[0]), true);
  v.setInt32(123, e7(info.center[1]), true);
  return b;
}

function concat(parts: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
