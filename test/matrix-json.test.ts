/**
 * The matrix answer's bytes: its writer (src/http/matrix-json.ts) against `JSON.stringify` of
 * the same envelope, its compression (src/http/huffman.ts) against three inflaters that share no
 * code with it (Node's zlib, fflate, the Web `DecompressionStream`), and its choice of encoding
 * against Hono's compress() itself.
 */
import { gunzipSync as nodeGunzip, inflateSync as nodeInflate } from 'node:zlib';
import { gunzipSync as fflateGunzip, unzlibSync as fflateUnzlib } from 'fflate';
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { describe, expect, it } from 'vitest';
import { matrix, matrixGrid, type Matrix, type MatrixGrid } from '../src/query/matrix.js';
import { envelope } from '../src/http/envelope.js';
import { chooseEncoding, matrixJson } from '../src/http/matrix-json.js';
import { huffmanCompress, lengths } from '../src/http/huffman.js';
import { coreIndex } from './support/http-fixture.js';
import { random } from './support/random.js';

const NOW = Date.UTC(2026, 10, 27, 1, 2, 3);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

/** The record `matrix()` would make of a grid: its rows, NaN as null. */
function record(g: MatrixGrid): Matrix {
  const rows = (v: Float64Array) =>
    Array.from({ length: g.rows }, (_, i) => Array.from(v.subarray(i * g.cols, (i + 1) * g.cols), (x) => (Number.isNaN(x) ? null : x)));
  return { durations: rows(g.durations), distances: rows(g.distances), sources: g.sources, destinations: g.destinations };
}

/** A grid of `rows` × `cols` cells drawn by `cell`. */
function grid(rows: number, cols: number, cell: (grid: 'durations' | 'distances') => number): MatrixGrid {
  const point = () => ({ lat: 27.712345, lon: 85.312345, snapDistanceInMeters: 3.4 });
  return {
    rows,
    cols,
    durations: Float64Array.from({ length: rows * cols }, () => cell('durations')),
    distances: Float64Array.from({ length: rows * cols }, () => cell('distances')),
    sources: Array.from({ length: rows }, point),
    destinations: Array.from({ length: cols }, point),
  };
}

describe("matrixJson writes byte for byte JSON.stringify's envelope of matrix()'s record", () => {
  it('whole numbers of every length, tenths, nulls, and numbers of any other kind', () => {
    const rnd = random(7);
    // durations: whole ms mostly, of 1 to 16 digits; now and then a fraction, a huge or negative number, -0
    const odd = [NaN, 0, -0, 0.5, 1e21, 1.5e300, -3, 2 ** 31, 2 ** 31 - 1, 2 ** 53, 2 ** 53 - 1, 123456789.125, 5e-7];
    const cell = (kind: 'durations' | 'distances') => {
      const r = rnd();
      if (r < 0.1) return odd[Math.floor(rnd() * odd.length)];
      const whole = Math.floor(rnd() * 10 ** Math.ceil(rnd() * 16));
      // distances: tenths, as matrix() rounds them, of 1 to 12 digits
      return kind === 'durations' ? whole : Math.round(rnd() * 10 ** Math.ceil(rnd() * 12)) / 10;
    };
    for (const [rows, cols] of [
      [1, 1],
      [3, 7],
      [40, 25],
    ]) {
      const g = grid(rows, cols, cell);
      expect(text(matrixJson(g, NOW).bytes)).toBe(JSON.stringify(envelope(200, undefined, [record(g)], NOW)));
    }
  });

  it("the fixture's matrix by car: the same text as matrix()'s envelope", async () => {
    const index = await coreIndex();
    const points = ['27.7154,85.3123', '27.7090,85.3290', '27.7060,85.3100', '27.7172,85.3240', '27.6990,85.3150'];
    const q = { sources: points, destinations: [...points].reverse(), mode: 'car' as const };
    const body = matrixJson(matrixGrid(index, q), NOW);
    expect(text(body.bytes)).toBe(JSON.stringify(envelope(200, undefined, [matrix(index, q)], NOW)));
    expect(body.chars).toBe(body.bytes.length);
  });
});

/** Every inflater's reading of `data` compressed both ways. */
async function readBack(data: Uint8Array): Promise<Uint8Array[]> {
  const gz = huffmanCompress(data, 'gzip'),
    zl = huffmanCompress(data, 'deflate');
  const stream = async (bytes: Uint8Array, format: 'gzip' | 'deflate') =>
    new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream(format))).arrayBuffer());
  return [
    new Uint8Array(nodeGunzip(gz)),
    new Uint8Array(nodeInflate(zl)),
    fflateGunzip(gz),
    fflateUnzlib(zl),
    await stream(gz, 'gzip'),
    await stream(zl, 'deflate'),
  ];
}

describe('huffmanCompress: gzip and zlib streams that any inflater reads back as they were', () => {
  const rnd = random(11);
  // counts growing as Fibonacci numbers: the optimal code would be 30 bits long, past deflate's 15
  const fib: number[] = [];
  for (let s = 0, a = 1, b = 1; s < 30; s++, [a, b] = [b, a + b]) for (let k = 0; k < a; k++) fib.push(s);
  const cases: [string, Uint8Array][] = [
    ['nothing', new Uint8Array(0)],
    ['one byte', new Uint8Array([42])],
    ['one byte 10,000 times', new Uint8Array(10_000).fill(7)],
    ['every byte value', Uint8Array.from({ length: 256 * 40 }, (_, i) => i % 256)],
    ['random bytes', Uint8Array.from({ length: 100_000 }, () => Math.floor(rnd() * 256))],
    ['skewed counts (codes limited to 15 bits)', Uint8Array.from(fib.slice(0, 400_000))],
    [
      'a matrix answer',
      matrixJson(
        grid(60, 60, () => Math.floor(rnd() * 4e7)),
        NOW,
      ).bytes,
    ],
  ];
  it.each(cases)('%s', async (_, data) => {
    for (const out of await readBack(data)) expect(Buffer.compare(Buffer.from(out), Buffer.from(data))).toBe(0);
  });

  it('a matrix answer shrinks to less than half', () => {
    const rnd2 = random(5);
    const json = matrixJson(
      grid(100, 100, (k) => (k === 'durations' ? Math.floor(rnd2() * 4e7) : Math.round(rnd2() * 4e6) / 10)),
      NOW,
    ).bytes;
    expect(huffmanCompress(json, 'gzip').length).toBeLessThan(json.length / 2);
  });
});

describe('lengths: a prefix code within the limit, a code for every used symbol and at least two; a RangeError past 2^limit symbols', () => {
  it('random and skewed counts', () => {
    const rnd = random(3);
    const tries: number[][] = [[0, 0, 5], [1], [0, 0, 0, 0]];
    // up to 286 symbols (deflate's literals and lengths), some unused; counts up to 2^30
    for (let t = 0; t < 50; t++)
      tries.push(Array.from({ length: 2 + Math.floor(rnd() * 285) }, () => (rnd() < 0.3 ? 0 : Math.floor(2 ** (rnd() * 30)))));
    for (let t = 0; t < 20; t++) tries.push(Array.from({ length: 19 }, () => (rnd() < 0.3 ? 0 : Math.floor(2 ** (rnd() * 20)))));
    for (const freq of tries) {
      for (const limit of [7, 15]) {
        if (freq.filter((f) => f > 0).length > 2 ** limit) {
          expect(() => lengths(freq, limit)).toThrow(RangeError);
          continue;
        }
        const len = lengths(freq, limit);
        const kraft = Array.from(len).reduce((sum, l) => sum + (l ? 2 ** -l : 0), 0);
        expect(kraft).toBeLessThanOrEqual(1);
        expect(Math.max(...len)).toBeLessThanOrEqual(limit);
        freq.forEach((f, s) => f > 0 && expect(len[s]).toBeGreaterThan(0));
        expect(len.filter((l) => l > 0).length).toBeGreaterThanOrEqual(Math.min(2, freq.length));
      }
    }
  });
});

describe("chooseEncoding: the encoding Hono's compress() chooses for the same Accept-Encoding", () => {
  const app = new Hono();
  app.use(compress());
  app.get('/', (c) => c.json({ pad: 'x'.repeat(2000) }));
  it.each([
    'gzip, deflate',
    'gzip, deflate, br',
    'deflate',
    'deflate, gzip',
    'GZIP',
    'br',
    'identity',
    'gzip;q=0, deflate',
    'deflate;q=0.9, gzip;q=0.5',
    'gzip;q=0.2, deflate;q=0.2',
    '*',
    '*;q=0.5, gzip;q=0',
    'gzip;q=0, deflate;q=0',
    'x-gzip',
  ])('%s', async (header) => {
    const res = await app.request('/', { headers: { 'Accept-Encoding': header } });
    expect(chooseEncoding(header)).toBe(res.headers.get('Content-Encoding') ?? undefined);
  });
});
