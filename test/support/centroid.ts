/**
 * Centroids by a formulation different from the contract's shoelace sum: polygons as fans of
 * triangles around their first vertex (coordinates taken relative to one origin, so small
 * buildings keep their precision), lines as midpoints weighted by @turf/distance lengths.
 */
import distance from '@turf/distance';
import type { ExpectedGeometry, Pos } from './places.js';

/** A point in degrees. */
export interface LatLon {
  lat: number;
  lon: number;
}

/** Unsigned area and area-weighted centroid sums of one ring, relative to `o`. */
function fan(ring: Pos[], o: Pos): { a: number; x: number; y: number } {
  const x0 = ring[0][0] - o[0];
  const y0 = ring[0][1] - o[1];
  let a = 0;
  let x = 0;
  let y = 0;
  for (let i = 1; i + 1 < ring.length; i++) {
    const x1 = ring[i][0] - o[0];
    const y1 = ring[i][1] - o[1];
    const x2 = ring[i + 1][0] - o[0];
    const y2 = ring[i + 1][1] - o[1];
    // signed area of triangle (p0, pi, pi+1); its centroid is the mean of its corners
    const t = ((x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0)) / 2;
    a += t;
    x += (t * (x0 + x1 + x2)) / 3;
    y += (t * (y0 + y1 + y2)) / 3;
  }
  // orientation-free: holes are subtracted by the caller whatever their winding
  return a < 0 ? { a: -a, x: -x, y: -y } : { a, x, y };
}

/** Area-weighted centroid of polygons `[outer, ...holes][]`, holes subtracted. */
export function polygonsCentroid(polys: Pos[][][]): LatLon {
  const o = polys[0][0][0];
  let a = 0;
  let x = 0;
  let y = 0;
  for (const poly of polys) {
    poly.forEach((ring, k) => {
      const f = fan(ring, o);
      const s = k === 0 ? 1 : -1;
      a += s * f.a;
      x += s * f.x;
      y += s * f.y;
    });
  }
  return { lon: o[0] + x / a, lat: o[1] + y / a };
}

/** Mean of segment midpoints weighted by great-circle length; all-zero length: mean of vertices. */
export function lineCentroid(line: Pos[]): LatLon {
  let w = 0;
  let x = 0;
  let y = 0;
  for (let i = 0; i + 1 < line.length; i++) {
    const d = distance(line[i], line[i + 1]);
    w += d;
    x += (d * (line[i][0] + line[i + 1][0])) / 2;
    y += (d * (line[i][1] + line[i + 1][1])) / 2;
  }
  if (w === 0) {
    return {
      lon: line.reduce((s, p) => s + p[0], 0) / line.length,
      lat: line.reduce((s, p) => s + p[1], 0) / line.length,
    };
  }
  return { lon: x / w, lat: y / w };
}

/** The contract's centroid of a geometry, unrounded. */
export function centroidOf(g: ExpectedGeometry): LatLon {
  switch (g.type) {
    case 'Point':
      return { lon: g.coordinates[0], lat: g.coordinates[1] };
    case 'LineString':
      return lineCentroid(g.coordinates);
    case 'Polygon':
      return polygonsCentroid([g.coordinates]);
    case 'MultiPolygon':
      return polygonsCentroid(g.coordinates);
  }
}

/** Largest gap allowed between an engine centroid (rounded to 1e-7) and ours. */
export function centroidTolerance(g: ExpectedGeometry): number {
  // Lines: the contract weights segments by local equirectangular length, we by haversine;
  // the two weightings differ by ~1e-4 relative across a long line, i.e. < 1e-6 degrees (0.1 m).
  return g.type === 'LineString' ? 1e-6 : 0.5e-7 + 1e-9;
}
