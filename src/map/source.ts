/** Where a server reads the map's glyphs and sprites from: the files `npm run assets` wrote, or anything else. */
export interface MapAssets {
  /** The bytes at `path` (e.g. `fonts/Noto Sans Regular/0-255.pbf`), or undefined when there are none. */
  get(path: string): Promise<Uint8Array | undefined>;
}
