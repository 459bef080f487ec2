/**
 * Clipping of lines and polygon rings to a band `k1 <= v <= k2` along one axis, on
 * flat coordinate arrays; two bands (x, then y) cut a feature to a tile. Written here
 * rather than taken from lineclip: that one takes arrays of `[x, y]` points, and a
 * tiler that cuts millions of features per zoom should not allocate per vertex.
 */

/** Flat geometry: `coords` is `[x0, y0, x1, y1, …]`, `parts` the vertex count of each line or ring. */
export interface Geom {
  coords: number[];
  parts: number[];
}

/** An empty geometry to clip into (reused: clipping resets it). */
export function emptyGeom(): Geom {
  return { coords: [], parts: [] };
}

/**
 * Clips `src` to `k1 <= coordinate[axis] <= k2` into `out` (reset first). Lines are
 * cut into the pieces inside the band; rings (`polygon`) stay closed, running along
 * the band's edges where they leave it (Sutherland–Hodgman on two parallel edges).
 */
export function clipBand(src: Geom, k1: number, k2: number, axis: 0 | 1, polygon: boolean, out: Geom): void {
  out.coords.length = 0;
  out.parts.length = 0;
  let v = 0;
  for (const n of src.parts) {
    if (polygon) clipRing(src.coords, v, v + n, k1, k2, axis, out);
    else clipLine(src.coords, v, v + n, k1, k2, axis, out);
    v += n;
  }
}

// the point where segment a–b crosses coordinate k on `axis`
function cross(out: number[], ax: number, ay: number, bx: number, by: number, k: number, axis: 0 | 1): void {
  if (axis === 0) {
    const t = (k - ax) / (bx - ax);
    out.push(k, ay + (by - ay) * t);
  } else {
    const t = (k - ay) / (by - ay);
    out.push(ax + (bx - ax) * t, k);
  }
}

function clipLine(c: number[], from: number, to: number, k1: number, k2: number, axis: 0 | 1, out: Geom): void {
  const o = out.coords;
  let start = o.length;
  const close = () => {
    const n = (o.length - start) / 2;
    if (n >= 2) out.parts.push(n);
    else o.length = start;
    start = o.length;
  };
  for (let i = from; i < to - 1; i++) {
    const ax = c[2 * i],
      ay = c[2 * i + 1],
      bx = c[2 * i + 2],
      by = c[2 * i + 3];
    const a = axis === 0 ? ax : ay;
    const b = axis === 0 ? bx : by;
    if (a < k1) {
      if (b > k1) cross(o, ax, ay, bx, by, k1, axis); // enters
      if (b > k2) {
        cross(o, ax, ay, bx, by, k2, axis);
        close();
      } // and leaves
    } else if (a > k2) {
      if (b < k2) cross(o, ax, ay, bx, by, k2, axis);
      if (b < k1) {
        cross(o, ax, ay, bx, by, k1, axis);
        close();
      }
    } else {
      o.push(ax, ay);
      if (b < k1) {
        cross(o, ax, ay, bx, by, k1, axis);
        close();
      } else if (b > k2) {
        cross(o, ax, ay, bx, by, k2, axis);
        close();
      }
    }
  }
  const lx = c[2 * (to - 1)],
    ly = c[2 * (to - 1) + 1];
  const l = axis === 0 ? lx : ly;
  if (l >= k1 && l <= k2) o.push(lx, ly);
  close();
}

// Sutherland–Hodgman against both edges of the band: the vertices inside, and every
// crossing of an edge in the order the ring runs
function clipRing(c: number[], from: number, to: number, k1: number, k2: number, axis: 0 | 1, out: Geom): void {
  const o = out.coords;
  const start = o.length;
  for (let i = from; i < to - 1; i++) {
    const ax = c[2 * i],
      ay = c[2 * i + 1],
      bx = c[2 * i + 2],
      by = c[2 * i + 3];
    const a = axis === 0 ? ax : ay;
    const b = axis === 0 ? bx : by;
    if (a < k1) {
      if (b > k1) cross(o, ax, ay, bx, by, k1, axis);
      if (b > k2) cross(o, ax, ay, bx, by, k2, axis);
    } else if (a > k2) {
      if (b < k2) cross(o, ax, ay, bx, by, k2, axis);
      if (b < k1) cross(o, ax, ay, bx, by, k1, axis);
    } else {
      o.push(ax, ay);
      if (b < k1) cross(o, ax, ay, bx, by, k1, axis);
      else if (b > k2) cross(o, ax, ay, bx, by, k2, axis);
    }
  }
  const n = (o.length - start) / 2;
  if (n < 3) {
    o.length = start;
    return;
  }
  if (o[start] !== o[o.length - 2] || o[start + 1] !== o[o.length - 1]) o.push(o[start], o[start + 1]);
  out.parts.push((o.length - start) / 2);
}

/**
 * Twice the signed area of ring `from..to` of flat coordinates (y down: positive is
 * clockwise on screen, an MVT outer ring), closed or not: summed as triangles from
 * the first vertex, the closing edge adds nothing.
 */
export function ringArea(c: ArrayLike<number>, from: number, to: number): number {
  let s = 0;
  const x0 = c[2 * from],
    y0 = c[2 * from + 1];
  const n = to - from;
  for (let i = 1; i + 1 < n; i++) {
    const ax = c[2 * (from + i)] - x0,
      ay = c[2 * (from + i) + 1] - y0;
    const bx = c[2 * (from + i + 1)] - x0,
      by = c[2 * (from + i + 1) + 1] - y0;
    s += ax * by - bx * ay;
  }
  return s;
}
