import type { Block, TagRuns } from './block.js';
import type { Osm } from './osm.js';
import { List } from './list.js';
import { isPlace, placeTypes } from '../place/feature.js';
import { isArea } from '../place/area.js';
import { placeName, placeAddress } from '../place/label.js';
import { prominence } from '../place/score.js';
import { Centroid, orient, inRing, ringAreaM2, signedArea2 } from '../geom/measure.js';
import { joinRings, type Chain } from '../geom/rings.js';
import { Schedules } from '../hours/schedules.js';
import type { LoadStats } from '../types.js';

/** Geometry kinds, as stored in `PlaceTable.geom`. */
export const POINT = 0, LINE = 1, POLYGON = 2, MULTIPOLYGON = 3;

/**
 * All places of a file as parallel typed arrays, one row per place. Geometry is a
 * flat `coords` array (lon, lat pairs in 1e-7 degrees) described by `shape`:
 * a line is `[n]`, a polygon `[rings, n1, n2…]`, a multipolygon
 * `[polygons, rings, n1…, rings, n1…]`; a point has neither (it is its centroid).
 */
export interface PlaceTable {
  size: number;
  osmId: Float64Array;
  /** 0 node, 1 way, 2 relation. */
  kind: Uint8Array;
  /** Centroid, 1e-7 degrees. */
  lat: Int32Array;
  lon: Int32Array;
  /** String-table indexes. */
  name: Uint32Array;
  address: Uint32Array;
  /** `tagStart[i]..tagStart[i+1]` are place i's tag pairs in `tagKV` (pairs of string indexes). */
  tagStart: Uint32Array;
  tagKV: Uint32Array;
  /** `typeStart[i]..typeStart[i+1]` are place i's types (string indexes) in `typeList`. */
  typeStart: Uint32Array;
  typeList: Uint32Array;
  geom: Uint8Array;
  shapeStart: Uint32Array;
  shape: Uint32Array;
  coordStart: Uint32Array;
  coords: Int32Array;
  prominence: Float64Array;
  /** Schedule index of `opening_hours`, or -1. */
  hours: Int32Array;
  strings: string[];
  schedules: Schedules;
}

/** Builds the place table from decoded OSM data, counting what it reads and skips. */
export function buildPlaces(osm: Osm, stats: LoadStats): PlaceTable {
  const b = new Builder();
  const keys: string[] = [];
  const vals: string[] = [];
  const read = (blk: Block, runs: TagRuns, i: number) => {
    keys.length = vals.length = 0;
    for (let j = runs.start[i]; j < runs.start[i + 1]; j++) {
      keys.push(blk.strings[runs.kv[2 * j]]);
      vals.push(blk.strings[runs.kv[2 * j + 1]]);
    }
  };

  osm.eachTagged(0, (blk, runs, i, n) => {
    read(blk, runs, i);
    if (!isPlace(keys, 0)) return;
    b.add(osm.nodes.ids[n], 0, keys, vals, POINT, [osm.lon[n], osm.lat[n]], [], [], 0);
  });

  const coords: number[] = [];
  osm.eachTagged(1, (blk, runs, i, w) => {
    read(blk, runs, i);
    if (!isPlace(keys, 1)) return;
    const id = osm.ways.ids[w];
    coords.length = 0;
    const s = osm.wayRefStart[w], e = osm.wayRefStart[w + 1];
    const missing = wayCoords(osm, s, e, coords);
    const points = coords.length / 2;
    if (points < 2) { stats.skippedWays++; return; }
    const closed = e - s >= 4 && osm.wayRef[s] === osm.wayRef[e - 1];
    if (missing) stats.partial++;
    if (closed && isArea(keys, vals)) {
      if (missing && (coords[0] !== coords[coords.length - 2] || coords[1] !== coords[coords.length - 1])) {
        coords.push(coords[0], coords[1]); // re-close what the extract cut
      }
      if (distinct(coords) >= 3) {
        orient(coords, true);
        const c = new Centroid();
        c.ring(coords);
        b.add(id, 1, keys, vals, POLYGON, c.result(), [1, coords.length / 2], coords, ringAreaM2(coords));
        return;
      }
    }
    const c = new Centroid();
    c.line(coords);
    b.add(id, 1, keys, vals, LINE, c.result(), [coords.length / 2], coords, 0);
  });

  osm.eachTagged(2, (blk, runs, i) => {
    read(blk, runs, i);
    const t = keys.indexOf('type');
    if (t < 0 || vals[t] !== 'multipolygon' || !isPlace(keys, 2)) return;
    const r = runs.owner[i];
    const id = blk.relId[r];
    const mp = assembleMultipolygon(osm, blk, r);
    if (!mp) { stats.skippedRelations++; return; }
    if (mp.partial) stats.partial++;
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
    b.add(id, 2, keys, vals, MULTIPOLYGON, c.result(), shape, flat, Math.max(0, area));
  });

  return b.finish();
}

// Appends a way's present node coordinates; returns how many refs were missing.
function wayCoords(osm: Osm, s: number, e: number, out: number[]): number {
  let missing = 0;
  for (let k = s; k < e; k++) {
    const n = osm.nodes.find(osm.wayRef[k]);
    if (n < 0) { missing++; continue; }
    out.push(osm.lon[n], osm.lat[n]);
  }
  return missing;
}

// number of distinct vertices of a flat ring (closing vertex excluded)
function distinct(r: number[]): number {
  const seen = new Set<string>();
  for (let i = 0; i + 2 < r.length; i += 2) seen.add(`${r[i]},${r[i + 1]}`);
  return seen.size;
}

interface Multipolygon {
  /** Each polygon: outer ring first, then holes; flat lon/lat rings, oriented. */
  polygons: number[][][];
  partial: boolean;
}

// Joins a relation's outer and inner member ways into oriented polygons.
function assembleMultipolygon(osm: Osm, blk: Block, r: number): Multipolygon | undefined {
  const outer: Chain[] = [];
  const inner: Chain[] = [];
  let partial = false;
  for (let m = blk.relMemStart[r]; m < blk.relMemStart[r + 1]; m++) {
    if (blk.relMemType[m] !== 1) continue;
    const role = blk.strings[blk.relMemRole[m]];
    if (role !== 'outer' && role !== 'inner' && role !== '') continue;
    const w = osm.ways.find(blk.relMemRef[m]);
    if (w < 0) { partial = true; continue; }
    const chain = Array.from(osm.wayRef.subarray(osm.wayRefStart[w], osm.wayRefStart[w + 1]));
    (role === 'inner' ? inner : outer).push(chain);
  }
  const toRings = (chains: Chain[], isOuter: boolean): number[][] => {
    const joined = joinRings(chains);
    if (joined.open) partial = true;
    const rings: number[][] = [];
    for (const ids of joined.rings) {
      const flat: number[] = [];
      for (const id of ids) {
        const n = osm.nodes.find(id);
        if (n < 0) { partial = true; continue; }
        flat.push(osm.lon[n], osm.lat[n]);
      }
      if (flat.length >= 2 && (flat[0] !== flat[flat.length - 2] || flat[1] !== flat[flat.length - 1])) flat.push(flat[0], flat[1]);
      if (distinct(flat) < 3 || signedArea2(flat) === 0) { partial = true; continue; }
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

/** Accumulates place rows and interns their strings. */
class Builder {
  strings: string[] = [''];
  private ids = new Map<string, number>([['', 0]]);
  osmId = new List(Float64Array);
  kind = new List(Uint8Array);
  lat = new List(Int32Array);
  lon = new List(Int32Array);
  name = new List(Uint32Array);
  address = new List(Uint32Array);
  tagStart = new List(Uint32Array);
  tagKV = new List(Uint32Array);
  typeStart = new List(Uint32Array);
  typeList = new List(Uint32Array);
  geom = new List(Uint8Array);
  shapeStart = new List(Uint32Array);
  shape = new List(Uint32Array);
  coordStart = new List(Uint32Array);
  coords = new List(Int32Array);
  prom = new List(Float64Array);
  hours = new List(Int32Array);
  schedules = new Schedules();

  constructor() {
    this.tagStart.push(0);
    this.typeStart.push(0);
    this.shapeStart.push(0);
    this.coordStart.push(0);
  }

  intern(s: string): number {
    let i = this.ids.get(s);
    if (i === undefined) {
      i = this.strings.length;
      this.strings.push(s);
      this.ids.set(s, i);
    }
    return i;
  }

  add(id: number, kind: number, keys: string[], vals: string[], geom: number, centroid: [number, number],
    shape: number[], coords: number[], areaM2: number): void {
    this.osmId.push(id);
    this.kind.push(kind);
    this.lon.push(centroid[0]);
    this.lat.push(centroid[1]);
    const name = placeName(keys, vals);
    this.name.push(this.intern(name));
    this.address.push(this.intern(placeAddress(keys, vals)));
    for (let i = 0; i < keys.length; i++) {
      this.tagKV.push(this.intern(keys[i]));
      this.tagKV.push(this.intern(vals[i]));
    }
    this.tagStart.push(this.tagKV.length / 2);
    for (const t of placeTypes(keys, vals, kind)) this.typeList.push(this.intern(t));
    this.typeStart.push(this.typeList.length);
    this.geom.push(geom);
    for (const v of shape) this.shape.push(v);
    this.shapeStart.push(this.shape.length);
    for (const v of coords) this.coords.push(v);
    this.coordStart.push(this.coords.length);
    this.prom.push(prominence(keys, name !== '', areaM2));
    const oh = keys.indexOf('opening_hours');
    this.hours.push(oh < 0 ? -1 : this.schedules.add(vals[oh]));
  }

  finish(): PlaceTable {
    return {
      size: this.osmId.length,
      osmId: this.osmId.finish(),
      kind: this.kind.finish(),
      lat: this.lat.finish(),
      lon: this.lon.finish(),
      name: this.name.finish(),
      address: this.address.finish(),
      tagStart: this.tagStart.finish(),
      tagKV: this.tagKV.finish(),
      typeStart: this.typeStart.finish(),
      typeList: this.typeList.finish(),
      geom: this.geom.finish(),
      shapeStart: this.shapeStart.finish(),
      shape: this.shape.finish(),
      coordStart: this.coordStart.finish(),
      coords: this.coords.finish(),
      prominence: this.prom.finish(),
      hours: this.hours.finish(),
      strings: this.strings,
      schedules: this.schedules,
    };
  }
}
