import type KDBush from 'kdbush';
import { KM_PER_DEGREE } from '../geom/local.js';

const RAD = Math.PI / 180;
const E7 = 1e7;

/**
 * The item of a KDBush index (lon/lat in 1e-7 degrees) nearest to a point within
 * `maxKm`, or -1; ties go to the lower `rank[id]`. A depth-first descent that
 * tries the query's side of each split first and prunes by the best distance so
 * far: for one nearest item (a million address lookups at load) it is several
 * times cheaper than the best-first walk of `around`. Distances are local
 * equirectangular, exact enough at the few kilometres it is used for. Reads KDBush's
 * internals as `around` does (see there).
 */
export function nearestItem(tree: KDBush, lon: number, lat: number, maxKm: number, rank: Float64Array): number {
  const { ids, coords, nodeSize } = tree;
  if (ids.length === 0) return -1;
  const k = Math.cos(lat * RAD);
  const qx = lon * E7,
    qy = lat * E7;
  const r = (maxKm / KM_PER_DEGREE) * E7;
  let best2 = r * r;
  let best = -1;
  const visit = (i: number) => {
    const dx = (coords[2 * i] - qx) * k,
      dy = coords[2 * i + 1] - qy;
    const d2 = dx * dx + dy * dy;
    const id = ids[i];
    if (d2 < best2 || (d2 === best2 && (best < 0 || rank[id] < rank[best]))) {
      best2 = d2;
      best = id;
    }
  };
  // the search's own stack (4 numbers a pending subtree): a literal of zeros, so that it starts
  // as a packed array of the depth most searches need, as fast as a reused typed array was
  const stack: number[] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  let sp = 0;
  stack[sp++] = 0;
  stack[sp++] = ids.length - 1;
  stack[sp++] = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const bound = stack[--sp],
      axis = stack[--sp],
      right = stack[--sp],
      left = stack[--sp];
    if (bound > best2) continue;
    if (right - left <= nodeSize) {
      for (let i = left; i <= right; i++) visit(i);
      continue;
    }
    const m = (left + right) >> 1;
    visit(m);
    const diff = axis === 0 ? (qx - coords[2 * m]) * k : qy - coords[2 * m + 1];
    const d2 = diff * diff;
    // far side first on the stack, so the near side is searched first
    if (diff <= 0) {
      if (d2 <= best2) {
        stack[sp++] = m + 1;
        stack[sp++] = right;
        stack[sp++] = 1 - axis;
        stack[sp++] = d2;
      }
      stack[sp++] = left;
      stack[sp++] = m - 1;
      stack[sp++] = 1 - axis;
      stack[sp++] = 0;
    } else {
      if (d2 <= best2) {
        stack[sp++] = left;
        stack[sp++] = m - 1;
        stack[sp++] = 1 - axis;
        stack[sp++] = d2;
      }
      stack[sp++] = m + 1;
      stack[sp++] = right;
      stack[sp++] = 1 - axis;
      stack[sp++] = 0;
    }
  }
  return best;
}
