import { contours } from 'd3-contour';

/** Metres per degree of latitude (R = 6371.0088 km, as geom/haversine.ts). */
const M_PER_DEG = (6371008.8 * Math.PI) / 180;

/** How the grid of an isochrone is laid out and how land off the roads counts. */
export interface GridOptions {
  /** Most cells along a side of the grid (default 256): bounds the work of the contours. */
  maxCells?: number;
  /** Smallest cell, metres (default 25): finer says nothing the roads' positions support. */
  minCell?: number;
  /** How far off a road a point may lie and count, in cells (default 2). */
  reachCells?: number;
  /** Walking speed off the road, km/h (default 5): a point off the road is reached that much later. */
  walkKmh?: number;
}

/** The defaults of `GridOptions`, as the docs state them. */
export const GRID = { maxCells: 128, minCell: 25, reachCells: 2, walkKmh: 5 } as const;

/**
 * The stretches of road a search reached, in travel order, as a flat list: per stretch its
 * points as `lon, lat, time` triples (time in ms at that point), added with `add`. Each
 * stretch is a polyline along which time grows linearly with distance between its points.
 */
export class Reached {
  data = new Float64Array(3 * 4096);
  /** Where each stretch starts in `data` (in triples), and the number of stretches. */
  starts: Uint32Array = new Uint32Array(1024);
  count = 0;
  private size = 0;
  minLon = Infinity;
  minLat = Infinity;
  maxLon = -Infinity;
  maxLat = -Infinity;

  /** Starts a stretch. */
  begin(): void {
    if (this.count + 1 >= this.starts.length) {
      const s = new Uint32Array(this.starts.length * 2);
      s.set(this.starts);
      this.starts = s;
    }
    this.starts[this.count++] = this.size;
    this.starts[this.count] = this.size;
  }

  /** Adds a point to the current stretch. */
  point(lon: number, lat: number, time: number): void {
    if (3 * (this.size + 1) > this.data.length) {
      const d = new Float64Array(this.data.length * 2);
      d.set(this.data);
      this.data = d;
    }
    const i = 3 * this.size++;
    this.data[i] = lon;
    this.data[i + 1] = lat;
    this.data[i + 2] = time;
    this.starts[this.count] = this.size;
    if (lon < this.minLon) this.minLon = lon;
    if (lon > this.maxLon) this.maxLon = lon;
    if (lat < this.minLat) this.minLat = lat;
    if (lat > this.maxLat) this.maxLat = lat;
  }
}

/** A GeoJSON MultiPolygon, `[lon, lat]` positions. */
export interface MultiPolygon {
  type: 'MultiPolygon';
  coordinates: number[][][][];
}

/**
 * The contours of the reached roads at each of `limits` (ms): per limit, the area where some road
 * point reached at time t lies within `reachCells` cells, with t plus the walk from it (at
 * `walkKmh`) within the limit. Each grid vertex gets that least time exactly (per road segment,
 * the nearest point and the time there); marching squares (d3-contour) traces the limits between
 * them, with holes where nothing is reached. Exterior rings are counterclockwise, holes clockwise (RFC 7946).
 *
 * A time grid rather than hulls of the reached segments: hulls have no holes and bridge the land
 * between two roads that no road joins; the grid follows the network, with holes, at a resolution
 * (its cell) that its size bounds.
 */
export function contourReached(reached: Reached, limits: readonly number[], options: GridOptions = {}): MultiPolygon[] {
  const maxCells = options.maxCells ?? GRID.maxCells,
    minCell = options.minCell ?? GRID.minCell,
    reachCells = options.reachCells ?? GRID.reachCells;
  const walk = (options.walkKmh ?? GRID.walkKmh) / 3.6; // metres per second
  const msPerM = 1000 / walk;
  if (reached.count === 0 || reached.minLon > reached.maxLon) return limits.map(() => ({ type: 'MultiPolygon', coordinates: [] }));
  const lat0 = (reached.minLat + reached.maxLat) / 2,
    lon0 = (reached.minLon + reached.maxLon) / 2;
  const kx = M_PER_DEG * Math.cos((lat0 * Math.PI) / 180),
    ky = M_PER_DEG;
  const w = (reached.maxLon - reached.minLon) * kx,
    h = (reached.maxLat - reached.minLat) * ky;
  // a margin of the reach and one more cell round the roads, so that every contour closes inside the grid
  const pad = reachCells + 2;
  const cell = Math.max(minCell, Math.max(w, h) / (maxCells - 2 * pad));
  const nx = Math.ceil(w / cell) + 2 * pad + 1,
    ny = Math.ceil(h / cell) + 2 * pad + 1;
  // grid vertex (i, j) lies at local metres (x0 + i * cell, y0 + j * cell); local x east, y north
  const x0 = (reached.minLon - lon0) * kx - pad * cell,
    y0 = (reached.minLat - lat0) * ky - pad * cell;
  const top = Math.max(...limits);
  const UNREACHED = 4 * top + 1;
  const grid = new Float64Array(nx * ny).fill(UNREACHED);
  const R = reachCells * cell,
    R2 = R * R;
  const d = reached.data;
  for (let s = 0; s < reached.count; s++) {
    const from = reached.starts[s],
      to = reached.starts[s + 1];
    for (let p = from; p + 1 < to; p++) {
      const ax = (d[3 * p] - lon0) * kx,
        ay = (d[3 * p + 1] - lat0) * ky,
        at = d[3 * p + 2];
      const bx = (d[3 * p + 3] - lon0) * kx,
        by = (d[3 * p + 4] - lat0) * ky,
        bt = d[3 * p + 5];
      const dx = bx - ax,
        dy = by - ay;
      const len2 = dx * dx + dy * dy;
      // no vertex gets less than the segment's earliest time: one already as early keeps its value
      // (stretches come in the search's order, so most vertices of later ones are taken already)
      const tmin = at < bt ? at : bt;
      // the vertices within R of the segment, and at each the least time: the nearest point's plus the walk
      const i0 = Math.max(0, Math.ceil((Math.min(ax, bx) - R - x0) / cell)),
        i1 = Math.min(nx - 1, Math.floor((Math.max(ax, bx) + R - x0) / cell));
      const j0 = Math.max(0, Math.ceil((Math.min(ay, by) - R - y0) / cell)),
        j1 = Math.min(ny - 1, Math.floor((Math.max(ay, by) + R - y0) / cell));
      for (let j = j0; j <= j1; j++) {
        const y = y0 + j * cell;
        const row = j * nx;
        for (let i = i0; i <= i1; i++) {
          if (grid[row + i] <= tmin) continue;
          const x = x0 + i * cell;
          let f = len2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / len2 : 0;
          f = f < 0 ? 0 : f > 1 ? 1 : f;
          const ex = ax + f * dx - x,
            ey = ay + f * dy - y;
          const e2 = ex * ex + ey * ey;
          if (e2 > R2) continue;
          const t = at + f * (bt - at) + Math.sqrt(e2) * msPerM;
          if (t < grid[row + i]) grid[row + i] = t;
        }
      }
    }
  }
  // d3-contour traces where values are at least the threshold: negate, so that it traces time ≤ limit
  for (let k = 0; k < grid.length; k++) grid[k] = -grid[k];
  const gen = contours().size([nx, ny]);
  // d3-contour puts value (i, j) at (i + 0.5, j + 0.5); its rings come out exteriors clockwise with
  // y growing northwards, as here: reversed for RFC 7946's counterclockwise exteriors
  const lonOf = (X: number) => Math.round((lon0 + (x0 + (X - 0.5) * cell) / kx) * 1e6) / 1e6,
    latOf = (Y: number) => Math.round((lat0 + (y0 + (Y - 0.5) * cell) / ky) * 1e6) / 1e6;
  return limits.map((limit) => {
    const c = gen.contour(grid as unknown as number[], -limit);
    return {
      type: 'MultiPolygon',
      coordinates: c.coordinates.map((poly) => poly.map((ring) => ring.map(([X, Y]) => [lonOf(X), latOf(Y)]).reverse())),
    };
  });
}

/** The cell size, metres, `contourReached` uses for reached roads spanning `w` × `h` metres. */
export function cellSize(w: number, h: number, options: GridOptions = {}): number {
  const pad = (options.reachCells ?? GRID.reachCells) + 2;
  return Math.max(options.minCell ?? GRID.minCell, Math.max(w, h) / ((options.maxCells ?? GRID.maxCells) - 2 * pad));
}
