import { TagReader, type Block, type TagRuns } from '../load/block.js';
import type { Osm } from '../load/osm.js';
import { List } from '../model/list.js';
import { StringTable } from '../model/strings.js';
import {
  POINT,
  LINE,
  POLYGON,
  MULTIPOLYGON,
  PLACE,
  LOCALITY,
  STREET,
  BUILDING,
  COLUMNS,
  COLUMN_NAMES,
  type Column,
  type ColumnArray,
  type ColumnName,
  type ColumnSize,
  type PlaceTable,
  type Sizes,
} from '../model/table.js';
import { keyFlags, placeTypes, typeKey, FEATURE, NODE_FEATURE, PLACE_KEY, NAME, BUILDING_KEY, ADDRESS } from '../osm/place.js';
import { isArea } from '../place/area.js';
import { placeName } from '../osm/name.js';
import { prominence } from '../place/score.js';
import { Centroid, orient, inRing, ringAreaM2, signedArea2 } from '../geom/measure.js';
import { joinRings, type Chain } from '../geom/rings.js';
import { Schedules } from '../hours/schedules.js';
import type { LoadStats } from '../types.js';

/** Exact upper bounds of a table's sizes, from the kept objects of decoded blocks. */
export function sizesOf(blocks: Block[]): Sizes {
  let places = 0,
    pairs = 0,
    refs = 0;
  for (const blk of blocks) {
    for (const r of [blk.nodeTags, blk.wayTags, blk.relTags]) {
      places += r.owner.length;
      pairs += r.kv.length / 2;
    }
    for (const w of blk.wayTags.owner) refs += blk.wayRefStart[w + 1] - blk.wayRefStart[w];
  }
  return { places, pairs, refs };
}

/** Builds the place table of decoded OSM data at once, counting what it reads and skips. */
export function buildPlaces(osm: Osm, stats: LoadStats): PlaceTable {
  osm.indexNodes();
  osm.indexWays();
  const pb = new PlaceBuilder(osm, stats, sizesOf(osm.blocks));
  osm.blocks.forEach((b, i) => pb.nodes(b, i));
  osm.blocks.forEach((b, i) => pb.ways(b, i));
  osm.blocks.forEach((b, i) => pb.relations(b, i));
  return pb.finish();
}

/**
 * Turns the kept objects of decoded blocks into place rows, block by block: the
 * nodes of a block need nothing else; its ways need the nodes indexed (`osm.indexNodes`),
 * its relations the ways.
 */
export class PlaceBuilder {
  private readonly b: Builder;
  // the tags of the object `read` last made a row of
  private readonly keys: string[] = [];
  private readonly vals: string[] = [];
  private readonly kv: number[] = [];
  private readonly coords: number[] = [];
  // per block: its string index -> the table's, interned on first use
  private cacheBlock = -1;
  private cache = new Int32Array(0);
  // per block: its string index -> `keyFlags` of it as a key, -1 until first asked
  private flags = new Int16Array(0);

  constructor(
    private readonly osm: Osm,
    private readonly stats: LoadStats,
    sizes: Sizes,
  ) {
    this.b = new Builder(sizes.places, sizes.pairs, sizes.refs);
  }

  /** Adds the node places of block `bi`. */
  nodes(blk: Block, bi: number): void {
    const runs = blk.nodeTags;
    for (let i = 0; i < runs.owner.length; i++) {
      const what = this.read(blk, bi, runs, i, 0);
      if (what < 0) continue;
      const n = runs.owner[i];
      this.b.add({
        id: blk.nodeBase + blk.nodeId[n],
        kind: 0,
        what,
        keys: this.keys,
        vals: this.vals,
        kv: this.kv,
        geom: POINT,
        centroid: [blk.nodeLon[n], blk.nodeLat[n]],
        shape: [],
        coords: [],
        areaM2: 0,
      });
    }
  }

  /** Adds the way places of block `bi`. */
  ways(blk: Block, bi: number): void {
    const { osm, stats, b } = this;
    const runs = blk.wayTags;
    for (let i = 0; i < runs.owner.length; i++) {
      const what = this.read(blk, bi, runs, i, 1);
      if (what < 0) continue;
      const { keys, vals, kv } = this;
      // only places count in the stats: the other rows are kept for search and addresses
      const place = what === PLACE;
      const w = runs.owner[i];
      const id = blk.wayId[w];
      const s = blk.wayRefStart[w],
        e = blk.wayRefStart[w + 1];
      const coords = this.coords;
      coords.length = 0;
      let missing = 0;
      for (let k = s; k < e; k++) if (!osm.coord(blk.wayRef[k], coords)) missing++;
      if (coords.length < 4) {
        if (place) stats.skippedWays++;
        continue;
      }
      const closed = e - s >= 4 && blk.wayRef[s] === blk.wayRef[e - 1];
      if (missing && place) stats.partial++;
      if (closed && isArea(keys, vals) && distinct(coords) >= 3) {
        if (missing && (coords[0] !== coords[coords.length - 2] || coords[1] !== coords[coords.length - 1])) {
          coords.push(coords[0], coords[1]); // re-close what the extract cut
        }
        orient(coords, true);
        const c = new Centroid();
        c.ring(coords);
        b.add({
          id,
          kind: 1,
          what,
          keys,
          vals,
          kv,
          geom: POLYGON,
          centroid: c.result(),
          shape: [1, coords.length / 2],
          coords,
          areaM2: ringAreaM2(coords),
        });
        continue;
      }
      const c = new Centroid();
      c.line(coords);
      b.add({ id, kind: 1, what, keys, vals, kv, geom: LINE, centroid: c.result(), shape: [coords.length / 2], coords, areaM2: 0 });
    }
  }

  /** Adds the multipolygon places of block `bi`. */
  relations(blk: Block, bi: number): void {
    const runs = blk.relTags;
    for (let i = 0; i < runs.owner.length; i++) {
      const what = this.read(blk, bi, runs, i, 2);
      const { keys, vals } = this;
      const t = keys.indexOf('type');
      if (t < 0 || what < 0 || !(vals[t] === 'multipolygon' || (vals[t] === 'boundary' && what === LOCALITY))) continue;
      const place = what === PLACE;
      const r = runs.owner[i];
      const mp = assembleMultipolygon(this.osm, blk, r);
      if (!mp) {
        if (place) this.stats.skippedRelations++;
        continue;
      }
      if (mp.partial && place) this.stats.partial++;
      const shape: number[] = [mp.polygons.length];
      const flat: number[] = [];
      const c = new Centroid();
      let area = 0;
      for (const poly of mp.polygons) {
        shape.push(poly.length);
        poly.forEach((ring, k) => {
          shape.push(ring.length / 2);
          for (const v of ring) flat.push(v);
          c.ring(ring);
          area += k === 0 ? ringAreaM2(ring) : -ringAreaM2(ring);
        });
      }
      this.b.add({
        id: blk.relId[r],
        kind: 2,
        what,
        keys,
        vals,
        kv: this.kv,
        geom: MULTIPOLYGON,
        centroid: c.result(),
        shape,
        coords: flat,
        areaM2: Math.max(0, area),
      });
    }
  }

  /** The finished table. */
  finish(): PlaceTable {
    return this.b.finish();
  }

  private readonly reader = new TagReader();

  // Returns the row object i of the runs makes (a `kind` 0 node, 1 way, 2 relation) from its keys'
  // flags (`rowKindOf`), -1 for none; only a row's tags are read as strings and interned: most
  // kept objects (unnamed roads and buildings, crossings, barriers) make none.
  private read(blk: Block, bi: number, runs: TagRuns, i: number, kind: number): number {
    if (bi !== this.cacheBlock) {
      this.cacheBlock = bi;
      this.cache = new Int32Array(blk.strings.length).fill(-1);
      this.flags = new Int16Array(blk.strings.length).fill(-1);
    }
    const { cache, flags: fc } = this;
    const s = blk.strings;
    const reader = this.reader.on(runs, s).at(i);
    let flags = 0;
    for (let j = 0; j < reader.count; j++) {
      const k = reader.keyIndex(j);
      flags |= fc[k] >= 0 ? fc[k] : (fc[k] = keyFlags(s[k]));
    }
    const what = rowKindOf(flags, kind);
    // a relation's `type` is read even when it makes no row
    if (what < 0 && kind !== 2) return what;
    const { keys, vals, kv } = this;
    keys.length = vals.length = kv.length = 0;
    for (let j = 0; j < reader.count; j++) {
      const k = reader.keyIndex(j),
        v = reader.valueIndex(j);
      keys.push(s[k]);
      vals.push(s[v]);
      kv.push(cache[k] >= 0 ? cache[k] : (cache[k] = this.b.intern(s[k])));
      kv.push(cache[v] >= 0 ? cache[v] : (cache[v] = this.b.intern(s[v])));
    }
    return what;
  }
}

// number of distinct vertices of flat coordinates, counted up to 3
function distinct(r: number[]): number {
  let n = 0;
  outer: for (let i = 0; i < r.length && n < 3; i += 2) {
    for (let j = 0; j < i; j += 2) if (r[j] === r[i] && r[j + 1] === r[i + 1]) continue outer;
    n++;
  }
  return n;
}

/** A multipolygon relation's rings joined into polygons. */
export interface Multipolygon {
  /** Each polygon: outer ring first, then holes; flat lon/lat rings, oriented. */
  polygons: number[][][];
  partial: boolean;
}

/**
 * Joins the outer and inner member ways of relation `r` of a block into oriented
 * polygons; undefined when no outer ring closes. `partial` tells that members were
 * missing or chains stayed open.
 */
export function assembleMultipolygon(osm: Osm, blk: Block, r: number): Multipolygon | undefined {
  const outer: Chain[] = [];
  const inner: Chain[] = [];
  let partial = false;
  for (let m = blk.relMemStart[r]; m < blk.relMemStart[r + 1]; m++) {
    if (blk.relMemType[m] !== 1) continue;
    const role = blk.strings[blk.relMemRole[m]];
    if (role !== 'outer' && role !== 'inner' && role !== '') continue;
    const refs = osm.wayRefs(blk.relMemRef[m]);
    if (!refs) {
      partial = true;
      continue;
    }
    const chain = Array.from(refs);
    (role === 'inner' ? inner : outer).push(chain);
  }
  const toRings = (chains: Chain[], isOuter: boolean): number[][] => {
    const joined = joinRings(chains);
    if (joined.open) partial = true;
    const rings: number[][] = [];
    for (const ids of joined.rings) {
      const flat: number[] = [];
      for (const id of ids) if (!osm.coord(id, flat)) partial = true;
      if (flat.length >= 2 && (flat[0] !== flat[flat.length - 2] || flat[1] !== flat[flat.length - 1])) flat.push(flat[0], flat[1]);
      if (distinct(flat) < 3 || signedArea2(flat) === 0) {
        partial = true;
        continue;
      }
      orient(flat, isOuter);
      rings.push(flat);
    }
    return rings;
  };
  const outers = toRings(outer, true);
  if (!outers.length) return undefined;
  const polygons = outers.map((o) => [o]);
  const areas = outers.map((o) => Math.abs(signedArea2(o)));
  for (const hole of toRings(inner, false)) {
    // the smallest outer that contains the hole's first vertex owns it
    let best = -1;
    for (let k = 0; k < outers.length; k++) {
      if (inRing(hole[0], hole[1], outers[k]) && (best < 0 || areas[k] < areas[best])) best = k;
    }
    if (best < 0) partial = true;
    else polygons[best].push(hole);
  }
  return { polygons, partial };
}

/** One row of the place table, as the place builders hand it to `Builder.add`. */
export interface Row {
  /** The OSM id and kind (0 node, 1 way, 2 relation). */
  id: number;
  kind: number;
  /** PLACE, LOCALITY, STREET or BUILDING. */
  what: number;
  /** Its tags, and their pairs as string indexes (key, value). */
  keys: string[];
  vals: string[];
  kv: number[];
  /** POINT, LINE, POLYGON or MULTIPOLYGON; the centroid (lon, lat, 1e-7 degrees); the shape and coordinates as `COLUMNS` lays them out. */
  geom: number;
  centroid: [number, number];
  shape: number[];
  coords: number[];
  /** Its area in m² (0 for points and lines): part of its prominence. */
  areaM2: number;
}

/** Accumulates place rows and interns their strings. */
class Builder {
  private readonly table = new StringTable();
  /** A growing list per column of the table (`COLUMNS`). */
  private readonly c: { [K in ColumnName]: List<ColumnArray<K>> };
  schedules = new Schedules();
  // the interned types (`placeTypes`) of each distinct set of the tags they are read from (`typeKey`),
  // per nodes and other objects. Why: a file's places share a few thousand such sets, and working
  // each row's types out anew (split, trimmed, lower-cased, interned) was a tenth of the stream's places
  private readonly types = new Map<string, number[]>();

  // Sized from the kept objects' counts: growing arrays of millions costs copies and
  // page faults, and the counts are known before the first place is built.
  constructor(places: number, tagPairs: number, refs: number) {
    const n = places + 1;
    const capacity: Record<ColumnSize, number> = {
      rows: n,
      starts: n,
      pairs: 2 * tagPairs + 1,
      types: n + (n >> 2),
      shape: n,
      coords: 2 * refs + 1024,
    };
    const c: Partial<Record<ColumnName, List<ColumnArray<ColumnName>>>> = {};
    for (const name of COLUMN_NAMES) {
      const column: Column = COLUMNS[name];
      c[name] = new List<ColumnArray<ColumnName>>(column.type as new (n: number) => ColumnArray<ColumnName>, capacity[column.size]);
      // an offsets column starts at 0: row i's values end where row i + 1's begin
      if (column.size === 'starts') c[name].push(0);
    }
    this.c = c as { [K in ColumnName]: List<ColumnArray<K>> };
  }

  intern(s: string): number {
    return this.table.intern(s);
  }

  /** Adds one row: an OSM object, its tags (and their pairs as string indexes) and its geometry. */
  add(row: Row): void {
    const { id, kind, what, keys, vals, kv, geom, centroid, shape, coords, areaM2 } = row;
    const c = this.c;
    c.osmId.push(id);
    c.kind.push(kind);
    c.lon.push(centroid[0]);
    c.lat.push(centroid[1]);
    const name = placeName(keys, vals);
    // the name is one of the values, interned with the tags already
    c.name.push(name === '' ? 0 : kv[2 * vals.indexOf(name) + 1]);
    c.address.push(0); // '' until the addresses are computed, once the whole table is known
    c.addressEn.push(0);
    c.addressNe.push(0);
    c.tagKV.append(kv);
    c.tagStart.push(c.tagKV.length / 2);
    const types = this.typesOf(keys, vals, kv, kind);
    for (const t of types) c.typeList.push(t);
    c.typeStart.push(c.typeList.length);
    c.geom.push(geom);
    c.what.push(what);
    c.primary.push(types.length ? types[0] : this.intern(primaryOf(what, keys, vals)));
    c.shape.append(shape);
    c.shapeStart.push(c.shape.length);
    c.coords.append(coords);
    c.coordStart.push(c.coords.length);
    c.prominence.push(prominence(keys, name !== '', areaM2));
    // opening hours are a place's: other rows are never "open"
    const oh = what === PLACE ? keys.indexOf('opening_hours') : -1;
    c.hours.push(oh < 0 ? -1 : this.schedules.add(vals[oh]));
  }

  // the interned types of a row (`placeTypes`), worked out once per distinct set of the tags they come from
  private typesOf(keys: string[], vals: string[], kv: number[], kind: number): number[] {
    let key = kind === 0 ? 'n' : 'o';
    for (let i = 0; i < keys.length; i++) if (typeKey(keys[i], kind)) key += `\u0000${kv[2 * i]}\u0001${kv[2 * i + 1]}`;
    let ids = this.types.get(key);
    if (!ids) {
      ids = placeTypes(keys, vals, kind).map((t) => this.intern(t));
      this.types.set(key, ids);
    }
    return ids;
  }

  finish(): PlaceTable {
    const columns: Partial<Record<ColumnName, ColumnArray<ColumnName>>> = {};
    // views: the columns were sized up front for the densest data, and copies would double them at a load's peak
    for (const name of COLUMN_NAMES) columns[name] = this.c[name].view();
    return {
      ...(columns as { [K in ColumnName]: ColumnArray<K> }),
      size: this.c.osmId.length,
      strings: this.table.list,
      schedules: this.schedules,
    };
  }
}

// the type of a row without feature types
function primaryOf(what: number, keys: string[], vals: string[]): string {
  const key = what === LOCALITY ? 'place' : what === STREET ? 'highway' : what === BUILDING ? 'building' : '';
  const i = keys.indexOf(key);
  if (i < 0 || vals[i] === 'yes') return what === BUILDING ? 'building' : '';
  return vals[i];
}

/**
 * `rowKind` of an object whose keys' `keyFlags` OR to `flags`: a place (a feature key, or
 * `highway` on a node), a named locality (`place`), a named street (`highway` on a way), a
 * building with an address or a name; -1 for none.
 */
export function rowKindOf(flags: number, kind: number): number {
  if (flags & FEATURE || (kind === 0 && flags & NODE_FEATURE)) return PLACE;
  const named = (flags & NAME) !== 0;
  if (named && flags & PLACE_KEY) return LOCALITY;
  if (named && kind === 1 && flags & NODE_FEATURE) return STREET;
  if (flags & ADDRESS || (named && flags & BUILDING_KEY)) return BUILDING;
  return -1;
}
