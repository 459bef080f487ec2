/**
 * The features of a map, ready to be cut into tiles: one row per feature in flat
 * typed arrays (a Nepal extract has millions, mostly buildings), coordinates in
 * world units (see `project.ts`), properties as pairs of indexes into shared key
 * and value tables.
 */

/** Geometry types, as MVT numbers them. */
export const POINT = 1,
  LINE = 2,
  POLYGON = 3;

/** A property value. */
export type Value = string | number | boolean;

/** The layers of the Protomaps basemap schema, in the order they are written in a tile. */
export const LAYERS = [
  'earth',
  'landcover',
  'landuse',
  'natural',
  'water',
  'boundaries',
  'transit',
  'roads',
  'buildings',
  'pois',
  'places',
] as const;
/** A layer's name. */
export type LayerName = (typeof LAYERS)[number];

/** All features, in drawing order: by layer, then by `min_zoom`, then as added. */
export interface FeatureTable {
  count: number;
  layer: Uint8Array;
  type: Uint8Array;
  /** The first zoom whose tiles hold the feature, and the last. */
  minZoom: Uint8Array;
  maxZoom: Uint8Array;
  /** Below this zoom, the name properties (`nameKeys`) are left out. */
  nameZoom: Uint8Array;
  /** `partStart[f]..partStart[f+1]` index `parts`: each line's or ring's vertex count (rings closed). */
  partStart: Uint32Array;
  parts: Uint32Array;
  /** `coordStart[f]` is the first vertex of feature f in `coords` (x, y pairs). */
  coordStart: Uint32Array;
  coords: Int32Array;
  /** `propStart[f]..propStart[f+1]` index pairs (key, value) in `props`. */
  propStart: Uint32Array;
  props: Uint32Array;
  keys: string[];
  values: Value[];
  /** 1 for keys that are names (left out below `nameZoom`). */
  nameKeys: Uint8Array;
}

/** What a feature is besides its geometry. */
export interface FeatureInfo {
  layer: LayerName;
  type: number;
  minZoom: number;
  maxZoom?: number;
  /** Zoom from which names are written (default: `minZoom`). */
  nameZoom?: number;
  /** Properties in order; undefined values are left out. */
  props: [string, Value | undefined][];
}

const NAME_KEYS = new Set(['name', 'name:en', 'name:ne', 'script', 'pgf:name:ne']);

// a typed array that grows by doubling (src/load/list.ts is out of this folder's reach:
// dependencies point from the loader to the tiles, never back)
class Grow<T extends Int32Array | Uint32Array | Uint8Array> {
  length = 0;
  constructor(
    public data: T,
    private readonly make: (n: number) => T,
  ) {}
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = this.make(this.data.length * 2);
      next.set(this.data as never);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  done(): T {
    return this.data.slice(0, this.length) as T;
  }
}

const u8 = (n: number) => new Uint8Array(n);
const u32 = (n: number) => new Uint32Array(n);
const i32 = (n: number) => new Int32Array(n);

/**
 * Collects features, then sorts them into a `FeatureTable`.
 *
 * @example
 * const sink = new FeatureSink();
 * sink.add({ layer: 'pois', type: POINT, minZoom: 14, props: [['kind', 'cafe']] }, [x, y], [1]);
 * const table = sink.finish();
 */
export class FeatureSink {
  private layer = new Grow(u8(1024), u8);
  private type = new Grow(u8(1024), u8);
  private minZoom = new Grow(u8(1024), u8);
  private maxZoom = new Grow(u8(1024), u8);
  private nameZoom = new Grow(u8(1024), u8);
  private partStart = new Grow(u32(1024), u32);
  private parts = new Grow(u32(1024), u32);
  private coordStart = new Grow(u32(1024), u32);
  private coords = new Grow(i32(8192), i32);
  private propStart = new Grow(u32(1024), u32);
  private props = new Grow(u32(4096), u32);
  private readonly keyIds = new Map<string, number>();
  private readonly valueIds = new Map<Value, number>();
  private readonly keys: string[] = [];
  private readonly values: Value[] = [];
  count = 0;

  constructor() {
    this.partStart.push(0);
    this.propStart.push(0);
  }

  /**
   * Adds a feature: `coords` are world x, y pairs, `parts` the vertex count of each
   * line or ring (a point: `[1]`). Polygon rings must be closed and wound as MVT
   * wants them in y-down coordinates: outer rings with positive area, holes negative.
   */
  add(info: FeatureInfo, coords: ArrayLike<number>, parts: ArrayLike<number>): void {
    this.layer.push(LAYERS.indexOf(info.layer));
    this.type.push(info.type);
    this.minZoom.push(info.minZoom);
    this.maxZoom.push(info.maxZoom ?? 255);
    this.nameZoom.push(info.nameZoom ?? info.minZoom);
    this.coordStart.push(this.coords.length / 2);
    for (let i = 0; i < coords.length; i++) this.coords.push(coords[i]);
    for (let i = 0; i < parts.length; i++) this.parts.push(parts[i]);
    this.partStart.push(this.parts.length);
    for (const [k, v] of info.props) {
      if (v === undefined || v === '') continue;
      let ki = this.keyIds.get(k);
      if (ki === undefined) {
        ki = this.keys.length;
        this.keys.push(k);
        this.keyIds.set(k, ki);
      }
      let vi = this.valueIds.get(v);
      if (vi === undefined) {
        vi = this.values.length;
        this.values.push(v);
        this.valueIds.set(v, vi);
      }
      this.props.push(ki);
      this.props.push(vi);
    }
    this.propStart.push(this.props.length / 2);
    this.count++;
  }

  /** The features sorted by layer, then `minZoom`, then insertion. */
  finish(): FeatureTable {
    const n = this.count;
    const layer = this.layer.data,
      minZoom = this.minZoom.data;
    // a counting sort by (layer, min zoom): stable, and linear in millions of features
    const key = (f: number) => layer[f] * 32 + Math.min(31, minZoom[f]);
    const start = new Uint32Array(LAYERS.length * 32 + 1);
    for (let f = 0; f < n; f++) start[key(f) + 1]++;
    for (let k = 1; k < start.length; k++) start[k] += start[k - 1];
    const order = new Uint32Array(n);
    for (let f = 0; f < n; f++) order[start[key(f)]++] = f;
    const t: FeatureTable = {
      count: n,
      layer: new Uint8Array(n),
      type: new Uint8Array(n),
      minZoom: new Uint8Array(n),
      maxZoom: new Uint8Array(n),
      nameZoom: new Uint8Array(n),
      partStart: new Uint32Array(n + 1),
      parts: new Uint32Array(this.parts.length),
      coordStart: new Uint32Array(n + 1),
      coords: new Int32Array(this.coords.length),
      propStart: new Uint32Array(n + 1),
      props: new Uint32Array(this.props.length),
      keys: this.keys,
      values: this.values,
      nameKeys: Uint8Array.from(this.keys, (k) => (NAME_KEYS.has(k) ? 1 : 0)),
    };
    const coordStart = this.coordStart.data,
      coords = this.coords.data,
      partStart = this.partStart.data,
      parts = this.parts.data;
    const propStart = this.propStart.data,
      props = this.props.data;
    let p = 0,
      c = 0,
      q = 0;
    for (let i = 0; i < n; i++) {
      const f = order[i];
      t.layer[i] = layer[f];
      t.type[i] = this.type.data[f];
      t.minZoom[i] = minZoom[f];
      t.maxZoom[i] = this.maxZoom.data[f];
      t.nameZoom[i] = this.nameZoom.data[f];
      t.partStart[i] = p;
      for (let k = partStart[f]; k < partStart[f + 1]; k++) t.parts[p++] = parts[k];
      t.coordStart[i] = c / 2;
      const end = f + 1 < n ? coordStart[f + 1] : this.coords.length / 2;
      for (let k = 2 * coordStart[f]; k < 2 * end; k++) t.coords[c++] = coords[k];
      t.propStart[i] = q / 2;
      for (let k = 2 * propStart[f]; k < 2 * propStart[f + 1]; k++) t.props[q++] = props[k];
    }
    t.partStart[n] = p;
    t.coordStart[n] = c / 2;
    t.propStart[n] = q / 2;
    return t;
  }
}

/**
 * `t` with one more property on some features: `valueOf(f)` for feature f, left out where it is
 * undefined (a name key, such as `pgf:name:ne`, is left out below `nameZoom` like the others).
 */
export function withProperty(t: FeatureTable, key: string, valueOf: (f: number) => Value | undefined): FeatureTable {
  const keys = t.keys.includes(key) ? t.keys : [...t.keys, key];
  const ki = keys.indexOf(key);
  const values = [...t.values];
  const valueIds = new Map<Value, number>(values.map((v, i) => [v, i]));
  const props = new Grow(u32(t.props.length + 2 * t.count), u32);
  const propStart = new Uint32Array(t.count + 1);
  for (let f = 0; f < t.count; f++) {
    propStart[f] = props.length / 2;
    for (let k = 2 * t.propStart[f]; k < 2 * t.propStart[f + 1]; k++) props.push(t.props[k]);
    const v = valueOf(f);
    if (v === undefined || v === '') continue;
    let vi = valueIds.get(v);
    if (vi === undefined) {
      vi = values.length;
      values.push(v);
      valueIds.set(v, vi);
    }
    props.push(ki);
    props.push(vi);
  }
  propStart[t.count] = props.length / 2;
  return { ...t, props: props.done(), propStart, keys, values, nameKeys: Uint8Array.from(keys, (k) => (NAME_KEYS.has(k) ? 1 : 0)) };
}
