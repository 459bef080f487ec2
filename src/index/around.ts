import type KDBush from 'kdbush';
import { EARTH_RADIUS_KM, aToKm, haversineA } from '../geom/haversine.js';

const RAD = Math.PI / 180;
const E7 = 1e7;
/** Kilometres of the chord per √a: 2R·√a, a lower bound of the arc 2R·asin √a. */
const CHORD_KM = 2 * EARTH_RADIUS_KM;

/**
 * Walks the points of a KDBush index (coordinates lon/lat in 1e-7 degrees) out to
 * `maxKm` from a point, calling `visit(id, km, score)` for each; `visit` returns
 * true to stop. Without `prom`, points come nearest first (score is 0). With
 * `prom` (each item's prominence, by id) and `nodeMax` (each tree node's highest
 * prominence, from `nodeMaxima`), points come best score first, score being
 * `prominence / (1 + km)`: a node is opened only when its bound, its highest
 * prominence at its least distance, beats every point already seen.
 *
 * geokdbush's `around` walks nearest first but collects a fixed count; callers
 * here stop on a filter or on a score, so the walk is written out with a callback.
 * Distances use the haversine of @turf/distance exactly, so reported kilometres
 * match it. The walk reads KDBush's `ids`, `coords` and tree shape, which KDBush
 * does not document (its `range` and `within` give no order): package.json pins
 * its version, and test/library-layout.test.ts states the layout relied on.
 *
 * The walk's scratch (its heap and node table) is a context lent by `options.walks`
 * for the walk's duration, so `visit` may start other walks, on this tree or another.
 */
export function around(
  tree: KDBush,
  lon: number,
  lat: number,
  maxKm: number,
  visit: (id: number, km: number, score: number) => boolean,
  options: AroundOptions = {},
): void {
  if (tree.ids.length === 0) return;
  const walks = options.walks;
  const w = walks?.take() ?? new Walk();
  try {
    walk(w, tree, lon, lat, maxKm, visit, options.prom, options.nodeMax);
  } finally {
    walks?.give(w);
  }
}

/** How `around` walks, beside where. */
export interface AroundOptions {
  /** Each item's prominence, by id: with `nodeMax`, points come best score first. */
  prom?: Float64Array;
  /** Each tree node's highest prominence, from `nodeMaxima`. */
  nodeMax?: Float64Array;
  /** The pool to borrow the walk's scratch from; without one, a walk allocates its own. */
  walks?: Walks;
}

/**
 * Walk contexts not in use, for the walks over an index's trees: one is taken at a walk's
 * start and given back at its end, so a walk started inside another's `visit` gets its own.
 * A pool, since a walk's scratch allocated anew costs more than the walk itself.
 */
export class Walks {
  private readonly free: Walk[] = [];

  /** A context of the pool, or a new one when all are in use. */
  take(): Walk {
    return this.free.pop() ?? new Walk();
  }

  /** Gives back a context `take` lent. */
  give(w: Walk): void {
    this.free.push(w);
  }
}

function walk(
  w: Walk,
  tree: KDBush,
  lon: number,
  lat: number,
  maxKm: number,
  visit: (id: number, km: number, score: number) => boolean,
  prom?: Float64Array,
  nodeMax?: Float64Array,
): void {
  w.start(tree, lon, lat, maxKm, prom, nodeMax);
  const { ids, coords, nodeSize } = tree;
  const byScore = w.byScore;
  const q = w.heap;
  w.node(0, ids.length - 1, 0, 0, -Infinity, -Infinity, Infinity, Infinity);
  while (q.length) {
    const key = q.peekValue();
    const top = q.pop();
    if (top < 0) {
      const i = (-top - 1) >> 1;
      if (!byScore) {
        // nearest first, the key is the point's `a`
        const km = aToKm(key);
        if (km <= maxKm && visit(ids[i], km, 0)) return;
        continue;
      }
      const km = aToKm(haversineA(lon, lat, w.cosLat, coords[2 * i], coords[2 * i + 1]));
      if (km > maxKm) continue;
      const exact = -prom![ids[i]] / (1 + km);
      if ((top & 1) === 1 && q.length > 0 && exact > q.peekValue()) {
        q.push(-2 * i - 2, exact); // something left may score better: back in, measured
        continue;
      }
      if (visit(ids[i], km, -exact)) return;
      continue;
    }
    const n = w.nodes; // read after every push: the node table may have grown
    const o = 8 * top;
    const l = n[o],
      r = n[o + 1],
      axis = n[o + 2],
      k = n[o + 3];
    const minX = n[o + 4],
      minY = n[o + 5],
      maxX = n[o + 6],
      maxY = n[o + 7];
    if (r - l <= nodeSize) {
      for (let i = l; i <= r; i++) w.point(i);
      continue;
    }
    const m = (l + r) >> 1;
    const x = coords[2 * m],
      y = coords[2 * m + 1];
    w.point(m);
    if (axis === 0) {
      w.node(l, m - 1, 1, 2 * k + 1, minX, minY, x, maxY);
      w.node(m + 1, r, 1, 2 * k + 2, x, minY, maxX, maxY);
    } else {
      w.node(l, m - 1, 0, 2 * k + 1, minX, minY, maxX, y);
      w.node(m + 1, r, 0, 2 * k + 2, minX, y, maxX, maxY);
    }
  }
}

const NONE = new Float64Array(0);

/**
 * @internal The state of one walk: its heap, of node rows and points (see `point`), and its table of
 * node rows (left, right, axis, number, minX, minY, maxX, maxY). Fields of one object, where
 * closures over the walk's variables were made anew for every search.
 */
export class Walk {
  readonly heap = new Heap();
  nodes = new Float64Array(8 * 256);
  count = 0;
  ids: KDBush['ids'] = new Uint32Array(0);
  coords: KDBush['coords'] = new Int32Array(0);
  prom: Float64Array = NONE;
  nodeMax: Float64Array = NONE;
  byScore = false;
  /** The query point, in 1e-7 degrees and in degrees. */
  x = 0;
  y = 0;
  lon = 0;
  lat = 0;
  cosLat = 0;
  /** cos(lat) times the least cos(lat') over the radius's latitude band. */
  cosCos = 0;
  /** The haversine `a` of the radius. */
  maxA = 0;

  start(tree: KDBush, lon: number, lat: number, maxKm: number, prom?: Float64Array, nodeMax?: Float64Array): void {
    this.heap.clear();
    this.count = 0;
    this.ids = tree.ids;
    this.coords = tree.coords;
    this.byScore = prom !== undefined && nodeMax !== undefined;
    // what a walk does not use is not kept either (an index swapped out by a reload)
    this.prom = this.byScore ? prom! : NONE;
    this.nodeMax = this.byScore ? nodeMax! : NONE;
    this.lon = lon;
    this.lat = lat;
    this.x = lon * E7;
    this.y = lat * E7;
    this.cosLat = Math.cos(lat * RAD);
    // haversine `a` of the search radius, with a hair of slack: the exact km test decides
    this.maxA = Math.min(1, hav(maxKm / EARTH_RADIUS_KM) * (1 + 1e-9) + 1e-18);
    // Every point within the radius lies within this many degrees of latitude, so the
    // smallest cosine over that band bounds cos(lat') for all of them: one cosine per
    // search, where the box's own edges would cost two per node.
    const band = maxKm / EARTH_RADIUS_KM / RAD;
    const cosMin = Math.max(0, Math.min(Math.cos(Math.max(-90, lat - band) * RAD), Math.cos(Math.min(90, lat + band) * RAD)));
    this.cosCos = this.cosLat * cosMin;
  }

  // By score, a point goes in with an optimistic score, never below its true one: its `a`
  // bounded from below without a sine (`havLow`, with the band's least cosine for its
  // latitude's), and that turned to km by the chord (2R·√a ≤ 2R·asin √a). Its exact score is
  // worked out only when it comes to the top, and it goes back in with that score unless it
  // still beats everything left. Most points never come to the top. Nodes are bounded the same
  // way. Values: a node row (≥ 0); a point at position i, -2i - 1 with its optimistic key,
  // -2i - 2 with its exact one.
  point(i: number): void {
    const c = this.coords;
    if (!this.byScore) {
      const a = haversineA(this.lon, this.lat, this.cosLat, c[2 * i], c[2 * i + 1]);
      if (a <= this.maxA) this.heap.push(-2 * i - 2, a);
      return;
    }
    const a = lowA(this.lon, this.lat, this.cosCos, c[2 * i], c[2 * i + 1]);
    if (a <= this.maxA) this.heap.push(-2 * i - 1, -this.prom[this.ids[i]] / (1 + CHORD_KM * Math.sqrt(a)));
  }

  node(l: number, r: number, axis: number, k: number, minX: number, minY: number, maxX: number, maxY: number): void {
    if (l > r) return;
    const { x, y } = this;
    // the box's nearest point to the query, per axis
    const a = lowA(this.lon, this.lat, this.cosCos, x < minX ? minX : x > maxX ? maxX : x, y < minY ? minY : y > maxY ? maxY : y);
    if (a > this.maxA) return;
    if (8 * this.count === this.nodes.length) {
      const next = new Float64Array(this.nodes.length * 2);
      next.set(this.nodes);
      this.nodes = next;
    }
    const row = this.count++,
      o = 8 * row,
      n = this.nodes;
    n[o] = l;
    n[o + 1] = r;
    n[o + 2] = axis;
    n[o + 3] = k;
    n[o + 4] = minX;
    n[o + 5] = minY;
    n[o + 6] = maxX;
    n[o + 7] = maxY;
    this.heap.push(row, this.byScore ? -this.nodeMax[k] / (1 + CHORD_KM * Math.sqrt(a)) : a);
  }
}

/**
 * The highest of `prom` (by item id) under each node of a KDBush tree, numbered
 * as `around` walks it (root 0, children 2k+1 and 2k+2).
 */
export function nodeMaxima(tree: KDBush, prom: Float64Array): Float64Array {
  const { ids, nodeSize } = tree;
  let size = 1;
  // halving stops at nodeSize items; two levels of slack for uneven halves
  for (let n = ids.length; n > nodeSize; n = Math.ceil(n / 2)) size *= 2;
  const out = new Float64Array(size * 4);
  const fill = (l: number, r: number, k: number): number => {
    if (l > r) return 0;
    let max = 0;
    if (r - l <= nodeSize) {
      for (let i = l; i <= r; i++) max = Math.max(max, prom[ids[i]]);
    } else {
      const m = (l + r) >> 1;
      max = Math.max(prom[ids[m]], fill(l, m - 1, 2 * k + 1), fill(m + 1, r, 2 * k + 2));
    }
    out[k] = max;
    return max;
  };
  fill(0, ids.length - 1, 0);
  return out;
}

/**
 * The haversine `a` from (lon, lat) in degrees to (px, py) in 1e-7 degrees, from below and without a sine:
 * sin t ≥ t − t³/6 for t ≥ 0 (0 past √6, where that bound turns negative), and `cosCos` in place
 * of cos(lat)·cos(lat'). Within a hair of `a` for the small angles of a search.
 */
function lowA(lon: number, lat: number, cosCos: number, px: number, py: number): number {
  return (havLow((py / E7 - lat) * RAD) + cosCos * havLow(Math.min(Math.abs(px / E7 - lon), 180) * RAD)) * LOW;
}

function havLow(theta: number): number {
  const t = Math.abs(theta) / 2;
  const s = t - (t * t * t) / 6;
  return s > 0 ? s * s : 0;
}

// Rounding of `havLow`'s few operations, and of the sum, kept on the low side.
const LOW = 1 - 1e-12;

function hav(theta: number): number {
  const s = Math.sin(theta / 2);
  return s * s;
}

/**
 * @internal A binary min-heap of (key, value) in typed columns, grown on demand and kept with its walk
 * across walks. Written out rather than flatqueue's: measured on the fixture in a process that
 * also routes (whose searches use flatqueue with other kinds of values), flatqueue made the
 * walk of `reverse` a few per cent slower. A value below 0 is a point, else a node row.
 */
export class Heap {
  length = 0;
  private key = new Float64Array(256);
  private val = new Int32Array(256);

  clear(): void {
    this.length = 0;
  }

  /** The smallest key; the heap is not empty. */
  peekValue(): number {
    return this.key[0];
  }

  push(val: number, key: number): void {
    if (this.length === this.key.length) {
      const k = new Float64Array(this.key.length * 2);
      k.set(this.key);
      this.key = k;
      const v = new Int32Array(this.val.length * 2);
      v.set(this.val);
      this.val = v;
    }
    let i = this.length++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.key[p] <= key) break;
      this.key[i] = this.key[p];
      this.val[i] = this.val[p];
      i = p;
    }
    this.key[i] = key;
    this.val[i] = val;
  }

  /** Removes the value of the smallest key and returns it; the heap is not empty. */
  pop(): number {
    const top = this.val[0];
    const n = --this.length;
    if (n <= 0) return top;
    const key = this.key[n],
      val = this.val[n];
    let i = 0;
    for (;;) {
      const l = 2 * i + 1,
        r = l + 1;
      if (l >= n) break;
      const c = r < n && this.key[r] < this.key[l] ? r : l;
      if (this.key[c] >= key) break;
      this.key[i] = this.key[c];
      this.val[i] = this.val[c];
      i = c;
    }
    this.key[i] = key;
    this.val[i] = val;
    return top;
  }
}
