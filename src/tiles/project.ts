/**
 * Web Mercator in integer "world" units: the whole map is a square of `WORLD` units a
 * side, x east from 180°W, y south from 85.0511°N, as tiles count them. Integers at
 * 2^30 (3.7 cm at the equator) keep a country's coordinates in an Int32Array, and a
 * tile's corner at zoom z is a multiple of 2^(30 - z).
 */

/** World units a side. */
export const WORLD = 2 ** 30;
/** Bits of a tile's extent (4096 units, the MVT default). */
export const EXTENT_BITS = 12;
/** A tile's extent in tile units. */
export const EXTENT = 1 << EXTENT_BITS;
/** Highest zoom the tiles are made for; MapLibre overzooms beyond. */
export const MAX_ZOOM = 14;

const MAX_LAT = 85.0511287798066;

/**
 * World x of a longitude (degrees), rounded down: tile edges are whole world units, so
 * a point keeps the tile it is in at every zoom, even 1e-7° (a third of a unit) west
 * of an edge.
 */
export function worldX(lon: number): number {
  return Math.min(WORLD - 1, Math.max(0, Math.floor(((lon + 180) / 360) * WORLD)));
}

/** World y of a latitude (degrees), clamped to the Mercator square, rounded down as x is. */
export function worldY(lat: number): number {
  const l = Math.max(-MAX_LAT, Math.min(MAX_LAT, lat));
  const s = Math.sin((l * Math.PI) / 180);
  const y = 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI);
  return Math.min(WORLD - 1, Math.max(0, Math.floor(y * WORLD)));
}

/** Longitude (degrees) of a world x. */
export function lonOf(x: number): number {
  return (x / WORLD) * 360 - 180;
}

/** Latitude (degrees) of a world y. */
export function latOf(y: number): number {
  const n = Math.PI - (2 * Math.PI * y) / WORLD;
  return (180 / Math.PI) * Math.atan(Math.sinh(n));
}

/** World units a side of a tile at zoom `z`. */
export function tileSize(z: number): number {
  return WORLD / 2 ** z;
}

/**
 * The tile column (or row) at zoom `z` holding world coordinate `v`. A coordinate on
 * a tile edge belongs to the tile east (south) of it, as in the XYZ scheme.
 */
export function tileOf(v: number, z: number): number {
  return Math.min(2 ** z - 1, Math.max(0, Math.floor(v / tileSize(z))));
}
