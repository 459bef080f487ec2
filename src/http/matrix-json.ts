/**
 * The 200 answer of `/matrix`, written from `matrixGrid()`'s two number grids: byte for byte
 * `JSON.stringify` of the envelope of `matrix()`'s record, and for a client that takes gzip or
 * deflate, compressed with Huffman codes alone (`huffman.ts`).
 *
 * Why: a 100 × 100 answer is 20,000 numbers, 187 KB of JSON. Over HTTP it took three times as long
 * as the matrix itself (bench/matrix-http.ts): making `matrix()`'s 200 arrays, `JSON.stringify`
 * and its UTF-8 (2 ms), and above all Hono's compress(), whose CompressionStream gzip (a level
 * and strategy it cannot set) spent 8-12 ms searching the digits for repeats that are not there.
 * Here each number is written as digits straight into the bytes, and compressed in about a
 * millisecond to within 5% of that gzip's size.
 */
import { parseAccept } from 'hono/utils/accept';
import type { Context } from 'hono';
import type { MatrixGrid } from '../query/matrix.js';
import type { AppEnv } from './api.js';
import { envelope } from './envelope.js';
import { huffmanCompress } from './huffman.js';
import type { Body } from './nearby-json.js';
import { bytesAnswer, COMPRESS_MIN, requestHeader } from './respond.js';

const encoder = new TextEncoder();

/** The 200 envelope of `grid` at `now`: `JSON.stringify(envelope(200, undefined, [matrix record], now))` as UTF-8. */
export function matrixJson(grid: MatrixGrid, now: number): Body {
  const { rows, cols } = grid;
  // `…"data":[` before the record, `]}` after it; the points are few: JSON.stringify writes them
  const lead = `${JSON.stringify(envelope(200, undefined, [], now)).slice(0, -2)}{"durations":`;
  const tail = `,"sources":${JSON.stringify(grid.sources)},"destinations":${JSON.stringify(grid.destinations)}}]}`;
  // the longest a number can be written (e.g. -1.2345678901234567e-308) and its comma
  const most = lead.length + tail.length + 16 + 2 * (2 + rows * (3 + cols * 25));
  const bytes = new Uint8Array(most);
  let at = encoder.encodeInto(lead, bytes).written;
  at = writeGrid(bytes, at, grid.durations, rows, cols, false);
  at = ascii(bytes, at, ',"distances":');
  at = writeGrid(bytes, at, grid.distances, rows, cols, true);
  at += encoder.encodeInto(tail, bytes.subarray(at)).written;
  // every character written is ASCII (digits, punctuation; the timestamp and points as JSON writes them)
  return { bytes: bytes.subarray(0, at), chars: at };
}

/**
 * The 200 answer of `grid` (`matrixJson`), with the headers of every envelope (`bytesAnswer`):
 * gzip or deflate as Hono's compress() would choose them from the request's Accept-Encoding
 * (gzip first), when the body is long enough to be worth it.
 */
export function matrixAnswer(c: Context<AppEnv>, grid: MatrixGrid, now: number): Response {
  const body = matrixJson(grid, now);
  const encoding = body.chars >= COMPRESS_MIN && c.req.method !== 'HEAD' ? chooseEncoding(requestHeader(c, 'accept-encoding')) : undefined;
  if (!encoding) return bytesAnswer(c, body);
  return bytesAnswer(c, { bytes: huffmanCompress(body.bytes, encoding), chars: body.chars }, encoding);
}

/** The encoding Hono's compress() picks from an Accept-Encoding header: gzip or deflate by q (1 wins at once), `*` for either; none. */
export function chooseEncoding(header: string | undefined): 'gzip' | 'deflate' | undefined {
  if (!header) return undefined;
  const accepts = parseAccept(header);
  const wild = accepts.find((a) => a.type === '*')?.q;
  let best: { encoding: 'gzip' | 'deflate'; q: number } | undefined;
  for (const encoding of ['gzip', 'deflate'] as const) {
    const q = accepts.find((a) => a.type.toLowerCase() === encoding)?.q ?? wild ?? 0;
    if (q === 1) return encoding;
    if (q > 0 && (!best || q > best.q)) best = { encoding, q };
  }
  return best?.encoding;
}

// Row-major `values` as JSON rows of numbers (NaN as null); `tenths`: each a whole number of tenths.
function writeGrid(out: Uint8Array, at: number, values: Float64Array, rows: number, cols: number, tenths: boolean): number {
  out[at++] = 0x5b; // [
  for (let i = 0; i < rows; i++) {
    if (i > 0) out[at++] = 0x2c; // ,
    out[at++] = 0x5b;
    const start = i * cols;
    at = tenths ? writeTenthsRow(out, at, values, start, start + cols) : writeRow(out, at, values, start, start + cols);
    out[at++] = 0x5d; // ]
  }
  out[at++] = 0x5d;
  return at;
}

function writeRow(out: Uint8Array, at: number, values: Float64Array, start: number, end: number): number {
  for (let c = start; c < end; c++) {
    if (c > start) out[at++] = 0x2c;
    const x = values[c];
    at = x >= 0 && x < 2 ** 31 && x === Math.floor(x) ? digits(out, at, x) : x !== x ? nil(out, at) : other(out, at, x);
  }
  return at;
}

// Numbers rounded to tenths (`Math.round(m * 10) / 10`): the digits of the whole part, then `.`
// and the tenth if any. Below 2^31 tenths the double nearest k / 10 is always written so by
// JSON.stringify (the shortest form that reads back as it); anything else goes through it.
function writeTenthsRow(out: Uint8Array, at: number, values: Float64Array, start: number, end: number): number {
  for (let c = start; c < end; c++) {
    if (c > start) out[at++] = 0x2c;
    const x = values[c],
      k = Math.round(x * 10);
    if (!(k >= 0 && k < 2 ** 31 && k / 10 === x)) {
      at = x !== x ? nil(out, at) : other(out, at, x);
      continue;
    }
    const whole = (k / 10) | 0,
      tenth = k - whole * 10;
    at = digits(out, at, whole);
    if (tenth !== 0) {
      out[at++] = 0x2e; // .
      out[at++] = 0x30 + tenth;
    }
  }
  return at;
}

// A whole number 0 <= n < 2^31 as decimal digits, two at a time.
function digits(out: Uint8Array, at: number, n: number): number {
  const len =
    n < 1e5 ? (n < 100 ? (n < 10 ? 1 : 2) : n < 1e3 ? 3 : n < 1e4 ? 4 : 5) : n < 1e7 ? (n < 1e6 ? 6 : 7) : n < 1e8 ? 8 : n < 1e9 ? 9 : 10;
  let i = at + len;
  while (n >= 100) {
    const q = (n / 100) | 0,
      r = n - q * 100;
    out[--i] = ONES[r];
    out[--i] = TENS[r];
    n = q;
  }
  if (n >= 10) {
    out[--i] = ONES[n];
    out[--i] = TENS[n];
  } else out[--i] = 0x30 + n;
  return at + len;
}

/** Per 0-99: its tens' digit, and its ones' digit, as characters. */
const TENS = Uint8Array.from({ length: 100 }, (_, r) => 0x30 + Math.floor(r / 10));
const ONES = Uint8Array.from({ length: 100 }, (_, r) => 0x30 + (r % 10));

// NaN, as JSON.stringify writes it: null.
function nil(out: Uint8Array, at: number): number {
  out[at] = 0x6e; // n
  out[at + 1] = 0x75; // u
  out[at + 2] = out[at + 3] = 0x6c; // l
  return at + 4;
}

// Any other number (a fraction, a large one) as JSON.stringify writes it.
function other(out: Uint8Array, at: number, x: number): number {
  return ascii(out, at, JSON.stringify(x));
}

function ascii(out: Uint8Array, at: number, text: string): number {
  return at + encoder.encodeInto(text, out.subarray(at)).written;
}
