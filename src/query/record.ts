import type { PlaceTable } from '../model/table.js';
import { POINT, LINE, POLYGON } from '../model/table.js';
import type { Geometry, Position } from '../types.js';
import { placeId as idOf } from '../osm/id.js';

const E7 = 1e7;

/** The stable id of place row `p`: `osmId * 4 + kind` (0 node, 1 way, 2 relation). */
export function placeId(t: PlaceTable, p: number): number {
  return idOf(t.osmId[p], t.kind[p]);
}

/** Every tag of place row `p` as `"key|value"`, in file order. */
export function placeTags(t: PlaceTable, p: number): string[] {
  const out: string[] = [];
  for (let k = t.tagStart[p]; k < t.tagStart[p + 1]; k++) {
    out.push(`${t.strings[t.tagKV[2 * k]]}|${t.strings[t.tagKV[2 * k + 1]]}`);
  }
  return out;
}

/** The GeoJSON geometry of place row `p`, made from the flat arrays on demand. */
export function placeGeometry(t: PlaceTable, p: number): Geometry {
  const kind = t.geom[p];
  if (kind === POINT) return { type: 'Point', coordinates: [t.lon[p] / E7, t.lat[p] / E7] };
  const shape = t.shape;
  let s = t.shapeStart[p];
  let c = t.coordStart[p];
  const ring = (n: number): Position[] => {
    const out: Position[] = [];
    for (let i = 0; i < n; i++, c += 2) out.push([t.coords[c] / E7, t.coords[c + 1] / E7]);
    return out;
  };
  const polygon = (): Position[][] => {
    const rings: Position[][] = [];
    for (let n = shape[s++]; n > 0; n--) rings.push(ring(shape[s++]));
    return rings;
  };
  if (kind === LINE) return { type: 'LineString', coordinates: ring(shape[s]) };
  if (kind === POLYGON) return { type: 'Polygon', coordinates: polygon() };
  const polygons: Position[][][] = [];
  for (let n = shape[s++]; n > 0; n--) polygons.push(polygon());
  return { type: 'MultiPolygon', coordinates: polygons };
}
