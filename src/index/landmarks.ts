import KDBush from 'kdbush';
import type Flatbush from 'flatbush';
import type { PlaceTable } from '../model/table.js';
import { BUILDING, STREET, POLYGON, MULTIPOLYGON } from '../model/table.js';
import { forEachRing } from '../model/shape.js';
import { inRing, ringAreaM2 } from '../geom/measure.js';
import { boxTree, type TreeFrom } from '../geom/boxes.js';

/**
 * What reverse geocoding answers with before it falls back to a street: every
 * named row that is not a street (places, localities) and every addressed
 * building. All by centroid in a KDBush, for the nearest; those that are areas
 * also by bounding box in a Flatbush, for the ones a point lies in (a big park's
 * centroid may be far from where one stands in it).
 */
export class Landmarks {
  /** KDBush over centroids (lon, lat in 1e-7 degrees); item `i` is row `rows[i]`. */
  readonly tree: KDBush;
  /** The table row of each item of `tree`. */
  readonly rows: Uint32Array;
  private readonly t: PlaceTable;
  /** Bounding boxes of the areas (1e-7 degrees), or none. */
  readonly boxes: Flatbush | undefined;
  /** Row and area (m², holes subtracted) of each box of `boxes`. */
  private readonly areaRows: Uint32Array;
  readonly areaM2: Float64Array;

  /**
   * The landmarks of a table; `built`, the indexes found before from the same table, are reused as
   * they are (the tree may be made from the landmark rows, as a snapshot restores it from its ids;
   * the boxes from the box of each area, `box`, in the order the snapshot stored).
   */
  constructor(
    t: PlaceTable,
    built?: { tree: KDBush | ((rows: Uint32Array) => KDBush); boxes: Flatbush | TreeFrom | undefined; areaM2: Float64Array },
  ) {
    this.t = t;
    // names are interned: the one blank name has one index
    const blank = t.strings.indexOf('');
    const rows = new Uint32Array(t.size);
    const areas = new Uint32Array(t.size);
    let n = 0,
      m = 0;
    for (let r = 0; r < t.size; r++) {
      if (t.what[r] === STREET || (t.what[r] !== BUILDING && t.name[r] === blank)) continue;
      rows[n++] = r;
      if (t.geom[r] === POLYGON || t.geom[r] === MULTIPOLYGON) areas[m++] = r;
    }
    this.rows = rows.slice(0, n);
    this.areaRows = areas.slice(0, m);
    const box = (i: number, out: Int32Array, o: number) => outerBox(t, this.areaRows[i], out, o);
    if (built) {
      const tree = typeof built.tree === 'function' ? built.tree(this.rows) : built.tree;
      const boxes = typeof built.boxes === 'function' ? built.boxes(m, box) : built.boxes;
      if (tree.numItems !== n || built.areaM2.length !== m || (boxes?.numItems ?? 0) !== m) {
        throw new RangeError('landmark indexes do not fit the table');
      }
      this.tree = tree;
      this.boxes = boxes;
      this.areaM2 = built.areaM2;
      return;
    }
    this.tree = new KDBush(n, 16, Int32Array);
    for (const r of this.rows) this.tree.add(t.lon[r], t.lat[r]);
    this.tree.finish();

    this.areaM2 = new Float64Array(m);
    this.areaRows.forEach((r, i) => {
      let m2 = 0;
      forEachRing(t, r, (ring, outer) => (m2 += outer ? ringAreaM2(ring) : -ringAreaM2(ring)));
      this.areaM2[i] = Math.max(0, m2);
    });
    // the boxes are of the table's own integer coordinates: Int32 holds them exactly, in half the bytes
    this.boxes = m ? boxTree(m, box) : undefined;
  }

  /** Calls `visit(row, areaM2)` for each landmark area that contains the point (degrees). */
  containing(lon: number, lat: number, visit: (row: number, areaM2: number) => void): void {
    if (!this.boxes) return;
    const x = lon * 1e7,
      y = lat * 1e7;
    for (const i of this.boxes.search(x, y, x, y)) {
      const r = this.areaRows[i];
      if (contains(this.t, r, x, y)) visit(r, this.areaM2[i]);
    }
  }
}

// Whether (x, y) in 1e-7 degrees lies in one of row r's polygons: inside its outer
// ring and in none of its holes.
function contains(t: PlaceTable, r: number, x: number, y: number): boolean {
  let inside = false,
    inPolygon = false;
  forEachRing(t, r, (ring, outer) => {
    if (outer) {
      if (inPolygon) inside = true;
      inPolygon = inRing(x, y, ring);
    } else if (inPolygon && inRing(x, y, ring)) {
      inPolygon = false;
    }
  });
  return inside || inPolygon;
}

// Row r's bounding box, of its outer rings' points (its holes lie inside them), into out from o.
// It walks the shape layout itself (as `forEachRing` does, see PlaceTable) rather than take a
// callback a ring: a snapshot computes every area's box at opening, and the callback's captured
// minimums made that several times slower.
function outerBox(t: PlaceTable, r: number, out: Int32Array, o: number): void {
  const shape = t.shape,
    c = t.coords;
  let s = t.shapeStart[r],
    k = t.coordStart[r];
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  const polygons = t.geom[r] === POLYGON ? 1 : t.geom[r] === MULTIPOLYGON ? shape[s++] : 0;
  for (let p = 0; p < polygons; p++) {
    const rings = shape[s++];
    for (let j = 0; j < rings; j++) {
      const end = k + 2 * shape[s++];
      if (j > 0) {
        k = end;
        continue;
      }
      for (; k < end; k += 2) {
        const x = c[k],
          y = c[k + 1];
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
    }
  }
  out[o] = x0;
  out[o + 1] = y0;
  out[o + 2] = x1;
  out[o + 3] = y1;
}
