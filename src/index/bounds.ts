import type { PlaceTable } from '../model/table.js';

/** The extent of a data set: the box around every row's centroid, degrees. */
export interface Bounds {
  west: number;
  south: number;
  east: number;
  north: number;
}

/** The box around every row of `t` (places, localities, streets, buildings), or undefined for an empty table. */
export function tableBounds(t: PlaceTable): Bounds | undefined {
  if (t.size === 0) return undefined;
  let w = Infinity,
    s = Infinity,
    e = -Infinity,
    n = -Infinity;
  for (let i = 0; i < t.size; i++) {
    const x = t.lon[i],
      y = t.lat[i];
    if (x < w) w = x;
    if (x > e) e = x;
    if (y < s) s = y;
    if (y > n) n = y;
  }
  return { west: w / 1e7, south: s / 1e7, east: e / 1e7, north: n / 1e7 };
}

const KM_PER_DEGREE = 111.32;

/** Whether (`lat`, `lon`) lies in `b` grown by `marginKm` on every side. */
export function within(b: Bounds, lat: number, lon: number, marginKm = 0): boolean {
  const dLat = marginKm / KM_PER_DEGREE;
  // a degree of longitude is shortest at the box's edge farthest from the equator
  const cos = Math.cos((Math.min(89, Math.max(Math.abs(b.south), Math.abs(b.north)) + dLat) * Math.PI) / 180);
  const dLon = marginKm / (KM_PER_DEGREE * cos);
  return lat >= b.south - dLat && lat <= b.north + dLat && lon >= b.west - dLon && lon <= b.east + dLon;
}
