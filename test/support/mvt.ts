/**
 * A minimal Mapbox Vector Tile 2.1 encoder for tests: layers of points and lines with
 * properties, in tile coordinates (extent 4096). Enough to make real tiles that
 * `@mapbox/vector-tile` and MapLibre read, without the project's tile builder.
 */
import { PbfWriter } from 'pbf';

/** A test feature: a point or a line in tile coordinates, with its properties. */
export interface TestFeature {
  id?: number;
  type: 'point' | 'line';
  coords: [number, number][];
  properties: Record<string, string | number | boolean>;
}

/** Encodes `layers` (name → features) as one MVT tile. */
export function encodeMvt(layers: Record<string, TestFeature[]>, extent = 4096): Uint8Array {
  const pbf = new PbfWriter();
  for (const [name, features] of Object.entries(layers)) pbf.writeMessage(3, writeLayer, { name, features, extent });
  return pbf.finish();
}

function writeLayer(layer: { name: string; features: TestFeature[]; extent: number }, pbf: PbfWriter): void {
  const keys: string[] = [];
  const values: (string | number | boolean)[] = [];
  const index = <T>(list: T[], v: T) => {
    const i = list.indexOf(v);
    return i >= 0 ? i : list.push(v) - 1;
  };
  pbf.writeVarintField(15, 2);
  pbf.writeStringField(1, layer.name);
  for (const f of layer.features) {
    const tags: number[] = [];
    for (const [k, v] of Object.entries(f.properties)) tags.push(index(keys, k), index(values, v));
    pbf.writeMessage(2, writeFeature, { f, tags });
  }
  for (const k of keys) pbf.writeStringField(3, k);
  for (const v of values) pbf.writeMessage(4, writeValue, v);
  pbf.writeVarintField(5, layer.extent);
}

function writeFeature({ f, tags }: { f: TestFeature; tags: number[] }, pbf: PbfWriter): void {
  if (f.id !== undefined) pbf.writeVarintField(1, f.id);
  pbf.writePackedVarint(2, tags);
  pbf.writeVarintField(3, f.type === 'point' ? 1 : 2);
  const geometry: number[] = [];
  let x = 0;
  let y = 0;
  const zigzag = (n: number) => (n << 1) ^ (n >> 31);
  const command = (id: number, count: number) => (id & 7) | (count << 3);
  f.coords.forEach(([cx, cy], i) => {
    if (i === 0) geometry.push(command(1, 1));
    else if (i === 1) geometry.push(command(2, f.coords.length - 1));
    geometry.push(zigzag(cx - x), zigzag(cy - y));
    x = cx;
    y = cy;
  });
  pbf.writePackedVarint(4, geometry);
}

function writeValue(v: string | number | boolean, pbf: PbfWriter): void {
  if (typeof v === 'string') pbf.writeStringField(1, v);
  else if (typeof v === 'boolean') pbf.writeBooleanField(7, v);
  else if (Number.isInteger(v)) pbf.writeSVarintField(6, v);
  else pbf.writeDoubleField(3, v);
}
