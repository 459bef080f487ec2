/**
 * xxHash32 (https://github.com/Cyan4973/xxHash, XXH32), the snapshot's checksum.
 *
 * Written here because the JavaScript ones read a byte at a time: checking a
 * country's snapshot is on the start-up path of every app that opens one, and
 * reading four bytes at a time through an Int32Array view makes it about twice as
 * fast as crc-32's sliced CRC32 and several times js-xxhash. Snapshots are little-endian, as is every
 * host that runs them; `xxhash32` of the same bytes agrees with the reference.
 */
const P1 = 0x9e3779b1,
  P2 = 0x85ebca77,
  P3 = 0xc2b2ae3d,
  P4 = 0x27d4eb2f,
  P5 = 0x165667b1;

const rotl = (x: number, r: number) => (x << r) | (x >>> (32 - r));

/** The XXH32 hash of `bytes` with `seed`, as an unsigned 32-bit integer. */
export function xxhash32(bytes: Uint8Array, seed = 0): number {
  const len = bytes.length;
  // words are read in place when the bytes lie at a multiple of 4 (a snapshot's payload does)
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  // Int32, not Uint32: words above 2^31 would be doubles, and imul takes them back to int32 anyway
  const words = new Int32Array(aligned.buffer, aligned.byteOffset, len >>> 2);
  let i = 0;
  let h: number;
  if (len >= 16) {
    let v1 = (seed + P1 + P2) | 0,
      v2 = (seed + P2) | 0,
      v3 = seed | 0,
      v4 = (seed - P1) | 0;
    const stripes = (len >>> 4) << 2;
    for (; i < stripes; i += 4) {
      v1 = Math.imul(rotl((v1 + Math.imul(words[i], P2)) | 0, 13), P1);
      v2 = Math.imul(rotl((v2 + Math.imul(words[i + 1], P2)) | 0, 13), P1);
      v3 = Math.imul(rotl((v3 + Math.imul(words[i + 2], P2)) | 0, 13), P1);
      v4 = Math.imul(rotl((v4 + Math.imul(words[i + 3], P2)) | 0, 13), P1);
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) | 0;
  } else {
    h = (seed + P5) | 0;
  }
  h = (h + len) | 0;
  for (; i < words.length; i++) h = Math.imul(rotl((h + Math.imul(words[i], P3)) | 0, 17), P4);
  for (let k = i << 2; k < len; k++) h = Math.imul(rotl((h + Math.imul(aligned[k], P5)) | 0, 11), P1);
  h ^= h >>> 15;
  h = Math.imul(h, P2);
  h ^= h >>> 13;
  h = Math.imul(h, P3);
  h ^= h >>> 16;
  return h >>> 0;
}
