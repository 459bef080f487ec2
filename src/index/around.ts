import type KDBush from 'kdbush';

/** Earth radius of every distance, in km: the mean radius, as @turf/distance. */
export const EARTH_RADIUS_KM = 6371.0088;

const RAD = Math.PI / 180;
const E7 = 1e7;

/**
 * Walks the points of a KDBush index (coordinates lon/lat in 1e-7 degrees) in
 * order of great-circle distance from a point, out to `maxKm`, calling
 * `visit(id, km)` for each; `visit` returns true to stop.
 *
 * geokdbush's `around` does this walk but collects a fixed count first; callers
 * here need to stop on a score bound or after an `isOpen` filter, so the walk is
 * written out with a callback and an allocation-free heap. Distances use the
 * haversine of @turf/distance exactly, so reported kilometres match it.
 */
export function around(tree: KDBush, lon: number, lat: number, maxKm: number, visit: (id: number, km: number) => boolean): void {
  const { ids, coords, nodeSize } = tree;
  if (ids.length === 0) return;
  const q = heap;
  q.clear();
  const cosLat = Math.cos(lat * RAD);
  // haversine `a` of the search radius, with a hair of slack: the exact km test below decides
  const maxA = Math.min(1, hav(maxKm / EARTH_RADIUS_KM) * (1 + 1e-9) + 1e-18);

  let left = 0, right = ids.length - 1, axis = 0;
  let minX = -Infinity, minY = -Infinity, maxX = Infinity, maxY = Infinity;
  for (;;) {
    if (right - left <= nodeSize) {
      for (let i = left; i <= right; i++) q.pushPoint(pointA(lon, lat, cosLat, coords[2 * i], coords[2 * i + 1]), i);
    } else {
      const m = (left + right) >> 1;
      const x = coords[2 * m], y = coords[2 * m + 1];
      q.pushPoint(pointA(lon, lat, cosLat, x, y), m);
      const next = 1 - axis;
      if (axis === 0) {
        q.pushNode(boxA(lon, lat, cosLat, minX, minY, x, maxY), left, m - 1, next, minX, minY, x, maxY);
        q.pushNode(boxA(lon, lat, cosLat, x, minY, maxX, maxY), m + 1, right, next, x, minY, maxX, maxY);
      } else {
        q.pushNode(boxA(lon, lat, cosLat, minX, minY, maxX, y), left, m - 1, next, minX, minY, maxX, y);
        q.pushNode(boxA(lon, lat, cosLat, minX, y, maxX, maxY), m + 1, right, next, minX, y, maxX, maxY);
      }
    }
    // pop every point nearer than the nearest unopened node, then open that node
    for (;;) {
      if (q.size === 0) return;
      const a = q.topKey();
      if (a > maxA) return;
      if (q.topIsNode()) break;
      const i = q.popPoint();
      const km = 2 * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a)) * EARTH_RADIUS_KM;
      if (km <= maxKm && visit(ids[i], km)) return;
    }
    left = q.left[0]; right = q.right[0]; axis = q.axis[0];
    minX = q.box[0]; minY = q.box[1]; maxX = q.box[2]; maxY = q.box[3];
    q.pop();
  }
}

function hav(theta: number): number {
  const s = Math.sin(theta / 2);
  return s * s;
}

// haversine `a` from the query point to a point in 1e-7 degrees, as @turf/distance computes it
function pointA(lon: number, lat: number, cosLat: number, x: number, y: number): number {
  const py = y / E7;
  const dLat = (py - lat) * RAD;
  const dLon = (x / E7 - lon) * RAD;
  const s1 = Math.sin(dLat / 2), s2 = Math.sin(dLon / 2);
  return s1 * s1 + s2 * s2 * cosLat * Math.cos(py * RAD);
}

// A lower bound of `a` over a box: a = hav(dLat) + cos(lat)cos(lat')hav(dLon), and each
// factor is bounded on its own: the nearest latitude and longitude of the box, and the
// smaller cosine of its two edge latitudes (cos is concave over [-90, 90]).
function boxA(lon: number, lat: number, cosLat: number, minX: number, minY: number, maxX: number, maxY: number): number {
  const y = lat * E7, x = lon * E7;
  const dy = y < minY ? minY - y : y > maxY ? y - maxY : 0;
  const dx = x < minX ? minX - x : x > maxX ? x - maxX : 0;
  const a = hav((dy / E7) * RAD);
  if (dx === 0) return a;
  const c = Math.min(Math.cos(Math.max(-90, minY / E7) * RAD), Math.cos(Math.min(90, maxY / E7) * RAD));
  return a + cosLat * Math.max(0, c) * hav((Math.min(dx, 180 * E7) / E7) * RAD);
}

/**
 * A binary min-heap of points and tree nodes keyed by haversine `a`, in typed
 * columns that grow and are reused across searches (no per-item objects).
 * Row 0 is the top; `left < 0` marks a point whose position is `-left - 1`.
 */
class Heap {
  size = 0;
  key = new Float64Array(256);
  left = new Int32Array(256);
  right = new Int32Array(256);
  axis = new Uint8Array(256);
  box = new Float64Array(256 * 4);

  clear(): void { this.size = 0; }
  topKey(): number { return this.key[0]; }
  topIsNode(): boolean { return this.left[0] >= 0; }

  pushPoint(a: number, i: number): void {
    this.push(a, -i - 1, 0, 0, 0, 0, 0, 0);
  }

  pushNode(a: number, l: number, r: number, axis: number, minX: number, minY: number, maxX: number, maxY: number): void {
    this.push(a, l, r, axis, minX, minY, maxX, maxY);
  }

  popPoint(): number {
    const i = -this.left[0] - 1;
    this.pop();
    return i;
  }

  pop(): void {
    const n = --this.size;
    if (n > 0) {
      this.move(n, 0);
      this.down(0);
    }
  }

  private push(a: number, l: number, r: number, axis: number, minX: number, minY: number, maxX: number, maxY: number): void {
    if (this.size === this.key.length) this.grow();
    const i = this.size++;
    this.key[i] = a; this.left[i] = l; this.right[i] = r; this.axis[i] = axis;
    const b = this.box;
    b[4 * i] = minX; b[4 * i + 1] = minY; b[4 * i + 2] = maxX; b[4 * i + 3] = maxY;
    this.up(i);
  }

  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.key[p] <= this.key[i]) break;
      this.swap(i, p);
      i = p;
    }
  }

  private down(i: number): void {
    const n = this.size;
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let m = i;
      if (l < n && this.key[l] < this.key[m]) m = l;
      if (r < n && this.key[r] < this.key[m]) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  private move(from: number, to: number): void {
    this.key[to] = this.key[from]; this.left[to] = this.left[from]; this.right[to] = this.right[from];
    this.axis[to] = this.axis[from];
    this.box.copyWithin(4 * to, 4 * from, 4 * from + 4);
  }

  private swap(i: number, j: number): void {
    const k = this.key[i]; this.key[i] = this.key[j]; this.key[j] = k;
    const l = this.left[i]; this.left[i] = this.left[j]; this.left[j] = l;
    const r = this.right[i]; this.right[i] = this.right[j]; this.right[j] = r;
    const a = this.axis[i]; this.axis[i] = this.axis[j]; this.axis[j] = a;
    const b = this.box;
    for (let c = 0; c < 4; c++) { const t = b[4 * i + c]; b[4 * i + c] = b[4 * j + c]; b[4 * j + c] = t; }
  }

  private grow(): void {
    const cap = this.key.length * 2;
    const key = new Float64Array(cap); key.set(this.key); this.key = key;
    const left = new Int32Array(cap); left.set(this.left); this.left = left;
    const right = new Int32Array(cap); right.set(this.right); this.right = right;
    const axis = new Uint8Array(cap); axis.set(this.axis); this.axis = axis;
    const box = new Float64Array(cap * 4); box.set(this.box); this.box = box;
  }
}

// one heap for all searches: a search runs to completion before the next starts
const heap = new Heap();
