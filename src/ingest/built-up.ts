/**
 * Built-up areas from building density: the grid cells (of the profiles' `builtUp.cellMetres`)
 * holding at least `minBuildings` buildings. Nepal's data maps few `landuse` polygons and
 * fewer town outlines (`place=city|town` are nodes), but its buildings nearly everywhere:
 * density is the one sign of a town the data has throughout.
 */

// metres per degree of latitude (R = 6371.0088 km)
const M_PER_DEG = (6371008.8 * Math.PI) / 180;

/** Counts buildings per cell, then answers whether a point lies in a built-up cell. */
export class BuiltUp {
  private readonly dLat: number;
  private readonly min: number;
  private readonly counts = new Map<number, number>();
  // the cosine of the last row's centre: points come mostly row after row the same (a town's buildings)
  private row = NaN;
  private cos = 0;

  constructor(options: { cellMetres: number; minBuildings: number }) {
    this.dLat = options.cellMetres / M_PER_DEG;
    this.min = options.minBuildings;
  }

  // The cell of a point (1e-7 degrees): rows of equal height, each cut in cells of equal width on the ground.
  private cell(lon: number, lat: number): number {
    const y = lat / 1e7,
      row = Math.floor(y / this.dLat);
    if (row !== this.row) {
      this.row = row;
      this.cos = Math.cos(((row + 0.5) * this.dLat * Math.PI) / 180);
    }
    const col = Math.floor(((lon / 1e7 + 180) * this.cos) / this.dLat);
    return row * 4_194_304 + col;
  }

  /** Counts a building at a point (1e-7 degrees). */
  add(lon: number, lat: number): void {
    const c = this.cell(lon, lat);
    this.counts.set(c, (this.counts.get(c) ?? 0) + 1);
  }

  /** Whether a point (1e-7 degrees) lies in a built-up cell. */
  has(lon: number, lat: number): boolean {
    return (this.counts.get(this.cell(lon, lat)) ?? 0) >= this.min;
  }
}
