/**
 * Cuts a feature table into tiles, zoom by zoom: each feature present at a zoom is
 * simplified for it, dropped when too small to see, cut into the tiles it touches
 * (a band of columns, then rows: a country-sized polygon is cut in a few passes, not
 * once per tile), and its pieces, in tile-local integers, are sorted by tile with a
 * counting sort that keeps the drawing order. Tiles are then encoded one at a time
 * in tile-id order and handed on: the pieces of one zoom are all that is held.
 */
import { gzip } from 'node:zlib';
import { zxyToTileId } from 'pmtiles';
import { clipBand, emptyGeom, ringArea, type Geom } from './clip.js';
import { LAYERS, LINE, POINT, POLYGON, type FeatureTable } from './features.js';
import { MvtEncoder, type Piece } from './mvt.js';
import { EXTENT_BITS, MAX_ZOOM, tileSize } from './project.js';
import { simplifyRun } from './simplify.js';

const EARTH = LAYERS.indexOf('earth'),
  BUILDINGS = LAYERS.indexOf('buildings');

/** Tile units around a tile that its features keep (for line joins and labels across edges). */
export const BUFFER = 64;

/** Simplification tolerance in tile units: a unit at the highest zoom, two below. */
export function tolerance(z: number): number {
  return z >= MAX_ZOOM ? 1 : 2;
}

/** Smallest polygon area (tile units²) kept below the highest zoom: about a quarter of a screen pixel. */
export const MIN_AREA = 16;
/**
 * Smallest building (tile units²) kept below the highest zoom: about 110 m² at z13,
 * where a city's every building would make a tile of more than 250 kB.
 */
export const MIN_BUILDING_AREA = 100;
/** Shortest line (tile units) kept below the highest zoom: half a screen pixel. */
export const MIN_LENGTH = 8;

/** What the tiler reports per zoom. */
export interface ZoomReport {
  zoom: number;
  tiles: number;
  features: number;
  pieces: number;
  /** Largest tile, raw MVT bytes and gzipped, and where. */
  maxBytes: number;
  maxGzip: number;
  maxTile: string;
  totalGzip: number;
}

/** Options of `makeTiles`. */
export interface TileOptions {
  minZoom?: number;
  maxZoom?: number;
  /** Called after each zoom. */
  onZoom?: (r: ZoomReport) => void;
}

/** Tiles being gzipped at once: zlib's own threads compress while this one encodes the next. */
const IN_FLIGHT = 32;

/** Gzips tiles on zlib's thread pool and hands them on in the order they came. */
class Compressor {
  private queue: { z: number; x: number; y: number; raw: number; gz: Promise<Uint8Array> }[] = [];
  constructor(private readonly emit: (z: number, x: number, y: number, gz: Uint8Array) => void) {}
  report!: ZoomReport;

  async add(z: number, x: number, y: number, raw: Uint8Array): Promise<void> {
    const gz = new Promise<Uint8Array>((resolve, reject) => gzip(raw, (err, out) => (err ? reject(err) : resolve(out))));
    this.queue.push({ z, x, y, raw: raw.length, gz });
    if (this.queue.length >= IN_FLIGHT) await this.next();
  }

  async flush(): Promise<void> {
    while (this.queue.length) await this.next();
  }

  private async next(): Promise<void> {
    const j = this.queue.shift()!;
    const gz = await j.gz;
    this.emit(j.z, j.x, j.y, gz);
    const r = this.report;
    r.tiles++;
    r.totalGzip += gz.length;
    if (gz.length > r.maxGzip) {
      r.maxGzip = gz.length;
      r.maxTile = `${j.z}/${j.x}/${j.y}`;
    }
    if (j.raw > r.maxBytes) r.maxBytes = j.raw;
  }
}

/**
 * Cuts `t` into gzipped MVT tiles from `minZoom` to `maxZoom` and hands each to
 * `emit` in ascending tile id (the order a clustered PMTiles archive wants).
 */
export async function makeTiles(
  t: FeatureTable,
  emit: (z: number, x: number, y: number, gz: Uint8Array) => void,
  options: TileOptions = {},
): Promise<ZoomReport[]> {
  const reports: ZoomReport[] = [];
  if (t.count === 0) return reports;
  const box = bounds(t);
  const enc = new MvtEncoder(t);
  const out = new Compressor(emit);
  for (let z = options.minZoom ?? 0; z <= (options.maxZoom ?? MAX_ZOOM); z++) {
    const r = await zoom(t, z, box, enc, out);
    reports.push(r);
    options.onZoom?.(r);
  }
  return reports;
}

/** `[minX, minY, maxX, maxY]` of every coordinate of the table, world units. */
export function bounds(t: FeatureTable): [number, number, number, number] {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  const c = t.coords;
  for (let i = 0; i < c.length; i += 2) {
    const x = c[i],
      y = c[i + 1];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  return [x0, y0, x1, y1];
}

// pieces of one zoom, as flat growable arrays
class Pieces {
  tile: number[] = [];
  feature: number[] = [];
  coordStart: number[] = [0];
  partStart: number[] = [0];
  coords = new Int16Array(1 << 20);
  coordLen = 0;
  parts: number[] = [];

  push(x: number, y: number): void {
    if (this.coordLen + 2 > this.coords.length) {
      const next = new Int16Array(this.coords.length * 2);
      next.set(this.coords);
      this.coords = next;
    }
    this.coords[this.coordLen++] = x;
    this.coords[this.coordLen++] = y;
  }
}

async function zoom(t: FeatureTable, z: number, box: number[], enc: MvtEncoder, out: Compressor): Promise<ZoomReport> {
  const size = tileSize(z);
  const unit = size >> EXTENT_BITS;
  const buf = BUFFER * unit;
  const tol = tolerance(z) * unit;
  const last = 2 ** z - 1;
  const tx0 = Math.max(0, Math.floor((box[0] - buf) / size)),
    tx1 = Math.min(last, Math.floor((box[2] + buf) / size));
  const ty0 = Math.max(0, Math.floor((box[1] - buf) / size)),
    ty1 = Math.min(last, Math.floor((box[3] + buf) / size));
  const nx = tx1 - tx0 + 1,
    ny = ty1 - ty0 + 1;
  if (nx * ny > 1 << 26) throw new Error(`zoom ${z}: ${nx}x${ny} tiles is more than a country's worth`);
  const P = new Pieces();
  const g = emptyGeom(),
    gx = emptyGeom(),
    gy = emptyGeom();
  const signs: number[] = [];
  let keep = new Uint8Array(1024);
  let features = 0;
  const top = z >= MAX_ZOOM;

  for (let f = 0; f < t.count; f++) {
    if (z < t.minZoom[f] || z > t.maxZoom[f]) continue;
    const type = t.type[f];
    // the geometry, simplified for this zoom
    g.coords.length = g.parts.length = 0;
    signs.length = 0;
    let v = t.coordStart[f];
    let area = 0,
      length = 0;
    let droppedOuter = false;
    for (let k = t.partStart[f]; k < t.partStart[f + 1]; k++) {
      const n = t.parts[k];
      if (type === POINT) {
        for (let i = 0; i < n; i++) g.coords.push(t.coords[2 * (v + i)], t.coords[2 * (v + i) + 1]);
        g.parts.push(n);
        v += n;
        continue;
      }
      if (keep.length < n) keep = new Uint8Array(n * 2);
      // a quadrilateral (most buildings) is kept whole: nothing to gain, and the
      // quantisation below drops one too small to see
      const kept = type === POLYGON && n <= 5 ? (keep.fill(1, 0, n), n) : simplifyRun(t.coords, v, v + n, tol * tol, keep);
      const start = g.coords.length;
      if (type === POLYGON) {
        const s = ringArea(t.coords, v, v + n);
        if (s <= 0 && droppedOuter) {
          v += n;
          continue;
        } // a hole of a dropped ring
        if (s > 0) droppedOuter = false;
        if (kept < 4) {
          if (s > 0) droppedOuter = true;
          v += n;
          continue;
        }
      }
      for (let i = 0; i < n; i++) if (keep[i]) g.coords.push(t.coords[2 * (v + i)], t.coords[2 * (v + i) + 1]);
      if (type === POLYGON) {
        const s = ringArea(g.coords, start / 2, g.coords.length / 2);
        signs.push(Math.sign(s));
        area += s;
      } else {
        length += lineLength(g.coords, start / 2, g.coords.length / 2);
      }
      g.parts.push(kept);
      v += n;
    }
    if (!g.parts.length) continue;
    if (!top && t.layer[f] !== EARTH) {
      if (type === POLYGON && area < (t.layer[f] === BUILDINGS ? MIN_BUILDING_AREA : MIN_AREA) * unit * unit * 2) continue;
      if (type === LINE && length < MIN_LENGTH * unit) continue;
    }
    features++;

    let x0 = Infinity,
      y0 = Infinity,
      x1 = -Infinity,
      y1 = -Infinity;
    for (let i = 0; i < g.coords.length; i += 2) {
      const x = g.coords[i],
        y = g.coords[i + 1];
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    const cx0 = Math.max(tx0, Math.floor((x0 - buf) / size)),
      cx1 = Math.min(tx1, Math.floor((x1 + buf) / size));
    const cy0 = Math.max(ty0, Math.floor((y0 - buf) / size)),
      cy1 = Math.min(ty1, Math.floor((y1 + buf) / size));
    if (type === POINT) {
      // a point goes in the tile it is in (labels are placed across tile edges by the renderer)
      const px = Math.floor(x0 / size),
        py = Math.floor(y0 / size);
      addPiece(P, { feature: f, geom: g, type, signs }, { tile: (py - ty0) * nx + (px - tx0), ox: px * size, oy: py * size, unit });
      continue;
    }
    if (cx0 === cx1 && cy0 === cy1) {
      addPiece(P, { feature: f, geom: g, type, signs }, { tile: (cy0 - ty0) * nx + (cx0 - tx0), ox: cx0 * size, oy: cy0 * size, unit });
      continue;
    }
    for (let cx = cx0; cx <= cx1; cx++) {
      clipBand(g, cx * size - buf, (cx + 1) * size + buf, 0, type === POLYGON, gx);
      if (!gx.parts.length) continue;
      for (let cy = cy0; cy <= cy1; cy++) {
        clipBand(gx, cy * size - buf, (cy + 1) * size + buf, 1, type === POLYGON, gy);
        if (!gy.parts.length) continue;
        const cut = { feature: f, geom: gy, type, signs: type === POLYGON ? ringSigns(gy) : signs };
        addPiece(P, cut, { tile: (cy - ty0) * nx + (cx - tx0), ox: cx * size, oy: cy * size, unit });
      }
    }
  }

  // counting sort of the pieces by tile, stable: each tile's pieces stay in drawing order
  const count = new Uint32Array(nx * ny + 1);
  for (const tile of P.tile) count[tile + 1]++;
  for (let i = 1; i < count.length; i++) count[i] += count[i - 1];
  const order = new Uint32Array(P.tile.length);
  const at = count.slice(0, nx * ny);
  for (let p = 0; p < P.tile.length; p++) order[at[P.tile[p]]++] = p;
  const tiles: number[] = [];
  for (let i = 0; i < nx * ny; i++) if (count[i + 1] > count[i]) tiles.push(i);
  const ids = new Map<number, number>();
  for (const i of tiles) ids.set(i, zxyToTileId(z, tx0 + (i % nx), ty0 + Math.floor(i / nx)));
  tiles.sort((a, b) => ids.get(a)! - ids.get(b)!);

  const report: ZoomReport = { zoom: z, tiles: 0, features, pieces: P.tile.length, maxBytes: 0, maxGzip: 0, maxTile: '', totalGzip: 0 };
  out.report = report;
  const piece: Piece = { feature: 0, coords: P.coords, from: 0, parts: P.parts, partFrom: 0, partTo: 0 };
  for (const i of tiles) {
    const x = tx0 + (i % nx),
      y = ty0 + Math.floor(i / nx);
    enc.begin();
    for (let k = count[i]; k < count[i + 1]; k++) {
      const p = order[k];
      piece.feature = P.feature[p];
      piece.from = P.coordStart[p];
      piece.partFrom = P.partStart[p];
      piece.partTo = P.partStart[p + 1];
      enc.add(piece, z);
    }
    const raw = enc.finish();
    if (raw.length) await out.add(z, x, y, raw);
  }
  await out.flush();
  return report;
}

// the signs of the rings left after clipping: a clipped ring keeps its winding, so its
// own area says whether it is an outer ring or a hole
function ringSigns(g: Geom): number[] {
  const signs: number[] = [];
  let v = 0;
  for (const n of g.parts) {
    signs.push(Math.sign(ringArea(g.coords, v, v + n)));
    v += n;
  }
  return signs;
}

/** A feature's shape to cut into a tile: the feature, its geometry, its type and the sign of each ring's area. */
interface Cut {
  feature: number;
  geom: Geom;
  type: number;
  signs: number[];
}

/** A tile a piece goes into: its index in the zoom's grid, its corner (ox, oy) and the zoom's unit. */
interface Cell {
  tile: number;
  ox: number;
  oy: number;
  unit: number;
}

/**
 * Quantises the cut's geometry into tile units of the cell and appends it as a piece of its
 * feature: repeated vertices go, lines keep 2 or more, rings 3 or more (unclosed, as MVT
 * wants) and the winding they had; a hole goes with its outer ring.
 */
function addPiece(P: Pieces, { feature: f, geom: g, type, signs }: Cut, { tile, ox, oy, unit }: Cell): void {
  const firstPart = P.parts.length;
  const inv = 1 / unit;
  let v = 0;
  let outerGone = false;
  for (let k = 0; k < g.parts.length; k++) {
    const n = g.parts[k];
    const start = P.coordLen;
    let px = NaN,
      py = NaN;
    const end = type === POLYGON ? n - 1 : n; // a ring's closing vertex is implied
    for (let i = 0; i < end; i++) {
      const x = Math.round((g.coords[2 * (v + i)] - ox) * inv);
      const y = Math.round((g.coords[2 * (v + i) + 1] - oy) * inv);
      if (x === px && y === py && type !== POINT) continue;
      P.push(x, y);
      px = x;
      py = y;
    }
    v += n;
    let m = (P.coordLen - start) / 2;
    if (type === POLYGON) {
      // the ring may end where it started
      if (m > 1 && P.coords[start] === P.coords[P.coordLen - 2] && P.coords[start + 1] === P.coords[P.coordLen - 1]) {
        P.coordLen -= 2;
        m--;
      }
      const want = signs[k];
      const s = m >= 3 ? ringArea(P.coords, start / 2, start / 2 + m) : 0;
      const outer = want > 0;
      if (m < 3 || s === 0 || Math.sign(s) !== want || (!outer && outerGone)) {
        if (outer) outerGone = true;
        P.coordLen = start;
        continue;
      }
      if (outer) outerGone = false;
    } else if (type === LINE && m < 2) {
      P.coordLen = start;
      continue;
    }
    P.parts.push(m);
  }
  if (P.parts.length === firstPart) return;
  P.tile.push(tile);
  P.feature.push(f);
  P.coordStart.push(P.coordLen / 2);
  P.partStart.push(P.parts.length); // (each holds its pieces' starts and the end)
}

function lineLength(c: ArrayLike<number>, from: number, to: number): number {
  let s = 0;
  for (let i = from; i + 1 < to; i++) s += Math.hypot(c[2 * i + 2] - c[2 * i], c[2 * i + 3] - c[2 * i + 1]);
  return s;
}
