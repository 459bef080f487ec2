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
import type { MapAssets } from '../http/routes/map.js';

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
