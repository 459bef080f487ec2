import { readSync } from 'node:fs';
import { PbfReader as Pbf } from 'pbf';

/** One `OSMData` blob of a PBF file: where its bytes are. */
export interface Frame {
  /** Byte offset of the `Blob` message in the file. */
  offset: number;
  /** Byte length of the `Blob` message. */
  length: number;
}

/** A blob of a type this reader does not know, skipped as the format asks: a damaged `OSMData` is one. */
export interface SkippedBlob {
  /** The type its BlobHeader gives. */
  type: string;
  /** Byte offset of its `Blob` message in the file. */
  offset: number;
}

/** What the file's `OSMHeader` says. */
export interface Header {
  requiredFeatures: string[];
  optionalFeatures: string[];
  writingProgram: string;
  replicationTimestamp: number;
  /** `[left, bottom, right, top]` in degrees, when present. */
  bbox?: [number, number, number, number];
  /** Where the header's Blob is. */
  frame: Frame;
}

// The format's own limits (fileformat.proto): anything larger is corruption, and
// checking before allocating keeps a garbage length from becoming a huge buffer.
const MAX_HEADER = 64 * 1024;
const MAX_BLOB = 32 * 1024 * 1024;

/** Features this reader implements; a file requiring anything else is refused. */
const SUPPORTED = new Set(['OsmSchema-V0.6', 'DenseNodes']);

/** How a strict load words the blobs it refuses: how many, and the first few by type and offset. */
export function describeSkipped(skipped: readonly SkippedBlob[]): string {
  const first = skipped
    .slice(0, 3)
    .map((b) => `${JSON.stringify(b.type)} at offset ${b.offset}`)
    .join(', ');
  return `${skipped.length} blob${skipped.length === 1 ? '' : 's'} of unknown type (${first}${skipped.length > 3 ? ', …' : ''})`;
}

/** Bytes read by offset: a file read piece by piece (`fileSource`), or bytes in memory (`bufferSource`). */
export interface ByteSource {
  /** How many bytes there are. */
  readonly size: number;
  /** An open file's descriptor, from which decoder threads read their blobs themselves (`readFile`); none for bytes in memory. */
  readonly fd?: number;
  /** `n` bytes from offset `at` (within `size`), in a buffer the caller may keep or transfer; throws where a file has been cut short since. */
  read(at: number, n: number): Uint8Array;
}

/**
 * `n` bytes from offset `at` of an open file, in a buffer of their own; throws when the file ends
 * sooner (cut short since it was opened).
 */
export function readFile(fd: number, at: number, n: number): Uint8Array {
  const buf = new Uint8Array(n);
  let got = 0;
  while (got < n) {
    const k = readSync(fd, buf, got, n - got, at + got);
    if (k === 0) throw new Error(`the file ended ${n - got} bytes early`);
    got += k;
  }
  return buf;
}

/**
 * A `ByteSource` over bytes in memory; `read` copies, so that what it gives can be transferred
 * without detaching `bytes` (a Buffer's `slice` would share its memory: a copy by construction).
 */
export function bufferSource(bytes: Uint8Array): ByteSource {
  return { size: bytes.length, read: (at, n) => new Uint8Array(bytes.subarray(at, at + n)) };
}

/**
 * Splits a PBF file into its frames (4-byte length, BlobHeader, Blob) without
 * decompressing anything, so the blobs can be decoded in parallel. Reads only the
 * frames' headers of a `ByteSource`. Throws a plain `Error` describing the first
 * structural problem; the caller names the file.
 */
export function scanFrames(from: Uint8Array | ByteSource): { header: Frame; data: Frame[]; skipped: SkippedBlob[] } {
  const src = from instanceof Uint8Array ? { size: from.length, read: (at: number, n: number) => from.subarray(at, at + n) } : from;
  const end = src.size;
  const data: Frame[] = [];
  const skipped: SkippedBlob[] = [];
  let header: Frame | undefined;
  let pos = 0;
  while (pos < end) {
    if (pos + 4 > end) throw new Error(`truncated: ${end - pos} stray bytes at offset ${pos}`);
    const b = src.read(pos, 4);
    const len = ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0;
    pos += 4;
    if (len === 0 || len > MAX_HEADER) throw new Error(`not a valid PBF: BlobHeader length ${len} at offset ${pos - 4}`);
    if (pos + len > end) throw new Error(`truncated: BlobHeader at offset ${pos} runs past the end of the file`);
    const { type, size } = readBlobHeader(src.read(pos, len), pos);
    pos += len;
    if (size > MAX_BLOB) throw new Error(`not a valid PBF: blob size ${size} at offset ${pos} exceeds 32 MiB`);
    if (pos + size > end) throw new Error(`truncated: blob at offset ${pos} needs ${size} bytes, ${end - pos} left`);
    const frame = { offset: pos, length: size };
    if (type === 'OSMHeader') {
      if (header || data.length) throw new Error(`not a valid PBF: unexpected OSMHeader at offset ${pos}`);
      header = frame;
    } else if (type === 'OSMData') {
      if (!header) throw new Error('not a valid PBF: OSMData before OSMHeader');
      data.push(frame);
    } else {
      // allowed by the format and skipped, but counted: one flipped byte in "OSMData"
      // would otherwise drop its 8,000 objects without a word
      skipped.push({ type, offset: pos });
    }
    pos += size;
  }
  if (!header) throw new Error(end ? 'not a valid PBF: no OSMHeader blob' : 'empty file');
  return { header, data, skipped };
}

function readBlobHeader(bytes: Uint8Array, at: number): { type: string; size: number } {
  let type = '';
  let size = -1;
  try {
    new Pbf(bytes).readFields((tag, _: unknown, pbf) => {
      if (tag === 1) type = pbf.readString();
      else if (tag === 3) size = pbf.readVarint();
    }, null);
  } catch {
    throw new Error(`not a valid PBF: unreadable BlobHeader at offset ${at}`);
  }
  if (!type || size < 0) throw new Error(`not a valid PBF: BlobHeader at offset ${at} lacks type or datasize`);
  return { type, size };
}

/** Reads an inflated `HeaderBlock` and checks that its required features are supported. */
export function readHeader(bytes: Uint8Array, frame: Frame): Header {
  const h: Header = { requiredFeatures: [], optionalFeatures: [], writingProgram: '', replicationTimestamp: 0, frame };
  new Pbf(bytes).readFields((tag, _: unknown, pbf) => {
    if (tag === 1) h.bbox = readBbox(pbf);
    else if (tag === 4) h.requiredFeatures.push(pbf.readString());
    else if (tag === 5) h.optionalFeatures.push(pbf.readString());
    else if (tag === 16) h.writingProgram = pbf.readString();
    else if (tag === 32) h.replicationTimestamp = pbf.readVarint();
  }, null);
  const missing = h.requiredFeatures.filter((f) => !SUPPORTED.has(f));
  if (missing.length) throw new Error(`unsupported required features: ${missing.join(', ')}`);
  return h;
}

function readBbox(pbf: Pbf): [number, number, number, number] {
  const b = [0, 0, 0, 0];
  const end = pbf.readVarint() + pbf.pos;
  while (pbf.pos < end) {
    const val = pbf.readVarint();
    const tag = val >> 3;
    if (tag >= 1 && tag <= 4) b[tag - 1] = pbf.readSVarint() / 1e9;
    else pbf.skip(val);
  }
  // proto order is left, right, top, bottom
  return [b[0], b[3], b[1], b[2]];
}
