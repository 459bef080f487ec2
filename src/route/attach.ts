import { forwardBit } from '../osm/profile.js';
import { junctionAt } from './legs.js';
import type { Router } from './router.js';
import type { Snap } from './snap.js';

/**
 * Where each place stands on each mode's roads: per mode and place row, the point within `maxKm`
 * of a road the mode may use (either way) that `snapFor` would give, found for every place once
 * (one search of the road tree per place, serving every mode: `Snapper.snapEach`). A mode whose
 * usable roads are another's (car and motorbike, as shipped) shares that mode's arrays.
 * Immutable once made.
 */
export class Attachments {
  /** Per mode, per row: the edge (`-1`: no road of the mode within `maxKm`, or not a place asked for). */
  readonly edge: Int32Array[];
  /** Per mode, per row: metres from the edge's start to the point, along it. */
  readonly offset: Float64Array[];
  /** Per mode, per row: the junction the point is exactly at (an end of its edge), else -1. */
  readonly junction: Int32Array[];

  /**
   * Attaches the points `rows` (in 1e-7 degrees, `lon[row]`, `lat[row]`) to every mode's roads.
   * Rows not listed stay unattached.
   */
  constructor(router: Router, points: { lon: ArrayLike<number>; lat: ArrayLike<number> }, rows: Iterable<number>, maxKm: number) {
    const g = router.graph,
      n = points.lon.length,
      modes = router.modes.length;
    // modes with the same usable roads share one set of arrays
    const usable = (m: number) => forwardBit(m) * 3;
    const same = Array.from({ length: modes }, (_, m) => {
      for (let o = 0; o < m; o++) {
        let eq = true;
        for (let e = 0; e < g.edgeFrom.length && eq; e++)
          eq = ((g.edgeAccess[e] & usable(m)) !== 0) === ((g.edgeAccess[e] & usable(o)) !== 0);
        if (eq) return o;
      }
      return m;
    });
    const own = [...new Set(same)];
    const masks = own.map(usable);
    const edge = own.map(() => new Int32Array(n).fill(-1)),
      offset = own.map(() => new Float64Array(n)),
      junction = own.map(() => new Int32Array(n).fill(-1));
    const bits = (e: number) => g.edgeAccess[e];
    for (const p of rows) {
      const found = router.snapper.snapEach(points.lon[p] / 1e7, points.lat[p] / 1e7, maxKm, bits, masks);
      for (let i = 0; i < own.length; i++) {
        const s = found[i];
        if (!s) continue;
        edge[i][p] = s.edge;
        offset[i][p] = s.offset;
        junction[i][p] = junctionAt(g, s);
      }
    }
    const slot = same.map((m) => own.indexOf(m));
    this.edge = slot.map((i) => edge[i]);
    this.offset = slot.map((i) => offset[i]);
    this.junction = slot.map((i) => junction[i]);
  }

  /**
   * Where place `row` stands on mode `m`'s roads, as a `Snap` that `alongEdge` and the seeds read
   * (edge, offset, and at a junction its end), or undefined where it is not attached.
   */
  snap(router: Router, m: number, row: number, lon: number, lat: number): Snap | undefined {
    const e = this.edge[m][row];
    if (e < 0) return undefined;
    const g = router.graph,
      j = this.junction[m][row];
    // at a junction: the edge's first or last point, as the snap left it (what junctionAt reads)
    if (j >= 0 && g.edgeFrom[e] === j) return { edge: e, at: g.coordStart[e], t: 0, offset: this.offset[m][row], lon, lat, km: 0 };
    if (j >= 0) return { edge: e, at: g.coordStart[e + 1] - 2, t: 1, offset: this.offset[m][row], lon, lat, km: 0 };
    // mid-edge: `at` and `t` matter to no user of a place's snap but junctionAt, which reads them only to find a junction
    return { edge: e, at: -1, t: 0.5, offset: this.offset[m][row], lon, lat, km: 0 };
  }
}
