/**
 * The routing rules of issue 11 (§2) written again from the spec text, over the raw
 * ways osm-read gives (test/support/raw.ts), with plain Dijkstra searches: the
 * independent side of the routing tests. Nothing here imports the engine's graph,
 * profile or searches; the one number taken from src/ is the car speed of the
 * classes the issue names without one (links, `road`), from the documented table.
 */
import distance from '@turf/distance';
import FlatQueue from 'flatqueue';
import { CAR_KMH } from '../../src/road/profile.js';
import { tag, type RawData, type RawTag, type RawWay } from './raw.js';

/** Car speeds the issue gives (km/h). */
export const ISSUE_CAR_KMH: Readonly<Record<string, number>> = {
  motorway: 90, trunk: 85, primary: 65, secondary: 55, tertiary: 40,
  unclassified: 25, residential: 25, service: 15, living_street: 10, track: 10,
};

/** The classes a car may drive on (issue §2). */
export const CAR_CLASSES = new Set([
  'motorway', 'trunk', 'primary', 'secondary', 'tertiary',
  'motorway_link', 'trunk_link', 'primary_link', 'secondary_link', 'tertiary_link',
  'unclassified', 'residential', 'living_street', 'service', 'road', 'track',
]);

const YES = new Set(['yes', 'designated', 'permissive']);
const CLOSED = new Set(['no', 'private']);

/** Foot: every highway but motorway(_link), construction, proposed; not foot=no; access=no|private only with foot=yes|designated|permissive. */
export function footOk(tags: RawTag[]): boolean {
  const hw = tag(tags, 'highway');
  if (!hw || ['motorway', 'motorway_link', 'construction', 'proposed'].includes(hw)) return false;
  const foot = tag(tags, 'foot');
  if (foot === 'no') return false;
  const access = tag(tags, 'access');
  return !(access !== undefined && CLOSED.has(access)) || (foot !== undefined && YES.has(foot));
}

/**
 * Car access: the class is a car class, and none of access, motor_vehicle, motorcar (least to most
 * specific) is no/private unless a more specific one of them says yes/destination.
 */
export function carOk(tags: RawTag[]): boolean {
  const hw = tag(tags, 'highway');
  if (!hw || !CAR_CLASSES.has(hw)) return false;
  const keys = ['access', 'motor_vehicle', 'motorcar'];
  const vals = keys.map((k) => tag(tags, k));
  for (let i = 0; i < keys.length; i++) {
    const v = vals[i];
    if (v === undefined || !CLOSED.has(v)) continue;
    const overridden = vals.slice(i + 1).some((u) => u === 'yes' || u === 'destination');
    if (!overridden) return false;
  }
  return true;
}

/** Car direction: 1 along the node order, -1 against it, 0 both (oneway=yes|1|true, -1, roundabout and motorway unless oneway=no). */
export function carOneway(tags: RawTag[]): number {
  const v = tag(tags, 'oneway');
  if (v === 'yes' || v === '1' || v === 'true') return 1;
  if (v === '-1') return -1;
  if (v === 'no') return 0;
  if (tag(tags, 'junction') === 'roundabout' || tag(tags, 'highway') === 'motorway') return 1;
  return 0;
}

/** Car km/h: the class speed, capped by a parseable maxspeed (`50`, `50 km/h`, `30 mph`). */
export function carKmh(tags: RawTag[]): number {
  const hw = tag(tags, 'highway')!;
  const base = ISSUE_CAR_KMH[hw] ?? CAR_KMH[hw];
  const m = /^\s*(\d+(?:\.\d+)?)\s*(km\/h|mph)?\s*$/.exec(tag(tags, 'maxspeed') ?? '');
  if (!m) return base;
  const cap = Number(m[1]) * (m[2] === 'mph' ? 1.609344 : 1);
  return cap > 0 ? Math.min(base, cap) : base;
}

/**
 * Bike: as foot's classes and access, with `bicycle` in the place of `foot` (a `foot=no` does not
 * shut bikes out); footway, pedestrian, steps and path only with bicycle=yes|designated|permissive;
 * never bicycle=no.
 */
export function bikeOk(tags: RawTag[]): boolean {
  const hw = tag(tags, 'highway');
  if (!hw || ['motorway', 'motorway_link', 'construction', 'proposed'].includes(hw)) return false;
  const bicycle = tag(tags, 'bicycle');
  const allowed = bicycle !== undefined && YES.has(bicycle);
  if (bicycle === 'no') return false;
  if (['footway', 'pedestrian', 'steps', 'path'].includes(hw) && !allowed) return false;
  const access = tag(tags, 'access');
  return !(access !== undefined && CLOSED.has(access)) || allowed;
}

/** Bike direction: the car one-ways, unless oneway:bicycle=no or cycleway=opposite*. */
export function bikeOneway(tags: RawTag[]): number {
  if (tag(tags, 'oneway:bicycle') === 'no' || (tag(tags, 'cycleway') ?? '').startsWith('opposite')) return 0;
  return carOneway(tags);
}

/** Metres between two raw nodes (haversine, R = 6371.0088 km, by @turf/distance). */
export function metres(a: { lon: number; lat: number }, b: { lon: number; lat: number }): number {
  return distance([a.lon, a.lat], [b.lon, b.lat], { units: 'kilometers' }) * 1000;
}

/**
 * A directed graph over OSM node ids: an arc per way segment and direction allowed
 * (both nodes present in the file), with its way and a cost.
 */
export class RawGraph {
  readonly ids: number[] = [];
  readonly idx = new Map<number, number>();
  readonly from: number[] = [];
  readonly to: number[] = [];
  readonly way: number[] = [];
  readonly cost: number[] = [];
  /** Metres of each arc. */
  readonly len: number[] = [];
  private out: Int32Array[] = [];

  node(id: number): number {
    let i = this.idx.get(id);
    if (i === undefined) {
      i = this.ids.length;
      this.ids.push(id);
      this.idx.set(id, i);
    }
    return i;
  }

  arc(a: number, b: number, way: number, cost: number, len: number): void {
    this.from.push(a);
    this.to.push(b);
    this.way.push(way);
    this.cost.push(cost);
    this.len.push(len);
  }

  /** Builds the out-lists once every arc is in. */
  finish(): this {
    const lists: number[][] = this.ids.map(() => []);
    for (let i = 0; i < this.from.length; i++) lists[this.from[i]].push(i);
    this.out = lists.map((l) => Int32Array.from(l));
    return this;
  }

  outArcs(v: number): Int32Array {
    return this.out[v];
  }
}

/**
 * The stretches of a decoded route line (`[lat, lon]` at 1e-5°) that run along no arc of `g`:
 * each vertex stands for the nodes of `g` at its 1e-5° position (exact positions coincide
 * rarely), and a stretch passes when some node at its start has an arc to some node at its end.
 */
export function offGraph(raw: RawData, g: RawGraph): (line: [number, number][]) => [number, number][][] {
  const key = (lat: number, lon: number) => `${Math.round(lat * 1e5)},${Math.round(lon * 1e5)}`;
  const at5 = new Map<string, number[]>();
  for (const id of g.ids) {
    const n = raw.node.get(id)!;
    at5.set(key(n.lat, n.lon), [...(at5.get(key(n.lat, n.lon)) ?? []), g.idx.get(id)!]);
  }
  const arc = new Set<string>();
  for (let a = 0; a < g.from.length; a++) arc.add(`${g.from[a]}>${g.to[a]}`);
  return (line) => {
    const off: [number, number][][] = [];
    for (let i = 0; i + 1 < line.length; i++) {
      const u = at5.get(key(...line[i])) ?? [], v = at5.get(key(...line[i + 1])) ?? [];
      if (!u.some((x) => v.some((y) => arc.has(`${x}>${y}`)))) off.push([line[i], line[i + 1]]);
    }
    return off;
  };
}

/** The segments (pairs of consecutive refs both in the file) of a way. */
function segments(raw: RawData, w: RawWay, each: (a: number, b: number, m: number) => void): void {
  for (let i = 0; i + 1 < w.refs.length; i++) {
    const a = raw.node.get(w.refs[i]), b = raw.node.get(w.refs[i + 1]);
    if (!a || !b) continue;
    each(a.id, b.id, metres(a, b));
  }
}

/** The foot graph: both directions of every foot way's segments, cost in metres. */
export function footGraph(raw: RawData): RawGraph {
  const g = new RawGraph();
  for (const w of raw.ways) {
    if (!footOk(w.tags)) continue;
    segments(raw, w, (a, b, m) => {
      const i = g.node(a), j = g.node(b);
      g.arc(i, j, w.id, m, m);
      g.arc(j, i, w.id, m, m);
    });
  }
  return g.finish();
}

/** The bike graph: bike ways' segments in their allowed directions, cost in metres (one speed: the shortest ride is the fastest). */
export function bikeGraph(raw: RawData): RawGraph {
  const g = new RawGraph();
  for (const w of raw.ways) {
    if (!bikeOk(w.tags)) continue;
    const dir = bikeOneway(w.tags);
    segments(raw, w, (a, b, m) => {
      const i = g.node(a), j = g.node(b);
      if (dir >= 0) g.arc(i, j, w.id, m, m);
      if (dir <= 0) g.arc(j, i, w.id, m, m);
    });
  }
  return g.finish();
}

/** The car graph: car ways' segments in their allowed directions, cost in ms (metres × 3600 / km/h). */
export function carGraph(raw: RawData): RawGraph {
  const g = new RawGraph();
  for (const w of raw.ways) {
    if (!carOk(w.tags)) continue;
    const dir = carOneway(w.tags);
    const msPerM = 3600 / carKmh(w.tags);
    segments(raw, w, (a, b, m) => {
      const i = g.node(a), j = g.node(b);
      if (dir >= 0) g.arc(i, j, w.id, m * msPerM, m);
      if (dir <= 0) g.arc(j, i, w.id, m * msPerM, m);
    });
  }
  return g.finish();
}

/** Junctions: nodes of the graph on two or more distinct ways, whose position no other node of the graph shares. */
export function junctions(raw: RawData, g: RawGraph): number[] {
  const ways = new Map<number, Set<number>>();
  for (let i = 0; i < g.from.length; i++) {
    for (const v of [g.from[i], g.to[i]]) {
      let s = ways.get(v);
      if (!s) ways.set(v, (s = new Set()));
      s.add(g.way[i]);
    }
  }
  const at = new Map<string, number>();
  for (const id of g.ids) {
    const n = raw.node.get(id)!;
    const k = `${n.lat7},${n.lon7}`;
    at.set(k, (at.get(k) ?? 0) + 1);
  }
  const out: number[] = [];
  for (let v = 0; v < g.ids.length; v++) {
    const n = raw.node.get(g.ids[v])!;
    if ((ways.get(v)?.size ?? 0) >= 2 && at.get(`${n.lat7},${n.lon7}`) === 1) out.push(g.ids[v]);
  }
  return out;
}

/** A shortest path: its cost, metres, and its nodes (OSM ids) from source to target; cost Infinity when none. */
export interface RawPath {
  cost: number;
  metres: number;
  nodes: number[];
  arcs: number[];
}

/** Plain one-to-all Dijkstra from node id `s` over node labels; `path(t)` reads a path back. */
export function dijkstra(g: RawGraph, s: number): (t: number) => RawPath {
  const n = g.ids.length;
  const dist = new Float64Array(n).fill(Infinity);
  const parent = new Int32Array(n).fill(-1);
  const q = new FlatQueue<number>();
  const src = g.idx.get(s)!;
  dist[src] = 0;
  q.push(src, 0);
  while (q.length) {
    const d = q.peekValue()!;
    const v = q.pop()!;
    if (d > dist[v]) continue;
    for (const a of g.outArcs(v)) {
      const w = g.to[a], nd = d + g.cost[a];
      if (nd < dist[w]) {
        dist[w] = nd;
        parent[w] = a;
        q.push(w, nd);
      }
    }
  }
  return (t: number) => {
    const v = g.idx.get(t)!;
    if (dist[v] === Infinity) return { cost: Infinity, metres: Infinity, nodes: [], arcs: [] };
    const arcs: number[] = [];
    for (let x = v; parent[x] >= 0; x = g.from[parent[x]]) arcs.push(parent[x]);
    arcs.reverse();
    return pathOf(g, src, arcs, dist[v]);
  };
}

function pathOf(g: RawGraph, src: number, arcs: number[], cost: number): RawPath {
  const nodes = [g.ids[src]];
  let m = 0;
  for (const a of arcs) {
    nodes.push(g.ids[g.to[a]]);
    m += g.len[a];
  }
  return { cost, metres: m, nodes, arcs };
}

/**
 * Where a car may turn back: nodes on two or more ways some mode may use, their ends, and
 * the last nodes before a gap (a node the extract lacks).
 */
export function turnPoints(raw: RawData): Set<number> {
  const count = new Map<number, number>();
  const out = new Set<number>();
  for (const w of raw.ways) {
    if (!footOk(w.tags) && !carOk(w.tags)) continue;
    for (const r of new Set(w.refs)) count.set(r, (count.get(r) ?? 0) + 1);
    w.refs.forEach((r, i) => {
      const gap = (j: number) => j >= 0 && j < w.refs.length && !raw.node.has(w.refs[j]);
      if (i === 0 || i === w.refs.length - 1 || gap(i - 1) || gap(i + 1)) out.add(r);
    });
  }
  for (const [r, n] of count) if (n >= 2) out.add(r);
  return out;
}

/** A turn restriction as the spec reads it: from way, via node, to way; `only` for only_*. */
export interface RawRestriction {
  id: number;
  from: number;
  via: number;
  to: number;
  only: boolean;
}

/** The `type=restriction` relations with `restriction=no_*|only_*` and exactly one from way, via node and to way. */
export function restrictions(raw: RawData): RawRestriction[] {
  const out: RawRestriction[] = [];
  for (const r of raw.relations) {
    if (tag(r.tags, 'type') !== 'restriction') continue;
    const v = tag(r.tags, 'restriction') ?? '';
    if (!v.startsWith('no_') && !v.startsWith('only_')) continue;
    const role = (x: string) => r.members.filter((m) => m.role === x);
    const [f, via, t] = [role('from'), role('via'), role('to')];
    if (f.length !== 1 || via.length !== 1 || t.length !== 1) continue;
    if (f[0].type !== 'way' || via[0].type !== 'node' || t[0].type !== 'way') continue;
    out.push({ id: r.id, from: f[0].ref, via: via[0].ref, to: t[0].ref, only: v.startsWith('only_') });
  }
  return out;
}

/**
 * Fastest path from node id `s` to node id `t` obeying turn restrictions: a Dijkstra over
 * arcs (the state is the arc a car arrives by), so that a turn at a via node is checked
 * against the way the car came along. Turns are only made between two arcs: nothing
 * restricts the first arc out of `s`. A car turns back along the segment it came by only
 * at `turnable` nodes (where roads meet or end), not in the middle of a street.
 */
export function restrictedPath(g: RawGraph, rules: RawRestriction[], turnable: Set<number>, s: number, t: number): RawPath {
  const byKey = new Map<string, RawRestriction[]>();
  for (const r of rules) {
    const k = `${r.from}:${r.via}`;
    byKey.set(k, [...(byKey.get(k) ?? []), r]);
  }
  const allowed = (fromWay: number, via: number, toWay: number): boolean => {
    const list = byKey.get(`${fromWay}:${via}`);
    if (!list) return true;
    const only = list.filter((r) => r.only);
    if (only.length && !only.some((r) => r.to === toWay)) return false;
    return !list.some((r) => !r.only && r.to === toWay);
  };
  const src = g.idx.get(s), dst = g.idx.get(t);
  if (src === undefined || dst === undefined) return { cost: Infinity, metres: Infinity, nodes: [], arcs: [] };
  if (src === dst) return { cost: 0, metres: 0, nodes: [s], arcs: [] };
  const m = g.from.length;
  const dist = new Float64Array(m).fill(Infinity);
  const parent = new Int32Array(m).fill(-1);
  const q = new FlatQueue<number>();
  for (const a of g.outArcs(src)) if (g.cost[a] < dist[a]) { dist[a] = g.cost[a]; q.push(a, dist[a]); }
  while (q.length) {
    const d = q.peekValue()!;
    const a = q.pop()!;
    if (d > dist[a]) continue;
    const v = g.to[a];
    if (v === dst) {
      const arcs: number[] = [];
      for (let x = a; x >= 0; x = parent[x]) arcs.push(x);
      arcs.reverse();
      return pathOf(g, src, arcs, d);
    }
    for (const b of g.outArcs(v)) {
      if (!allowed(g.way[a], g.ids[v], g.way[b])) continue;
      if (g.to[b] === g.from[a] && g.way[b] === g.way[a] && !turnable.has(g.ids[v])) continue;
      const nd = d + g.cost[b];
      if (nd < dist[b]) {
        dist[b] = nd;
        parent[b] = a;
        q.push(b, nd);
      }
    }
  }
  return { cost: Infinity, metres: Infinity, nodes: [], arcs: [] };
}

/**
 * How many edges of the engine's kind (runs between nodes on two or more road ways, or
 * ending one) a path at most spans, for a bound on per-edge rounding: counted on the
 * `highway` ways of the file.
 */
export function edgeCounter(raw: RawData): (path: RawPath) => number {
  const uses = new Map<number, number>();
  for (const w of raw.ways) {
    if (!tag(w.tags, 'highway')) continue;
    w.refs.forEach((r, i) => uses.set(r, (uses.get(r) ?? 0) + (i === 0 || i === w.refs.length - 1 ? 2 : 1)));
  }
  return (path) => {
    let n = 1;
    for (let i = 1; i + 1 < path.nodes.length; i++) if ((uses.get(path.nodes[i]) ?? 0) >= 2) n++;
    return n;
  };
}
