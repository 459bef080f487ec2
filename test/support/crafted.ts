/**
 * Crafting snapshots as an adversary would: sections and directory read as the format
 * describes them (`src/snapshot/format.ts`), changed, and the checksums made right again
 * (xxHash32 of each section and of the directory, by js-xxhash, not the reader's own xxhash).
 */
import { inflateRawSync } from 'node:zlib';
import { xxHash32 } from 'js-xxhash';
import { buildSnapshot, fromSnapshot, type PlaceIndex } from '../../src/index.js';
import { engine } from './fixture.js';
import { TRANSIT } from './raw.js';
import { openWhole as makeWhole } from '../../src/snapshot/read.js';

const HEADER = 24;

/** One row of the section table, as written. */
export interface Section {
  name: string;
  enc: string;
  type: string;
  offset: number;
  bytes: number;
  count: number;
  /** Bytes (`fixed`) or bits (`bits`, `steps`, `pairs`) per value. */
  width?: number;
  /** `bits`: the smallest value, subtracted from each. */
  base?: number;
  /** Bytes before deflating, of a deflated section. */
  inflated?: number;
  /** xxHash32 of the section's bytes. */
  hash?: number;
}

/** A snapshot's directory: the section table and the index's small fields. */
export interface Directory {
  sections: Section[];
  meta: Record<string, unknown>;
}

/**
 * `fromSnapshot`, then every part it leaves to first use made at once (`openWhole`: the tables'
 * columns, each type's tree, the text index, the landmarks, the road graph, every mode's
 * hierarchy), each refused as `corrupted` when damaged: what a file is refused for, all of it, as
 * opening it and asking every kind of query would.
 */
export function openWhole(b: Uint8Array | ArrayBuffer, file?: string): PlaceIndex {
  return makeWhole(fromSnapshot(b, file));
}

/** The directory of a snapshot, and where its sections start (the next multiple of 8 after it). */
export function directory(b: Uint8Array): { dir: Directory; start: number } {
  const n = new DataView(b.buffer, b.byteOffset).getUint32(HEADER, true);
  const dir = JSON.parse(new TextDecoder().decode(b.subarray(HEADER + 4, HEADER + 4 + n))) as Directory;
  return { dir, start: (HEADER + 4 + n + 7) & ~7 };
}

/** Writes the checksum of `b`'s directory (its length and text) into its header, in place. */
function sealDirectory(b: Uint8Array): Uint8Array {
  const view = new DataView(b.buffer, b.byteOffset);
  view.setUint32(16, xxHash32(b.subarray(HEADER, HEADER + 4 + view.getUint32(HEADER, true)), 0), true);
  return b;
}

/** A copy of `b` with each section's hash, then the directory's, made right for its bytes as they are now. */
export function reseal(b: Uint8Array): Uint8Array {
  const { dir, start } = directory(b);
  for (const s of dir.sections) s.hash = xxHash32(b.subarray(start + s.offset, start + s.offset + s.bytes), 0);
  return withDirectory(b, JSON.stringify(dir));
}

/**
 * A copy of a snapshot with its directory replaced by `json` (text, so that values JSON
 * cannot write, such as 1e999, can be put in): the sections moved after it, the payload
 * length and the directory's checksum made right (the sections' hashes are `json`'s).
 */
export function withDirectory(b: Uint8Array, json: string): Uint8Array {
  const { start } = directory(b);
  const text = new TextEncoder().encode(json);
  const at = (HEADER + 4 + text.length + 7) & ~7;
  const out = new Uint8Array(at + b.length - start);
  out.set(b.subarray(0, HEADER));
  const view = new DataView(out.buffer);
  view.setUint32(12, out.length - HEADER, true);
  view.setUint32(HEADER, text.length, true);
  out.set(text, HEADER + 4);
  out.set(b.subarray(start), at);
  return sealDirectory(out);
}

/** The section `name` of a snapshot, or an Error. */
export function section(b: Uint8Array, name: string): Section & { at: number } {
  const { dir, start } = directory(b);
  const s = dir.sections.find((x) => x.name === name);
  if (!s) throw new Error(`no section ${name}`);
  return { ...s, at: start + s.offset };
}

/**
 * The integers of a `fixed` section (each in `width` little-endian bytes) or a `bits` one
 * (`width` bits each, least significant first, plus `base`), as the format describes them.
 */
export function readInts(b: Uint8Array, name: string): number[] {
  let s = section(b, name);
  if (s.inflated !== undefined && s.enc === 'bits') {
    // a deflated section's bits are read from its bytes inflated (raw deflate, by node:zlib)
    const bytes = new Uint8Array(inflateRawSync(b.subarray(s.at, s.at + s.bytes)));
    s = { ...s, at: 0, inflated: undefined };
    b = bytes;
  }
  const w = s.width!;
  const out: number[] = [];
  if (s.enc === 'fixed') {
    for (let i = 0; i < s.count; i++) {
      let v = 0;
      for (let k = w - 1; k >= 0; k--) v = v * 256 + b[s.at + i * w + k];
      out.push(v);
    }
    return out;
  }
  if (s.enc !== 'bits' || s.inflated !== undefined) throw new Error(`section ${name} is ${s.enc}, not fixed or bits`);
  for (let i = 0; i < s.count; i++) {
    let v = 0;
    for (let k = w - 1; k >= 0; k--) {
      const bit = i * w + k;
      v = v * 2 + ((b[s.at + (bit >> 3)] >> (bit & 7)) & 1);
    }
    out.push(v + s.base!);
  }
  return out;
}

/** Writes `values` into a `fixed` or `bits` section in place; each must fit its width. */
export function writeInts(b: Uint8Array, name: string, values: number[]): void {
  const s = section(b, name);
  const w = s.width!;
  if (values.length !== s.count) throw new Error(`section ${name} holds ${s.count} values, not ${values.length}`);
  if (s.inflated !== undefined) throw new Error(`section ${name} is deflated`);
  const base = s.enc === 'bits' ? s.base! : 0;
  values.forEach((value, i) => {
    const v = value - base;
    if (!(v >= 0 && v < 2 ** (s.enc === 'bits' ? w : 8 * w))) throw new Error(`${value} does not fit section ${name}`);
    if (s.enc === 'fixed') {
      for (let k = 0; k < w; k++) b[s.at + i * w + k] = Math.floor(v / 2 ** (8 * k)) & 0xff;
      return;
    }
    for (let k = 0; k < w; k++) {
      const bit = i * w + k,
        at = s.at + (bit >> 3);
      if (Math.floor(v / 2 ** k) % 2) b[at] |= 1 << (bit & 7);
      else b[at] &= ~(1 << (bit & 7));
    }
  });
}

/**
 * A copy of a snapshot with section `name`'s bytes replaced by `data` and its entry's fields by
 * `fields`, the sections after it moved, the payload length and the checksum made right.
 */
export function replaceSection(b: Uint8Array, name: string, data: Uint8Array, fields: Partial<Section> = {}): Uint8Array {
  const { dir, start } = directory(b);
  const parts = dir.sections.map((x) => (x.name === name ? data : b.subarray(start + x.offset, start + x.offset + x.bytes)));
  let at = 0;
  dir.sections.forEach((x, i) => {
    if (x.name === name) Object.assign(x, fields, { hash: xxHash32(data, 0) });
    x.offset = at;
    x.bytes = parts[i].length;
    at = (at + x.bytes + 7) & ~7;
  });
  const moved = withDirectory(b, JSON.stringify(dir));
  const { start: to } = directory(moved);
  const out = new Uint8Array(to + at);
  out.set(moved.subarray(0, to));
  new DataView(out.buffer).setUint32(12, out.length - HEADER, true);
  dir.sections.forEach((x, i) => out.set(parts[i], to + x.offset));
  return sealDirectory(out);
}

/** 32-bit words per value of a float section's type. */
const floatWords = (type: string) => (type === 'Float64Array' ? 2 : 1);

/**
 * The values of a float section stored `raw` or `dict` (a dictionary of distinct runs of `group`
 * values, then each run's index in `width` bits), as the format describes them, by their words.
 */
export function readFloats(b: Uint8Array, name: string): Float32Array | Float64Array {
  const s = section(b, name) as Section & { at: number; dict?: number; group?: number };
  const wpv = floatWords(s.type);
  const words = new Uint32Array(s.count * wpv);
  const view = new DataView(b.buffer, b.byteOffset);
  if (s.inflated !== undefined) throw new Error(`section ${name} is deflated`);
  if (s.enc === 'raw') for (let i = 0; i < words.length; i++) words[i] = view.getUint32(s.at + 4 * i, true);
  else if (s.enc === 'dict') {
    const tw = (s.group ?? 1) * wpv,
      w = s.width!,
      head = s.at + 4 * s.dict! * tw;
    for (let i = 0; i < s.count / (s.group ?? 1); i++) {
      let k = 0;
      for (let j = w - 1; j >= 0; j--) {
        const bit = i * w + j;
        k = k * 2 + ((b[head + (bit >> 3)] >> (bit & 7)) & 1);
      }
      for (let j = 0; j < tw; j++) words[i * tw + j] = view.getUint32(s.at + 4 * (k * tw + j), true);
    }
  } else throw new Error(`section ${name} is ${s.enc}, not raw or dict`);
  return s.type === 'Float64Array' ? new Float64Array(words.buffer) : new Float32Array(words.buffer);
}

/** A copy of a snapshot with float section `name` (`raw` or `dict`, as written) holding `values` instead, encoded as the format describes. */
export function writeFloats(b: Uint8Array, name: string, values: Float32Array | Float64Array): Uint8Array {
  const s = section(b, name) as Section & { group?: number };
  const words = new Uint32Array(values.buffer, values.byteOffset, values.byteLength / 4);
  if (s.enc === 'raw') return replaceSection(b, name, new Uint8Array(words.buffer, words.byteOffset, words.byteLength).slice());
  const wpv = floatWords(s.type),
    tw = (s.group ?? 1) * wpv;
  const runs: number[][] = [];
  for (let i = 0; i < words.length; i += tw) runs.push(Array.from(words.subarray(i, i + tw)));
  // the distinct runs, sorted by their words (a Float64's high word first)
  const order = runs[0]?.map((_, j) => (wpv === 2 ? j ^ 1 : j)) ?? [];
  const table = [...new Map(runs.map((r) => [r.join(','), r])).values()].sort((x, y) => {
    for (const j of order) if (x[j] !== y[j]) return x[j] - y[j];
    return 0;
  });
  const rank = new Map(table.map((r, k) => [r.join(','), k]));
  let width = 0;
  while (2 ** width < table.length) width++;
  const head = 4 * table.length * tw;
  const out = new Uint8Array(head + Math.ceil((runs.length * width) / 32) * 4);
  const view = new DataView(out.buffer);
  table.forEach((r, k) => r.forEach((word, j) => view.setUint32(4 * (k * tw + j), word, true)));
  runs.forEach((r, i) => {
    const k = rank.get(r.join(','))!;
    for (let j = 0; j < width; j++) if (Math.floor(k / 2 ** j) % 2) out[head + ((i * width + j) >> 3)] |= 1 << ((i * width + j) & 7);
  });
  return replaceSection(b, name, out, { width, dict: table.length } as Partial<Section>);
}

/**
 * The transit fixture's index, its snapshot, and two junction points a few hundred metres apart
 * on roads every mode may take both ways: the ends of the first such edge and of one half the graph later.
 */
export async function transitSnapshot(): Promise<{ whole: PlaceIndex; bytes: Uint8Array; points: [number, number][] }> {
  const whole = await engine(TRANSIT);
  const g = whole.router!.graph;
  const open = (e: number) => (g.edgeAccess[e] & 0xff) === 0xff;
  const edges = [...g.edgeFrom.keys()].filter(open);
  const at = (e: number): [number, number] => [g.nodeLat[g.edgeFrom[e]] / 1e7, g.nodeLon[g.edgeFrom[e]] / 1e7];
  return { whole, bytes: buildSnapshot(whole), points: [at(edges[0]), at(edges[Math.floor(edges.length / 2)])] };
}
