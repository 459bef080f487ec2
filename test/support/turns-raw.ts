/**
 * The turn rules of routing written again from the spec, over osm-read's raw ways: turn
 * restrictions (via nodes and via ways, per mode, `except`, `*_on_red`), U-turns only at dead
 * ends, turn costs by angle and side, and the delays of signals, stops, give-ways and crossings,
 * with a plain Dijkstra over the arcs of a RawGraph (test/support/roads-raw.ts) expanded by the
 * arc a route arrives on and the restrictions it is part-way through. Nothing here imports the
 * engine's graph or searches; the one thing taken from src/ is the documented table of turn
 * costs (src/route/turns.ts), whose numbers are the contract. Angles are turf's bearings.
 */
import bearing from '@turf/bearing';
import FlatQueue from 'flatqueue';
import { TURN_COSTS, type TurnCosts } from '../../src/route/turns.js';
import { tag, type RawData, type RawTag } from './raw.js';
import type { RawGraph, RawPath } from './roads-raw.js';

/** The restriction keys of each mode, most specific first (walkers: none). */
const KEYS: Record<string, string[]> = {
  foot: [],
  bike: ['bicycle', 'vehicle'],
  car: ['motorcar', 'motor_vehicle', 'vehicle'],
  motorbike: ['motorcycle', 'motor_vehicle', 'vehicle'],
};

/** A restriction relation as the spec reads it for one mode: from way, via node or via ways, to way. */
export interface TurnRule {
  id: number;
  from: number;
  viaNode?: number;
  viaWays: number[];
  to: number;
  only: boolean;
}

/** The restriction relations that bind `mode`, and how many restriction relations have a shape or value the spec cannot read. */
export function turnRules(raw: RawData, mode: string): { rules: TurnRule[]; unreadable: number } {
  const rules: TurnRule[] = [];
  let unreadable = 0;
  for (const r of raw.relations) {
    if (tag(r.tags, 'type') !== 'restriction') continue;
    const from = r.members.filter((m) => m.role === 'from'),
      to = r.members.filter((m) => m.role === 'to'),
      via = r.members.filter((m) => m.role === 'via');
    const shape =
      from.length === 1 &&
      to.length === 1 &&
      from[0].type === 'way' &&
      to[0].type === 'way' &&
      ((via.length === 1 && via[0].type === 'node') || (via.length >= 1 && via.every((m) => m.type === 'way')));
    const values = [tag(r.tags, 'restriction'), ...Object.values(KEYS).flatMap((ks) => ks.map((k) => tag(r.tags, `restriction:${k}`)))];
    const odd = values.some((v) => v !== undefined && !v.startsWith('no_') && !v.startsWith('only_'));
    if (!shape || odd) {
      unreadable++;
      continue;
    }
    const keys = KEYS[mode];
    if (!keys.length) continue;
    const except = (tag(r.tags, 'except') ?? '').split(';').map((s) => s.trim());
    if (keys.some((k) => except.includes(k))) continue;
    const value = keys.map((k) => tag(r.tags, `restriction:${k}`)).find((v) => v !== undefined) ?? tag(r.tags, 'restriction');
    if (value === undefined || value.endsWith('_on_red')) continue;
    rules.push({
      id: r.id,
      from: from[0].ref,
      viaNode: via[0].type === 'node' ? via[0].ref : undefined,
      viaWays: via[0].type === 'way' ? via.map((m) => m.ref) : [],
      to: to[0].ref,
      only: value.startsWith('only_'),
    });
  }
  return { rules, unreadable };
}

/** What a node's tags delay a mode passing it along (`forward`: the node order of the way it arrives by). */
function delay(tags: RawTag[], costs: TurnCosts, forward: boolean): number {
  const hw = tag(tags, 'highway');
  const dir = tag(tags, 'direction') ?? tag(tags, 'traffic_signals:direction');
  if ((dir === 'forward' && !forward) || (dir === 'backward' && forward)) return 0;
  if (hw === 'traffic_signals' || (hw === 'crossing' && tag(tags, 'crossing') === 'traffic_signals')) return costs.signals;
  if (hw === 'stop') return costs.stop;
  if (hw === 'give_way') return costs.giveWay;
  if (hw === 'crossing') return costs.crossing;
  return 0;
}

/** The cost of a turn of `deg` degrees (positive right) as the spec's table gives it. */
export function angleMs(costs: TurnCosts, deg: number): number {
  const a = Math.abs(deg);
  const side = deg < 0 ? costs.left : costs.right;
  if (a <= 25) return 0;
  if (a <= 60) return side.slight;
  if (a <= 120) return side.normal;
  if (a < 170) return side.sharp;
  return costs.uTurn;
}

/**
 * A search over the raw arcs of `g` for `mode`: the state is the arc a route arrives by, with
 * the restrictions it is part-way through. Each rule becomes the list of arcs it names (the
 * from way's segment into its first junction, the via ways' segments, the to way's segment out);
 * a rule whose members do not meet at one node each, or whose from or to way could be either of
 * two arcs there, binds nothing (the spec's "skipped").
 */
export class TurnSearch {
  private readonly g: RawGraph;
  private readonly raw: RawData;
  private readonly costs: TurnCosts;
  private readonly patterns: { arcs: number[]; only: boolean }[] = [];
  private readonly forward: boolean[] = [];

  constructor(g: RawGraph, raw: RawData, mode: string, rules: TurnRule[]) {
    this.g = g;
    this.raw = raw;
    this.costs = TURN_COSTS[mode];
    const byPair = new Map<string, number[]>();
    for (let a = 0; a < g.from.length; a++) {
      const k = `${g.from[a]}>${g.to[a]}`;
      byPair.set(k, [...(byPair.get(k) ?? []), a]);
      const refs = raw.way.get(g.way[a])!.refs;
      const i = refs.findIndex((r, j) => r === g.ids[g.from[a]] && refs[j + 1] === g.ids[g.to[a]]);
      this.forward.push(i >= 0);
    }
    for (const r of rules) {
      const arcs = this.resolve(r, byPair);
      if (arcs) this.patterns.push({ arcs, only: r.only });
    }
  }

  // The arcs a rule names, or undefined where it binds nothing.
  private resolve(r: TurnRule, byPair: Map<string, number[]>): number[] | undefined {
    const g = this.g;
    const way = (id: number) => this.raw.way.get(id);
    const ways = [r.from, ...r.viaWays, r.to].map(way);
    if (ways.some((w) => !w)) return undefined;
    const arcOf = (a: number, b: number, w: number) => (byPair.get(`${g.idx.get(a)}>${g.idx.get(b)}`) ?? []).find((x) => g.way[x] === w);
    // the meeting nodes: the via node, or the one node each two consecutive members share
    const meets: number[] = [];
    if (r.viaNode !== undefined) meets.push(r.viaNode);
    else {
      for (let i = 0; i + 1 < ways.length; i++) {
        const shared = [...new Set(ways[i]!.refs)].filter((n) => ways[i + 1]!.refs.includes(n));
        if (shared.length !== 1) return undefined;
        meets.push(shared[0]);
      }
    }
    // the one arc of a way into (or out of) a node
    const one = (w: number, n: number, into: boolean): number | undefined => {
      const refs = way(w)!.refs;
      const found: number[] = [];
      refs.forEach((x, i) => {
        if (x !== n) return;
        for (const y of [refs[i - 1], refs[i + 1]]) {
          if (y === undefined) continue;
          const a = into ? arcOf(y, n, w) : arcOf(n, y, w);
          if (a !== undefined) found.push(a);
        }
      });
      return found.length === 1 ? found[0] : undefined;
    };
    const first = one(r.from, meets[0], true),
      last = one(r.to, meets[meets.length - 1], false);
    if (first === undefined || last === undefined) return undefined;
    const arcs = [first];
    for (let i = 0; i < r.viaWays.length; i++) {
      const refs = way(r.viaWays[i])!.refs;
      const a = refs.indexOf(meets[i]),
        b = refs.indexOf(meets[i + 1]);
      if (a < 0 || b < 0 || a === b || refs.lastIndexOf(meets[i]) !== a || refs.lastIndexOf(meets[i + 1]) !== b) return undefined;
      const step = a < b ? 1 : -1;
      for (let j = a; j !== b; j += step) {
        const x = arcOf(refs[j], refs[j + step], r.viaWays[i]);
        if (x === undefined) return undefined;
        arcs.push(x);
      }
    }
    arcs.push(last);
    return arcs;
  }

  /** The cost of turning from arc a onto arc b at their shared node (Infinity: not allowed there, a U-turn off a dead end). */
  turn(a: number, b: number): number {
    const g = this.g;
    const v = g.to[a];
    const back = g.to[b] === g.from[a] && g.way[b] === g.way[a];
    const others = [...g.outArcs(v)].filter((x) => !(g.to[x] === g.from[a] && g.way[x] === g.way[a])).length;
    let ms = 0;
    if (back) {
      if (others > 0) return Infinity;
      ms = this.costs.uTurn;
    } else if (others >= 2) {
      const p = (i: number) => {
        const n = this.raw.node.get(g.ids[i])!;
        return [n.lon, n.lat];
      };
      const d = bearing(p(v), p(g.to[b])) - bearing(p(g.from[a]), p(v));
      ms = angleMs(this.costs, d > 180 ? d - 360 : d <= -180 ? d + 360 : d);
    }
    return ms + delay(this.raw.node.get(g.ids[v])!.tags, this.costs, this.forward[a]);
  }

  /** The cheapest route from node id s to node id t (the first arc out of s turns from nothing; any arc into t ends it). */
  path(s: number, t: number): RawPath & { turns: number } {
    const g = this.g;
    const none = { cost: Infinity, travel: Infinity, metres: Infinity, nodes: [], arcs: [], turns: 0 };
    const src = g.idx.get(s),
      dst = g.idx.get(t);
    if (src === undefined || dst === undefined) return none;
    if (src === dst) return { cost: 0, travel: 0, metres: 0, nodes: [s], arcs: [], turns: 0 };
    // a state: an arc, and the restrictions matched so far as `pattern:position`
    const dist = new Map<string, number>();
    const parent = new Map<string, string | null>();
    const arcOf = (state: string) => Number(state.split('|')[0]);
    const progress = (state: string) => (state.split('|')[1] || '').split(',').filter(Boolean);
    const q = new FlatQueue<string>();
    const enter = (state: string, d: number, from: string | null) => {
      if (d < (dist.get(state) ?? Infinity)) {
        dist.set(state, d);
        parent.set(state, from);
        q.push(state, d);
      }
    };
    const advance = (prev: string[], b: number): string[] | null => {
      // what the restrictions part-way matched allow: per prefix the union of its only_* next arcs, no_* bans
      const onlyBy = new Map<string, Set<number>>();
      const next: string[] = [];
      for (const p of prev) {
        const [ri, pos] = p.split(':').map(Number);
        const pat = this.patterns[ri];
        const want = pat.arcs[pos + 1];
        if (pat.only) {
          const prefix = pat.arcs.slice(0, pos + 1).join(',');
          if (!onlyBy.has(prefix)) onlyBy.set(prefix, new Set());
          onlyBy.get(prefix)!.add(want);
        } else if (pos + 1 === pat.arcs.length - 1 && want === b) return null;
        if (want === b && pos + 1 < pat.arcs.length - 1) next.push(`${ri}:${pos + 1}`);
      }
      for (const set of onlyBy.values()) if (!set.has(b)) return null;
      this.patterns.forEach((pat, ri) => {
        if (pat.arcs[0] === b) next.push(`${ri}:0`);
      });
      return [...new Set(next)].sort();
    };
    for (const a of g.outArcs(src)) {
      const p = advance([], a);
      enter(`${a}|${p!.join(',')}`, g.cost[a], null);
    }
    while (q.length) {
      const d = q.peekValue()!;
      const state = q.pop()!;
      if (d > dist.get(state)!) continue;
      const a = arcOf(state);
      if (g.to[a] === dst) {
        const states: string[] = [];
        for (let x: string | null = state; x !== null; x = parent.get(x)!) states.push(x);
        states.reverse();
        const arcs = states.map(arcOf);
        let metres = 0,
          pen = 0,
          turns = 0;
        for (let i = 0; i < arcs.length; i++) {
          metres += g.len[arcs[i]];
          pen += g.penalty[arcs[i]];
          if (i > 0) turns += this.turn(arcs[i - 1], arcs[i]);
        }
        return { cost: d, travel: d - pen, metres, nodes: [s, ...arcs.map((x) => g.ids[g.to[x]])], arcs, turns };
      }
      for (const b of g.outArcs(g.to[a])) {
        const c = this.turn(a, b);
        if (c === Infinity) continue;
        const p = advance(progress(state), b);
        if (!p) continue;
        enter(`${b}|${p.join(',')}`, d + c + g.cost[b], state);
      }
    }
    return none;
  }
}
