import type { RoadGraph } from '../model/roads.js';
import type { Snap } from './snap.js';

const E7 = 1e7;

/**
 * The geometry of a route as it is built: its points (degrees), and per segment
 * (point i to i + 1) the edge it runs along and the ms it takes; per point, the
 * junction it is, or -1 (edge, time and junction only with `detail`).
 */
export class Track {
  readonly lon: number[] = [];
  readonly lat: number[] = [];
  readonly node: number[] = [];
  readonly edge: number[] = [];
  readonly ms: number[] = [];
  /** Per segment, whether it runs against its edge's direction (what a bike pushed one way only needs). */
  readonly back: boolean[] = [];
  /** Whether segments keep their edge and time (for instructions); a bare track keeps only its points. */
  private readonly detail: boolean;

  constructor(detail = true) {
    this.detail = detail;
  }

  /** Number of points. */
  get length(): number {
    return this.lon.length;
  }

  /** Starts (or, for a later leg, continues) at a point; a repeat of the last point is not added twice. */
  start(lon: number, lat: number, node: number): void {
    const n = this.lon.length;
    if (n && this.lon[n - 1] === lon && this.lat[n - 1] === lat) return;
    if (n) throw new RangeError('a track continues from its last point');
    this.push(lon, lat, node);
  }

  private push(lon: number, lat: number, node: number): void {
    this.lon.push(lon);
    this.lat.push(lat);
    if (this.detail) this.node.push(node);
  }

  /**
   * Walks edge `e` from one position to another (a snapped point, or an end: `'from'`/`'to'`
   * for the edge's nodes), taking `ms` in all: the points after the current one up to the
   * end, each segment given its share of `ms` by length.
   */
  walk(g: RoadGraph, e: number, a: Snap | 'from' | 'to', b: Snap | 'from' | 'to', ms: number): void {
    if (typeof a === 'string' && typeof b === 'string') {
      this.whole(g, e, a === 'from', ms);
      return;
    }
    const first = g.coordStart[e],
      last = g.coordStart[e + 1] - 1;
    const pos = (p: Snap | 'from' | 'to') => (p === 'from' ? first : p === 'to' ? last : p);
    const pa = pos(a),
      pb = pos(b);
    // a position as a number along the edge's points: a point index, a snap mid-segment a fraction past it
    const along = (p: number | Snap) => (typeof p === 'number' ? p : p.at + p.t);
    const forward = along(pa) <= along(pb);
    const c = g.coords;
    const before = this.lon.length;
    if (forward) {
      const from = typeof pa === 'number' ? pa + 1 : pa.at + 1;
      const to = typeof pb === 'number' ? pb : pb.at;
      for (let k = from; k <= to; k++) this.point(c, k, k === last ? g.edgeTo[e] : k === first ? g.edgeFrom[e] : -1);
      if (typeof pb !== 'number') this.snapPoint(pb);
    } else {
      const from = typeof pa === 'number' ? pa - 1 : pa.t > 0 ? pa.at : pa.at - 1;
      const to = typeof pb === 'number' ? pb : pb.at + 1;
      for (let k = from; k >= to; k--) this.point(c, k, k === first ? g.edgeFrom[e] : k === last ? g.edgeTo[e] : -1);
      if (typeof pb !== 'number') this.snapPoint(pb);
    }
    this.share(before, e, ms, !forward);
  }

  /**
   * Walks edge `e` whole, `forward` from its first point to its last or back, taking `ms`: the hot
   * case (every edge between a route's ends), without the position arithmetic of a partial walk.
   */
  whole(g: RoadGraph, e: number, forward: boolean, ms: number): void {
    const first = g.coordStart[e],
      last = g.coordStart[e + 1] - 1;
    const c = g.coords;
    const before = this.lon.length;
    if (!this.detail) {
      // a bare track keeps points alone: no junction to note per point, no shares of time
      const { lon, lat } = this;
      let x0 = lon[before - 1],
        y0 = lat[before - 1];
      const step = forward ? 1 : -1;
      for (let k = forward ? first + 1 : last - 1, end = forward ? last + 1 : first - 1; k !== end; k += step) {
        const x = c[2 * k] / E7,
          y = c[2 * k + 1] / E7;
        if (x === x0 && y === y0) continue;
        lon.push(x);
        lat.push(y);
        x0 = x;
        y0 = y;
      }
      return;
    }
    if (forward) for (let k = first + 1; k <= last; k++) this.point(c, k, k === last ? g.edgeTo[e] : -1);
    else for (let k = last - 1; k >= first; k--) this.point(c, k, k === first ? g.edgeFrom[e] : -1);
    this.share(before, e, ms, !forward);
  }

  // Point k of the coordinates, unless it is the last point already.
  private point(c: Int32Array, k: number, node: number): void {
    const lon = c[2 * k] / E7,
      lat = c[2 * k + 1] / E7;
    const n = this.lon.length;
    if (this.lon[n - 1] === lon && this.lat[n - 1] === lat) {
      if (node >= 0 && this.detail) this.node[n - 1] = node;
      return;
    }
    this.push(lon, lat, node);
  }

  private snapPoint(s: Snap): void {
    const n = this.lon.length;
    if (this.lon[n - 1] === s.lon && this.lat[n - 1] === s.lat) return;
    this.push(s.lon, s.lat, -1);
  }

  // Gives the segments added since point `before` edge e (run `back` or not) and their share of `ms`.
  private share(before: number, e: number, ms: number, back: boolean): void {
    if (!this.detail) return;
    const from = before - 1,
      to = this.lon.length - 1;
    if (to <= from) {
      // nothing drawn (a zero-length walk): its time goes to the previous segment, if any
      if (this.ms.length && ms) this.ms[this.ms.length - 1] += ms;
      return;
    }
    // shares of the time by length: a local projection is exact enough for proportions
    const k = Math.cos((this.lat[from] * Math.PI) / 180);
    const { lon, lat } = this;
    let total = 0;
    for (let i = from; i < to; i++) {
      const dx = (lon[i + 1] - lon[i]) * k,
        dy = lat[i + 1] - lat[i];
      total += Math.sqrt(dx * dx + dy * dy);
    }
    for (let i = from; i < to; i++) {
      const dx = (lon[i + 1] - lon[i]) * k,
        dy = lat[i + 1] - lat[i];
      this.edge.push(e);
      this.back.push(back);
      this.ms.push(total > 0 ? (ms * Math.sqrt(dx * dx + dy * dy)) / total : ms / (to - from));
    }
  }
}
