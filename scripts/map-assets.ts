/**
 * Builds the map's assets into dist/assets/ (run by `npm run prepare`, so at install time; nothing
 * here is downloaded or committed):
 *
 * - fonts/<fontstack>/<start>-<end>.pbf: SDF glyph ranges of Noto Sans (the faces the basemaps
 *   styles ask for), from the WOFF files `@fontsource/noto-sans` ships, parsed with opentype.js
 *   (which cannot read its WOFF2 files), drawn by src/map/raster.ts and src/map/sdf.ts; and the
 *   Nepali style's stack, whose shaped clusters the server draws per archive (src/map/shape.ts);
 * - sprites/<style>[@2x].{json,png}: every icon the styles name (see scripts/sprites.ts);
 * - kathmandu.pmtiles: the vector tiles of the bundled fixture (`nepal-places tiles`), which
 *   `npm start` serves so that a fresh clone shows a map.
 *
 * Usage: node --import tsx scripts/map-assets.ts [OUT_DIR]
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import opentype from 'opentype.js';
import { buildTiles } from '../src/tiles/build.js';
import { DEFAULT_PBF } from '../src/data.js';
import { ASSETS_DIR, FIXTURE_TILES } from '../src/map/assets.js';
import { DEVANAGARI_STACK, drawGlyph, encodeGlyphs, FONTS, GLYPH_SIZE, RANGE_SIZE, type FontName, type Glyph } from '../src/map/glyphs.js';
import { Shaper } from '../src/map/shape.js';
import type { PathCommand } from '../src/map/raster.js';
import { writeSprites } from './sprites.js';

const require = createRequire(import.meta.url);

/** The Fontsource files of each face: weight and style. */
const FACES: Record<FontName, string> = {
  'Noto Sans Regular': '400-normal',
  'Noto Sans Medium': '500-normal',
  'Noto Sans Italic': '400-italic',
  [DEVANAGARI_STACK]: '400-normal',
};
/**
 * The Unicode subsets drawn, first match wins: Latin (English, romanised Nepali names) and its
 * extensions (IAST transliteration's ḍ ṭ ṇ ṣ, and Vietnamese's stacked accents).
 */
const SUBSETS = ['latin', 'latin-ext', 'vietnamese'].map((s) => `@fontsource/noto-sans/files/noto-sans-${s}`);
/**
 * `DEVANAGARI_STACK` has these too: the Latin and digits of mixed labels, and the Devanagari
 * letters themselves, unshaped, for a name beyond the archive's clusters (its clusters are drawn
 * by the server, per archive). All with the Devanagari face's ascender, as the clusters are, so
 * that the baselines of a mixed label agree.
 */
const DEVANAGARI_SUBSET = '@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari';

async function main(): Promise<void> {
  const out = process.argv[2] ?? ASSETS_DIR;
  const tmp = `${out.replace(/\/$/, '')}.tmp-${process.pid}`;
  const t0 = performance.now();
  await rm(tmp, { recursive: true, force: true });
  let glyphCount = 0;
  let files = 0;
  let bytes = 0;
  for (const font of FONTS) {
    const ranges = await drawFont(font);
    for (const [start, glyphs] of ranges) {
      const pbf = encodeGlyphs(font, start, glyphs);
      const file = join(tmp, 'fonts', font, `${start}-${start + RANGE_SIZE - 1}.pbf`);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, pbf);
      glyphCount += glyphs.length;
      files++;
      bytes += pbf.length;
    }
  }
  const sprites = await writeSprites(join(tmp, 'sprites'));
  const tiles = await buildTiles(DEFAULT_PBF, join(tmp, basename(FIXTURE_TILES)));
  await rm(out, { recursive: true, force: true });
  await mkdir(dirname(out), { recursive: true });
  await rename(tmp, out);
  const ms = performance.now() - t0;
  process.stderr.write(
    `map assets: ${glyphCount} glyphs of ${FONTS.length} fonts in ${files} ranges (${(bytes / 1024).toFixed(0)} KiB), ` +
      `${sprites.icons} icons in ${sprites.sheets} sprite sheets, the fixture's ${tiles.archive.addressed} tiles (${(tiles.archive.bytes / 1024).toFixed(0)} KiB), ` +
      `in ${(ms / 1000).toFixed(1)} s → ${out}\n`,
  );
}

/** Every glyph of `font` the subsets have, by range start. */
async function drawFont(font: FontName): Promise<Map<number, Glyph[]>> {
  const ranges = new Map<number, Glyph[]>();
  const seen = new Set<number>();
  const devanagari = font === DEVANAGARI_STACK;
  const shaper = devanagari ? await Shaper.load() : undefined;
  for (const subset of devanagari ? [...SUBSETS, DEVANAGARI_SUBSET] : SUBSETS) {
    const file = require.resolve(`${subset}-${FACES[font]}.woff`);
    const buf = await readFile(file);
    const face = opentype.parse(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer);
    const scale = GLYPH_SIZE / face.unitsPerEm;
    const ascender = shaper ? (shaper.ascender * GLYPH_SIZE) / shaper.upem : face.ascender * scale;
    for (const [code, index] of Object.entries(face.tables.cmap.glyphIndexMap)) {
      const id = Number(code);
      if (seen.has(id) || id > 0xffff || index === 0) continue;
      seen.add(id);
      const glyph = face.glyphs.get(index);
      const commands = glyph.getPath(0, 0, GLYPH_SIZE).commands as PathCommand[];
      const start = id - (id % RANGE_SIZE);
      let list = ranges.get(start);
      if (!list) ranges.set(start, (list = []));
      list.push(drawGlyph(id, commands, (glyph.advanceWidth ?? 0) * scale, ascender));
    }
  }
  for (const list of ranges.values()) list.sort((a, b) => a.id - b.id);
  return ranges;
}

await main();
