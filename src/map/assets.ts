/**
 * Where the map's built assets are: the glyph ranges and sprite sheets that
 * `scripts/map-assets.ts` draws at install time (`npm run prepare`) into `dist/assets/`, and the
 * fixture's tiles it builds there.
 * Resolved from the package root, two levels above both `src/map/` and `dist/map/`.
 */
import { fileURLToPath } from 'node:url';

/** The assets folder: `fonts/<fontstack>/<start>-<end>.pbf` and `sprites/<name>[@2x].{json,png}`. */
export const ASSETS_DIR = fileURLToPath(new URL('../../dist/assets/', import.meta.url));

/** The vector tiles of the bundled Kathmandu fixture, which `npm start` serves. */
export const FIXTURE_TILES = fileURLToPath(new URL('../../dist/assets/kathmandu.pmtiles', import.meta.url));
