/**
 * Douglas–Peucker simplification of flat coordinate runs `[x0, y0, x1, y1, …]`, in
 * place-free form: it marks the vertices to keep. Not simplify-js: it takes arrays of
 * `{x, y}` objects, an allocation per vertex of millions; this reads the flat arrays
 * the features are stored in.
 */

// reused between calls: grown to the longest run seen
let stack = new Int32Array(1024);

/**
 * Marks in `keep` (indexed by vertex, from 0 for `from`) the vertices of
 * `coords[2*from .. 2*to)` that Douglas–Peucker keeps at squared tolerance `sqTol`;
 * the first and last are always kept. Returns how many are kept.
 */
export function simplifyRun(coords: ArrayLike<number>, from: number, to: number, sqTol: number, keep: Uint8Array): number {
  const n = to - from;
  keep.fill(0, 0, n);
  if (n <= 2) {
    keep.fill(1, 0, n);
    return n;
  }
  keep[0] = 1;
  keep[n - 1] = 1;
  let kept = 2;
  if (stack.length < 2 * n) stack = new Int32Array(2 * n);
  let sp = 0;
  stack[sp++] = 0;
  stack[sp++] = n - 1;
  while (sp > 0) {
    const last = stack[--sp];
    const first = stack[--sp];
    let maxSq = sqTol;
    let index = -1;
    const ax = coords[2 * (from + first)],
      ay = coords[2 * (from + first) + 1];
    const bx = coords[2 * (from + last)],
      by = coords[2 * (from + last) + 1];
    for (let i = first + 1; i < last; i++) {
      const d = segmentSqDist(coords[2 * (from + i)], coords[2 * (from + i) + 1], ax, ay, bx, by);
      if (d > maxSq) {
        index = i;
        maxSq = d;
      }
    }
    if (index < 0) continue;
    keep[index] = 1;
    kept++;
    if (index - first > 1) {
      stack[sp++] = first;
      stack[sp++] = index;
    }
    if (last - index > 1) {
      stack[sp++] = index;
      stack[sp++] = last;
    }
  }
  return kept;
}

/** Squared distance from (px, py) to the segment a–b. */
export function segmentSqDist(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  let x = ax,
    y = ay;
  let dx = bx - x,
    dy = by - y;
  if (dx !== 0 || dy !== 0) {
    const t = ((px - x) * dx + (py - y) * dy) / (dx * dx + dy * dy);
    if (t > 1) {
      x = bx;
      y = by;
    } else if (t > 0) {
      x += dx * t;
      y += dy * t;
    }
  }
  dx = px - x;
  dy = py - y;
  return dx * dx + dy * dy;
}
