/**
 * The routing rules of issue 11 (§2) written again from the spec text, over the raw
 * ways osm-read gives (test/support/raw.ts), with plain Dijkstra searches: the
 * independent side of the routing tests. Nothing here imports the engine's graph,
 * profile or searches; the one number taken from src/ is the car speed of the
 * classes the issue names without one (links, `road`), from the documented table.
 */
import distance from '@turf/distance';
import FlatQueue from 'flatqueue';
import { DEFAULT_PROFILES } from '../../src/osm/default-profiles.js';

const CAR_KMH: Readonly<Record<string, number>> = DEFAULT_PROFILES.car.speeds;
import { tag, type RawData, type RawTag, type RawWay } from './raw.js';

/** Car speeds the issue gives (km/h). */
export const ISSUE_CAR_KMH: Readonly<Record<string, number>> = {
  motorway: 90,
  trunk: 85,
  primary: 65,
  secondary: 55,
  tertiary: 40,
  unclassified: 25,
  residential: 25,
  service: 15,
  living_street: 10,
  track: 10,
};

/** The classes a car may drive on (issue §2). */
export const CAR_CLASSES = new Set([
  'motorway',
  'trunk',
  'primary',
  'secondary',
  'tertiary',
  'motorway_link',
  'trunk_link',
  'primary_link',
  'secondary_link',
  'tertiary_link',
  'unclassified',
  'residential',
  'living_street',
  'service',
  'road',
  'track',
]);

/** Highway values that are no road: no mode uses them (README, "What a road is"). */
export const NOT_A_ROAD = [
  'construction',
  'proposed',
  'planned',
  'abandoned',
  'razed',
  'demolished',
  'removed',
  'disused',
  'bus_stop',
  'elevator',
  'emergency_bay',
  'rest_area',
  'services',
  'street_lamp',
  'traffic_signals',
  'crossing',
];

/** Access values, as the README lists them: these open… */
const OPENS = ['yes', 'permissive', 'designated', 'official'];
/** …these open to reach a place only (a through route avoids them) … */
export const TO_REACH = ['destination', 'customers'];
/** …and these close. Any other value is read as if the key were not there. */
const CLOSES = ['no', 'private', 'agricultural', 'forestry', 'psv', 'bus', 'military', 'emergency', 'delivery', 'use_sidepath'];

export type RawMode = 'foot' | 'bike' | 'car';
type Dir = 'forward' | 'backward';

/** Access keys, most specific first. */
const KEYS: Record<RawMode, string[]> = {
  foot: ['foot', 'access'],
  bike: ['bicycle', 'vehicle', 'access'],
  car: ['motorcar', 'motor_vehicle', 'vehicle', 'access'],
};

/** The value and key that decide a mode's access one way along a way: the most specific key (its :forward/:backward form first) with a known value. */
function says(tags: RawTag[], mode: RawMode, dir?: Dir): { value: string; key: string } | undefined {
  for (const key of KEYS[mode]) {
    for (const k of dir ? [`${key}:${dir}`, key] : [key]) {
      const v = tag(tags, k);
      if (v !== undefined && (OPENS.includes(v) || TO_REACH.includes(v) || CLOSES.includes(v))) return { value: v, key };
    }
  }
  return undefined;
}

/** Whether the class lets the mode in with no access tags: foot all roads but motorway(_link); bike also not footway, pedestrian, steps, path; car the car classes. */
function byClass(hw: string, mode: RawMode): boolean {
  if (mode === 'car') return CAR_CLASSES.has(hw);
  if (hw === 'motorway' || hw === 'motorway_link') return false;
  return mode === 'foot' || !['footway', 'pedestrian', 'steps', 'path'].includes(hw);
}

/** A one-way value: 1, -1, 0, null (reversible, alternating: vehicles may not use the way), undefined (not a one-way value). */
function owValue(v: string | undefined): 1 | -1 | 0 | null | undefined {
  if (v === 'yes' || v === '1' || v === 'true') return 1;
  if (v === '-1' || v === 'reverse') return -1;
  if (v === 'no' || v === '0' || v === 'false') return 0;
  if (v === 'reversible' || v === 'alternating') return null;
  return undefined;
}

/** A mode's one-way: 1 along the node order, -1 against it, 0 both ways, null not at all. */
export function onewayFor(tags: RawTag[], mode: RawMode): 1 | -1 | 0 | null {
  if (mode === 'foot') return owValue(tag(tags, 'oneway:foot')) ?? 0;
  const contraflow = mode === 'bike' && (tag(tags, 'cycleway') ?? '').startsWith('opposite');
  const specific = mode === 'bike' ? ['oneway:bicycle', 'oneway:vehicle'] : ['oneway:motorcar', 'oneway:motor_vehicle', 'oneway:vehicle'];
  for (const k of specific) {
    const v = owValue(tag(tags, k));
    if (v !== undefined) return v;
  }
  const plain = owValue(tag(tags, 'oneway'));
  if (plain === null) return null;
  if (contraflow) return 0;
  if (plain !== undefined) return plain;
  const j = tag(tags, 'junction');
  return j === 'roundabout' || j === 'circular' || tag(tags, 'highway') === 'motorway' ? 1 : 0;
}

/**
 * Whether `mode` may travel the way in direction `dir` (forward: its node order): a road, its
 * one-way, then the access keys (a closing value shuts it; an opening one opens it, where the
 * class is closed to the mode only by the mode's own key: foot, bicycle).
 */
export function allowed(tags: RawTag[], mode: RawMode, dir: Dir): boolean {
  const hw = tag(tags, 'highway');
  if (!hw || NOT_A_ROAD.includes(hw)) return false;
  if (mode === 'car' && !CAR_CLASSES.has(hw)) return false;
  const ow = onewayFor(tags, mode);
  if (ow === null || (ow === 1 && dir === 'backward') || (ow === -1 && dir === 'forward')) return false;
  const s = says(tags, mode, dir);
  if (!s) return byClass(hw, mode);
  if (CLOSES.includes(s.value)) return false;
  return byClass(hw, mode) || s.key === (mode === 'foot' ? 'foot' : 'bicycle');
}

/** Whether the mode may use the way only to reach a place on it (`destination`, `customers` deciding either way it may go). */
export function toReachOnly(tags: RawTag[], mode: RawMode): boolean {
  return (['forward', 'backward'] as const).some((d) => allowed(tags, mode, d) && TO_REACH.includes(says(tags, mode, d)?.value ?? ''));
}

/** Foot may use the way (either way). */
export function footOk(tags: RawTag[]): boolean {
  return allowed(tags, 'foot', 'forward') || allowed(tags, 'foot', 'backward');
}

/** Cars may use the way (either way). */
export function carOk(tags: RawTag[]): boolean {
  return allowed(tags, 'car', 'forward') || allowed(tags, 'car', 'backward');
}

/** Bikes may use the way (either way). */
export function bikeOk(tags: RawTag[]): boolean {
  return allowed(tags, 'bike', 'forward') || allowed(tags, 'bike', 'backward');
}

/** Car direction: 1 along the node order, -1 against it, 0 both ways (of a way cars may use). */
export function carOneway(tags: RawTag[]): number {
  return dirOf(tags, 'car');
}

/** Bike direction, as `carOneway`. */
export function bikeOneway(tags: RawTag[]): number {
  return dirOf(tags, 'bike');
}

function dirOf(tags: RawTag[], mode: RawMode): number {
  const f = allowed(tags, mode, 'forward'),
    b = allowed(tags, mode, 'backward');
  return f && !b ? 1 : b && !f ? -1 : 0;
}

/** Barriers, as the README lists them: every mode passes these unless the node's access tags close them… */
const GATES = [
  'gate',
  'lift_gate',
  'swing_gate',
  'sliding_gate',
  'hampshire_gate',
  'entrance',
  'toll_booth',
  'border_control',
  'cattle_grid',
  'height_restrictor',
  'kerb',
  'sally_port',
  'no',
];
/** …walkers and bikes pass these, cars do not… */
const NOT_CARS = ['bollard', 'block', 'cycle_barrier', 'chain', 'motorcycle_barrier', 'jersey_barrier', 'log'];
/** …walkers only pass these… */
const WALKERS = ['kissing_gate', 'stile', 'turnstile', 'full-height_turnstile', 'step_over'];
/** …no one passes these; any other value passes. */
const NO_ONE = ['wall', 'fence', 'hedge', 'retaining_wall', 'city_wall', 'guard_rail', 'ditch'];

/** Whether `mode` may pass a node: its access keys (as on ways, no direction) where one says something, else its barrier. */
export function passes(tags: RawTag[], mode: RawMode): boolean {
  const s = says(tags, mode);
  if (s) return !CLOSES.includes(s.value);
  const b = tag(tags, 'barrier');
  if (b === undefined || GATES.includes(b)) return true;
  if (NO_ONE.includes(b)) return false;
  if (WALKERS.includes(b)) return mode === 'foot';
  if (NOT_CARS.includes(b)) return mode !== 'car';
  return true;
}

/** The ids of the nodes `mode` may not pass: a route may end there, never go on. */
export function blockedNodes(raw: RawData, mode: RawMode): Set<number> {
  return new Set(raw.nodes.filter((n) => n.tags.length && !passes(n.tags, mode)).map((n) => n.id));
}

/** Car km/h: the class speed, capped by a parseable maxspeed (`50`, `50 km/h`, `30 mph`). */
export function carKmh(tags: RawTag[]): number {
  const hw = tag(tags, 'highway')!;
  // Nepal's national limit for cars outside built-up areas (Motor Vehicles and Transport Management Rules, 18(5))
  const base = Math.min(ISSUE_CAR_KMH[hw] ?? CAR_KMH[hw], 80);
  const m = /^\s*(\d+(?:\.\d+)?)\s*(km\/h|mph)?\s*$/.exec(tag(tags, 'maxspeed') ?? '');
  if (!m) return base;
  const cap = Number(m[1]) * (m[2] === 'mph' ? 1.609344 : 1);
  return cap > 0 ? Math.min(base, cap) : base;
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
  /** The part of each arc's cost that is a penalty, not travel. */
  readonly penalty: number[] = [];
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

  /** Adds an arc: its cost is `cost + penalty` (`penalty`: what is no travel, kept apart too). */
  arc(a: number, b: number, way: number, cost: number, len: number, penalty = 0): void {
    this.from.push(a);
    this.to.push(b);
    this.way.push(way);
    this.cost.push(cost + penalty);
    this.penalty.push(penalty);
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
      const u = at5.get(key(...line[i])) ?? [],
        v = at5.get(key(...line[i + 1])) ?? [];
      if (!u.some((x) => v.some((y) => arc.has(`${x}>${y}`)))) off.push([line[i], line[i + 1]]);
    }
    return off;
  };
}

/** The segments (pairs of consecutive refs both in the file) of a way. */
function segments(raw: RawData, w: RawWay, each: (a: number, b: number, m: number) => void): void {
  for (let i = 0; i + 1 < w.refs.length; i++) {
    const a = raw.node.get(w.refs[i]),
      b = raw.node.get(w.refs[i + 1]);
    if (!a || !b) continue;
    each(a.id, b.id, metres(a, b));
  }
}

/** A day, ms: what entering a road open only to reach a place on it (destination, customers) costs a route on top of its time. */
export const TO_REACH_PENALTY_MS = 24 * 3600 * 1000;

/**
 * The graph of `mode`: its ways' segments in the directions it may go, no arc out of a node it
 * may not pass, each arc costing `msPerM(way)` per metre (divided by `unit`: 1 for ms), and the
 * day's penalty (in the same unit) on an arc that enters a road open to the mode only to reach a
 * place from a node some other road open to it touches.
 */
function modeGraph(raw: RawData, mode: RawMode, msPerM: (tags: RawTag[]) => number, unit: number): RawGraph {
  const g = new RawGraph();
  const blocked = blockedNodes(raw, mode);
  const ways = raw.ways.filter((w) => allowed(w.tags, mode, 'forward') || allowed(w.tags, mode, 'backward'));
  const reach = new Set(ways.filter((w) => toReachOnly(w.tags, mode)).map((w) => w.id));
  const open = new Set<number>();
  for (const w of ways)
    if (!reach.has(w.id))
      segments(raw, w, (a, b) => {
        open.add(a);
        open.add(b);
      });
  for (const w of ways) {
    const dir = dirOf(w.tags, mode);
    const perM = msPerM(w.tags) / unit;
    const pen = (from: number) => (reach.has(w.id) && open.has(from) ? TO_REACH_PENALTY_MS / unit : 0);
    segments(raw, w, (a, b, m) => {
      const i = g.node(a),
        j = g.node(b);
      if (dir >= 0 && !blocked.has(a)) g.arc(i, j, w.id, m * perM, m, pen(a));
      if (dir <= 0 && !blocked.has(b)) g.arc(j, i, w.id, m * perM, m, pen(b));
    });
  }
  return g.finish();
}

/** The foot graph (`modeGraph`), cost in metres (one speed, 5 km/h: the shortest walk is the fastest). */
export function footGraph(raw: RawData): RawGraph {
  return modeGraph(raw, 'foot', () => 720, 720);
}

/** The bike graph (`modeGraph`), cost in metres (one speed, 15 km/h: the shortest ride is the fastest). */
export function bikeGraph(raw: RawData): RawGraph {
  return modeGraph(raw, 'bike', () => 240, 240);
}

/** The car graph (`modeGraph`), cost in ms (metres × 3600 / km/h). */
export function carGraph(raw: RawData): RawGraph {
  return modeGraph(raw, 'car', (tags) => 3600 / carKmh(tags), 1);
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
  /** Travel time or metres: the cost without penalties. */
  travel: number;
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
      const w = g.to[a],
        nd = d + g.cost[a];
      if (nd < dist[w]) {
        dist[w] = nd;
        parent[w] = a;
        q.push(w, nd);
      }
    }
  }
  return (t: number) => {
    const v = g.idx.get(t)!;
    if (dist[v] === Infinity) return { cost: Infinity, travel: Infinity, metres: Infinity, nodes: [], arcs: [] };
    const arcs: number[] = [];
    for (let x = v; parent[x] >= 0; x = g.from[parent[x]]) arcs.push(parent[x]);
    arcs.reverse();
    return pathOf(g, src, arcs, dist[v]);
  };
}

function pathOf(g: RawGraph, src: number, arcs: number[], cost: number): RawPath {
  const nodes = [g.ids[src]];
  let m = 0,
    pen = 0;
  for (const a of arcs) {
    nodes.push(g.ids[g.to[a]]);
    m += g.len[a];
    pen += g.penalty[a];
  }
  return { cost, travel: cost - pen, metres: m, nodes, arcs };
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
  const src = g.idx.get(s),
    dst = g.idx.get(t);
  if (src === undefined || dst === undefined) return { cost: Infinity, travel: Infinity, metres: Infinity, nodes: [], arcs: [] };
  if (src === dst) return { cost: 0, travel: 0, metres: 0, nodes: [s], arcs: [] };
  const m = g.from.length;
  const dist = new Float64Array(m).fill(Infinity);
  const parent = new Int32Array(m).fill(-1);
  const q = new FlatQueue<number>();
  for (const a of g.outArcs(src))
    if (g.cost[a] < dist[a]) {
      dist[a] = g.cost[a];
      q.push(a, dist[a]);
    }
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
  return { cost: Infinity, travel: Infinity, metres: Infinity, nodes: [], arcs: [] };
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
