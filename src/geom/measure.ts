/**
 * Measures of flat coordinate rings `[lon0, lat0, lon1, lat1, …]` in fixed-point
 * 1e-7 degrees. Planar formulas work relative to the ring's first vertex, which
 * keeps the products small and exact enough at street scale. Not @turf/area and
 * @turf/centroid: they take GeoJSON objects (an allocation per ring at load), and
 * turf's centroid is the mean of the vertices, not the area-weighted centre.
 */

/** A flat ring or line: interleaved lon/lat, 1e-7 degrees. */
export type Flat = Int32Array | number[];

const E7 = 1e7;
const RAD = Math.PI / 180;
/** Mean Earth radius in metres (IUGG), the radius of the distances too. */
export const EARTH_RADIUS_M = 6371008.8;

/** Twice the signed planar area of a closed ring (positive when counter-clockwise), in (1e-7 deg)^2. */
export function signedArea2(r: Flat): number {
  const x0 = r[0],
    y0 = r[1];
  let s = 0;
  for (let i = 2; i + 3 < r.length; i += 2) {
    const ax = r[i] - x0,
      ay = r[i + 1] - y0,
      bx = r[i + 2] - x0,
      by = r[i + 3] - y0;
    s += ax * by - bx * ay;
  }
  return s;
}

/**
 * Geodesic area of a closed ring on the sphere, in m² (unsigned): the spherical
 * excess of its edges, as in Chamberlain & Duquette (2007).
 */
export function ringAreaM2(r: Flat): number {
  let s = 0;
  for (let i = 0; i + 3 < r.length; i += 2) {
    const l1 = (r[i] / E7) * RAD,
      p1 = (r[i + 1] / E7) * RAD,
      l2 = (r[i + 2] / E7) * RAD,
      p2 = (r[i + 3] / E7) * RAD;
    s += (l2 - l1) * (2 + Math.sin(p1) + Math.sin(p2));
  }
  return Math.abs((s * EARTH_RADIUS_M * EARTH_RADIUS_M) / 2);
}

/** Reverses a flat ring in place, pair by pair. */
export function reverseRing(r: Flat): void {
  for (let i = 0, j = r.length - 2; i < j; i += 2, j -= 2) {
    const x = r[i],
      y = r[i + 1];
    r[i] = r[j];
    r[i + 1] = r[j + 1];
    r[j] = x;
    r[j + 1] = y;
  }
}

/** Orients a ring: counter-clockwise for an outer ring, clockwise for a hole (RFC 7946). */
export function orient(r: Flat, outer: boolean): void {
  const a = signedArea2(r);
  if ((outer && a < 0) || (!outer && a > 0)) reverseRing(r);
}

/** Whether point (x, y) lies inside a closed ring (even-odd rule). */
export function inRing(x: number, y: number, r: Flat): boolean {
  let inside = false;
  for (let i = 0, j = r.length - 2; i < r.length; j = i, i += 2) {
    const xi = r[i],
      yi = r[i + 1],
      xj = r[j],
      yj = r[j + 1];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * Accumulates an area-weighted centroid over oriented rings (holes count
 * negative, as they are clockwise), with a length-weighted fallback for rings
 * that enclose no area.
 */
export class Centroid {
  private x0 = NaN;
  private y0 = NaN;
  private a = 0;
  private cx = 0;
  private cy = 0;
  private len = 0;
  private lx = 0;
  private ly = 0;
  private n = 0;
  private px = 0;
  private py = 0;

  /** Adds a closed, oriented ring. */
  ring(r: Flat): void {
    this.origin(r);
    const x0 = this.x0,
      y0 = this.y0;
    for (let i = 0; i + 3 < r.length; i += 2) {
      const ax = r[i] - x0,
        ay = r[i + 1] - y0,
        bx = r[i + 2] - x0,
        by = r[i + 3] - y0;
      const c = ax * by - bx * ay;
      this.a += c;
      this.cx += (ax + bx) * c;
      this.cy += (ay + by) * c;
    }
    this.line(r);
  }

  /** Adds a line: segment midpoints weighted by their local equirectangular length. */
  line(r: Flat): void {
    this.origin(r);
    const x0 = this.x0,
      y0 = this.y0;
    const k = Math.cos((y0 / E7) * RAD);
    for (let i = 0; i < r.length; i += 2) {
      this.px += r[i] - x0;
      this.py += r[i + 1] - y0;
      this.n++;
      if (i + 3 >= r.length) break;
      const ax = r[i] - x0,
        ay = r[i + 1] - y0,
        bx = r[i + 2] - x0,
        by = r[i + 3] - y0;
      const l = Math.hypot((bx - ax) * k, by - ay);
      this.len += l;
      this.lx += ((ax + bx) / 2) * l;
      this.ly += ((ay + by) / 2) * l;
    }
  }

  /** The centroid `[lon, lat]` in 1e-7 degrees, rounded: by area, else by length, else the vertex mean. */
  result(): [number, number] {
    let x: number, y: number;
    if (this.a !== 0) {
      x = this.cx / (3 * this.a);
      y = this.cy / (3 * this.a);
    } else if (this.len > 0) {
      x = this.lx / this.len;
      y = this.ly / this.len;
    } else {
      x = this.px / this.n;
      y = this.py / this.n;
    }
    return [Math.round(this.x0 + x), Math.round(this.y0 + y)];
  }

  private origin(r: Flat): void {
    if (Number.isNaN(this.x0)) {
      this.x0 = r[0];
      this.y0 = r[1];
    }
  }
}
