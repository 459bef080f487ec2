import KDBush from 'kdbush';
import type { PlaceTable } from '../model/table.js';
import { LOCALITY } from '../model/table.js';
import { forEachRing, type Shapes } from '../model/shape.js';
import { Areas, type Area } from '../geom/areas.js';
import { nearestItem } from '../index/nearest.js';
import { tagValue } from './tags.js';
import { placeId } from '../osm/id.js';

/** `place=*` values that name where something is, below a municipality. */
export const LOCALITY_PLACES: ReadonlySet<string> = new Set([
  'neighbourhood',
  'quarter',
  'suburb',
  'locality',
  'hamlet',
  'village',
  'town',
]);

/**
 * The localities of a table (`place=neighbourhood|quarter|suburb|locality|hamlet|
 * village|town`): the area that contains a point, else the nearest one (node or
 * area centroid) within a distance.
 */
export class Localities {
  private readonly rows: number[] = [];
  private readonly points: KDBush | undefined;
  /** placeId of each locality row, in `rows` order: the tie-break, the same whatever the file order. */
  private readonly ids: Float64Array;
  private readonly areas: Areas;
  private readonly areaRows: number[] = [];

  private readonly t: Shapes;

  /** Indexes `rows` (see `localityRows`) of a table's geometry. */
  constructor(t: Shapes, rows: ArrayLike<number>) {
    this.t = t;
    const areas: Area[] = [];
    for (const r of Array.from(rows)) {
      this.rows.push(r);
      const rings: number[][] = [];
      forEachRing(t, r, (ring) => rings.push(Array.from(ring, (v) => v / 1e7)));
      if (rings.length) {
        areas.push({ name: '', level: 0, rings });
        this.areaRows.push(r);
      }
    }
    this.areas = new Areas(areas);
    this.ids = Float64Array.from(this.rows, (r) => placeId(t.osmId[r], t.kind[r]));
    if (this.rows.length) {
      const tree = new KDBush(this.rows.length, 16, Int32Array);
      for (const r of this.rows) tree.add(t.lon[r], t.lat[r]);
      this.points = tree.finish();
    }
  }

  /** The locality row for a point: a containing area first (the lowest placeId), else the nearest within `maxKm`; -1 for none. */
  at(lon: number, lat: number, maxKm: number): number {
    let best = -1;
    let bestId = Infinity;
    for (const i of this.areas.at(lon, lat)) {
      const r = this.areaRows[i];
      const id = this.t.osmId[r] * 4 + this.t.kind[r];
      if (id < bestId) {
        best = r;
        bestId = id;
      }
    }
    if (best >= 0 || !this.points) return best;
    const i = nearestItem(this.points, lon, lat, maxKm, this.ids);
    return i < 0 ? -1 : this.rows[i];
  }
}

/** The rows of a table that are localities in the sense of `LOCALITY_PLACES`. */
export function localityRows(t: PlaceTable): Uint32Array {
  const rows: number[] = [];
  for (let r = 0; r < t.size; r++) if (t.what[r] === LOCALITY && LOCALITY_PLACES.has(tagValue(t, r, 'place') ?? '')) rows.push(r);
  return Uint32Array.from(rows);
}
