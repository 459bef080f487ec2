/**
 * Where the map's built assets are, on Node: the glyph ranges and sprite sheets that
 * `scripts/map-assets.ts` draws at install time (`npm run prepare`) into `dist/assets/`, and the
 * fixture's tiles it builds there. Resolved from the package root, two levels above both
 * `src/map/` and `dist/map/`.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MapAssets } from './source.js';
import { encodeGlyphs, GLYPH_SIZE, RANGE_SIZE } from './glyphs.js';
import { clusterGlyphs, DEVANAGARI_STACK, isShapedTable, PUA_FIRST, PUA_LAST, SHAPED_KEY, Shaper } from './shape.js';

/** The assets folder: `fonts/<fontstack>/<start>-<end>.pbf` and `sprites/<name>[@2x].{json,png}`. */
export const ASSETS_DIR = fileURLToPath(new URL('../../dist/assets/', import.meta.url));

/** The vector tiles of the bundled Kathmandu fixture, which `npm start` serves. */
export const FIXTURE_TILES = fileURLToPath(new URL('../../dist/assets/kathmandu.pmtiles', import.meta.url));

/**
 * The built fonts and sprites in `dir`, for `createApp({ map: { assets } })`, or `undefined`
 * when they are not built there (`npm run assets`).
 */
export function fileAssets(dir = ASSETS_DIR): MapAssets | undefined {
  if (!existsSync(join(dir, 'fonts')) || !existsSync(join(dir, 'sprites'))) return undefined;
  return {
    async get(path: string) {
      // Paths come from the routes' own patterns; refuse anything that would leave the folder all the same.
      const file = normalize(join(dir, path));
      if (!file.startsWith(normalize(dir))) return undefined;
      try {
        return await readFile(file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
  };
}

/** What `withShapedGlyphs` made: the assets, and why the archive's shaped labels cannot be drawn, if they cannot. */
export interface ShapedAssets {
  assets: MapAssets | undefined;
  /** Set when the archive has a table of shaped clusters this server cannot draw (damaged, or of another font). */
  problem?: string;
}

/**
 * `assets` with the glyphs of the archive's shaped Nepali labels: the ranges of the Private Use
 * Area in `DEVANAGARI_STACK` are the clusters of the archive's table (`buildTiles` writes it in
 * its metadata), drawn with the same face at first request and kept (at most 25 ranges). Every
 * other file is `assets`' own. Without a table, or without assets, `assets` as it is; with a
 * table it cannot draw (damaged, or shaped with another version of the face, whose glyph ids
 * would draw other letters), `assets` as it is and the `problem`, for the host to tell.
 */
export async function withShapedGlyphs(
  assets: MapAssets | undefined,
  metadata: Record<string, unknown> | undefined,
): Promise<ShapedAssets> {
  const table = metadata?.[SHAPED_KEY];
  if (!assets || table === undefined) return { assets };
  if (!isShapedTable(table))
    return { assets, problem: `the archive's ${SHAPED_KEY} is not a table of clusters: its Nepali labels will not show` };
  const face = await Shaper.load();
  if (face.name !== table.font) {
    return {
      assets,
      problem: `the archive's Nepali labels were shaped with ${table.font} and this server draws ${face.name}: rebuild the tiles to show them`,
    };
  }
  const ranges = new Map<number, Promise<Uint8Array>>();
  const prefix = `fonts/${DEVANAGARI_STACK}/`;
  const draw = async (start: number): Promise<Uint8Array> => {
    const glyphs = clusterGlyphs(table, face, start, (face.ascender * GLYPH_SIZE) / face.upem);
    return encodeGlyphs(DEVANAGARI_STACK, start, glyphs);
  };
  return {
    assets: {
      get(path: string) {
        const m = path.startsWith(prefix) ? /^(\d+)-\d+\.pbf$/.exec(path.slice(prefix.length)) : null;
        const start = m ? Number(m[1]) : -1;
        if (start < PUA_FIRST - (PUA_FIRST % RANGE_SIZE) || start > PUA_LAST) return assets.get(path);
        let found = ranges.get(start);
        if (!found) ranges.set(start, (found = draw(start)));
        return found;
      },
    },
  };
}
