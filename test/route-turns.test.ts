/**
 * Turns: routes run over road segments (the state is the segment a route arrives on), turn back
 * only at dead ends and at via points, obey turn restrictions with via nodes and via ways per
 * mode, and pay for turns by angle and side and for signals. Hand-made network
 * (test/support/turn-net.ts), routes worked out by hand; and every pair of its junctions
 * against a plain Dijkstra over an edge-based expansion built here from osm-read's ways
 * (test/support/turns-raw.ts), with and without contraction hierarchies.
 */
import polyline from '@mapbox/polyline';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPbf, type PlaceIndex } from '../src/index.js';
import { route, type Route } from '../src/query/route.js';
import { TURN_COSTS } from '../src/route/turns.js';
import { DEFAULT_PROFILES } from '../src/osm/default-profiles.js';
import { CASES, gridMetres, gridOf, latLon, nodeId, writeRoads, type P } from './support/roads.js';
import { SKIPPED, TURN_CASES, tee, writeTurnNet } from './support/turn-net.js';
import { RawGraph, carGraph, junctions, metres } from './support/roads-raw.js';
import { RouteError } from '../src/errors.js';
import { engine } from './support/fixture.js';
import { CORE, readRaw, tag, type RawData } from './support/raw.js';
import { nodePairs, routeBetween } from './support/route-pairs.js';
import { TurnSearch, turnRules } from './support/turns-raw.js';

type Mode = 'foot' | 'bike' | 'car' | 'motorbike';
const MODES: Mode[] = ['foot', 'bike', 'car', 'motorbike'];

let file: string, index: PlaceIndex, contracted: PlaceIndex, raw: RawData;
beforeAll(async () => {
  file = await writeTurnNet();
  [index, contracted, raw] = await Promise.all([loadPbf(file), loadPbf(file, { contract: 'always' }), readRaw(file)]);
});

/** km/h of a residential street by mode, from the shipped profiles (outside built-up areas: the network has no buildings). */
function kmh(mode: Mode): number {
  const speeds = DEFAULT_PROFILES[mode].speeds as Record<string, number>;
  return speeds.residential ?? speeds['*'];
}

function drive(mode: Mode, a: P, b: P, idx = index): { pts: P[]; r: Route } {
  const [r] = route(idx, { points: [latLon(a), latLon(b)], mode, instructions: true });
  return { pts: polyline.decode(r.encodedPolyline, 5).map(gridOf), r };
}

/** Milliseconds of a line of grid points at the mode's residential speed, plus `turnMs`. */
function msOf(mode: Mode, pts: P[], turnMs: number): number {
  let m = 0;
  for (let i = 0; i + 1 < pts.length; i++) m += gridMetres(pts[i], pts[i + 1]);
  return (m * 3600) / kmh(mode) + turnMs;
}

function expectRoute(mode: Mode, expected: P[], turnMs: number): Route {
  const { pts, r } = drive(mode, expected[0], expected.at(-1)!);
  expect(pts, `${mode} ${expected[0]} → ${expected.at(-1)}`).toEqual(expected);
  expect(Math.abs(r.timeInMs - msOf(mode, expected, turnMs))).toBeLessThanOrEqual(expected.length);
  return r;
}

const car = TURN_COSTS.car;

describe('U-turns: only at a dead end, never at a junction where the road goes on', () => {
  it('a car W → E barred from going straight on at V turns back at the dead end D, not at S: W V S D S V E', () => {
    const { W, V, E, S, D } = TURN_CASES.deadEnd;
    // right at V (a choice), none at S (the road only bends), the U-turn at D, right at V again
    const r = expectRoute('car', [W, V, S, D, S, V, E], car.right.normal + car.uTurn + car.right.normal);
    const signs = r.instructionList!.map((s) => s.sign);
    expect(signs.filter((x) => x === -98)).toHaveLength(1);
  });
  it('with a way round, the car takes it and never turns back: W V N NE E', () => {
    const { W, V, E, N, NE } = TURN_CASES.loop;
    expectRoute('car', [W, V, N, NE, E], car.left.normal);
    expect(drive('car', W, E).r.instructionList!.some((s) => s.sign === -98)).toBe(false);
  });
  it('a walker is bound by no restriction: W V E', () => {
    const { W, V, E } = TURN_CASES.deadEnd;
    expectRoute('foot', [W, V, E], 0);
  });
});

describe('a restriction with a via way binds the path from its from way along the via way', () => {
  it('no_u_turn from Top West via the rung to Bottom West: T0 → B0 goes round by the end rung', () => {
    const { T0, T1, T2, B0, B1, B2 } = TURN_CASES.viaWay;
    const { pts } = drive('car', T0, B0);
    expect(pts).toEqual([T0, T1, T2, B2, B1, B0]);
  });
  it('a route that did not come along Top West may take the rung: T1 → B0 is T1 B1 B0', () => {
    const { T1, B1, B0 } = TURN_CASES.viaWay;
    expect(drive('car', T1, B0).pts).toEqual([T1, B1, B0]);
  });
  // only_*: from the from way, the only way on is along the via ways to the to way (at B1 the car
  // must take the rung, at T1 turn right), as the relation's members read in order
  it('only_right_turn from Bottom West via the rung to Top East: from B0 the car must take the rung and turn right', () => {
    const { T0, T1, T2, B0, B1, B2 } = TURN_CASES.onlyVia;
    expect(drive('car', B0, T2).pts).toEqual([B0, B1, T1, T2]);
    expect(drive('car', B0, T0).pts).toEqual([B0, B1, T1, T2, B2, B1, T1, T0]);
    // not bound where the route did not come along Bottom West
    expect(drive('car', B1, T0).pts).toEqual([B1, T1, T0]);
  });
});

describe('restrictions per mode: restriction:<mode>, except=, *_on_red', () => {
  const around = (ox: number) => {
    const t = tee(ox);
    return [t.P, t.V, t.Q, t.R, t.M];
  };
  const left = (ox: number) => {
    const t = tee(ox);
    return [t.P, t.V, t.M];
  };
  const is = (mode: Mode, ox: number, expected: P[]) =>
    expect(drive(mode, expected[0], expected.at(-1)!).pts, `${mode} at ${ox}`).toEqual(expected);
  it('restriction:motorcar binds cars only', () => {
    const ox = TURN_CASES.motorcar.ox;
    is('car', ox, around(ox));
    is('motorbike', ox, left(ox));
    is('bike', ox, left(ox));
  });
  it('restriction with except=bicycle binds cars and motorbikes, not bikes', () => {
    const ox = TURN_CASES.except.ox;
    is('car', ox, around(ox));
    is('motorbike', ox, around(ox));
    is('bike', ox, left(ox));
  });
  it('restriction:motorcycle binds motorbikes only', () => {
    const ox = TURN_CASES.motorcycle.ox;
    is('motorbike', ox, around(ox));
    is('car', ox, left(ox));
  });
  it('no_turn_on_red is no ban', () => {
    const ox = TURN_CASES.onRed.ox;
    is('car', ox, left(ox));
  });
});

describe('a restriction that cannot be read as it stands is skipped and counted, never a ban of everything', () => {
  it(`${SKIPPED} skipped in the stats: a to way away from the via node, a to way through it both ways, a via of two kinds`, () => {
    expect(index.stats.skippedRestrictions).toBe(SKIPPED);
  });
  it('only_straight_on to a way that does not touch V: every turn at V stays open', () => {
    const t = tee(TURN_CASES.farTo.ox);
    expect(drive('car', t.P, t.M).pts).toEqual([t.P, t.V, t.M]);
    expect(drive('car', t.P, t.Q).pts).toEqual([t.P, t.V, t.Q]);
  });
  it('no_left_turn to a two-way street through V: skipped; the same street one-way holds the ban', () => {
    const a = tee(TURN_CASES.through.ox);
    expect(drive('car', a.P, a.M).pts).toEqual([a.P, a.V, a.M]);
    const b = tee(TURN_CASES.throughOneway.ox);
    expect(drive('car', b.P, b.M).pts).toEqual([b.P, b.V, b.Q, b.R, b.M]);
  });
});

describe('turn costs: signals, and a right turn (across the traffic, as Nepal drives on the left) dearer than a left', () => {
  it('a car avoids the road with traffic signals between equal roads, whichever side they are on', () => {
    const n = TURN_CASES.signalsNorth,
      s = TURN_CASES.signalsSouth;
    expectRoute('car', [n.A, n.S, n.B], 0);
    expectRoute('car', [s.A, s.N, s.B], 0);
  });
  it('the signals cost their delay in timeInMs where the route passes them, not where it starts or stops at them', () => {
    const n = TURN_CASES.signalsNorth;
    const [r] = route(index, { points: [latLon(n.N), latLon(n.B)], mode: 'car' });
    expect(Math.abs(r.timeInMs - msOf('car', [n.N, n.B], 0))).toBeLessThanOrEqual(2);
    // a via point there is a stop: its legs' times
    const [via] = route(index, { points: [latLon(n.A), latLon(n.N), latLon(n.B)], mode: 'car' });
    expect(Math.abs(via.timeInMs - msOf('car', [n.A, n.N, n.B], 0))).toBeLessThanOrEqual(3);
  });
  it('passing the signals costs their delay: the north road taken from a point on it', () => {
    const n = TURN_CASES.signalsNorth;
    // from halfway A–N to B: on through N (the signals), the only way on without turning back
    const half: [number, number] = [(latLon(n.A)[0] + latLon(n.N)[0]) / 2, (latLon(n.A)[1] + latLon(n.N)[1]) / 2];
    const [r] = route(index, { points: [half, latLon(n.B)], mode: 'car' });
    const pts = polyline.decode(r.encodedPolyline, 5).map(gridOf);
    expect(pts.slice(1)).toEqual([n.N, n.B]);
    expect(
      Math.abs(r.timeInMs - (gridMetres(n.A, n.N) / 2 + gridMetres(n.N, n.B)) * (3600 / kmh('car')) - car.signals),
    ).toBeLessThanOrEqual(3);
  });
  it('S → N turns left at X (3 s), not right (5 s): S X L N, the turn in timeInMs', () => {
    const { S, X, L, N } = TURN_CASES.side;
    expectRoute('car', [S, X, L, N], car.left.normal);
  });
  it('a walker pays no turn costs: times are the walk alone', () => {
    const { S, X, L, N } = TURN_CASES.side;
    const { pts, r } = drive('foot', S, N);
    expect(pts.length).toBe(4);
    expect(Math.abs(r.timeInMs - msOf('foot', pts, 0))).toBeLessThanOrEqual(4);
    void X;
    void L;
  });
});

/** The graph of `mode` over the network's ways (all residential), in ms: one-ways bind all but walkers (a bike is pushed against one, at walking speed). */
function modeGraph(mode: Mode): RawGraph {
  const g = new RawGraph();
  const perM = 3600 / kmh(mode),
    pushPerM = 3600 / kmh('foot');
  for (const w of raw.ways) {
    const oneway = mode !== 'foot' && tag(w.tags, 'oneway') === 'yes';
    for (let i = 0; i + 1 < w.refs.length; i++) {
      const a = raw.node.get(w.refs[i])!,
        b = raw.node.get(w.refs[i + 1])!;
      const m = metres(a, b);
      g.arc(g.node(a.id), g.node(b.id), w.id, m * perM, m);
      if (!oneway) g.arc(g.node(b.id), g.node(a.id), w.id, m * perM, m);
      else if (mode === 'bike') g.arc(g.node(b.id), g.node(a.id), w.id, m * pushPerM, m);
    }
  }
  return g.finish();
}

describe.each(MODES)('every pair of junctions (%s): the route costs what the independent edge-based search finds', (mode) => {
  it('with and without contraction hierarchies, equal weights and times (1 ms a segment for rounding)', () => {
    const g = modeGraph(mode);
    const search = new TurnSearch(g, raw, mode, turnRules(raw, mode).rules);
    const nodes = raw.nodes.map((n) => n.id);
    const bad: string[] = [];
    let joined = 0;
    for (const s of nodes) {
      for (const t of nodes) {
        // within one case only (x of the same tens)
        if (s === t || Math.floor((s - 1_000_000) / 10_000) !== Math.floor((t - 1_000_000) / 10_000)) continue;
        const best = search.path(s, t);
        for (const [name, idx] of [
          ['plain', index],
          ['CH', contracted],
        ] as const) {
          const n = raw.node.get(s)!,
            m = raw.node.get(t)!;
          let r: Route | undefined;
          try {
            [r] = route(idx, {
              points: [
                [n.lat, n.lon],
                [m.lat, m.lon],
              ],
              mode,
            });
          } catch {
            r = undefined;
          }
          if (best.cost === Infinity) {
            if (r) bad.push(`${name} ${s} → ${t}: no route expected, got ${r.timeInMs}`);
            continue;
          }
          if (!r) {
            bad.push(`${name} ${s} → ${t}: none, expected ${best.cost}`);
            continue;
          }
          if (Math.abs(r.routeWeight * 1000 - best.cost) > best.arcs.length + 1)
            bad.push(`${name} ${s} → ${t}: weighs ${r.routeWeight * 1000}, expected ${best.cost}`);
          if (Math.abs(r.timeInMs - best.travel) > best.arcs.length + 1)
            bad.push(`${name} ${s} → ${t}: ${r.timeInMs} ms, expected ${best.travel}`);
        }
        joined++;
      }
    }
    expect(joined).toBeGreaterThan(300);
    expect(bad).toEqual([]);
  });
});

describe('a via point is where a route may turn back, paying the U-turn', () => {
  it('car W → (via) D → W on the dead-end case: back the way it came, one U-turn cost at D and at the via', () => {
    const { W, V, S, D } = TURN_CASES.deadEnd;
    void nodeId;
    const [r] = route(index, { points: [latLon(W), latLon(D), latLon(W)], mode: 'car' });
    const pts = polyline.decode(r.encodedPolyline, 5).map(gridOf);
    expect(pts).toEqual([W, V, S, D, S, V, W]);
    // right at V, the U-turn at the via point D (a stop: no other turn cost there), left at V from S heading north onto W
    expect(Math.abs(r.timeInMs - msOf('car', pts, car.right.normal + car.uTurn + car.left.normal))).toBeLessThanOrEqual(7);
  });
});

describe('on the real fixture, no car or motorbike route turns back at a junction', () => {
  let core: PlaceIndex, rawCore: RawData;
  beforeAll(async () => {
    [core, rawCore] = await Promise.all([engine(CORE), readRaw(CORE)]);
  });
  const key = (lat: number, lon: number) => `${Math.round(lat * 1e5)},${Math.round(lon * 1e5)}`;

  it.each(['car', 'motorbike'] as const)('%s: every pair of 300: a route runs back along a road only from a dead end', (mode) => {
    const g = carGraph(rawCore);
    // the distinct neighbours a car may drive to from each node, by 1e-5° position
    const ways = new Map<string, Set<number>>();
    for (let a = 0; a < g.from.length; a++) {
      const n = rawCore.node.get(g.ids[g.from[a]])!;
      const k = key(n.lat, n.lon);
      if (!ways.has(k)) ways.set(k, new Set());
      ways.get(k)!.add(g.ids[g.to[a]]);
    }
    const js = junctions(rawCore, g).sort((a, b) => a - b);
    const bad: string[] = [];
    let routes = 0;
    for (const [s, t] of nodePairs(js, 77, 300)) {
      const r = routeBetween(core, rawCore, mode, s, t);
      if (r instanceof RouteError) continue;
      routes++;
      const line = polyline.decode(r.encodedPolyline, 5);
      for (let i = 1; i + 1 < line.length; i++) {
        if (line[i - 1][0] !== line[i + 1][0] || line[i - 1][1] !== line[i + 1][1]) continue;
        if ((ways.get(key(...line[i]))?.size ?? 0) > 1) bad.push(`${s} → ${t}: back at ${line[i]}`);
      }
    }
    expect(routes).toBeGreaterThan(150);
    expect(bad).toEqual([]);
  });

  it('car 27.7154,85.3123 → 27.7090,85.3290 obeys no_straight_on 16206129 without a U-turn', () => {
    const rel = rawCore.relation.get(16206129)!;
    const member = (role: string) => rel.members.find((m) => m.role === role)!.ref;
    const via = rawCore.node.get(member('via'))!;
    const near = (wayId: number) => {
      const refs = rawCore.way.get(wayId)!.refs;
      const i = refs.indexOf(via.id);
      return [refs[i - 1], refs[i + 1]].filter((x) => x !== undefined).map((id) => rawCore.node.get(id)!);
    };
    const [r] = route(core, { points: ['27.7154,85.3123', '27.7090,85.3290'], mode: 'car', instructions: true });
    expect(r.instructionList!.some((s) => s.sign === -98)).toBe(false);
    const line = polyline.decode(r.encodedPolyline, 5).map(([a, b]) => key(a, b));
    const v = line.indexOf(key(via.lat, via.lon));
    if (v > 0) {
      // through the via node: not from the from way straight onto the to way
      const from = near(member('from')).map((n) => key(n.lat, n.lon)),
        to = near(member('to')).map((n) => key(n.lat, n.lon));
      expect(from.includes(line[v - 1]) && to.includes(line[v + 1])).toBe(false);
    }
  });
});

describe('instructions: a route starting on a roundabout says its exit; no step of no length; a U-turn only where the route turns back', () => {
  let roads: PlaceIndex;
  beforeAll(async () => {
    roads = await loadPbf(await writeRoads());
  });
  const steps = (idx: PlaceIndex, a: [number, number], b: [number, number], mode: Mode = 'car') =>
    route(idx, { points: [a, b], mode, instructions: true })[0].instructionList!;
  const between = (p: P, q: P, f: number): [number, number] => {
    const [a, b] = [latLon(p), latLon(q)];
    return [a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])];
  };

  it('from a point on the ring between RW and RN to E: the first step is the roundabout, exit 2 (RN, then RE) onto East Road', () => {
    const { RW, RN, E } = CASES.roundabout;
    const list = steps(roads, between(RW, RN, 0.5), latLon(E));
    expect(list[0]).toMatchObject({ sign: 6, exitNumber: 2, name: 'East Road' });
  });

  it('a start a hair off a junction (under the polyline precision) names the road driven, not the one snapped to', () => {
    const { W, V, N, NE } = TURN_CASES.loop;
    // 0.2 m from V along Loop West, then V N NE: the first step must be Loop North, of some length
    const list = steps(index, between(V, W, 0.002), latLon(NE));
    expect(list.filter((s) => s.sign !== 4 && s.sign !== 5 && s.distance === 0)).toEqual([]);
    expect(list[0].name).toBe('Loop North');
    expect(list[0].sign).toBe(0);
    void N;
  });

  it('an end a hair past a junction adds no step onto the road it ends on', () => {
    const { V, N, NE, E } = TURN_CASES.loop;
    const list = steps(index, latLon(N), between(E, V, 0.002));
    expect(list.filter((s) => s.sign !== 4 && s.distance === 0)).toEqual([]);
    expect(list.some((s) => s.name === 'Loop East')).toBe(false);
    void NE;
  });

  it('no U-turn sign on routes that do not turn back: every pair of the turn network by car', () => {
    const bad: string[] = [];
    const ids = raw.nodes.map((n) => n.id);
    for (const s of ids)
      for (const t of ids) {
        if (s === t || Math.floor((s - 1_000_000) / 10_000) !== Math.floor((t - 1_000_000) / 10_000)) continue;
        const a = raw.node.get(s)!,
          b = raw.node.get(t)!;
        let r: Route;
        try {
          [r] = route(index, {
            points: [
              [a.lat, a.lon],
              [b.lat, b.lon],
            ],
            mode: 'car',
            instructions: true,
          });
        } catch {
          continue;
        }
        const line = polyline.decode(r.encodedPolyline, 5);
        const back = new Set<number>();
        for (let i = 1; i + 1 < line.length; i++) if (line[i - 1][0] === line[i + 1][0] && line[i - 1][1] === line[i + 1][1]) back.add(i);
        for (const x of r.instructionList!)
          if (x.sign === -98 && !back.has(x.interval[0])) bad.push(`${s} → ${t}: U-turn sign at ${x.interval[0]}`);
        for (const i of back)
          if (!r.instructionList!.some((x) => x.sign === -98 && x.interval[0] === i)) bad.push(`${s} → ${t}: turns back at ${i} unsaid`);
      }
    expect(bad).toEqual([]);
  });
});
