import { xxHash32 } from 'js-xxhash';
import { describe, expect, it } from 'vitest';
import { xxhash32 } from '../src/snapshot/xxhash.js';
import { varintSize, writeVarints, readVarints, type Stride } from '../src/snapshot/varint.js';
import { deflateSync } from 'fflate';
import KDBush from 'kdbush';
import Flatbush from 'flatbush';
import {
  SectionWriter,
  SectionReader,
  type ArrayType,
  type Codec,
  type Encoding,
  type IntArray,
  type SectionName,
} from '../src/snapshot/sections.js';
import { flatbushData, flatbushIds } from '../src/snapshot/flatbush.js';
import type { BoxOf } from '../src/geom/boxes.js';
import { kdbushFrom } from '../src/snapshot/kdbush.js';
import { SnapshotError } from '../src/errors.js';
import { random } from './support/random.js';

describe('xxhash32 agrees with the reference implementation (js-xxhash)', () => {
  it('at every length up to 70, every seed, aligned or not', () => {
    const rnd = random(1);
    for (let n = 0; n <= 70; n++) {
      const b = Uint8Array.from({ length: n }, () => Math.floor(rnd() * 256));
      for (const seed of [0, 1, 0x9e3779b1, 0xffffffff]) expect(xxhash32(b, seed), `length ${n} seed ${seed}`).toBe(xxHash32(b, seed));
      const odd = new Uint8Array(n + 1);
      odd.set(b, 1);
      expect(xxhash32(odd.subarray(1))).toBe(xxHash32(b, 0));
    }
  });

  it('on a megabyte', () => {
    const rnd = random(2);
    const b = Uint8Array.from({ length: 1 << 20 }, () => Math.floor(rnd() * 256));
    expect(xxhash32(b)).toBe(xxHash32(b, 0));
  });

  it('the known value of the empty input', () => {
    expect(xxhash32(new Uint8Array(0))).toBe(0x02cc5d05); // XXH32("", 0) from the xxHash sanity tests
  });
});

describe('varints read back what was written', () => {
  const cases: [string, number[], Stride][] = [
    ['plain, every byte length up to 2^32 - 1', [0, 1, 127, 128, 16383, 16384, 2 ** 21 - 1, 2 ** 21, 2 ** 28 - 1, 2 ** 28, 2 ** 32 - 1], 0],
    ['deltas, up and down', [5, 3, 3, 1000, -1000, 2 ** 31 - 1, -(2 ** 31), 0], 1],
    ['pairs: lon and lat each from its own previous', [853000000, 277000000, 853000100, 276999900, -1800000000, 900000000], 2],
    ['pairs, an odd count: the last a lon alone', [853000000, 277000000, 853000100, 276999900, 853000050], 2],
    ['pairs, a long varint on either side', [1, 2 ** 31 - 1, -(2 ** 31), 5, 2 ** 30, -(2 ** 30), 7], 2],
  ];
  it.each(cases)('%s', (_, values, stride) => {
    const buf = new Uint8Array(varintSize(values, stride));
    expect(writeVarints(values, stride, buf, 0)).toBe(buf.length);
    const out = new Int32Array(values.length);
    expect(readVarints(buf, 0, buf.length, out, stride)).toBe(true);
    const back = stride === 0 ? Array.from(new Uint32Array(out.buffer)) : Array.from(out);
    expect(back).toEqual(values);
  });

  it('lon/lat pairs take two bytes a value when points are a few metres apart, deltas of the interleaved array five', () => {
    const coords: number[] = [];
    for (let i = 0; i < 100; i++) coords.push(853000000 + i * 500, 277000000 - i * 300);
    expect(varintSize(coords, 2)).toBeLessThanOrEqual(2 * coords.length + 2 * 5);
    expect(varintSize(coords, 1)).toBeGreaterThanOrEqual(5 * (coords.length - 1));
  });

  it('refuses cut data, padded data and values not below the bound', () => {
    const values = [300, 70000, 5];
    const buf = new Uint8Array(varintSize(values, 0));
    writeVarints(values, 0, buf, 0);
    const out = new Int32Array(3);
    expect(readVarints(buf, 0, buf.length - 1, out, 0)).toBe(false);
    expect(readVarints(buf.subarray(0, buf.length - 1), 0, buf.length - 1, out, 0)).toBe(false);
    const padded = new Uint8Array(buf.length + 1);
    padded.set(buf);
    expect(readVarints(padded, 0, padded.length, out, 0)).toBe(false);
    expect(readVarints(buf, 0, buf.length, out, 0, 70000)).toBe(false);
    expect(readVarints(buf, 0, buf.length, out, 0, 70001)).toBe(true);
  });

  it('a run of continuation bytes ends: no varint longer than 2^53', () => {
    const buf = new Uint8Array(64).fill(0xff);
    expect(readVarints(buf, 0, buf.length, new Int32Array(1), 0)).toBe(false);
  });

  it('refuses what it cannot write: negatives as plain, fractions, past 2^53', () => {
    const out = new Uint8Array(16);
    expect(() => writeVarints([-1], 0, out, 0)).toThrow(RangeError);
    expect(() => writeVarints([1.5], 1, out, 0)).toThrow(RangeError);
    expect(() => writeVarints([2 ** 53], 1, out, 0)).toThrow(RangeError);
  });
});

/** Any section name: these tests store arrays of their own, under names the reader looks up as written. */
const N = (name: string) => name as SectionName;

/** A snapshot of one section, and the reader of it. */
function one(a: Parameters<SectionWriter['put']>[1], codec: Codec | Encoding): SectionReader {
  const w = new SectionWriter();
  w.put(N('x'), a, codec);
  return new SectionReader(w.finish({}), 'test');
}

/** What reading section x throws: the SnapshotError's problem, or 'read'. */
function refused(b: Uint8Array, read: (r: SectionReader) => unknown): string {
  try {
    read(new SectionReader(b, 'crafted'));
  } catch (err) {
    if (!(err instanceof SnapshotError)) throw err;
    return err.problem;
  }
  return 'read';
}

describe('every encoding reads back exactly what was written', () => {
  const rnd = random(3);
  const cases: [string, () => IntArray, Encoding, ArrayType][] = [
    ['raw Float64, any values', () => Float64Array.from({ length: 9 }, () => rnd() * 1e6 - 5e5), 'raw', Float64Array],
    ['fixed, 1 to 4 bytes', () => Uint32Array.of(0, 0xff, 0xffff, 0xffffff, 0xffffffff, 7), 'fixed', Uint32Array],
    ...[0, 1, 2, 7, 8, 15, 16, 17, 31, 32].map((w): [string, () => IntArray, Encoding, ArrayType] => [
      `bits, ${w} bits a value`,
      () => Uint32Array.from({ length: 101 }, (_, i) => (i === 50 ? 2 ** w - 1 : Math.floor(rnd() * 2 ** w))),
      'bits',
      Uint32Array,
    ]),
    ['bits, from a negative base (Int32, -1 for none)', () => Int32Array.of(-1, 5, -1, 300, 0, -1), 'bits', Int32Array],
    ['bits, the whole Int32 range', () => Int32Array.of(-(2 ** 31), 2 ** 31 - 1, 0, -1), 'bits', Int32Array],
    ['bits, Uint8 values from 3 to 255', () => Uint8Array.of(3, 255, 17, 200), 'bits', Uint8Array],
    ['bits, Uint16', () => Uint16Array.of(0, 65535, 1, 4096), 'bits', Uint16Array],
    ['steps: offsets, each a count', () => Uint32Array.of(0, 0, 3, 3, 10, 2 ** 32 - 1), 'steps', Uint32Array],
    [
      'pairs: a dictionary of the distinct pairs',
      () => Uint32Array.from({ length: 400 }, (_, i) => (i & 1 ? [9, 70000, 3][(i >> 1) % 3] : [1, 2][(i >> 1) % 2])),
      'pairs',
      Uint32Array,
    ],
    ['pairs, none', () => new Uint32Array(0), 'pairs', Uint32Array],
    ['varint, every byte length', () => Uint32Array.of(0, 1, 127, 128, 16383, 16384, 2 ** 21, 2 ** 28, 2 ** 32 - 1), 'varint', Uint32Array],
    ['delta, up and down', () => Int32Array.of(5, 3, 3, 1000, -1000, 2 ** 31 - 1, -(2 ** 31), 0), 'delta', Int32Array],
    [
      'delta of Float64 ids up to 2^51, across kinds',
      () => Float64Array.of(1, 2, 2 ** 34 + 5, 3, 2 ** 51 - 1, 0, 2 ** 51 - 1),
      'delta',
      Float64Array,
    ],
    [
      'delta2: lon and lat each from its own previous',
      () => Int32Array.of(853000000, 277000000, 853000100, 276999900, -1800000000, 900000000),
      'delta2',
      Int32Array,
    ],
  ];
  it.each(cases)('%s', (_, make, enc, type) => {
    const a = make();
    for (const codec of [enc, { enc, deflate: true }]) {
      expect(Array.from(one(a, codec).array(N('x'), type)), JSON.stringify(codec)).toEqual(Array.from(a));
    }
  });

  it('bits take the bits the range needs, whole 32-bit words', () => {
    const w = new SectionWriter();
    w.put(
      N('kinds'),
      Uint8Array.from({ length: 1000 }, (_, i) => i % 3),
      'bits',
    );
    w.put(
      N('hours'),
      Int32Array.from({ length: 1000 }, (_, i) => (i % 7) - 1),
      'bits',
    );
    w.put(
      N('ids'),
      Uint32Array.from({ length: 1000 }, (_, i) => 90000 + i),
      'bits',
    );
    expect(w.sizes().map((s) => s.bytes)).toEqual([
      Math.ceil((1000 * 2) / 32) * 4,
      Math.ceil((1000 * 3) / 32) * 4,
      Math.ceil((1000 * 10) / 32) * 4,
    ]);
  });

  it('strings, deflated, of any script', () => {
    const strings = ['', 'Thamel', 'ठमेल', 'Ason Tole', '🍜 noodles', '', 'Thamel Marg'.repeat(50)];
    const w = new SectionWriter();
    w.strings('strings', strings);
    const r = new SectionReader(w.finish({}), 'test');
    expect(r.strings('strings')).toEqual(strings);
    expect(w.sizes().find((s) => s.name === 'strings.utf8')!.bytes).toBeLessThan(new TextEncoder().encode(strings.join('')).length / 4);
  });

  it('a section asked for as another type, or one that is not there, is corrupted', () => {
    const r = one(Uint32Array.of(1, 200, 70000), 'varint');
    expect(() => r.array(N('x'), Int32Array)).toThrow(/corrupted.*Uint32Array/);
    expect(() => r.array(N('nothing'), Uint32Array)).toThrow(/no section nothing/);
    // and one whose values are not below what they index
    expect(() => r.array(N('x'), Uint32Array, 70000)).toThrow(/corrupted/);
  });

  it('the writer refuses what an encoding cannot hold', () => {
    const w = new SectionWriter();
    expect(() => w.put(N('a'), Float64Array.of(0.5), 'bits')).toThrow(RangeError);
    expect(() => w.put(N('b'), Uint32Array.of(3, 2), 'steps')).toThrow(RangeError);
    expect(() => w.put(N('c'), Uint32Array.of(1, 2, 3), 'pairs')).toThrow(RangeError);
    expect(() => w.put(N('d'), Int32Array.of(-1), 'fixed')).toThrow(RangeError);
  });
});

/** The bytes of a typed array, to compare floats bit for bit (NaN payloads, -0). */
const bytesOf = (a: IntArray) => Array.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));

/** Floats with every kind of bit pattern: -0, infinities, a subnormal, NaNs with payloads. */
function oddFloats<T extends Float32Array | Float64Array>(type: ArrayType<T>, values: number[]): T {
  const a = new type(values.length + 3);
  a.set(values);
  const words = new Uint32Array(a.buffer);
  // a quiet NaN with a payload, a negative one, and -0, by their bits
  if (type.BYTES_PER_ELEMENT === 4) words.set([0x7fc00001, 0xffc00abc, 0x80000000], values.length);
  else words.set([1, 0x7ff80000, 0xabc, 0xfff80000, 0, 0x80000000], 2 * values.length);
  return a;
}

describe('dict: floats dictionary-coded come back bit for bit', () => {
  it('Float32 in runs of 4 (an edge per run), -0 and NaN payloads included, deflated or not', () => {
    const tuples = [
      [5, 16, 50, 60],
      [5, 16, 0, 0],
      [-0, 0, Infinity, -Infinity],
      [1e-45, 3.4028234663852886e38, 5, 5],
    ];
    const odd = oddFloats(Float32Array, [0.1, 0.2, 0.30000001192092896, 0.4, 0.5]); // 8 values
    const rnd = random(5);
    const a = new Float32Array(4 * 1000 + odd.length);
    for (let i = 0; i < 1000; i++) a.set(tuples[Math.floor(rnd() * tuples.length)], 4 * i);
    a.set(odd, 4 * 1000);
    for (const codec of [
      { enc: 'dict', group: 4 },
      { enc: 'dict', group: 4, deflate: true },
    ] as Codec[])
      expect(bytesOf(one(a, codec).array(N('x'), Float32Array)), JSON.stringify(codec)).toEqual(bytesOf(a));
  });

  it('Float64 one value a run, -0 and NaN payloads included', () => {
    const rnd = random(6);
    const a = Float64Array.from({ length: 500 }, () => [1, 1.5, 2.25, 3.0000000000000004, -7][Math.floor(rnd() * 5)]);
    const odd = oddFloats(Float64Array, [Number.MIN_VALUE, -Number.MAX_VALUE, 0]);
    const all = new Float64Array(a.length + odd.length);
    all.set(a);
    all.set(odd, a.length);
    expect(bytesOf(one(all, 'dict').array(N('x'), Float64Array))).toEqual(bytesOf(all));
    // a view into a larger buffer is stored as the view's values alone
    const view = all.subarray(3, 9);
    expect(bytesOf(one(view, 'dict').array(N('x'), Float64Array))).toEqual(bytesOf(view));
  });

  it('none, and one value repeated (an index of 0 bits)', () => {
    expect(one(new Float32Array(0), 'dict').array(N('x'), Float32Array).length).toBe(0);
    const same = new Float64Array(100).fill(2.5);
    const w = new SectionWriter();
    w.put(N('x'), same, 'dict');
    expect(w.sizes()[0].bytes).toBe(8);
    expect(Array.from(new SectionReader(w.finish({}), 'test').array(N('x'), Float64Array))).toEqual(Array.from(same));
  });

  it('takes each distinct run once, then the bits its index needs', () => {
    // 10,000 runs of 4 Float32 speeds, 5 distinct: 5 × 16 bytes, then 3 bits a run in whole words
    const a = new Float32Array(40000);
    for (let i = 0; i < 10000; i++) a.set([i % 5, 10, 20, 30], 4 * i);
    const w = new SectionWriter();
    w.put(N('x'), a, { enc: 'dict', group: 4 });
    expect(w.sizes()[0].bytes).toBe(5 * 16 + Math.ceil((10000 * 3) / 32) * 4);
  });

  it('the writer refuses integers, and runs that do not divide the values', () => {
    const w = new SectionWriter();
    expect(() => w.put(N('a'), Uint32Array.of(1, 2), 'dict')).toThrow(RangeError);
    expect(() => w.put(N('b'), Float32Array.of(1, 2, 3), { enc: 'dict', group: 2 })).toThrow(RangeError);
    expect(() => w.put(N('c'), Float32Array.of(1, 2), { enc: 'dict', group: 0 })).toThrow(RangeError);
  });
});

describe('a crafted section of each encoding is refused as corrupted, never read wrong', () => {
  /** The one section's entry and bytes, edited, the checksums made right. */
  function craft(a: IntArray, codec: Codec | Encoding, edit: (e: Record<string, number>, b: Uint8Array) => void): Uint8Array {
    const w = new SectionWriter();
    w.put(N('x'), a, codec);
    const b = w.finish({});
    const view = new DataView(b.buffer);
    const n = view.getUint32(24, true);
    const dir = JSON.parse(new TextDecoder().decode(b.subarray(28, 28 + n)));
    const start = (28 + n + 7) & ~7;
    const e = dir.sections[0];
    edit(e, b.subarray(start + e.offset, start + e.offset + e.bytes));
    e.hash = xxHash32(b.subarray(start + e.offset, start + e.offset + e.bytes), 0);
    const text = new TextEncoder().encode(JSON.stringify(dir));
    const at = (28 + text.length + 7) & ~7;
    const out = new Uint8Array(at + b.length - start);
    out.set(b.subarray(0, 24));
    const v = new DataView(out.buffer);
    v.setUint32(12, out.length - 24, true);
    v.setUint32(24, text.length, true);
    out.set(text, 28);
    out.set(b.subarray(start), at);
    v.setUint32(16, xxHash32(out.subarray(24, 28 + text.length), 0), true);
    return out;
  }
  const u32 = (r: SectionReader) => r.array(N('x'), Uint32Array);

  it('bits: a width past 32, bytes that do not fit the count, a base outside the type', () => {
    const a = Uint32Array.of(1, 2, 3, 4000);
    expect(
      refused(
        craft(a, 'bits', (e) => void (e.width = 33)),
        u32,
      ),
    ).toBe('corrupted');
    expect(
      refused(
        craft(a, 'bits', (e) => void (e.count = 1000)),
        u32,
      ),
    ).toBe('corrupted');
    expect(
      refused(
        craft(a, 'bits', (e) => void (e.base = -5)),
        u32,
      ),
    ).toBe('corrupted');
    expect(
      refused(
        craft(Uint8Array.of(1, 200), 'bits', (e) => void (e.base = 100)),
        (r) => r.array(N('x'), Uint8Array),
      ),
    ).toBe('corrupted');
    // a value past a string table of 4000 strings
    expect(
      refused(
        craft(a, 'bits', () => {}),
        (r) => r.array(N('x'), Uint32Array, 4000),
      ),
    ).toBe('corrupted');
  });

  it('steps: offsets that sum past 2^32', () => {
    const a = Uint32Array.of(0, 2 ** 31, 2 ** 32 - 1);
    expect(
      refused(
        craft(a, 'steps', (_, b) => b.fill(0xff)),
        u32,
      ),
    ).toBe('corrupted');
  });

  it('pairs: an index past the dictionary, a dictionary that does not fit its bytes', () => {
    const a = Uint32Array.of(1, 2, 3, 4, 5, 6, 1, 2);
    expect(
      refused(
        craft(a, 'pairs', (e) => void (e.dict = 2)),
        u32,
      ),
    ).toBe('corrupted');
    // the first pair's index (after the dictionary's one word) made 3, past the dictionary of 3
    expect(
      refused(
        craft(a, 'pairs', (_, b) => void (b[4] |= 3)),
        u32,
      ),
    ).toBe('corrupted');
    expect(
      refused(
        craft(a, 'pairs', () => {}),
        (r) => r.array(N('x'), Uint32Array, 6),
      ),
    ).toBe('corrupted');
  });

  it('dict: an index past the dictionary, entries out of order or twice, sizes that do not fit, integers', () => {
    // 3 distinct runs of 2 Float32 (24 bytes), then 2 bits a run
    const a = Float32Array.of(1, 2, 3, 4, 5, 6, 1, 2, 5, 6);
    const codec: Codec = { enc: 'dict', group: 2 };
    const f32 = (r: SectionReader) => r.array(N('x'), Float32Array);
    expect(Array.from(f32(one(a, codec)))).toEqual(Array.from(a));
    // the first run's index made 3: past the 3 entries
    expect(
      refused(
        craft(a, codec, (_, b) => void (b[24] |= 3)),
        f32,
      ),
    ).toBe('corrupted');
    // the first two entries swapped: no longer ascending
    expect(
      refused(
        craft(a, codec, (_, b) => b.set([...b.subarray(8, 16), ...b.subarray(0, 8)], 0)),
        f32,
      ),
    ).toBe('corrupted');
    // the second entry made the first: an entry twice
    expect(
      refused(
        craft(a, codec, (_, b) => b.copyWithin(8, 0, 8)),
        f32,
      ),
    ).toBe('corrupted');
    expect(
      refused(
        craft(a, codec, (e) => void (e.dict = 2)),
        f32,
      ),
    ).toBe('corrupted');
    expect(
      refused(
        craft(a, codec, (e) => void (e.dict = 6)),
        f32,
      ),
    ).toBe('corrupted');
    expect(
      refused(
        craft(a, codec, (e) => void (e.group = 5)),
        f32,
      ),
    ).toBe('corrupted');
    expect(
      refused(
        craft(a, codec, (e) => void (e.group = 0)),
        f32,
      ),
    ).toBe('corrupted');
    expect(
      refused(
        craft(a, codec, (e) => void (e.width = 40)),
        f32,
      ),
    ).toBe('corrupted');
    expect(
      refused(
        craft(a, codec, (e) => void (e.count = 100)),
        f32,
      ),
    ).toBe('corrupted');
    // a dict section said to hold integers
    const asInts = craft(a, codec, (e) => void ((e as unknown as { type: string }).type = 'Uint32Array'));
    expect(refused(asInts, u32)).toBe('corrupted');
  });

  it('delta of Float64: a sum past the safe integers', () => {
    // deltas 2^51, 2^52, -2^52 (zigzag 2^52, 2^53, 2^53 - 1: eight bytes each), the last made +2^52
    const leb = (v: number) => Array.from({ length: 8 }, (_, k) => (Math.floor(v / 128 ** k) % 128) | (k < 7 ? 128 : 0));
    const a = Float64Array.of(2 ** 51, 3 * 2 ** 51, 2 ** 51);
    expect(one(a, 'delta').array(N('x'), Float64Array)).toEqual(a);
    const b = craft(a, 'delta', (_, s) => s.set([...leb(2 ** 52), ...leb(2 ** 53), ...leb(2 ** 53)]));
    expect(refused(b, (r) => r.array(N('x'), Float64Array))).toBe('corrupted');
  });

  it('deflated: damaged, cut, longer or shorter than declared, or a claim no deflate makes', () => {
    const a = Uint32Array.from({ length: 5000 }, (_, i) => i % 17);
    const z = { enc: 'bits', deflate: true } as const;
    // raw deflate has no checksum of its own (the file's covers it): damaged bytes may still
    // inflate to as many bytes, read as other values, or not; never as anything but a SnapshotError
    const rnd = random(9);
    const outcomes = new Set<string>();
    for (let k = 0; k < 50; k++) {
      const at = Math.floor(rnd() * 40);
      outcomes.add(
        refused(
          craft(a, z, (_, b) => void (b[at % b.length] ^= 1 + Math.floor(rnd() * 255))),
          u32,
        ),
      );
    }
    expect(outcomes).toContain('corrupted');
    expect(
      refused(
        craft(a, z, (e) => void (e.bytes -= 3)),
        u32,
      ),
    ).toBe('corrupted');
    expect(
      refused(
        craft(a, z, (e) => void (e.inflated -= 4)),
        u32,
      ),
    ).toBe('corrupted');
    expect(
      refused(
        craft(a, z, (e) => void (e.inflated += 4)),
        u32,
      ),
    ).toBe('corrupted');
    expect(
      refused(
        craft(a, z, (e) => void (e.inflated = 2 ** 40)),
        u32,
      ),
    ).toBe('corrupted');
  });

  it('deflated: a section that inflates past what it declares stops there (no bomb)', () => {
    // 256 MB of zeros deflate to a quarter of a megabyte; the section declares 4 bytes inflated
    const bomb = deflateSync(new Uint8Array(256 << 20), { level: 9 });
    expect(bomb.length).toBeLessThan(1 << 18);
    const b = craft(bomb, 'raw', (e) => {
      e.inflated = 4;
      e.count = 4;
    });
    const t0 = performance.now();
    expect(refused(b, (r) => r.array(N('x'), Uint8Array))).toBe('corrupted');
    // not a timing assertion of speed: a bound far above the few ms it takes, far below inflating it whole
    expect(performance.now() - t0).toBeLessThan(2000);
  });
});

describe('trees stored by what cannot be computed again come back byte for byte', () => {
  it.each([
    [1, 16],
    [16, 16],
    [17, 16],
    [5000, 16],
    [70_000, 8],
  ])("a Flatbush of %i boxes, node size %i, from its leaves' ids and the box rule", (n, nodeSize) => {
    const rnd = random(n);
    const boxes = new Int32Array(4 * n);
    for (let i = 0; i < n; i++) {
      const x = Math.round((80 + 8 * rnd()) * 1e7),
        y = Math.round((26 + 4 * rnd()) * 1e7);
      boxes.set([x, y, x + Math.floor(rnd() * 1e5), y + Math.floor(rnd() * 1e5)], 4 * i);
    }
    const tree = new Flatbush(n, nodeSize, Int32Array);
    for (let i = 0; i < n; i++) tree.add(boxes[4 * i], boxes[4 * i + 1], boxes[4 * i + 2], boxes[4 * i + 3]);
    tree.finish();
    const w = new SectionWriter();
    w.flatbush('streets', tree);
    // the ids alone are stored: no boxes
    expect(w.sizes().map((x) => x.name)).toEqual(['streets.ids']);
    const back = new SectionReader(w.finish({}), 'test').flatbush('streets', n, boxOf(boxes));
    expect(Buffer.from(flatbushData(back)).equals(Buffer.from(flatbushData(tree)))).toBe(true);
    // and its ids take fewer bytes than a quarter of its data (4 bytes a box corner, 16 a leaf)
    expect(w.sizes()[0].bytes).toBeLessThan(flatbushData(tree).length / 4);
  });

  /** A snapshot of a tree of 40 unit boxes whose leaves' ids are `edit`ed before storing. */
  const damaged = (edit: (ids: Uint32Array) => Uint32Array) => {
    const boxes = Int32Array.from({ length: 160 }, (_, i) => (i >> 2) + (i & 2 ? 1 : 0));
    const tree = new Flatbush(40, 16, Int32Array);
    for (let i = 0; i < 40; i++) tree.add(i, i, i + 1, i + 1);
    tree.finish();
    const w = new SectionWriter();
    w.put('streets.ids', edit(flatbushIds(tree)), 'bits');
    w.note({ nodeSize: 16 });
    return { bytes: w.finish({}), box: boxOf(boxes) };
  };

  it.each<[string, (ids: Uint32Array) => Uint32Array, RegExp]>([
    ['an item twice', (ids) => ids.map((v, i) => (i === 3 ? ids[4] : v)), /corrupted.*item ids are not its items/],
    ['an item past the last', (ids) => ids.map((v, i) => (i === 3 ? 40 : v)), /corrupted/],
    ['an item left out', (ids) => ids.subarray(1), /corrupted.*39 leaves, for 40 items/],
    ['an item too many', (ids) => Uint32Array.from([...ids, 0]), /corrupted.*41 leaves, for 40 items/],
    ['no items', () => new Uint32Array(0), /corrupted.*0 leaves/],
  ])('a Flatbush whose leaf ids are not each item once (%s) is corrupted', (_, edit, message) => {
    const { bytes, box } = damaged(edit);
    expect(() => new SectionReader(bytes, 'test').flatbush('streets', 40, box)).toThrow(message);
  });

  it.each([100, 70_000])('a KDBush of %i points, from its ids and the points', (n) => {
    const rnd = random(n + 1);
    const x = Int32Array.from({ length: n }, () => Math.round((80 + 8 * rnd()) * 1e7));
    const y = Int32Array.from({ length: n }, () => Math.round((26 + 4 * rnd()) * 1e7));
    const rows = Uint32Array.from({ length: n }, (_, i) => i);
    const tree = new KDBush(n, 16, Int32Array);
    for (let i = 0; i < n; i++) tree.add(x[i], y[i]);
    tree.finish();
    const back = kdbushFrom(Uint32Array.from(tree.ids), tree.nodeSize, x, y, rows);
    expect(Buffer.from(back.data).equals(Buffer.from(tree.data))).toBe(true);
  });
});

/** The box rule of items whose boxes are listed, 4 numbers an item. */
function boxOf(boxes: Int32Array): BoxOf {
  return (item, out, at) => out.set(boxes.subarray(4 * item, 4 * item + 4), at);
}
