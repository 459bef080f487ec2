/**
 * Devanagari labels shaped on the server, for a MapLibre that cannot shape them: each label is
 * shaped by HarfBuzz (`harfbuzzjs`) in Noto Sans Devanagari, the shaped run is cut into its
 * clusters (a syllable with its matras, conjuncts and reph: what HarfBuzz keeps together), and
 * each distinct cluster (its glyphs with their offsets, and its advance) gets a code point of the
 * Private Use Area. A label is then written as those code points, which MapLibre places one after
 * the other without shaping; the glyph of each code point is the cluster drawn whole
 * (`clusterGlyphs`), served in the fontstack `DEVANAGARI_STACK`.
 *
 * Which code point stands for which cluster is decided per archive (the `ShapedTable` in its
 * metadata): 6,400 code points would not hold every cluster of the script, but hold those of the
 * names of a country with room to spare. Everything in font units; drawing scales them.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import type * as Harfbuzz from 'harfbuzzjs';
import { DEVANAGARI_STACK, drawGlyph, GLYPH_SIZE, type Glyph } from './glyphs.js';
import type { PathCommand } from './raster.js';

export { DEVANAGARI_STACK };
/** The first code point of the Private Use Area that clusters are written with. */
export const PUA_FIRST = 0xe000;
/** The last one (the BMP's Private Use Area: 6,400 code points). */
export const PUA_LAST = 0xf8ff;
/** The most glyphs a cluster may have (a longer one, which no real name has, is left as text). */
export const MAX_CLUSTER_GLYPHS = 32;
/** The archive metadata key of the `ShapedTable`. */
export const SHAPED_KEY = 'nepal-places:shaped';

/** The Fontsource file of the face (WOFF 1.0: the package ships no TTF; see `woffToSfnt`). */
const FONT_FILE = '@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff';

/** A font file that cannot be read as the WOFF or OpenType font it should be. */
export class FontError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FontError';
  }
}

/** One glyph of a cluster: its id in the font and its offset from the cluster's origin (font units, y up). */
export interface ClusterGlyph {
  id: number;
  dx: number;
  dy: number;
}

/** One cluster of a shaped run: its glyphs, its advance, and the text it stands for. */
export interface Cluster {
  glyphs: ClusterGlyph[];
  advance: number;
  text: string;
}

/**
 * The clusters of an archive, as its metadata keeps them: `clusters[i]` is the cluster of code
 * point `PUA_FIRST + i`, flat: `[advance, id, dx, dy, id, dx, dy, …]` in font units.
 */
export interface ShapedTable {
  /** The face the ids are of (family, style and version, from its name table). */
  font: string;
  upem: number;
  clusters: number[][];
}

/**
 * The raw OpenType bytes of a WOFF 1.0 file. Written here: WOFF 1.0 is a table directory over
 * zlib streams (node:zlib inflates them), while HarfBuzz reads only the raw font and the one npm
 * converter is an unmaintained single release.
 * @throws {FontError} for bytes that are not a WOFF 1.0 font
 */
export function woffToSfnt(woff: Uint8Array): Uint8Array {
  const v = new DataView(woff.buffer, woff.byteOffset, woff.byteLength);
  if (woff.length < 44 || v.getUint32(0) !== 0x774f4646) throw new FontError('not a WOFF 1.0 font (no wOFF signature)');
  const count = v.getUint16(12);
  const total = v.getUint32(16);
  if (woff.length < 44 + 20 * count || total > 64 << 20) throw new FontError('WOFF table directory cut short or too large');
  const out = new Uint8Array(total);
  const o = new DataView(out.buffer);
  let shift = 0;
  while (2 << shift <= count) shift++;
  o.setUint32(0, v.getUint32(4));
  o.setUint16(4, count);
  o.setUint16(6, 16 << shift);
  o.setUint16(8, shift);
  o.setUint16(10, count * 16 - (16 << shift));
  let at = 12 + 16 * count;
  for (let i = 0; i < count; i++) {
    const d = 44 + 20 * i;
    const offset = v.getUint32(d + 4),
      packed = v.getUint32(d + 8),
      length = v.getUint32(d + 12);
    if (offset + packed > woff.length || at + length > total) throw new FontError(`WOFF table ${i} lies outside the file`);
    const src = woff.subarray(offset, offset + packed);
    let data: Uint8Array;
    try {
      data = packed < length ? inflateSync(src) : src;
    } catch (err) {
      throw new FontError(`WOFF table ${i} does not inflate: ${(err as Error).message}`);
    }
    if (data.length !== length) throw new FontError(`WOFF table ${i} inflates to ${data.length} bytes, not ${length}`);
    const e = 12 + 16 * i;
    o.setUint32(e, v.getUint32(d));
    o.setUint32(e + 4, v.getUint32(d + 16));
    o.setUint32(e + 8, at);
    o.setUint32(e + 12, length);
    out.set(data, at);
    at += (length + 3) & ~3;
  }
  return out;
}

/** The Noto Sans Devanagari file's raw OpenType bytes. */
export async function devanagariFontBytes(): Promise<Uint8Array> {
  return woffToSfnt(await readFile(createRequire(import.meta.url).resolve(FONT_FILE)));
}

/** Whether a string has a Devanagari letter or sign (Unicode's script property: the block, its extensions, Vedic marks). */
export function hasDevanagari(text: string): boolean {
  return /\p{Script=Devanagari}/u.test(text);
}

/**
 * Shapes text in one face with HarfBuzz and cuts the result into clusters; draws the glyphs.
 *
 * @example
 * const shaper = await Shaper.load();
 * shaper.clusters('ठमेल'); // ठ, मे, ल: each with its glyphs and advance
 */
export class Shaper {
  readonly upem: number;
  /** Family, style and version of the face, as `ShapedTable.font` names it. */
  readonly name: string;
  private readonly hb: typeof Harfbuzz;
  private readonly font: Harfbuzz.Font;
  private readonly space: number;
  // One buffer for every call (shaping is synchronous): a new one each time costs more than the shaping.
  private readonly buffer: Harfbuzz.Buffer;

  private constructor(hb: typeof Harfbuzz, sfnt: Uint8Array) {
    this.hb = hb;
    this.buffer = new hb.Buffer();
    const face = new hb.Face(new hb.Blob(sfnt));
    if (!face.upem || face.collectUnicodes().length === 0) throw new FontError('HarfBuzz finds no glyphs in this font');
    this.upem = face.upem;
    this.font = new hb.Font(face);
    this.name = [1, 2, 5]
      .map((id) => face.getName(id, 'en'))
      .join(' ')
      .trim();
    this.space = this.font.nominalGlyph(0x20) ?? 0;
  }

  /**
   * The shaper of `sfnt` (raw OpenType bytes), by default Noto Sans Devanagari Regular from
   * `@fontsource/noto-sans-devanagari`. HarfBuzz is imported here, not with this module: its
   * WebAssembly takes a noticeable part of a second to compile, which only a build that shapes should pay.
   * @throws {FontError} for bytes HarfBuzz finds no glyphs in
   */
  static async load(sfnt?: Uint8Array): Promise<Shaper> {
    const [hb, bytes] = await Promise.all([import('harfbuzzjs'), sfnt ?? devanagariFontBytes()]);
    return new Shaper(hb, bytes);
  }

  /** HarfBuzz's glyphs and positions of `text`, as it shapes it alone (script and direction guessed from it). */
  shape(text: string): { id: number; cluster: number; advance: number; dx: number; dy: number }[] {
    const buf = this.buffer;
    buf.reset();
    buf.addText(text);
    buf.guessSegmentProperties();
    this.hb.shape(this.font, buf);
    // (not getGlyphInfosAndPositions, which defines properties on every glyph: several times slower)
    const infos = buf.getGlyphInfos();
    const positions = buf.getGlyphPositions();
    return infos.map((g, i) => ({
      id: g.codepoint,
      cluster: g.cluster,
      advance: positions[i]!.xAdvance,
      dx: positions[i]!.xOffset,
      dy: positions[i]!.yOffset,
    }));
  }

  /**
   * `text` shaped, in clusters left to right: the glyphs HarfBuzz gives one cluster value, each
   * with its offset from the cluster's origin, and the text (UTF-16 units) the cluster covers.
   */
  clusters(text: string): Cluster[] {
    const glyphs = this.shape(text);
    // HarfBuzz's cluster values are UTF-16 offsets into the text; left to right they only grow.
    const out: Cluster[] = [];
    for (let i = 0; i < glyphs.length;) {
      const first = glyphs[i]!.cluster;
      let j = i;
      let pen = 0;
      const list: ClusterGlyph[] = [];
      for (; j < glyphs.length && glyphs[j]!.cluster === first; j++) {
        const g = glyphs[j]!;
        list.push({ id: g.id, dx: pen + g.dx, dy: g.dy });
        pen += g.advance;
      }
      const end = j < glyphs.length ? glyphs[j]!.cluster : text.length;
      out.push({ glyphs: list, advance: pen, text: text.slice(first, end) });
      i = j;
    }
    return out;
  }

  /** The glyph id of the space, which labels keep as U+0020 so that MapLibre breaks lines at it. */
  get spaceGlyph(): number {
    return this.space;
  }

  /** Glyph `id`'s outline in font units, y up, moved by (`dx`, `dy`). */
  outline(id: number, dx = 0, dy = 0, scale = 1): PathCommand[] {
    const out: PathCommand[] = [];
    const x = (v: number) => (v + dx) * scale;
    const y = (v: number) => -(v + dy) * scale;
    for (const c of this.font.glyphToJson(id)) {
      const a = c.values;
      if (c.type === 'M' || c.type === 'L') out.push({ type: c.type, x: x(a[0]!), y: y(a[1]!) });
      else if (c.type === 'Q') out.push({ type: 'Q', x1: x(a[0]!), y1: y(a[1]!), x: x(a[2]!), y: y(a[3]!) });
      else if (c.type === 'C') out.push({ type: 'C', x1: x(a[0]!), y1: y(a[1]!), x2: x(a[2]!), y2: y(a[3]!), x: x(a[4]!), y: y(a[5]!) });
      else if (c.type === 'Z') out.push({ type: 'Z' });
    }
    return out;
  }

  /** The face's ascender (font units). */
  get ascender(): number {
    return this.font.hExtents()?.ascender ?? this.upem;
  }
}

/** What `shapeLabels` made: each text's label (undefined: left unshaped), the table, and counts. */
export interface ShapedLabels {
  labels: Map<string, string | undefined>;
  table: ShapedTable;
  /** Texts left unshaped because a cluster of theirs had no code point left. */
  overflow: number;
  /** Distinct clusters the texts need (more than `table.clusters` on overflow). */
  needed: number;
}

/** Options of `shapeLabels`. */
export interface ShapeOptions {
  /** Code points available (default: the whole Private Use Area, 6,400). */
  budget?: number;
  /** How many labels each text is written on (default 1): the commonest clusters get code points first. */
  weight?: (text: string) => number;
}

/**
 * Shapes every text and writes it as a label: a cluster of Devanagari glyphs as its code point,
 * a space as a space, and any other cluster (Latin, digits, punctuation the face lacks: its
 * glyph is .notdef) as its own text, which the fontstack draws from Noto Sans.
 *
 * Code points go to clusters by how many labels use them, ties by the cluster's glyphs, so a
 * table depends only on the texts (not on their order). Beyond the budget, a text needing a
 * cluster that got none is left unshaped (undefined) and counted.
 */
export function shapeLabels(texts: Iterable<string>, shaper: Shaper, options: ShapeOptions = {}): ShapedLabels {
  const budget = Math.min(options.budget ?? PUA_LAST - PUA_FIRST + 1, PUA_LAST - PUA_FIRST + 1);
  const weight = options.weight ?? (() => 1);
  // each text as its parts: a cluster's key, or text kept as it is (marked by a leading '=')
  const shaped = new Map<string, string[]>();
  const uses = new Map<string, { cluster: Cluster; uses: number }>();
  for (const text of texts) {
    if (shaped.has(text)) continue;
    const parts: string[] = [];
    for (const c of shaper.clusters(text)) {
      const space = c.glyphs.length === 1 && c.glyphs[0]!.id === shaper.spaceGlyph && c.text === ' ';
      if (space || c.glyphs.length > MAX_CLUSTER_GLYPHS || c.glyphs.some((g) => g.id === 0)) {
        parts.push(`=${c.text}`);
        continue;
      }
      const key = clusterKey(c);
      parts.push(key);
      const u = uses.get(key);
      if (u) u.uses += weight(text);
      else uses.set(key, { cluster: c, uses: weight(text) });
    }
    shaped.set(text, parts);
  }
  const order = [...uses].sort((a, b) => b[1].uses - a[1].uses || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const codes = new Map<string, number>();
  const clusters: number[][] = [];
  for (const [key, { cluster }] of order.slice(0, budget)) {
    codes.set(key, PUA_FIRST + clusters.length);
    clusters.push([cluster.advance, ...cluster.glyphs.flatMap((g) => [g.id, g.dx, g.dy])]);
  }
  const labels = new Map<string, string | undefined>();
  let overflow = 0;
  for (const [text, parts] of shaped) {
    let label: string | undefined = '';
    for (const p of parts) {
      const code = p.startsWith('=') ? undefined : codes.get(p);
      if (p.startsWith('=')) label += p.slice(1);
      else if (code === undefined) {
        label = undefined;
        break;
      } else label += String.fromCharCode(code);
    }
    if (label === undefined) overflow++;
    labels.set(text, label);
  }
  return { labels, table: { font: shaper.name, upem: shaper.upem, clusters }, overflow, needed: uses.size };
}

function clusterKey(c: Cluster): string {
  return `${c.advance}:${c.glyphs.map((g) => `${g.id},${g.dx},${g.dy}`).join(';')}`;
}

/** A glyph of a label as written, at its place: x from the label's origin, y up (font units). */
export interface PlacedGlyph {
  id: number;
  x: number;
  y: number;
}

/**
 * The glyphs a shaped label stands for, placed one cluster after the other as MapLibre places
 * them (before it rounds to whole pixels): a code point of the table is its cluster, a space is
 * the face's space. Other characters (drawn from Noto Sans) are left out; `undefined` for a
 * code point the table lacks.
 */
export function placeLabel(label: string, table: ShapedTable, shaper: Shaper): PlacedGlyph[] | undefined {
  const out: PlacedGlyph[] = [];
  let pen = 0;
  for (const ch of label) {
    const code = ch.codePointAt(0)!;
    if (ch === ' ') {
      out.push({ id: shaper.spaceGlyph, x: pen, y: 0 });
      pen += shaper.shape(' ')[0]!.advance;
      continue;
    }
    if (code < PUA_FIRST || code > PUA_LAST) continue;
    const c = table.clusters[code - PUA_FIRST];
    if (!c) return undefined;
    for (let i = 1; i + 2 < c.length; i += 3) out.push({ id: c[i]!, x: pen + c[i + 1]!, y: c[i + 2]! });
    pen += c[0]!;
  }
  return out;
}

/**
 * Whether `value` is a `ShapedTable` (an archive's metadata is read from a file): the face named,
 * a positive em, and at most 6,400 clusters of whole numbers in threes after the advance.
 */
export function isShapedTable(value: unknown): value is ShapedTable {
  if (!value || typeof value !== 'object') return false;
  const t = value as Partial<ShapedTable>;
  return (
    typeof t.font === 'string' &&
    typeof t.upem === 'number' &&
    t.upem > 0 &&
    Array.isArray(t.clusters) &&
    t.clusters.length <= PUA_LAST - PUA_FIRST + 1 &&
    t.clusters.every((c) => Array.isArray(c) && c.length % 3 === 1 && c.length <= 1 + 3 * MAX_CLUSTER_GLYPHS && c.every(Number.isInteger))
  );
}

/**
 * The glyphs of the clusters whose code points fall in range `start` (256 wide), drawn whole at
 * `GLYPH_SIZE` like the other glyph ranges: each cluster's glyphs at their offsets, one bitmap,
 * the cluster's advance. Empty outside the table.
 * @param ascender the ascender (px at `GLYPH_SIZE`) the fontstack's other glyphs are drawn with
 */
export function clusterGlyphs(table: ShapedTable, shaper: Shaper, start: number, ascender: number): Glyph[] {
  const scale = GLYPH_SIZE / table.upem;
  const out: Glyph[] = [];
  for (let code = Math.max(start, PUA_FIRST); code < start + 256 && code <= PUA_LAST; code++) {
    const c = table.clusters[code - PUA_FIRST];
    if (!c) break;
    const commands: PathCommand[] = [];
    for (let i = 1; i + 2 < c.length; i += 3) commands.push(...shaper.outline(c[i]!, c[i + 1]!, c[i + 2]!, scale));
    out.push(drawGlyph(code, commands, c[0]! * scale, ascender));
  }
  return out;
}
