import type { PlaceTable } from './table.js';
import { POLYGON, MULTIPOLYGON } from './table.js';

/** The geometry columns of a place table: all that streets, localities and addresses read. */
export type Shapes = Pick<
  PlaceTable,
  'size' | 'what' | 'osmId' | 'kind' | 'lon' | 'lat' | 'geom' | 'shapeStart' | 'shape' | 'coordStart' | 'coords'
>;

/** A table's geometry columns alone (views, not copies). */
export function shapesOf(t: Shapes): Shapes {
  const { size, what, osmId, kind, lon, lat, geom, shapeStart, shape, coordStart, coords } = t;
  return { size, what, osmId, kind, lon, lat, geom, shapeStart, shape, coordStart, coords };
}

/**
 * Calls `fn(ring, outer)` for each ring of a (multi)polygon row, in order, as views of
 * the table's coordinates (lon, lat in 1e-7 degrees); `outer` flags the first ring of
 * each polygon. Layout: polygon `[rings, n…]`, multipolygon `[polygons, rings, n…, …]`.
 * Other rows have no rings.
 */
export function forEachRing(t: Shapes, r: number, fn: (ring: Int32Array, outer: boolean) => void): void {
  if (t.geom[r] !== POLYGON && t.geom[r] !== MULTIPOLYGON) return;
  const shape = t.shape;
  let s = t.shapeStart[r];
  let c = t.coordStart[r];
  const polygons = t.geom[r] === POLYGON ? 1 : shape[s++];
  for (let p = 0; p < polygons; p++) {
    const rings = shape[s++];
    for (let k = 0; k < rings; k++) {
      const n = shape[s++];
      fn(t.coords.subarray(c, c + 2 * n), k === 0);
      c += 2 * n;
    }
  }
}
