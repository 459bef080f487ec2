/**
 * A small anti-aliasing rasteriser of outlines (straight, quadratic and cubic segments) into a
 * coverage grid, for the glyphs and the sprite icons.
 *
 * Written here rather than taken from a package: the Node rasterisers with anti-aliasing are
 * native (node-canvas, sharp) or browser-only (tiny-sdf draws with a canvas), and a build step of
 * this project must run on a bare Node. The method is the signed-area accumulation of font-rs
 * (Raph Levien): each line adds its exact area to the cells it crosses and the cover to the cell
 * after them, and one running sum over the grid turns that into coverage, so no supersampling.
 */

/** One drawing command in pixel coordinates, y down (as opentype.js and SVG paths give them). */
export type PathCommand =
  | { type: 'M' | 'L'; x: number; y: number }
  | { type: 'Q'; x1: number; y1: number; x: number; y: number }
  | { type: 'C'; x1: number; y1: number; x2: number; y2: number; x: number; y: number }
  | { type: 'Z' };

/** A coverage grid: `data[y * width + x]` in [0, 1]. */
export interface Coverage {
  width: number;
  height: number;
  data: Float32Array;
}

/** Coverage this close to 0 or 1 is taken as 0 or 1 (a byte of coverage is 1/255). */
const EPSILON = 1e-6;

/** Largest distance in pixels between a curve and the chords that stand in for it. */
const TOLERANCE = 0.05;

/**
 * Fills `commands` (non-zero winding, as fonts and icons are drawn) into a `width` × `height`
 * grid, after moving them by (`dx`, `dy`). Open subpaths are closed. Parts outside the grid are
 * clipped.
 */
export function rasterize(commands: readonly PathCommand[], width: number, height: number, dx = 0, dy = 0): Coverage {
  // One spare cell: a line's cover lands in the cell right of its last one, which may be the next row's first.
  const acc = new Float64Array(width * height + 2);
  let sx = 0;
  let sy = 0;
  let px = 0;
  let py = 0;
  const line = (x1: number, y1: number) => {
    addLine(acc, width, height, px, py, x1, y1);
    px = x1;
    py = y1;
  };
  for (const c of commands) {
    if (c.type === 'M') {
      if (px !== sx || py !== sy) line(sx, sy);
      sx = px = c.x + dx;
      sy = py = c.y + dy;
    } else if (c.type === 'L') {
      line(c.x + dx, c.y + dy);
    } else if (c.type === 'Q') {
      const x0 = px;
      const y0 = py;
      const cx = c.x1 + dx;
      const cy = c.y1 + dy;
      const x = c.x + dx;
      const y = c.y + dy;
      // A quadratic's deviation from its chord is at most a quarter of the control point's distance from it.
      const n = segments(Math.hypot(x0 - 2 * cx + x, y0 - 2 * cy + y) / 4);
      for (let i = 1; i <= n; i++) {
        const t = i / n;
        const u = 1 - t;
        line(u * u * x0 + 2 * u * t * cx + t * t * x, u * u * y0 + 2 * u * t * cy + t * t * y);
      }
    } else if (c.type === 'C') {
      const x0 = px;
      const y0 = py;
      const ax = c.x1 + dx;
      const ay = c.y1 + dy;
      const bx = c.x2 + dx;
      const by = c.y2 + dy;
      const x = c.x + dx;
      const y = c.y + dy;
      const dev = Math.max(Math.hypot(x0 - 2 * ax + bx, y0 - 2 * ay + by), Math.hypot(ax - 2 * bx + x, ay - 2 * by + y)) * 0.75;
      const n = segments(dev);
      for (let i = 1; i <= n; i++) {
        const t = i / n;
        const u = 1 - t;
        const a = u * u * u;
        const b = 3 * u * u * t;
        const d = 3 * u * t * t;
        const e = t * t * t;
        line(a * x0 + b * ax + d * bx + e * x, a * y0 + b * ay + d * by + e * y);
      }
    } else {
      line(sx, sy);
    }
  }
  if (px !== sx || py !== sy) line(sx, sy);

  const data = new Float32Array(width * height);
  let sum = 0;
  for (let i = 0; i < data.length; i++) {
    sum += acc[i]!;
    // The running sum carries rounding residue along the row: what is within EPSILON of
    // empty or full is empty or full, so that no pixel far from the outline reads as an edge.
    const a = Math.min(1, Math.abs(sum));
    data[i] = a < EPSILON ? 0 : a > 1 - EPSILON ? 1 : a;
  }
  return { width, height, data };
}

// Chords enough to keep a curve whose second difference is `dev` pixels within TOLERANCE.
function segments(dev: number): number {
  return Math.max(1, Math.min(64, Math.ceil(Math.sqrt(dev / TOLERANCE))));
}

// Adds one directed line's signed area to the accumulation grid (font-rs's draw_line).
function addLine(acc: Float64Array, width: number, height: number, x0: number, y0: number, x1: number, y1: number): void {
  if (y0 === y1) return;
  let dir = 1;
  if (y0 > y1) {
    dir = -1;
    [x0, y0, x1, y1] = [x1, y1, x0, y0];
  }
  // Clip horizontally by clamping: a line left of the grid covers its first column fully, which
  // is what the running sum needs; one right of it adds nothing visible.
  const clampX = (x: number) => Math.max(0, Math.min(width, x));
  const dxdy = (x1 - x0) / (y1 - y0);
  let x = x0;
  if (y0 < 0) {
    x -= y0 * dxdy;
    y0 = 0;
  }
  const yEnd = Math.min(y1, height);
  for (let y = Math.floor(y0); y < yEnd; y++) {
    const row = y * width;
    const dy = Math.min(y + 1, yEnd) - Math.max(y, y0);
    const xNext = x + dxdy * dy;
    const d = dy * dir;
    const xa = clampX(Math.min(x, xNext));
    const xb = clampX(Math.max(x, xNext));
    const xaFloor = Math.floor(xa);
    const xbCeil = Math.ceil(xb);
    if (xbCeil <= xaFloor + 1) {
      // Within one cell: the part of the cell left of the line's mean x is uncovered.
      const xm = 0.5 * (xa + xb) - xaFloor;
      acc[row + xaFloor] += d - d * xm;
      acc[row + xaFloor + 1] += d * xm;
    } else {
      const s = 1 / (xb - xa);
      const xaFrac = xa - xaFloor;
      const a0 = 0.5 * s * (1 - xaFrac) * (1 - xaFrac);
      const xbFrac = xb - xbCeil + 1;
      const am = 0.5 * s * xbFrac * xbFrac;
      acc[row + xaFloor] += d * a0;
      if (xbCeil === xaFloor + 2) {
        acc[row + xaFloor + 1] += d * (1 - a0 - am);
      } else {
        const a1 = s * (1.5 - xaFrac);
        acc[row + xaFloor + 1] += d * (a1 - a0);
        for (let xi = xaFloor + 2; xi < xbCeil - 1; xi++) acc[row + xi] += d * s;
        const a2 = a1 + (xbCeil - xaFloor - 3) * s;
        acc[row + xbCeil - 1] += d * (1 - a2 - am);
      }
      acc[row + xbCeil] += d * am;
    }
    x = xNext;
  }
}
