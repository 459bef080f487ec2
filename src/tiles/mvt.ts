/**
 * Mapbox Vector Tile 2.1 encoding of one tile's features, on `pbf`'s writer: layers in
 * order, each with its own key and value tables, geometry as zig-zag command runs.
 * Not vt-pbf: it encodes from GeoJSON-like feature objects (geojson-vt's output), and
 * our features are rows of typed arrays.
 */
import { PbfWriter } from 'pbf';
import { EXTENT } from './project.js';
import { LAYERS, POINT, POLYGON, type FeatureTable } from './features.js';

/** A piece of a feature inside one tile: tile-local integer coordinates and part sizes. */
export interface Piece {
  feature: number;
  /** Tile coordinates, x, y pairs; rings are not closed (MVT closes them). */
  coords: Int16Array | Int32Array | number[];
  from: number;
  /** Vertex count per point run, line or ring. */
  parts: ArrayLike<number>;
  partFrom: number;
  partTo: number;
}

/**
 * Encodes one tile at a time from a feature table. `layer` opens (or continues) a
 * layer; features must come grouped by layer in `LAYERS` order.
 */
export class MvtEncoder {
  private pbf = new PbfWriter();
  // per layer: global key/value id -> local index, valid while its stamp is current
  private readonly keyLocal: Int32Array;
  private readonly keyStamp: Uint32Array;
  private readonly valueLocal: Int32Array;
  private readonly valueStamp: Uint32Array;
  private stamp = 0;
  private layerKeys: number[] = [];
  private layerValues: number[] = [];
  private current = -1;
  private layerStart = 0;
  private tags: number[] = [];
  private geom: number[] = [];

  constructor(private readonly t: FeatureTable) {
    this.keyLocal = new Int32Array(t.keys.length);
    this.keyStamp = new Uint32Array(t.keys.length);
    this.valueLocal = new Int32Array(t.values.length);
    this.valueStamp = new Uint32Array(t.values.length);
  }

  /** Starts a new tile. */
  begin(): void {
    this.pbf = new PbfWriter();
    this.current = -1;
  }

  /** Adds a piece of feature `p.feature` at zoom `z` (names are left out below its name zoom). */
  add(p: Piece, z: number): void {
    const t = this.t;
    const f = p.feature;
    const layer = t.layer[f];
    if (layer !== this.current) {
      this.endLayer();
      this.current = layer;
      this.stamp++;
      this.layerKeys = [];
      this.layerValues = [];
      // layer message: tag 3, length-delimited; its length is patched in endLayer
      this.pbf.writeTag(3, 2);
      this.layerStart = this.pbf.pos;
      this.pbf.realloc(4);
      this.pbf.pos += 4; // room for the length as a 4-byte varint
      this.pbf.writeVarintField(15, 2); // version
      this.pbf.writeStringField(1, LAYERS[layer]);
    }
    const tags = this.tags;
    tags.length = 0;
    const dropNames = z < t.nameZoom[f];
    for (let i = t.propStart[f]; i < t.propStart[f + 1]; i++) {
      const k = t.props[2 * i],
        v = t.props[2 * i + 1];
      if (dropNames && t.nameKeys[k]) continue;
      if (this.keyStamp[k] !== this.stamp) {
        this.keyStamp[k] = this.stamp;
        this.keyLocal[k] = this.layerKeys.length;
        this.layerKeys.push(k);
      }
      if (this.valueStamp[v] !== this.stamp) {
        this.valueStamp[v] = this.stamp;
        this.valueLocal[v] = this.layerValues.length;
        this.layerValues.push(v);
      }
      tags.push(this.keyLocal[k], this.valueLocal[v]);
    }
    const type = t.type[f];
    encodeGeometry(type, p, this.geom);
    if (!this.geom.length) return;
    const pbf = this.pbf;
    pbf.writeMessage(2, writeFeature, { tags, type, geom: this.geom });
  }

  /** The tile's bytes (uncompressed); empty when nothing was added. */
  finish(): Uint8Array {
    this.endLayer();
    return this.pbf.finish();
  }

  private endLayer(): void {
    if (this.current < 0) return;
    const pbf = this.pbf;
    for (const k of this.layerKeys) pbf.writeStringField(3, this.t.keys[k]);
    for (const v of this.layerValues) pbf.writeMessage(4, writeValue, this.t.values[v]);
    pbf.writeVarintField(5, EXTENT);
    // patch the layer's length in as a padded 4-byte varint
    const len = pbf.pos - this.layerStart - 4;
    const b = pbf.buf;
    b[this.layerStart] = (len & 0x7f) | 0x80;
    b[this.layerStart + 1] = ((len >>> 7) & 0x7f) | 0x80;
    b[this.layerStart + 2] = ((len >>> 14) & 0x7f) | 0x80;
    b[this.layerStart + 3] = (len >>> 21) & 0x7f;
    this.current = -1;
  }
}

function writeFeature(f: { tags: number[]; type: number; geom: number[] }, pbf: PbfWriter): void {
  if (f.tags.length) pbf.writeMessage(2, writePacked, f.tags);
  pbf.writeVarintField(3, f.type);
  pbf.writeMessage(4, writePacked, f.geom);
}

function writePacked(arr: number[], pbf: PbfWriter): void {
  for (const v of arr) pbf.writeVarint(v);
}

function writeValue(v: string | number | boolean, pbf: PbfWriter): void {
  if (typeof v === 'string') pbf.writeStringField(1, v);
  else if (typeof v === 'boolean') pbf.writeBooleanField(7, v);
  else if (!Number.isInteger(v)) pbf.writeDoubleField(3, v);
  else if (v < 0) pbf.writeSVarintField(6, v);
  else pbf.writeVarintField(5, v);
}

const command = (id: number, count: number) => (count << 3) | (id & 7);
const zigzag = (n: number) => (n << 1) ^ (n >> 31);

/** MVT geometry commands of a piece into `out` (reset first). */
export function encodeGeometry(type: number, p: Piece, out: number[]): void {
  out.length = 0;
  const c = p.coords;
  let x = 0,
    y = 0;
  let v = p.from;
  if (type === POINT) {
    let n = 0;
    for (let k = p.partFrom; k < p.partTo; k++) n += p.parts[k];
    if (!n) return;
    out.push(command(1, n));
    for (let i = 0; i < n; i++, v++) {
      const px = c[2 * v],
        py = c[2 * v + 1];
      out.push(zigzag(px - x), zigzag(py - y));
      x = px;
      y = py;
    }
    return;
  }
  for (let k = p.partFrom; k < p.partTo; k++) {
    const n = p.parts[k];
    const px = c[2 * v],
      py = c[2 * v + 1];
    out.push(command(1, 1), zigzag(px - x), zigzag(py - y));
    x = px;
    y = py;
    out.push(command(2, n - 1));
    for (let i = 1; i < n; i++) {
      const qx = c[2 * (v + i)],
        qy = c[2 * (v + i) + 1];
      out.push(zigzag(qx - x), zigzag(qy - y));
      x = qx;
      y = qy;
    }
    if (type === POLYGON) out.push(command(7, 1));
    v += n;
  }
}
