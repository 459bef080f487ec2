/** Tile addresses, for any runtime (no Node built-ins: the HTTP routes use them at the edge too). */

/** Deepest zoom the PMTiles tile id can address. */
export const MAX_TILE_ZOOM = 26;

/** Whether z/x/y names a tile: integers, 0 ≤ z ≤ 26, 0 ≤ x, y < 2^z. */
export function isTile(z: number, x: number, y: number): boolean {
  if (!Number.isInteger(z) || z < 0 || z > MAX_TILE_ZOOM) return false;
  const n = 2 ** z;
  return Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < n && y < n;
}
