import { xxHash32 } from 'js-xxhash';
import { describe, expect, it } from 'vitest';
import { xxhash32 } from '../src/snapshot/xxhash.js';
import { varintSize, writeVarints, readVarints, type Stride } from '../src/snapshot/varint.js';
import { SectionWriter, SectionReader } from '../src/snapshot/sections.js';
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

describe('sections keep each encoding exact', () => {
  it('raw, fixed at each width, varint, delta, delta2 and strings', () => {
    const w = new SectionWriter();
    const rnd = random(3);
    const f64 = Float64Array.from({ length: 9 }, () => rnd() * 1e6);
    const widths = [0xff, 0xffff, 0xffffff, 0xffffffff].map((max) =>
      Uint32Array.from({ length: 50 }, (_, i) => (i === 7 ? max : Math.floor(rnd() * max))),
    );
    const coords = Int32Array.from({ length: 40 }, (_, i) => (i & 1 ? 277000000 : 853000000) + Math.floor(rnd() * 5000));
    const strings = ['', 'Thamel', 'ठमेल', 'Ason Tole', '🍜 noodles', ''];
    w.raw('f64', f64);
    widths.forEach((a, i) => w.fixed(`w${i}`, a));
    w.varint('v', Uint32Array.of(1, 200, 70000));
    w.delta('d', Uint32Array.of(10, 20, 20, 5));
    w.delta2('c', coords);
    w.strings('s', strings);
    const r = new SectionReader(w.finish({ hello: 'world' }), 'test');
    expect(r.meta).toEqual({ hello: 'world' });
    expect(Array.from(r.raw('f64', Float64Array))).toEqual(Array.from(f64));
    widths.forEach((a, i) => expect(Array.from(r.ints(`w${i}`, Uint32Array)), `width ${i + 1}`).toEqual(Array.from(a)));
    expect(Array.from(r.ints('v', Uint32Array))).toEqual([1, 200, 70000]);
    expect(Array.from(r.ints('d', Uint32Array))).toEqual([10, 20, 20, 5]);
    expect(Array.from(r.ints('c', Int32Array))).toEqual(Array.from(coords));
    expect(r.strings('s')).toEqual(strings);
    // a fixed section read with a bound below its largest value is corrupted
    expect(() => r.ints('w1', Uint32Array, 0xffff)).toThrow(/not below 65535/);
    // a section asked for as another type or encoding is corrupted
    expect(() => r.raw('v', Uint32Array)).toThrow(/corrupted/);
    expect(() => r.ints('nothing', Uint32Array)).toThrow(/no section nothing/);
  });
});
