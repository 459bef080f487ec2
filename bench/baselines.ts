// What nearby() is measured against: the bare index search a user would write with
// geokdbush (all places in one KDBush, in degrees, a type predicate), and a linear
// scan over every place. Both read the engine's place table, so they answer the
// same question; neither builds records.

import KDBush from 'kdbush';
import { around, distance as geoDistance } from 'geokdbush';
import { MERGED_TYPES, type NearbyQuery, type PlaceIndex } from '../src/index.js';

const R = 6371.0088; // the engine's (and @turf/distance's) earth radius, km
const RAD = Math.PI / 180;

/** A query the baselines answer: place rows, in the engine's order. */
export type Search = (q: NearbyQuery) => number[];

/** The baselines over one index. */
export class Baselines {
  /** All places in one tree, lon/lat in degrees (item = place row). */
  readonly tree: KDBush;
  /** Milliseconds to build `tree`. */
  readonly buildMs: number;
  private readonly index: PlaceIndex;
  private readonly stringId = new Map<string, number>();
  private readonly flags = new Map<string, Uint8Array>();
  private readonly lon: Float64Array;
  private readonly lat: Float64Array;

  constructor(index: PlaceIndex) {
    this.index = index;
    const t = index.table;
    t.strings.forEach((s, i) => {
      if (!this.stringId.has(s)) this.stringId.set(s, i);
    });
    const t0 = performance.now();
    this.lon = new Float64Array(t.size);
    this.lat = new Float64Array(t.size);
    const tree = new KDBush(t.size);
    for (let p = 0; p < t.size; p++) {
      this.lon[p] = t.lon[p] / 1e7;
      this.lat[p] = t.lat[p] / 1e7;
      tree.add(this.lon[p], this.lat[p]);
    }
    tree.finish();
    this.tree = tree;
    this.buildMs = performance.now() - t0;
  }

  /** geokdbush.around with a type (and open) predicate: nearest first, or all in range ranked by score. */
  readonly bare: Search = (q) => {
    const has = this.typeTest(q);
    const open = this.openTest(q);
    const limit = q.limit ?? 5,
      radius = q.radius ?? 10;
    const pred = open ? (p: number) => has(p) && open(p) : has;
    if (q.sortBy) return around(this.tree, q.lon, q.lat, limit, radius, pred);
    // geokdbush has no score order: take everything in range, rank by score
    const rows = around(this.tree, q.lon, q.lat, Infinity, radius, pred);
    const prom = this.index.table.prominence;
    const score = new Float64Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      score[i] = prom[rows[i]] / (1 + geoDistance(q.lon, q.lat, this.lon[rows[i]], this.lat[rows[i]]));
    }
    const order = Array.from(rows.keys()).sort((a, b) => score[b] - score[a]);
    return order.slice(0, limit).map((i) => rows[i]);
  };

  /** Every place tested for type, distance (haversine as the engine) and open; then sorted as the engine. */
  readonly linear: Search = (q) => {
    const t = this.index.table;
    const has = this.typeTest(q);
    const open = this.openTest(q);
    const limit = q.limit ?? 5,
      radius = q.radius ?? 10;
    const cosLat = Math.cos(q.lat * RAD);
    const rows: number[] = [];
    const keys: number[] = [];
    for (let p = 0; p < t.size; p++) {
      if (!has(p)) continue;
      const km = haversine(q.lon, q.lat, cosLat, this.lon[p], this.lat[p]);
      if (km > radius || (open && !open(p))) continue;
      rows.push(p);
      keys.push(q.sortBy ? km : -t.prominence[p] / (1 + km));
    }
    const id = (p: number) => t.osmId[p] * 4 + t.kind[p];
    const order = Array.from(rows.keys()).sort((a, b) => keys[a] - keys[b] || id(rows[a]) - id(rows[b]));
    return order.slice(0, limit).map((i) => rows[i]);
  };

  /** The placeId of a row, as the engine defines it. */
  placeId(p: number): number {
    const t = this.index.table;
    return t.osmId[p] * 4 + t.kind[p];
  }

  // a place matches when one of its types is the asked type, or a member of the merged type of that name
  private typeTest(q: NearbyQuery): (p: number) => boolean {
    const name = q.type.trim().toLowerCase();
    let flag = this.flags.get(name);
    if (!flag) {
      flag = new Uint8Array(this.index.table.strings.length);
      const members = Object.hasOwn(MERGED_TYPES, name) ? MERGED_TYPES[name] : [name];
      for (const m of members) {
        const s = this.stringId.get(m);
        if (s !== undefined) flag[s] = 1;
      }
      this.flags.set(name, flag);
    }
    const f = flag;
    const { typeStart, typeList } = this.index.table;
    return (p) => {
      for (let k = typeStart[p]; k < typeStart[p + 1]; k++) if (f[typeList[k]]) return true;
      return false;
    };
  }

  // the engine's own cached schedule states: the baselines pay for opening hours what nearby() pays
  private openTest(q: NearbyQuery): ((p: number) => boolean) | undefined {
    if (!q.isOpen) return undefined;
    const { hours, schedules } = this.index.table;
    const t = (q.at ?? new Date()).getTime();
    return (p) => schedules.isOpen(hours[p], t);
  }
}

// haversine as @turf/distance writes it (the engine's formula), km
function haversine(lon: number, lat: number, cosLat: number, lon2: number, lat2: number): number {
  const s1 = Math.sin(((lat2 - lat) * RAD) / 2),
    s2 = Math.sin(((lon2 - lon) * RAD) / 2);
  const a = s1 * s1 + s2 * s2 * cosLat * Math.cos(lat2 * RAD);
  return 2 * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a)) * R;
}
