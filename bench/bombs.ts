/**
 * Compression bombs for the reliability run, made in a blink: a few bytes followed by a GiB of
 * zeros, as gzip or zlib. zlib itself takes seconds per GiB at level 9 on a busy 2-core machine;
 * here one MiB of zeros is deflated once, ending on a full flush (so nothing after it refers back
 * into it), and that block is repeated: a valid deflate stream, checksums included, of the same
 * ratio (about 1:1000).
 */
import { constants, crc32, deflateRawSync } from 'node:zlib';

const MiB = 1 << 20;
/** The final block: an empty fixed-Huffman block with BFINAL set. */
const FINAL = Uint8Array.of(0x03, 0x00);

/** Raw deflate of `head` then `zeros` zero bytes, in parts. */
function deflated(head: Uint8Array, zeros: number): Uint8Array[] {
  const flush = { level: 9, finishFlush: constants.Z_FULL_FLUSH };
  const first = zeros % MiB;
  const parts: Uint8Array[] = [deflateRawSync(Buffer.concat([head, new Uint8Array(first)]), flush)];
  const block = deflateRawSync(new Uint8Array(MiB), flush);
  for (let left = zeros - first; left > 0; left -= MiB) parts.push(block);
  parts.push(FINAL);
  return parts;
}

/** A gzip member of `head` then `zeros` zero bytes (zeros < 4 GiB). */
export function gzipBomb(zeros: number, head: Uint8Array = new Uint8Array(0)): Buffer {
  let crc = crc32(head);
  const zero = new Uint8Array(16 * MiB);
  for (let left = zeros; left > 0; left -= zero.length) crc = crc32(left >= zero.length ? zero : zero.subarray(0, left), crc);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE((head.length + zeros) % 2 ** 32, 4);
  // magic, deflate, no flags, no time, best compression, Unix
  return Buffer.concat([Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 3), ...deflated(head, zeros), trailer]);
}

/** A zlib stream (RFC 1950) of `head` then `zeros` zero bytes. */
export function zlibBomb(zeros: number, head: Uint8Array = new Uint8Array(0)): Buffer {
  // Adler-32: zeros leave its sum a as it is and add a to b once each
  let a = 1,
    b = 0;
  for (const byte of head) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  b = (b + (zeros % 65521) * a) % 65521;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((b << 16) | a) >>> 0);
  return Buffer.concat([Uint8Array.of(0x78, 0xda), ...deflated(head, zeros), adler]);
}
