/**
 * Bit-packing: `n` unsigned values of `width` bits (0–32) each, least significant bit first,
 * in little-endian 32-bit words. A column of small numbers in a wide type (a row's kind in 2
 * bits, a string index in 17) takes the bits its largest value needs, and reads back in one
 * tight loop of shifts: no branch per value, unlike varints.
 */

/** Bits that hold `max` (0 for 0). */
export function bitsFor(max: number): number {
  let w = 0;
  while (w < 32 && max >= 2 ** w) w++;
  return w;
}

/** Bytes of `n` values of `width` bits: whole 32-bit words. */
export function packedBytes(n: number, width: number): number {
  return Math.ceil((n * width) / 32) * 4;
}

/**
 * Packs `values[i] - base` (each below 2^width) into `out` (zeroed, `packedBytes` long, at a
 * multiple of 4 in its buffer).
 */
export function pack(values: ArrayLike<number>, base: number, width: number, out: Uint8Array): void {
  if (width === 0) return;
  const words = new Uint32Array(out.buffer, out.byteOffset, out.length >> 2);
  for (let i = 0, p = 0; i < values.length; i++, p += width) {
    const v = values[i] - base;
    const word = Math.floor(p / 32),
      bit = p % 32;
    words[word] |= v << bit;
    if (bit + width > 32) words[word + 1] |= v >>> (32 - bit);
  }
}

/**
 * Unpacks `out.length` values of `width` bits from `words`, adding `base`. Reads no word past
 * `words` (the caller sized it with `packedBytes`). With a range [`lo`, `hi`), false at the first
 * value outside it, checked before the typed array `out` could wrap it.
 */
export function unpack(
  words: Uint32Array,
  width: number,
  base: number,
  out: Uint8Array | Uint16Array | Uint32Array | Int32Array,
  lo = -Infinity,
  hi = Infinity,
): boolean {
  const n = out.length;
  const check = lo > -Infinity || hi < Infinity;
  if (width === 0) {
    if (n && check && !(base >= lo && base < hi)) return false;
    out.fill(base);
    return true;
  }
  const mask = width === 32 ? -1 : 2 ** width - 1;
  // one loop per case, each small enough to stay optimized: the unchecked one is the usual
  if (!check) {
    for (let i = 0, p = 0; i < n; i++, p += width) {
      const word = p >>> 5,
        bit = p & 31;
      let v = words[word] >>> bit;
      if (bit + width > 32) v |= words[word + 1] << (32 - bit);
      out[i] = ((v & mask) >>> 0) + base;
    }
    return true;
  }
  for (let i = 0, p = 0; i < n; i++, p += width) {
    const word = p >>> 5,
      bit = p & 31;
    let v = words[word] >>> bit;
    if (bit + width > 32) v |= words[word + 1] << (32 - bit);
    const x = ((v & mask) >>> 0) + base;
    if (!(x >= lo && x < hi)) return false;
    out[i] = x;
  }
  return true;
}
