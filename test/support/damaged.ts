/**
 * The core fixture with one data blob's type string damaged ("OSMData" → "OSMDatb" in
 * the third frame), as a flipped byte on disk would leave it: the format tells readers
 * to skip blobs of unknown type, so a lenient load silently misses that blob's objects.
 */
import { readFileSync } from 'node:fs';
import { CORE } from './raw.js';

/** The damaged bytes, and the file offset of the skipped blob's `Blob` message. */
export function damagedFixture(): { bytes: Uint8Array; offset: number } {
  const bytes = new Uint8Array(readFileSync(CORE));
  const view = new DataView(bytes.buffer);
  // walk the frames: 4-byte length, BlobHeader (type first, datasize last), blob
  let pos = 0;
  for (let k = 0; k < 2; k++) {
    const len = view.getUint32(pos);
    pos += 4 + len + datasize(bytes.subarray(pos + 4, pos + 4 + len));
  }
  const len = view.getUint32(pos);
  // the header's first field: tag 0x0a, length 7, "OSMData"
  const type = new TextDecoder().decode(bytes.subarray(pos + 6, pos + 6 + 7));
  if (bytes[pos + 4] !== 0x0a || type !== 'OSMData') throw new Error(`the third frame is ${type}, not OSMData`);
  bytes[pos + 6 + 6] = 'b'.charCodeAt(0);
  return { bytes, offset: pos + 4 + len };
}

// BlobHeader field 3 (datasize), a varint after its tag byte 0x18, the header's last field
function datasize(header: Uint8Array): number {
  const at = header.lastIndexOf(0x18);
  let v = 0,
    s = 1;
  for (let p = at + 1; ; p++) {
    v += (header[p] & 0x7f) * s;
    s *= 128;
    if (header[p] < 0x80) return v;
  }
}
