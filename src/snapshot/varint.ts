/**
 * Integer columns as LEB128 varints: plain, as zigzag deltas from the previous value,
 * or as deltas from the value two before (interleaved lon, lat pairs).
 *
 * Most columns of an index are small numbers in wide types: string indexes that fit
 * 17 bits in a Uint32, ascending offsets whose steps fit a byte, coordinates a few
 * metres from the previous one. Varints take them down to the bytes they need;
 * `pbf` writes the same varints but reads packed fields into plain arrays, one
 * number each, where a snapshot wants typed arrays of millions.
 */

/** Plain varints (0), deltas from the previous value (1), or from the value two before (2). */
export type Stride = 0 | 1 | 2;

// zigzag: small magnitudes of either sign become small unsigned numbers
const zigzag = (d: number) => (d < 0 ? -2 * d - 1 : 2 * d);

/** The values as they are written: themselves, or their zigzagged deltas. */
function* encoded(values: ArrayLike<number>, stride: Stride): Generator<number> {
  let a = 0,
    b = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isSafeInteger(v) || (stride === 0 && v < 0)) throw new RangeError(`cannot write ${v} as a varint`);
    if (stride === 0) yield v;
    else if (stride === 2 && i & 1) {
      yield zigzag(v - b);
      b = v;
    } else {
      yield zigzag(v - a);
      a = v;
    }
  }
}

/** Bytes of `values` as varints. */
export function varintSize(values: ArrayLike<number>, stride: Stride): number {
  let n = 0;
  for (let v of encoded(values, stride)) {
    n++;
    while (v >= 128) {
      v = Math.floor(v / 128);
      n++;
    }
  }
  return n;
}

/** Writes `values` as varints into `out` from `pos`; returns the position after them. */
export function writeVarints(values: ArrayLike<number>, stride: Stride, out: Uint8Array, pos: number): number {
  for (let v of encoded(values, stride)) {
    while (v >= 128) {
      out[pos++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    out[pos++] = v;
  }
  return pos;
}

/**
 * Reads `out.length` varints from `buf[pos..end)` into `out`, as 32-bit patterns (a
 * Uint32 column reads through an Int32Array view of its buffer). False when they do
 * not end exactly at `end` (cut or padded data) or, plain, when a value is not below
 * `below`. Bytes past `end` read as undefined, which ends a varint: the loop cannot
 * run away.
 */
export function readVarints(buf: Uint8Array, pos: number, end: number, out: Int32Array, stride: Stride, below = 2 ** 32): boolean {
  // one loop per stride: each stays monomorphic, where a shared one would be optimized
  // for the first stride it met and thrown out at the next
  const at = stride === 0 ? plain(buf, pos, out, below) : stride === 1 ? deltas(buf, pos, out) : pairs(buf, pos, out);
  return at === end;
}

// Each loop reads its varints inline, a one-byte value (most deltas) without a call, and a longer
// one through `long`, which returns the value and leaves its end in `end[0]` of the loop's own
// scratch: no state outside the call, and loops that stay monomorphic and small.

// The end of the varints read into `out`, or -1 when a value is `below` or more.
function plain(buf: Uint8Array, pos: number, out: Int32Array, below: number): number {
  const end = [0];
  for (let i = 0; i < out.length; i++) {
    let v = buf[pos];
    if (v < 0x80) pos++;
    else {
      v = long(buf, pos, end);
      if (v < 0) return -1;
      pos = end[0];
    }
    if (v >= below) return -1;
    out[i] = v;
  }
  return pos;
}

function deltas(buf: Uint8Array, pos: number, out: Int32Array): number {
  const end = [0];
  let a = 0;
  for (let i = 0; i < out.length; i++) {
    let v = buf[pos];
    if (v < 0x80) pos++;
    else {
      v = long(buf, pos, end);
      if (v < 0) return -1;
      pos = end[0];
    }
    out[i] = a += v < 0x40000000 ? (v >>> 1) ^ -(v & 1) : unzigzag(v);
  }
  return pos;
}

// two values a turn, lon then lat, each from its own previous one: no branch on which it is
// (a third faster than one a turn on Nepal's coordinates)
function pairs(buf: Uint8Array, pos: number, out: Int32Array): number {
  const end = [0];
  const n = out.length;
  let a = 0,
    b = 0,
    i = 0;
  for (; i + 1 < n; i += 2) {
    let v = buf[pos];
    if (v < 0x80) pos++;
    else {
      v = long(buf, pos, end);
      if (v < 0) return -1;
      pos = end[0];
    }
    out[i] = a += v < 0x40000000 ? (v >>> 1) ^ -(v & 1) : unzigzag(v);
    let w = buf[pos];
    if (w < 0x80) pos++;
    else {
      w = long(buf, pos, end);
      if (w < 0) return -1;
      pos = end[0];
    }
    out[i + 1] = b += w < 0x40000000 ? (w >>> 1) ^ -(w & 1) : unzigzag(w);
  }
  if (i < n) {
    let v = buf[pos];
    if (v < 0x80) pos++;
    else {
      v = long(buf, pos, end);
      if (v < 0) return -1;
      pos = end[0];
    }
    out[i] = a += v < 0x40000000 ? (v >>> 1) ^ -(v & 1) : unzigzag(v);
  }
  return pos;
}

/**
 * Reads `out.length` zigzag varint deltas into doubles (ids up to 2^53, which an Int32Array
 * cannot hold); false when they do not end exactly at `end`, or a sum leaves the safe integers.
 */
export function readDeltas64(buf: Uint8Array, pos: number, end: number, out: Float64Array): boolean {
  const at = [0];
  let a = 0;
  for (let i = 0; i < out.length; i++) {
    let v = buf[pos];
    if (v < 0x80) pos++;
    else {
      v = long(buf, pos, at);
      if (v < 0) return false;
      pos = at[0];
    }
    a += v < 0x40000000 ? (v >>> 1) ^ -(v & 1) : unzigzag(v);
    if (!(Math.abs(a) <= Number.MAX_SAFE_INTEGER)) return false;
    out[i] = a;
  }
  return pos === end;
}

const unzigzag = (v: number) => (v % 2 ? -(v + 1) / 2 : v / 2);

// The varint at `pos` (undefined bytes, past the end, end it), its end put in `end[0]`; -1 when it
// does not end by 2^53. Four bytes hold 28 bits: integer arithmetic; longer ones (rare) in doubles.
function long(buf: Uint8Array, pos: number, end: number[]): number {
  let x = buf[pos++];
  let v = x & 0x7f;
  if (x >= 0x80) {
    x = buf[pos++];
    v |= (x & 0x7f) << 7;
    if (x >= 0x80) {
      x = buf[pos++];
      v |= (x & 0x7f) << 14;
      if (x >= 0x80) {
        x = buf[pos++];
        v |= (x & 0x7f) << 21;
        if (x >= 0x80) {
          let scale = 0x10000000;
          do {
            x = buf[pos++];
            v += (x & 0x7f) * scale;
            scale *= 128;
          } while (x >= 0x80 && scale < 2 ** 53);
          if (x >= 0x80) return -1;
        }
      }
    }
  }
  end[0] = pos;
  return v;
}
