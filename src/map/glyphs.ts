/**
 * Glyph ranges in the PBF format MapLibre reads (`glyphs.proto`: a fontstack with its name, its
 * range and its glyphs: id, SDF bitmap, width, height, left, top, advance), and the fontstacks the
 * server has. The glyphs themselves are drawn at build time (`scripts/map-assets.ts`).
 */
import { PbfWriter } from 'pbf';
import { rasterize, type PathCommand } from './raster.js';
import { distanceField } from './sdf.js';

/** Pixel size glyphs are drawn at (MapLibre scales from 24 px). */
export const GLYPH_SIZE = 24;
/** Margin of each glyph bitmap around the glyph, in pixels (MapLibre expects 3). */
export const GLYPH_BUFFER = 3;
/** Code points per range file. */
export const RANGE_SIZE = 256;
/** Highest code point a range may start at: MapLibre asks for the Basic Multilingual Plane only. */
export const LAST_RANGE = 0xff00;

/**
 * The fontstack of the Nepali style's labels: the clusters of shaped Devanagari in the Private
 * Use Area (drawn per archive, see `src/map/shape.ts`), Noto Sans Regular's Latin besides.
 */
export const DEVANAGARI_STACK = 'Noto Sans Devanagari Regular';

/** The fonts served, by fontstack name: the Noto Sans faces the basemaps styles ask for, and `DEVANAGARI_STACK`. */
export const FONTS = ['Noto Sans Regular', 'Noto Sans Medium', 'Noto Sans Italic', DEVANAGARI_STACK] as const;
/** One of `FONTS`. */
export type FontName = (typeof FONTS)[number];

/** One glyph: its SDF bitmap is (width + 2·GLYPH_BUFFER) × (height + 2·GLYPH_BUFFER) bytes, or absent when empty. */
export interface Glyph {
  id: number;
  bitmap?: Uint8Array;
  width: number;
  height: number;
  left: number;
  top: number;
  advance: number;
}

/**
 * The font a requested fontstack is served from: the first of its comma-separated names that is
 * one of `FONTS`, else the closest face by its name's weight or slant (a stack we lack, such as
 * basemaps' `Noto Sans Devanagari Regular v1`, gets the regular face: its Latin labels still show).
 */
export function fontFor(fontstack: string): FontName {
  const names = fontstack.split(',').map((s) => s.trim());
  for (const name of names) if ((FONTS as readonly string[]).includes(name)) return name as FontName;
  const first = names[0] ?? '';
  if (/italic|oblique/i.test(first)) return 'Noto Sans Italic';
  if (/medium|semi ?bold|bold|black|heavy/i.test(first)) return 'Noto Sans Medium';
  return 'Noto Sans Regular';
}

/** The range file name of the range starting at `start`: `0-255`, `256-511`, … */
export function rangeName(start: number): string {
  return `${start}-${start + RANGE_SIZE - 1}`;
}

/**
 * The start of range `start-end` when it is one MapLibre asks for (a multiple of 256, 256 wide,
 * within the BMP), else `undefined`.
 */
export function parseRange(start: string, end: string): number | undefined {
  if (!/^\d{1,5}$/.test(start) || !/^\d{1,5}$/.test(end)) return undefined;
  const s = Number(start);
  return s % RANGE_SIZE === 0 && s <= LAST_RANGE && Number(end) === s + RANGE_SIZE - 1 ? s : undefined;
}

/**
 * Draws one glyph's SDF from its outline at `GLYPH_SIZE` px (y down, origin on the baseline, as
 * opentype.js's `getPath(0, 0, 24)` gives it). Metrics follow the fontnik glyphs MapLibre was
 * made for: `left` and `top` place the bitmap's unbuffered corner, `top` measured from the
 * font's ascender line (so it is negative for most glyphs), all in whole pixels.
 * @param advance the advance width in px
 * @param ascender the font's ascender in px
 */
export function drawGlyph(id: number, commands: readonly PathCommand[], advance: number, ascender: number): Glyph {
  let x1 = Infinity;
  let y1 = Infinity;
  let x2 = -Infinity;
  let y2 = -Infinity;
  for (const c of commands) {
    if (c.type === 'Z') continue;
    const xs = c.type === 'C' ? [c.x, c.x1, c.x2] : c.type === 'Q' ? [c.x, c.x1] : [c.x];
    const ys = c.type === 'C' ? [c.y, c.y1, c.y2] : c.type === 'Q' ? [c.y, c.y1] : [c.y];
    for (const x of xs) {
      x1 = Math.min(x1, x);
      x2 = Math.max(x2, x);
    }
    for (const y of ys) {
      y1 = Math.min(y1, y);
      y2 = Math.max(y2, y);
    }
  }
  const base = { id, advance: Math.round(advance) };
  if (!(x2 > x1 && y2 > y1)) return { ...base, width: 0, height: 0, left: 0, top: -Math.ceil(ascender) };
  const left = Math.floor(x1);
  const up = Math.ceil(-y1); // rows above the baseline
  const width = Math.ceil(x2) - left;
  const height = up + Math.ceil(y2);
  const sdf = distanceField(rasterize(commands, width, height, -left, up), GLYPH_BUFFER);
  return { ...base, bitmap: sdf.data, width, height, left, top: up - Math.ceil(ascender) };
}

/** Encodes one glyph range file: `glyphs { stacks: fontstack { name, range, glyphs } }`. */
export function encodeGlyphs(name: string, start: number, glyphs: readonly Glyph[]): Uint8Array {
  const pbf = new PbfWriter();
  pbf.writeMessage(1, writeStack, { name, range: rangeName(start), glyphs });
  return pbf.finish();
}

function writeStack(stack: { name: string; range: string; glyphs: readonly Glyph[] }, pbf: PbfWriter): void {
  pbf.writeStringField(1, stack.name);
  pbf.writeStringField(2, stack.range);
  for (const g of stack.glyphs) pbf.writeMessage(3, writeGlyph, g);
}

function writeGlyph(g: Glyph, pbf: PbfWriter): void {
  pbf.writeVarintField(1, g.id);
  if (g.bitmap && g.bitmap.length) pbf.writeBytesField(2, g.bitmap);
  pbf.writeVarintField(3, g.width);
  pbf.writeVarintField(4, g.height);
  pbf.writeSVarintField(5, g.left);
  pbf.writeSVarintField(6, g.top);
  pbf.writeVarintField(7, g.advance);
}
