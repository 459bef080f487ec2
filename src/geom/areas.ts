import Flatbush from 'flatbush';
import { inRing } from './measure.js';

/** A named area: its rings as flat `[lon, lat, …]` degrees, outer and inner alike (even-odd rule). */
export interface Area {
  name: string;
  /** The name in English and in Nepali where the caller knows them (administrative areas, `osm/name.ts`). */
  en?: string;
  ne?: string;
  /** OSM `admin_level`, or another rank the caller gives. */
  level: number;
  rings: number[][];
}

// cells of this many degrees (about 1 km) remember what contains them; a cell a border crosses
// is cut in cells a tenth its side, which do the same
const CELL = 0.01;
const FINE = 0.001;
// what a cell remembers when a border crosses it
const CROSSED: number[] = [];

/**
 * Which areas contain a point: a Flatbush of the areas' boxes picks candidates,
 * and each is tested by ray casting. Most places lie far from any border, so each
 * grid cell that no border crosses (a Flatbush of the edges tells) remembers its
 * answer, and a million lookups cost a million map reads instead of ray casts. Within
 * a cell a border crosses, cells a tenth its side do the same: a ray cast walks every
 * vertex of an area's rings, thousands for a municipality, and towns lie on borders.
 */
export class Areas {
  readonly areas: Area[];
  private readonly boxes: Flatbush | undefined;
  private readonly edges: Flatbush | undefined;
  private readonly cells = new Map<number, number[]>();
  private readonly fine = new Map<number, number[]>();

  constructor(areas: Area[]) {
    this.areas = areas;
    if (!areas.length) {
      this.boxes = this.edges = undefined;
      return;
    }
    this.boxes = new Flatbush(areas.length);
    let n = 0;
    for (const a of areas) for (const r of a.rings) n += r.length / 2 - 1;
    this.edges = new Flatbush(Math.max(1, n));
    for (const a of areas) {
      let x0 = Infinity,
        y0 = Infinity,
        x1 = -Infinity,
        y1 = -Infinity;
      for (const r of a.rings) {
        for (let i = 0; i < r.length; i += 2) {
          x0 = Math.min(x0, r[i]);
          y0 = Math.min(y0, r[i + 1]);
          x1 = Math.max(x1, r[i]);
          y1 = Math.max(y1, r[i + 1]);
          if (i + 3 < r.length)
            this.edges.add(Math.min(r[i], r[i + 2]), Math.min(r[i + 1], r[i + 3]), Math.max(r[i], r[i + 2]), Math.max(r[i + 1], r[i + 3]));
        }
      }
      this.boxes.add(x0, y0, x1, y1);
    }
    if (n === 0) this.edges.add(0, 0, 0, 0);
    this.boxes.finish();
    this.edges.finish();
  }

  /** Indexes (into `areas`) of the areas containing a point, in ascending order. */
  at(lon: number, lat: number): number[] {
    if (!this.boxes || !this.edges) return [];
    const coarse = this.cell(this.cells, CELL, lon, lat);
    if (coarse !== CROSSED) return coarse;
    const fine = this.cell(this.fine, FINE, lon, lat);
    return fine !== CROSSED ? fine : this.exact(lon, lat);
  }

  // The answer of the cell of side `size` holding a point, remembered in `cells`; CROSSED when a border crosses it.
  private cell(cells: Map<number, number[]>, size: number, lon: number, lat: number): number[] {
    const cx = Math.floor(lon / size),
      cy = Math.floor(lat / size);
    const key = cx * 1_000_000 + cy;
    let found = cells.get(key);
    if (found) return found;
    const x0 = cx * size,
      y0 = cy * size;
    // no border crosses the cell: its centre answers for all of it
    found = this.edges!.search(x0, y0, x0 + size, y0 + size).length === 0 ? this.exact(x0 + size / 2, y0 + size / 2) : CROSSED;
    cells.set(key, found);
    return found;
  }

  private exact(lon: number, lat: number): number[] {
    const found: number[] = [];
    for (const i of this.boxes!.search(lon, lat, lon, lat)) {
      let inside = false;
      for (const r of this.areas[i].rings) if (inRing(lon, lat, r)) inside = !inside;
      if (inside) found.push(i);
    }
    return found.sort((a, b) => a - b);
  }
}
