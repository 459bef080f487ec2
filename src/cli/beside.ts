/**
 * The map tiles `serve` uses when `--tiles` is not given: the archive beside the data, of
 * the same name (`nepal.places` → `nepal.pmtiles`, as `build -o nepal.places --tiles
 * nepal.pmtiles` writes them), or the fixture's built map when no `--data` is given.
 */
import { statSync } from 'node:fs';
import { TileArchive, TileArchiveError } from '../map/archive.js';
import { FIXTURE_TILES } from '../map/assets.js';

/** Where the tiles of `data` would be: its name with `.pmtiles` for its extension (`.osm.pbf` counts as one). */
export function besidePath(data: string): string {
  const slash = data.lastIndexOf('/') + 1;
  const name = data.slice(slash);
  const stem = /\.osm\.pbf$/i.test(name) ? name.slice(0, -8) : name.includes('.', 1) ? name.slice(0, name.lastIndexOf('.')) : name;
  return `${data.slice(0, slash)}${stem}.pmtiles`;
}

/**
 * The archive beside `data` (or the fixture's with `given` false), opened; `undefined` when
 * there is none. One that is there but cannot be served is reported through `warn`, and left
 * out: it was not asked for.
 */
export async function tilesBeside(data: string, given: boolean, warn: (line: string) => void): Promise<TileArchive | undefined> {
  const file = given ? besidePath(data) : FIXTURE_TILES;
  if (file === data || !statSync(file, { throwIfNoEntry: false })?.isFile()) return undefined;
  try {
    return await TileArchive.open(file);
  } catch (err) {
    if (!(err instanceof TileArchiveError)) throw err;
    warn(`the tiles beside the data cannot be served, so there is no map: ${err.message}`);
    return undefined;
  }
}

/** The modification time of `file`, the date `/health` gives for the data; `undefined` when it cannot be read. */
export function fileDate(file: string): Date | undefined {
  return statSync(file, { throwIfNoEntry: false })?.mtime;
}
