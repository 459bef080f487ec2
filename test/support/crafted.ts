/**
 * Crafting snapshots as an adversary would: sections and directory read as the format
 * describes them (`src/snapshot/format.ts`), changed, and the checksum made right again
 * (xxHash32 of the payload, by js-xxhash, not the reader's own xxhash).
 */
import { xxHash32 } from 'js-xxhash';

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
}

/** A snapshot's directory: the section table and the index's small fields. */
export interface Directory {
  sections: Section[];
  meta: Record<string, unknown>;
}

/** The directory of a snapshot, and where its sections start (the next multiple of 8 after it). */
export function directory(b: Uint8Array): { dir: Directory; start: number } {
  const n = new DataView(b.buffer, b.byteOffset).getUint32(HEADER, true);
  const dir = JSON.parse(new TextDecoder().decode(b.subarray(HEADER + 4, HEADER + 4 + n))) as Directory;
  return { dir, start: (HEADER + 4 + n + 7) & ~7 };
}

/** Writes the checksum of `b`'s payload into its header, in place. */
export function reseal(b: Uint8Array): Uint8Array {
  new DataView(b.buffer, b.byteOffset).setUint32(16, xxHash32(b.subarray(HEADER), 0), true);
  return b;
}

/**
 * A copy of a snapshot with its directory replaced by `json` (text, so that values JSON
 * cannot write, such as 1e999, can be put in): the sections moved after it, the payload
 * length and the checksum made right.
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
  return reseal(out);
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
  const s = section(b, name);
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
