/**
 * Signed distance fields from coverage grids, as MapLibre's text shader reads them: one byte per
 * pixel, 191 on the outline (1 − `CUTOFF`), rising inside, falling to 0 at `RADIUS` pixels outside.
 *
 * Written here because the libraries that make them either draw through a canvas (tiny-sdf, in
 * browsers only) or are native (node-fontnik); the distance transform itself is the exact
 * Felzenszwalb–Huttenlocher one, run outside and inside, with the edge pixels' coverage giving
 * the sub-pixel offset, as tiny-sdf does.
 */
import type { Coverage } from './raster.js';

/** Pixels of distance the byte range spans. */
export const RADIUS = 8;
/** Fraction of the range given to the inside: the outline sits at 255 × (1 − CUTOFF). */
export const CUTOFF = 0.25;

const INF = 1e20;

/** A signed distance field: `data` is `width` × `height` bytes. */
export interface DistanceField {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * The distance field of `coverage` with `buffer` pixels of margin on each side, so a glyph of
 * w × h pixels gives (w + 2·buffer) × (h + 2·buffer) bytes.
 */
export function distanceField(coverage: Coverage, buffer: number, radius = RADIUS, cutoff = CUTOFF): DistanceField {
  const width = coverage.width + 2 * buffer;
  const height = coverage.height + 2 * buffer;
  const size = width * height;
  // outer: squared distance to the shape, for pixels outside it; inner: to the outside, for pixels inside.
  const outer = new Float64Array(size).fill(INF);
  const inner = new Float64Array(size);
  for (let y = 0; y < coverage.height; y++) {
    for (let x = 0; x < coverage.width; x++) {
      const a = coverage.data[y * coverage.width + x]!;
      if (a === 0) continue;
      const j = (y + buffer) * width + x + buffer;
      if (a >= 1) {
        outer[j] = 0;
        inner[j] = INF;
      } else {
        // A partly covered pixel: its centre is about 0.5 − a from the outline.
        const d = 0.5 - a;
        outer[j] = d > 0 ? d * d : 0;
        inner[j] = d < 0 ? d * d : 0;
      }
    }
  }
  const n = Math.max(width, height);
  const f = new Float64Array(n);
  const v = new Uint16Array(n);
  const z = new Float64Array(n + 1);
  transform(outer, width, height, f, v, z);
  transform(inner, width, height, f, v, z);
  const data = new Uint8Array(size);
  for (let i = 0; i < size; i++) {
    const d = Math.sqrt(outer[i]!) - Math.sqrt(inner[i]!);
    data[i] = Math.max(0, Math.min(255, Math.round(255 - 255 * (d / radius + cutoff))));
  }
  return { width, height, data };
}

// The 2D squared Euclidean distance transform: columns, then rows.
function transform(grid: Float64Array, width: number, height: number, f: Float64Array, v: Uint16Array, z: Float64Array): void {
  for (let x = 0; x < width; x++) transform1(grid, x, width, height, f, v, z);
  for (let y = 0; y < height; y++) transform1(grid, y * width, 1, width, f, v, z);
}

// One line of it: the lower envelope of the parabolas rooted at each sample.
function transform1(
  grid: Float64Array,
  offset: number,
  stride: number,
  length: number,
  f: Float64Array,
  v: Uint16Array,
  z: Float64Array,
): void {
  v[0] = 0;
  z[0] = -INF;
  z[1] = INF;
  f[0] = grid[offset]!;
  for (let q = 1, k = 0, s = 0; q < length; q++) {
    f[q] = grid[offset + q * stride]!;
    const q2 = q * q;
    do {
      const r = v[k]!;
      s = (f[q]! - f[r]! + q2 - r * r) / (q - r) / 2;
    } while (s <= z[k]! && --k > -1);
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = INF;
  }
  for (let q = 0, k = 0; q < length; q++) {
    while (z[k + 1]! < q) k++;
    const r = v[k]!;
    const qr = q - r;
    grid[offset + q * stride] = f[r]! + qr * qr;
  }
}
