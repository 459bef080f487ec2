import type { Shapes } from '../model/shape.js';
import { EARTH_RADIUS_KM, kmTo } from '../geom/haversine.js';

// Names held by at most this many rows are scanned whole; more are searched by latitude.
const SCAN = 16;
const RAD = Math.PI / 180;
const E7 = 1e7;

/** The rows holding one name, in the order met, and the same sorted by latitude. */
interface Holders {
  rows: number[];
  /** When many: `rows`' positions by ascending latitude, and those latitudes (1e-7 degrees). */
  byLat?: Uint32Array;
  lat?: Int32Array;
}

/**
 * The rows an `addr:street` or `addr:place` value may name: rows by each of their names (case
 * and surrounding spaces aside), and the nearest of a kind to a point. A common name ("Main
 * Road") is held by rows all over the country, and every address that names it asks: scanning
 * them all made the addresses grow with the square of the data. A name held by many rows is
 * searched among the rows within the distance's latitude band alone (a great circle of d km
 * spans at most d / R radians of latitude), with the answer a whole scan gives.
 */
export class CalledNames {
  private readonly t: Pick<Shapes, 'what' | 'lon' | 'lat'>;
  private readonly held = new Map<string, Holders>();

  /**
   * `names[i][k]`: row `rows[k]`'s i-th name (`''` for none; `rows` ascending, by default every
   * row: `rows[k]` is k); rows are met name by name, each in row order.
   */
  constructor(t: Pick<Shapes, 'what' | 'lon' | 'lat'>, names: readonly (readonly string[])[], rows?: Uint32Array) {
    this.t = t;
    for (const list of names) {
      list.forEach((n, i) => {
        if (!n) return;
        const r = rows ? rows[i] : i;
        const k = n.trim().toLowerCase();
        const h = this.held.get(k);
        if (!h) this.held.set(k, { rows: [r] });
        else if (h.rows[h.rows.length - 1] !== r) h.rows.push(r);
      });
    }
    for (const h of this.held.values()) {
      if (h.rows.length <= SCAN) continue;
      const lat = Int32Array.from(h.rows, (r) => t.lat[r]);
      h.byLat = Uint32Array.from(h.rows.keys()).sort((a, b) => lat[a] - lat[b]);
      h.lat = Int32Array.from(h.byLat, (p) => lat[p]);
    }
  }

  /**
   * Of the rows of kind `what` one of whose names is `value`, the nearest to a point (degrees)
   * within `maxKm` (haversine, `kmTo`); of equally near ones, the one met last. -1 for none.
   */
  nearest(value: string, lon: number, lat: number, what: number, maxKm: number): number {
    const h = this.held.get(value.trim().toLowerCase());
    if (!h) return -1;
    const t = this.t;
    let best = -1,
      bestKm = maxKm;
    if (!h.byLat) {
      for (const r of h.rows) {
        if (t.what[r] !== what) continue;
        const km = kmTo(lon, lat, t.lon[r], t.lat[r]);
        if (km <= bestKm) {
          best = r;
          bestKm = km;
        }
      }
      return best;
    }
    // the latitude band that can hold a row within maxKm, a hair wider for rounding
    const band = (maxKm / (EARTH_RADIUS_KM * RAD)) * E7 * (1 + 1e-9) + 1;
    const q = lat * E7;
    const lats = h.lat!,
      byLat = h.byLat;
    let lo = 0,
      hi = lats.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (lats[mid] < q - band) lo = mid + 1;
      else hi = mid;
    }
    let bestAt = -1;
    for (let i = lo; i < lats.length && lats[i] <= q + band; i++) {
      const p = byLat[i];
      const r = h.rows[p];
      if (t.what[r] !== what) continue;
      const km = kmTo(lon, lat, t.lon[r], t.lat[r]);
      // a scan in met order keeps the last of equals: here, the one met later
      if (km < bestKm || (km === bestKm && p > bestAt)) {
        best = r;
        bestKm = km;
        bestAt = p;
      }
    }
    return best;
  }
}
