import { PbfReader as Pbf } from 'pbf';
import { inflateSync } from 'node:zlib';

/**
 * Returns the decompressed payload of a `Blob` message (raw or zlib; the only two
 * compressions osmium, osmosis and the planet dumps write by default).
 */
export function inflateBlob(bytes: Uint8Array): Uint8Array {
  let raw: Uint8Array | undefined;
  let zlib: Uint8Array | undefined;
  let rawSize = -1;
  let other = 0;
  new Pbf(bytes).readFields((tag, _: unknown, pbf) => {
    if (tag === 1) raw = pbf.readBytes();
    else if (tag === 2) rawSize = pbf.readVarint();
    else if (tag === 3) zlib = pbf.readBytes();
    else if (tag >= 4 && tag <= 7) other = tag; // readFields skips what we leave unread
  }, null);
  if (raw) return raw;
  if (!zlib) {
    const names: Record<number, string> = { 4: 'lzma', 5: 'bzip2', 6: 'lz4', 7: 'zstd' };
    throw new Error(other ? `unsupported blob compression ${names[other]}` : 'blob has no data');
  }
  let out: Uint8Array;
  try {
    // one output chunk of the announced size: no chunk list to join afterwards
    out = inflateSync(zlib, rawSize > 0 ? { chunkSize: Math.max(64, rawSize) } : {});
  } catch (err) {
    throw new Error(`corrupt zlib data (${(err as Error).message})`);
  }
  if (rawSize >= 0 && out.length !== rawSize) throw new Error(`blob inflates to ${out.length} bytes, header says ${rawSize}`);
  return out;
}
