import type Flatbush from 'flatbush';
import type { RoadGraph } from '../model/roads.js';
import { segmentKm, boxAround } from '../geom/local.js';
import { kmTo } from '../geom/haversine.js';
import { boxTree, type TreeFrom } from '../geom/boxes.js';

const E7 = 1e7;
// Segments per box: one box per segment would take 16 bytes of Flatbush per road
// point; a box per run of up to 8 costs a few more distance checks a query.
const RUN = 8;
// the searches of `snap`, in km, widening until an edge is found
const STEPS = [0.05, 0.25, 1];

/** Where a point snaps onto the road network. */
export interface Snap {
  edge: number;
  /** Index (in points) in `graph.coords` of the start of the segment the point falls on. */
  at: number;
  /** Where on that segment, 0 (its start) to 1 (its end). */
  t: number;
  /** The snapped point, degrees. */
  lon: number;
  lat: number;
  /** Metres from the edge's start to the snapped point, along the edge. */
  offset: number;
  /** Distance from the query point, km. */
  km: number;
}

/**
 * The road network's segments in a Flatbush index (in runs of up to 8 segments of
 * an edge per box), for the nearest point on a road a mode may use.
 */
export class Snapper {
  readonly tree: Flatbush | undefined;
  /** Per box: its edge, and the index (in points) of its first point. */
  private readonly edge: Uint32Array;
  private readonly at: Uint32Array;
  private readonly g: RoadGraph;

  /**
   * The index of a graph; `tree`, built before from the same graph, is reused as is, or made by
   * a snapshot from the box of each run (`box`) in the order it stored.
   */
  constructor(g: RoadGraph, tree?: Flatbush | TreeFrom) {
    this.g = g;
    const edges = g.edgeFrom.length;
    let n = 0;
    for (let e = 0; e < edges; e++) n += Math.ceil((g.coordStart[e + 1] - g.coordStart[e] - 1) / RUN);
    this.edge = new Uint32Array(n);
    this.at = new Uint32Array(n);
    let k = 0;
    for (let e = 0; e < edges; e++) {
      for (let i = g.coordStart[e]; i + 1 < g.coordStart[e + 1]; i += RUN) {
        this.edge[k] = e;
        this.at[k++] = i;
      }
    }
    const c = g.coords,
      starts = g.coordStart,
      edge = this.edge,
      at = this.at;
    // run b's box: its points, up to RUN segments of edge[b] from point at[b]
    const box = (b: number, out: Int32Array, o: number) => {
      const end = Math.min(at[b] + RUN, starts[edge[b] + 1] - 1);
      let minX = Infinity,
        minY = Infinity,
        maxX = -Infinity,
        maxY = -Infinity;
      for (let i = at[b]; i <= end; i++) {
        const x = c[2 * i],
          y = c[2 * i + 1];
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
      out[o] = minX;
      out[o + 1] = minY;
      out[o + 2] = maxX;
      out[o + 3] = maxY;
    };
    const made = typeof tree === 'function' ? tree(n, box) : tree;
    if (made && made.numItems !== n) throw new RangeError(`a road tree of ${made.numItems} boxes for ${n}`);
    this.tree = n === 0 ? undefined : (made ?? boxTree(n, box));
  }

  /**
   * The nearest point within `maxKm` on an edge that `usable(edge)` accepts; ties go
   * to the lower edge. Undefined when there is none.
   */
  snap(lon: number, lat: number, maxKm: number, usable: (edge: number) => boolean): Snap | undefined {
    for (const step of STEPS) {
      const km = Math.min(step, maxKm);
      const s = this.within(lon, lat, km, usable);
      if (s || km >= maxKm) return s;
    }
    return this.within(lon, lat, maxKm, usable);
  }

  /**
   * `snap` for several filters at once: per mask `masks[i]`, what `snap(lon, lat, maxKm, (e) =>
   * (bits(e) & masks[i]) !== 0)` gives (the same point, ties and all), each segment measured once
   * for all of them. Attaching every place to every mode's roads at load is one search a place.
   */
  snapEach(lon: number, lat: number, maxKm: number, bits: (edge: number) => number, masks: readonly number[]): (Snap | undefined)[] {
    const n = masks.length;
    const out: (Snap | undefined)[] = new Array<Snap | undefined>(n).fill(undefined);
    if (!this.tree) return out;
    const c = this.g.coords,
      start = this.g.coordStart,
      measure = segmentKm;
    const k = Math.cos((lat * Math.PI) / 180);
    const bestKm: number[] = new Array<number>(n).fill(Infinity),
      bestEdge: number[] = new Array<number>(n).fill(-1),
      bestAt: number[] = new Array<number>(n).fill(-1);
    let pending = (1 << n) - 1; // the masks not found yet, as bits
    for (let s = 0; s <= STEPS.length && pending; s++) {
      const km = s < STEPS.length ? Math.min(STEPS[s], maxKm) : maxKm;
      let want = 0;
      for (let i = 0; i < n; i++) if (pending & (1 << i)) want |= masks[i];
      const [x0, y0, x1, y1] = boxAround(lon, lat, km);
      // in 1e-7 degrees: a segment with both ends beyond one side of the box is farther than km
      const bx0 = Math.floor(x0 * E7),
        by0 = Math.floor(y0 * E7),
        bx1 = Math.ceil(x1 * E7),
        by1 = Math.ceil(y1 * E7);
      this.tree.search(bx0, by0, bx1, by1, (box) => {
        const e = this.edge[box];
        const b = bits(e);
        if (!(b & want)) return false;
        const end = Math.min(this.at[box] + RUN, start[e + 1] - 1);
        for (let i = this.at[box]; i < end; i++) {
          const ax = c[2 * i],
            ay = c[2 * i + 1],
            cx = c[2 * i + 2],
            cy = c[2 * i + 3];
          if ((ax < bx0 && cx < bx0) || (ax > bx1 && cx > bx1) || (ay < by0 && cy < by0) || (ay > by1 && cy > by1)) continue;
          const d = measure(lon, lat, k, ax / E7, ay / E7, cx / E7, cy / E7);
          if (d > km) continue;
          for (let j = 0; j < n; j++) {
            if (!(pending & (1 << j)) || !(b & masks[j])) continue;
            if (d < bestKm[j] || (d === bestKm[j] && (e < bestEdge[j] || (e === bestEdge[j] && i < bestAt[j])))) {
              bestKm[j] = d;
              bestEdge[j] = e;
              bestAt[j] = i;
            }
          }
        }
        return false;
      });
      for (let j = 0; j < n; j++) {
        if (!(pending & (1 << j)) || bestEdge[j] < 0) continue;
        out[j] = this.place(lon, lat, k, bestEdge[j], bestAt[j], bestKm[j]);
        pending &= ~(1 << j);
      }
      if (km >= maxKm) break;
    }
    return out;
  }

  private within(lon: number, lat: number, maxKm: number, usable: (edge: number) => boolean): Snap | undefined {
    if (!this.tree) return undefined;
    const g = this.g,
      c = g.coords,
      start = g.coordStart;
    const [x0, y0, x1, y1] = boxAround(lon, lat, maxKm);
    const k = Math.cos((lat * Math.PI) / 180);
    let bestKm = Infinity,
      bestEdge = -1,
      bestAt = -1;
    this.tree.search(Math.floor(x0 * E7), Math.floor(y0 * E7), Math.ceil(x1 * E7), Math.ceil(y1 * E7), (box) => {
      const e = this.edge[box];
      if (!usable(e)) return false;
      const end = Math.min(this.at[box] + RUN, start[e + 1] - 1);
      for (let i = this.at[box]; i < end; i++) {
        const km = segmentKm(lon, lat, k, c[2 * i] / E7, c[2 * i + 1] / E7, c[2 * i + 2] / E7, c[2 * i + 3] / E7);
        if (km > maxKm) continue;
        if (km < bestKm || (km === bestKm && (e < bestEdge || (e === bestEdge && i < bestAt)))) {
          bestKm = km;
          bestEdge = e;
          bestAt = i;
        }
      }
      return false;
    });
    if (bestEdge < 0) return undefined;
    return this.place(lon, lat, k, bestEdge, bestAt, bestKm);
  }

  // The snapped point on segment `at` of edge `e`, and its offset along the edge.
  private place(lon: number, lat: number, k: number, e: number, at: number, km: number): Snap {
    const c = this.g.coords;
    const ax = c[2 * at] / E7,
      ay = c[2 * at + 1] / E7,
      bx = c[2 * at + 2] / E7,
      by = c[2 * at + 3] / E7;
    const dx = (bx - ax) * k,
      dy = by - ay;
    const len2 = dx * dx + dy * dy;
    let t = len2 > 0 ? ((lon - ax) * k * dx + (lat - ay) * dy) / len2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    let offset = 0;
    for (let i = this.g.coordStart[e]; i < at; i++) offset += segmentMetres(c, i);
    offset += t * segmentMetres(c, at);
    return { edge: e, at, t, lon: ax + t * (bx - ax), lat: ay + t * (by - ay), offset, km };
  }
}

// Length of segment i (points i, i+1 of `c`) in metres, as the graph builder sums
// an edge's length: offsets along an edge are parts of that length.
function segmentMetres(c: Int32Array, i: number): number {
  return 1000 * kmTo(c[2 * i] / E7, c[2 * i + 1] / E7, c[2 * i + 2], c[2 * i + 3]);
}
