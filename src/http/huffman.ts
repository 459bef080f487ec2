/**
 * Gzip and zlib (HTTP's `deflate`) streams made of Huffman codes alone: one dynamic deflate block
 * (RFC 1951) holding every byte as a literal, no back-references; the gzip (RFC 1952) or zlib
 * (RFC 1950) frame around it.
 *
 * Why by hand: the app runs on Web APIs only, whose `CompressionStream` has no level or strategy,
 * and it spends most of its time looking for repeats. In a matrix answer (20,000 unrelated
 * numbers) there are hardly any: on a 100 × 100 answer (187 KB) CompressionStream's gzip took
 * 12 ms, fflate's level 1 9 ms and pako's Huffman-only strategy 10 ms, where this takes about one
 * and comes within 5% of gzip level 6's size (zlib's own Huffman-only strategy, in Node only,
 * makes the same bytes). Any inflater reads it: it is plain deflate.
 */

/** A Huffman-only gzip (`'gzip'`) or zlib (`'deflate'`) stream of `data`. */
export function huffmanCompress(data: Uint8Array, format: 'gzip' | 'deflate'): Uint8Array {
  const freq = new Uint32Array(END + 1);
  for (let i = 0; i < data.length; i++) freq[data[i]]++;
  freq[END] = 1;
  const litLen = lengths(freq, 15);
  const lit = codes(litLen);

  // The code lengths of the literals and of the (unused) distances, run-length coded, then
  // Huffman coded themselves (RFC 1951 3.2.7).
  const all = [...litLen, ...DIST_LENGTHS];
  const runs = runLengths(all);
  const clFreq = new Uint32Array(19);
  for (let i = 0; i < runs.length; i += 2) clFreq[runs[i]]++;
  const clLen = lengths(clFreq, 7);
  const cl = codes(clLen);
  let hclen = 19;
  while (hclen > 4 && clLen[CL_ORDER[hclen - 1]] === 0) hclen--;

  let dataBits = 0;
  for (let s = 0; s <= END; s++) dataBits += freq[s] * litLen[s];
  // at most 7 bits per code-length symbol and 7 extra bits
  const headBits = 3 + 5 + 5 + 4 + 3 * hclen + (runs.length / 2) * 14;
  const frame = format === 'gzip' ? 10 : 2,
    trailer = format === 'gzip' ? 8 : 4;
  const out = new Uint8Array(frame + Math.ceil((headBits + dataBits) / 8) + 1 + trailer);
  let pos = 0;
  if (format === 'gzip') {
    out.set(GZIP_HEAD);
    pos = 10;
  } else {
    out[pos++] = 0x78; // deflate, 32 KiB window
    out[pos++] = 0x01; // the fastest level; 0x7801 is a multiple of 31, as the header check wants
  }

  const w = new Bits(out, pos);
  w.put(1, 1); // the last block
  w.put(2, 2); // with dynamic Huffman codes
  w.put(END + 1 - 257, 5); // HLIT: literals 0-255 and the end of the block
  w.put(DIST_LENGTHS.length - 1, 5); // HDIST
  w.put(hclen - 4, 4);
  for (let i = 0; i < hclen; i++) w.put(clLen[CL_ORDER[i]], 3);
  for (let i = 0; i < runs.length; i += 2) {
    const s = runs[i];
    w.put(cl[s], clLen[s]);
    if (s >= 16) w.put(runs[i + 1], s === 16 ? 2 : s === 17 ? 3 : 7);
  }
  w.literals(data, lit, litLen);
  w.put(lit[END], litLen[END]);
  pos = w.end();
  if (format === 'gzip') {
    pos = le32(out, pos, crc32(data));
    pos = le32(out, pos, data.length % 2 ** 32);
  } else {
    const adler = adler32(data);
    out[pos++] = adler >>> 24;
    out[pos++] = (adler >>> 16) & 255;
    out[pos++] = (adler >>> 8) & 255;
    out[pos++] = adler & 255;
  }
  return out.subarray(0, pos);
}

/** The literal/length symbol that ends a block. */
const END = 256;
/**
 * Two distance codes of one bit, though no distance is used: what zlib writes then too, since
 * some inflaters refuse a block without any distance code.
 */
const DIST_LENGTHS = [1, 1];
/** The order in which the code-length code's lengths are sent. */
const CL_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
/** ID1, ID2, deflate, no flags, no time, XFL 4 (the fastest), OS unknown. */
const GZIP_HEAD = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 255];

/** Writes bits least significant first; `acc` holds fewer than 8 of them between calls. */
class Bits {
  private acc = 0;
  private n = 0;

  constructor(
    private readonly out: Uint8Array,
    private pos: number,
  ) {}

  /** `value`'s low `bits` bits (at most 24). */
  put(value: number, bits: number): void {
    this.acc |= value << this.n;
    this.n += bits;
    while (this.n >= 8) {
      this.out[this.pos++] = this.acc & 255;
      this.acc >>>= 8;
      this.n -= 8;
    }
  }

  /** Each byte of `data` as its code. In locals: the loop over every byte of the answer. */
  literals(data: Uint8Array, code: Uint16Array, len: Uint8Array): void {
    const out = this.out;
    let { acc, n, pos } = this;
    for (let i = 0; i < data.length; i++) {
      const x = data[i];
      acc |= code[x] << n;
      n += len[x];
      if (n >= 16) {
        out[pos++] = acc & 255;
        out[pos++] = (acc >>> 8) & 255;
        acc >>>= 16;
        n -= 16;
      }
    }
    while (n >= 8) {
      out[pos++] = acc & 255;
      acc >>>= 8;
      n -= 8;
    }
    Object.assign(this, { acc, n, pos });
  }

  /** Pads to a byte boundary; where the next byte goes. */
  end(): number {
    if (this.n > 0) this.put(0, 8 - this.n);
    return this.pos;
  }
}

// CRC-32's table (`CRC[0]`), and three more to take four bytes a step ("slicing by 4"):
// `CRC[k][x]` is the CRC of byte x followed by k zero bytes.
const CRC = (() => {
  const t = [0, 1, 2, 3].map(() => new Int32Array(256));
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[0][i] = c;
  }
  for (let k = 1; k < 4; k++) for (let i = 0; i < 256; i++) t[k][i] = (t[k - 1][i] >>> 8) ^ t[0][t[k - 1][i] & 255];
  return t;
})();

function crc32(data: Uint8Array): number {
  const [t0, t1, t2, t3] = CRC;
  let crc = -1,
    i = 0;
  for (const end = data.length & ~3; i < end; i += 4) {
    crc ^= data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24);
    crc = t3[crc & 255] ^ t2[(crc >>> 8) & 255] ^ t1[(crc >>> 16) & 255] ^ t0[crc >>> 24];
  }
  for (; i < data.length; i++) crc = t0[(crc ^ data[i]) & 255] ^ (crc >>> 8);
  return ~crc;
}

// its sums reduced every 5,552 bytes, as zlib does
function adler32(data: Uint8Array): number {
  let a = 1,
    b = 0;
  for (let i = 0; i < data.length;) {
    for (const end = Math.min(i + 5552, data.length); i < end; i++) {
      a += data[i];
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

function le32(out: Uint8Array, pos: number, v: number): number {
  out[pos] = v & 255;
  out[pos + 1] = (v >>> 8) & 255;
  out[pos + 2] = (v >>> 16) & 255;
  out[pos + 3] = (v >>> 24) & 255;
  return pos + 4;
}

/**
 * Huffman code lengths for `freq`, none longer than `limit`: where the optimal code has a
 * longer one, the counts are halved (keeping each used symbol at least 1) until none is, which
 * costs a little size on odd inputs only. At least two symbols get a code (an unused one if
 * need be): zlib's inflater refuses a code-length code of one symbol. A RangeError when more
 * symbols are used than `limit` bits can tell apart.
 */
export function lengths(freq: ArrayLike<number>, limit: number): Uint8Array {
  let f = Array.from(freq);
  for (let s = 0; s < f.length && f.filter((x) => x > 0).length < 2; s++) if (f[s] === 0) f[s] = 1;
  if (f.filter((x) => x > 0).length > 2 ** limit) throw new RangeError(`lengths: more symbols than codes of ${limit} bits`);
  for (;;) {
    const out = huffman(f);
    if (out.every((l) => l <= limit)) return out;
    f = f.map((x) => (x > 0 ? Math.ceil(x / 2) : 0));
  }
}

// Optimal code lengths by the two-queue method: the used symbols sorted by count are the
// leaves; the joined nodes come out in order of weight, so the lighter of the two queues' heads
// is always the next lightest node.
function huffman(freq: number[]): Uint8Array {
  const out = new Uint8Array(freq.length);
  const syms = freq.map((_, s) => s).filter((s) => freq[s] > 0);
  syms.sort((x, y) => freq[x] - freq[y] || x - y);
  const m = syms.length;
  if (m === 0) return out;
  if (m === 1) {
    out[syms[0]] = 1;
    return out;
  }
  const weight = new Float64Array(2 * m - 1),
    parent = new Int32Array(2 * m - 1);
  syms.forEach((s, i) => (weight[i] = freq[s]));
  let leaf = 0,
    inner = m,
    next = m;
  const take = () => (leaf < m && (inner === next || weight[leaf] <= weight[inner]) ? leaf++ : inner++);
  for (; next < 2 * m - 1; next++) {
    const x = take(),
      y = take();
    weight[next] = weight[x] + weight[y];
    parent[x] = parent[y] = next;
  }
  // a parent comes after its children: depths from the root down
  const depth = new Uint16Array(2 * m - 1);
  for (let v = 2 * m - 3; v >= 0; v--) depth[v] = depth[parent[v]] + 1;
  for (let i = 0; i < m; i++) out[syms[i]] = depth[i];
  return out;
}

/** The canonical codes of `len` (RFC 1951 3.2.2), bit-reversed, as they are written least significant bit first. */
function codes(len: Uint8Array): Uint16Array {
  const count = new Uint16Array(16),
    next = new Uint16Array(16);
  for (const l of len) count[l]++;
  count[0] = 0;
  for (let bits = 1, code = 0; bits < 16; bits++) {
    code = (code + count[bits - 1]) << 1;
    next[bits] = code;
  }
  const out = new Uint16Array(len.length);
  for (let s = 0; s < len.length; s++) {
    const l = len[s];
    if (l === 0) continue;
    let c = next[l]++,
      r = 0;
    for (let k = 0; k < l; k++, c >>= 1) r = (r << 1) | (c & 1);
    out[s] = r;
  }
  return out;
}

/**
 * Code lengths as the code-length alphabet's symbols, each followed by its extra bits' value:
 * 0-15 a length, 16 the previous one 3-6 times more, 17 and 18 a run of 3-10 and 11-138 zeros.
 */
function runLengths(list: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < list.length;) {
    const v = list[i];
    let run = 1;
    while (i + run < list.length && list[i + run] === v) run++;
    i += run;
    if (v === 0) {
      while (run >= 11) {
        const k = Math.min(run, 138);
        out.push(18, k - 11);
        run -= k;
      }
      if (run >= 3) {
        out.push(17, run - 3);
        run = 0;
      }
    } else {
      out.push(v, 0);
      run--;
      while (run >= 3) {
        const k = Math.min(run, 6);
        out.push(16, k - 3);
        run -= k;
      }
    }
    for (; run > 0; run--) out.push(v, 0);
  }
  return out;
}
