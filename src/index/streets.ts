import type Flatbush from 'flatbush';
import type { Shapes } from '../model/shape.js';
import { STREET } from '../model/table.js';
import { segmentKm, boxAround, KM_PER_DEGREE } from '../geom/local.js';
import { placeId } from '../osm/id.js';
import { boxTree, type TreeFrom } from '../geom/boxes.js';

const E7 = 1e7;
// the first, small search of `nearest`, in km
const FIRST_KM = 0.025;
const TIE_KM = 1e-6;

/**
 * The named streets of a table, segment by segment in a Flatbush index, for the
 * nearest street to a point (addresses, reverse geocoding). Distances are to the
 * street's line, not its centroid: a long road is near all along its length.
 */
export class Streets {
  private readonly t: Shapes;
  /** Segment boxes in 1e-7 degrees (exact: they are the table's own coordinates), or none. */
  readonly tree: Flatbush | undefined;
  /** Per segment: the table row, and the index in `t.coords` of its first point. */
  private readonly row: Uint32Array;
  private readonly at: Uint32Array;

  /**
   * The streets of a table; `tree`, the one built before from the same table, is reused as is, or
   * made by a snapshot from the box of each segment (`box`) in the order it stored.
   */
  constructor(t: Shapes, tree?: Flatbush | TreeFrom) {
    this.t = t;
    let n = 0;
    for (let r = 0; r < t.size; r++) if (t.what[r] === STREET) n += Math.max(0, (t.coordStart[r + 1] - t.coordStart[r]) / 2 - 1);
    this.row = new Uint32Array(n);
    this.at = new Uint32Array(n);
    // segments are numbered in table order: the same numbers as the tree's items
    let k = 0;
    for (let r = 0; r < t.size; r++) {
      if (t.what[r] !== STREET) continue;
      for (let i = t.coordStart[r]; i + 3 < t.coordStart[r + 1]; i += 2) {
        this.row[k] = r;
        this.at[k++] = i;
      }
    }
    const c = t.coords,
      at = this.at;
    // segment k's box: its two points, the first at coords[at[k]]
    const box = (k: number, out: Int32Array, o: number) => {
      const i = at[k];
      out[o] = Math.min(c[i], c[i + 2]);
      out[o + 1] = Math.min(c[i + 1], c[i + 3]);
      out[o + 2] = Math.max(c[i], c[i + 2]);
      out[o + 3] = Math.max(c[i + 1], c[i + 3]);
    };
    const made = typeof tree === 'function' ? tree(n, box) : tree;
    if (made && made.numItems !== n) throw new RangeError(`a street tree of ${made.numItems} segments for ${n}`);
    this.tree = n === 0 ? undefined : (made ?? boxTree(n, box));
  }

  /**
   * The street row nearest to a point within `maxKm`, and its distance; ties (a point
   * nearest to a crossing) go to the lower placeId, whatever the file order.
   */
  nearest(lon: number, lat: number, maxKm: number): { row: number; km: number } | undefined {
    // Most points lie a few metres from a street: a small box first holds few segments,
    // and a street found inside it is the nearest (a nearer one would be in the box too).
    if (maxKm > FIRST_KM) {
      const near = this.within(lon, lat, FIRST_KM);
      if (near) return near;
    }
    return this.within(lon, lat, maxKm);
  }

  private within(lon: number, lat: number, maxKm: number): { row: number; km: number } | undefined {
    if (!this.tree) return undefined;
    const [x0, y0, x1, y1] = boxAround(lon, lat, maxKm);
    const t = this.t;
    const c = t.coords;
    let best = -1;
    let bestKm = Infinity;
    const k = Math.cos((lat * Math.PI) / 180);
    const qx = lon * E7,
      qy = lat * E7;
    const toKm = KM_PER_DEGREE / E7;
    // the filter sees every candidate and keeps none: no result array to build
    this.tree.search(Math.floor(x0 * E7), Math.floor(y0 * E7), Math.ceil(x1 * E7), Math.ceil(y1 * E7), (s, sx0, sy0, sx1, sy1) => {
      // the segment's box (the tree's, the min and max of its points) is a lower bound: most
      // candidates stop here once one is close; none before the first, nor when the point is inside
      const dx = qx < sx0 ? sx0 - qx : qx > sx1 ? qx - sx1 : 0;
      const dy = qy < sy0 ? sy0 - qy : qy > sy1 ? qy - sy1 : 0;
      if (best >= 0 && (dx > 0 || dy > 0) && Math.hypot(dx * k, dy) * toKm > bestKm + TIE_KM) return false;
      const i = this.at[s];
      const r = this.row[s];
      const km = segmentKm(lon, lat, k, c[i] / E7, c[i + 1] / E7, c[i + 2] / E7, c[i + 3] / E7);
      // within a millimetre is a tie: floating point puts a crossing's streets a hair apart
      if (km > maxKm || km > bestKm + TIE_KM) return false;
      if (km < bestKm - TIE_KM || placeId(t.osmId[r], t.kind[r]) < placeId(t.osmId[best], t.kind[best])) {
        best = r;
        bestKm = Math.min(km, bestKm);
      }
      return false;
    });
    return best < 0 ? undefined : { row: best, km: bestKm };
  }
}
