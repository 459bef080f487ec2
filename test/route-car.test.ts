/**
 * Car routing obeys one-ways, access and turn restrictions and is the fastest drive
 * (issue 11, §2 and §6); foot and bike follow their own rules on the same roads. The
 * hand-made network (test/support/roads.ts) has one case per rule, each route worked
 * out by hand as the grid points it passes; on the real fixtures the drive is checked
 * against Dijkstra searches run here over osm-read's ways (test/support/roads-raw.ts).
 */
import polyline from '@mapbox/polyline';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPbf, type PlaceIndex } from '../src/index.js';
import { route, type Route } from '../src/query/route.js';
import { RouteError } from '../src/errors.js';
import { DEFAULT_PROFILES } from '../src/osm/default-profiles.js';
import { REFERENCE_PROFILES } from './support/profiles.js';
import { CORE, TRANSIT, readRaw, type RawData } from './support/raw.js';
import { nodePairs, routeBetween } from './support/route-pairs.js';
import { CASES, gridMetres, gridOf, latLon, writeRoads, type P } from './support/roads.js';
import { TurnSearch, turnRules } from './support/turns-raw.js';
import { TURN_COSTS } from '../src/route/turns.js';
import {
  blockedNodes,
  carGraph,
  carOk,
  carOneway,
  dijkstra,
  edgeCounter,
  ISSUE_CAR_KMH,
  junctions,
  offGraph,
  type RawGraph,
} from './support/roads-raw.js';

type Mode = 'foot' | 'bike' | 'car';
const MS_PER_M: Record<Exclude<Mode, 'car'>, number> = { foot: 720, bike: 240 };

let roads: PlaceIndex;
beforeAll(async () => {
  roads = await loadPbf(await writeRoads(), { profiles: REFERENCE_PROFILES });
});

/** The grid points the route from a to b passes (its decoded polyline), with the route. */
function drive(mode: Mode, a: P, b: P, instructions = false): { pts: P[]; r: Route } {
  const [r] = route(roads, { points: [latLon(a), latLon(b)], mode, instructions });
  return { pts: polyline.decode(r.encodedPolyline, 5).map(gridOf), r };
}

/** Milliseconds of a line of grid points at `kmh` per segment (a number for all), or the mode's speed. */
function msOf(pts: P[], speed: Mode | number | number[]): number {
  let ms = 0;
  for (let i = 0; i + 1 < pts.length; i++) {
    const perM =
      typeof speed === 'string' ? (speed === 'car' ? NaN : MS_PER_M[speed]) : 3600 / (typeof speed === 'number' ? speed : speed[i]);
    ms += gridMetres(pts[i], pts[i + 1]) * perM;
  }
  return ms;
}

function metresOf(pts: P[]): number {
  let m = 0;
  for (let i = 0; i + 1 < pts.length; i++) m += gridMetres(pts[i], pts[i + 1]);
  return m;
}

/**
 * Asserts the route from a to b passes exactly `expected`, in the time it takes at `speed` (≤ 1 ms
 * rounding per segment) plus `turnMs`, its turns' costs worked out by hand from the documented
 * table (src/route/turns.ts: a turn costs where the junction offers a choice; corners cost nothing).
 */
function expectRoute(mode: Mode, expected: P[], speed: Mode | number | number[], turnMs = 0): Route {
  const { pts, r } = drive(mode, expected[0], expected.at(-1)!);
  expect(pts, `${mode} ${expected[0]} → ${expected.at(-1)}`).toEqual(expected);
  expect(Math.abs(r.timeInMs - msOf(expected, speed) - turnMs)).toBeLessThanOrEqual(expected.length - 1);
  expect(r.distanceInMeters).toBeCloseTo(metresOf(expected), 6);
  return r;
}

// Whether a line passes a, b, c one after the other.
function turns(pts: P[], a: P, b: P, c: P): boolean {
  const eq = (p: P, q: P) => p[0] === q[0] && p[1] === q[1];
  for (let i = 0; i + 2 < pts.length; i++) if (eq(pts[i], a) && eq(pts[i + 1], b) && eq(pts[i + 2], c)) return true;
  return false;
}

describe('a one-way street (oneway=yes) is driven only along its node order', () => {
  const { A, B, C, D } = CASES.oneway;
  it('car: A → B along it, B → A the long way round', () => {
    expectRoute('car', [A, B], 25);
    expectRoute('car', [B, C, D, A], 25);
  });
  it('foot ignores one-ways: B → A straight back', () => {
    expectRoute('foot', [B, A], 'foot');
  });
  it('bike obeys it: B → A the long way round', () => {
    expectRoute('bike', [B, C, D, A], 'bike');
  });
  // Fixed defect (found by this test): A snaps onto the lowest edge at A, the one-way A → B (offset 0); the leg's
  // sources are only that edge's heads the car may use (B), so the car drives A B C D (3 blocks).
  it('a car starting at a junction may leave by any of its roads, not only the one-way it snapped to: A → D is one block', () => {
    expectRoute('car', [A, D], 25);
  });
});

describe('points on a one-way street: a car goes along it, or round the block to a point behind it', () => {
  const { A, B, C, D } = CASES.oneway;
  const along = (f: number): [number, number] => [latLon(A)[0], latLon(A)[1] + f * (latLon(B)[1] - latLon(A)[1])];
  const line = (mode: Mode, f: number, g: number) => {
    const [r] = route(roads, { points: [along(f), along(g)], mode });
    return { r, pts: polyline.decode(r.encodedPolyline, 5).map(gridOf) };
  };
  const close = (pts: P[], expected: P[]) => {
    expect(pts).toHaveLength(expected.length);
    pts.forEach((p, i) => {
      expect(p[0]).toBeCloseTo(expected[i][0], 6);
      expect(p[1]).toBeCloseTo(expected[i][1], 6);
    });
  };
  it('car from 30% to 70% along A→B: straight along it', () => {
    const { r, pts } = line('car', 0.3, 0.7);
    close(pts, [
      [0.3, 0],
      [0.7, 0],
    ]);
    expect(Math.abs(r.timeInMs - (0.4 * gridMetres(A, B) * 3600) / 25)).toBeLessThanOrEqual(1);
  });
  it('car from 70% to 30%: on to B and round the block (B C D A) to the point', () => {
    const { r, pts } = line('car', 0.7, 0.3);
    close(pts, [[0.7, 0], B, C, D, A, [0.3, 0]]);
    const m = 0.3 * gridMetres(A, B) + gridMetres(B, C) + gridMetres(C, D) + gridMetres(D, A) + 0.3 * gridMetres(A, B);
    expect(Math.abs(r.timeInMs - (m * 3600) / 25)).toBeLessThanOrEqual(5);
  });
  it('foot from 70% to 30%: straight back', () => {
    close(line('foot', 0.7, 0.3).pts, [
      [0.7, 0],
      [0.3, 0],
    ]);
  });
});

describe('points mid-street: a route runs from the snapped point and pays only for the part of the street it uses', () => {
  const { A, B, C, D } = CASES.oneway;
  const at = (p: P, q: P, f: number): [number, number] => {
    const [a, b] = [latLon(p), latLon(q)];
    return [a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])];
  };
  const check = (mode: Mode, from: [number, number], to: [number, number], via: P[], metres: number, msPerM: number) => {
    const [r] = route(roads, { points: [from, to], mode });
    const line = polyline.decode(r.encodedPolyline, 5);
    expect(line.slice(1, 1 + via.length).map(gridOf)).toEqual(via);
    expect(line[0][0]).toBeCloseTo(from[0], 6);
    expect(line[0][1]).toBeCloseTo(from[1], 6);
    expect(Math.abs(r.timeInMs - metres * msPerM)).toBeLessThanOrEqual(2);
  };
  it('foot from 30% along A→B to C: on to B, then C (0.7 AB + BC at 5 km/h)', () => {
    check('foot', at(A, B, 0.3), latLon(C), [B, C], 0.7 * gridMetres(A, B) + gridMetres(B, C), 720);
  });
  it('foot from 30% along A→B to D: back to A, then D (0.3 AB + AD)', () => {
    check('foot', at(A, B, 0.3), latLon(D), [A, D], 0.3 * gridMetres(A, B) + gridMetres(A, D), 720);
  });
  it('car from 25% along B→C to halfway along D→A: C, D, then half of D→A (it may not drive B → A)', () => {
    check('car', at(B, C, 0.25), at(D, A, 0.5), [C, D], 0.75 * gridMetres(B, C) + gridMetres(C, D) + 0.5 * gridMetres(D, A), 3600 / 25);
  });
});

describe('oneway:bicycle=no lets bikes ride against a one-way, not cars', () => {
  const { A, B, C, D } = CASES.contraflow;
  it('bike B → A straight back; car B → A the long way round', () => {
    expectRoute('bike', [B, A], 'bike');
    expectRoute('car', [B, C, D, A], 25);
  });
});

describe('oneway=-1 is driven only against its node order', () => {
  const { E, F, G, H } = CASES.reverse;
  it('car: F → E along it, E → F the long way round', () => {
    expectRoute('car', [F, E], 25);
    expectRoute('car', [E, H, G, F], 25);
  });
  it('bike obeys it; foot does not', () => {
    expectRoute('bike', [E, H, G, F], 'bike');
    expectRoute('foot', [E, F], 'foot');
  });
});

describe('a roundabout (junction=roundabout) is one-way; its instruction is sign 6 with the exit number', () => {
  const { RW, RN, RE, RS, W, N, E, S } = CASES.roundabout;
  const roundaboutStep = (r: Route) => r.instructionList!.filter((s) => s.sign === 6);
  it('car W → N: first exit', () => {
    // RN: from 41.6° to north, slight left (RW offers no choice: the ring is one-way)
    expectRoute('car', [W, RW, RN, N], 40, TURN_COSTS.car.left.slight);
    const [step] = roundaboutStep(drive('car', W, N, true).r);
    expect(step).toMatchObject({ sign: 6, exitNumber: 1, name: 'North Road' });
  });
  it('car W → E: second exit', () => {
    // RN: 41.6° → 138.4°, right; RE: 138.4° → east, slight left
    expectRoute('car', [W, RW, RN, RE, E], 40, TURN_COSTS.car.right.normal + TURN_COSTS.car.left.slight);
    const steps = roundaboutStep(drive('car', W, E, true).r);
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ sign: 6, exitNumber: 2, name: 'East Road' });
  });
  it('car W → S goes three quarters round, never against the ring: third exit, the step starting where it enters', () => {
    const r = expectRoute('car', [W, RW, RN, RE, RS, S], 40, 2 * TURN_COSTS.car.right.normal + TURN_COSTS.car.left.slight);
    const { r: withSteps } = drive('car', W, S, true);
    expect(withSteps.encodedPolyline).toBe(r.encodedPolyline);
    const steps = roundaboutStep(withSteps);
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ sign: 6, exitNumber: 3, name: 'South Road' });
    expect(steps[0].text).toMatch(/exit 3/);
    expect(steps[0].interval[0]).toBe(1); // the polyline's point RW
  });
  it('foot W → S walks the quarter against the ring', () => {
    expectRoute('foot', [W, RW, RS, S], 'foot');
  });

  it('car W → S round the second roundabout: W QW QN QE QS S, one roundabout step onto South Road 2', () => {
    const q = CASES.roundabout2;
    // a choice only at QS (N is a footway, E a one-way into the ring): slight left
    expectRoute('car', [q.W, q.QW, q.QN, q.QE, q.QS, q.S], 40, TURN_COSTS.car.left.slight);
    const steps = roundaboutStep(drive('car', q.W, q.S, true).r);
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ sign: 6, name: 'South Road 2' });
  });
  // Fixed defect (found by this test): route/instructions.ts counts every junction of the ring with another road
  // of any mode (degree > 2), where GraphHopper counts the nodes with an edge the vehicle may leave
  // by. Round the second roundabout a car passes a footway (N) and a one-way into the ring (E): the
  // first exit it may take is S, but the step says "take exit 3".
  it('the exit number counts only exits the car may take (not a footway, not a one-way into the ring)', () => {
    const q = CASES.roundabout2;
    const steps = roundaboutStep(drive('car', q.W, q.S, true).r);
    expect(steps[0]).toMatchObject({ sign: 6, exitNumber: 1, name: 'South Road 2' });
  });
});

describe('no_left_turn: a car never takes the restricted turn, and takes the detour it forces', () => {
  const { P: Pw, V, Q, M, R } = CASES.noLeft;
  it('car P → M does not turn left at V: P V Q R M', () => {
    const { pts } = drive('car', Pw, M);
    expect(turns(pts, Pw, V, M)).toBe(false);
    expectRoute('car', [Pw, V, Q, R, M], 25);
  });
  it('the restriction binds only its from-way: M → P turns at V, P → Q goes straight on', () => {
    expectRoute('car', [M, V, Pw], 25, TURN_COSTS.car.right.normal);
    expectRoute('car', [Pw, V, Q], 25);
  });
  it('foot ignores turn restrictions: P V M', () => {
    expectRoute('foot', [Pw, V, M], 'foot');
  });
  // Fixed defect (found by this test): V snaps onto the from-way P–V at its end; the leg starts at the split copy of V
  // that the restriction made for cars arriving along P–V, so V → M drives V Q V M (a U-turn at Q).
  it('a car starting at the via node has made no turn: V → M is one block', () => {
    expectRoute('car', [V, M], 25);
  });
});

describe('only_straight_on: from its from-way a car may only take its to-way', () => {
  const { W, V, E, N, S } = CASES.onlyStraight;
  it('car W → E straight on', () => {
    expectRoute('car', [W, V, E], 25);
  });
  it('car W → N goes on to E and back by the diagonal: W V E N', () => {
    expectRoute('car', [W, V, E, N], 25);
  });
  it('car W → S never turns at V from W', () => {
    const { pts } = drive('car', W, S);
    expect(turns(pts, W, V, S)).toBe(false);
    expect(turns(pts, W, V, N)).toBe(false);
    expect(pts.at(-1)).toEqual(S);
  });
  it('from the other arms every turn is allowed: N → S, S → W', () => {
    expectRoute('car', [N, V, S], 25);
    expectRoute('car', [S, V, W], 25, TURN_COSTS.car.left.normal);
  });
  it('foot ignores it: W V N', () => {
    expectRoute('foot', [W, V, N], 'foot');
  });
  // Fixed defect (found by this test): V snaps onto V–N (the lowest edge at V); the leg's targets are the tails of
  // the arcs along V–N, and the copy of V for cars arriving from W has none (only straight on), so the
  // car drives W V E V, reaching V from E.
  it('a car ending at the via node makes no turn there: W → V is one block', () => {
    expectRoute('car', [W, V], 25);
  });
});

describe('access=private keeps cars (and walkers, and bikes) out unless a more specific key lets them in', () => {
  const round = (ox: number): P[] => [
    [ox, 0],
    [ox, 1],
    [ox + 2, 1],
    [ox + 2, 0],
  ];
  const through = (ox: number): P[] => [
    [ox, 0],
    [ox + 1, 0],
    [ox + 2, 0],
  ];
  it('access=private: every mode goes round', () => {
    const ox = CASES.private.ox;
    expectRoute('car', round(ox), 25);
    expectRoute('foot', round(ox), 'foot');
    expectRoute('bike', round(ox), 'bike');
  });
  it('access=private + foot=yes: walkers through, cars round', () => {
    const ox = CASES.privateFoot.ox;
    expectRoute('foot', through(ox), 'foot');
    expectRoute('car', round(ox), 25);
  });
  it('access=private + motorcar=yes: cars through, walkers round', () => {
    const ox = CASES.privateCar.ox;
    expectRoute('car', through(ox), 25);
    expectRoute('foot', round(ox), 'foot');
  });
});

describe('maxspeed caps the class speed (never raises it) and so changes the fastest drive', () => {
  it('a primary at 65 km/h beats a residential at 25 (whose maxspeed=100 does not raise it): round by the primary', () => {
    const ox = CASES.fastPrimary.ox;
    expectRoute(
      'car',
      [
        [ox, 0],
        [ox, 1],
        [ox + 2, 1],
        [ox + 2, 0],
      ],
      65,
    );
  });
  it('the same primary capped at 20 mph (32.19 km/h) loses: straight along the residential', () => {
    const ox = CASES.slowPrimary.ox;
    expectRoute(
      'car',
      [
        [ox, 0],
        [ox + 1, 0],
        [ox + 2, 0],
      ],
      25,
    );
  });
  it('the capped primary is the fastest way to (2, 1): S, (0, 1), (2, 1)', () => {
    const ox = CASES.slowPrimary.ox;
    expect(drive('car', [ox, 0], [ox + 2, 1]).pts).toEqual([
      [ox, 0],
      [ox, 1],
      [ox + 2, 1],
    ]);
  });
  // Fixed defect (found by this test): the road builder stores car speeds as whole km/h (Uint8Array,
  // Math.round), so 20 mph = 32.187 km/h is driven at 32: 0.6% slow (201 ms over 308 m).
  it('the capped primary is driven at 20 mph exactly', () => {
    const ox = CASES.slowPrimary.ox;
    const pts: P[] = [
      [ox, 0],
      [ox, 1],
      [ox + 2, 1],
    ];
    const { r } = drive('car', pts[0], pts[2]);
    expect(Math.abs(r.timeInMs - msOf(pts, 20 * 1.609344))).toBeLessThanOrEqual(2);
  });
});

describe('a way the extract cut keeps the parts whose nodes exist', () => {
  const { K0, K1, K3, K4 } = CASES.cut;
  it('each part is a road: K0 → K1 and K3 → K4, by every mode', () => {
    expectRoute('car', [K0, K1], 25);
    expectRoute('car', [K4, K3], 25);
    expectRoute('foot', [K1, K0], 'foot');
  });
  it('nothing joins the parts across the missing node: RouteError no-route', () => {
    for (const mode of ['foot', 'bike', 'car'] as const) {
      for (const [a, b] of [
        [K1, K3],
        [K0, K4],
        [K4, K1],
      ]) {
        let err: unknown;
        try {
          drive(mode, a, b);
        } catch (e) {
          err = e;
        }
        expect(err, `${mode} ${a} → ${b}`).toBeInstanceOf(RouteError);
        expect((err as RouteError).problem).toBe('no-route');
      }
    }
  });
});

describe("the car speed table is the issue's", () => {
  it("the shipped car profile's class speeds outside built-up areas are the issue's for the classes it names", () => {
    const speeds: Record<string, number> = DEFAULT_PROFILES.car.speeds;
    for (const [k, v] of Object.entries(ISSUE_CAR_KMH)) expect(speeds[k], k).toBe(v);
  });
});

describe.each([
  ['core', CORE, 31],
  ['transit', TRANSIT, 32],
])('car routes on the real fixture are legal and fastest (%s fixture)', (_, file, seed) => {
  let raw: RawData, index: PlaceIndex, g: RawGraph, turns: TurnSearch;
  const pairs: [number, number][] = [];
  let edges: ReturnType<typeof edgeCounter>;
  beforeAll(async () => {
    [raw, index] = await Promise.all([readRaw(file), loadPbf(file, { profiles: REFERENCE_PROFILES })]);
    g = carGraph(raw);
    const rules = turnRules(raw, 'car').rules;
    turns = new TurnSearch(g, raw, 'car', rules);
    edges = edgeCounter(raw);
    // junction pairs; via nodes left out (what a route from a via node may do is tested by hand above), and nodes a car may not pass
    const vias = new Set(rules.map((r) => r.viaNode));
    const blocked = blockedNodes(raw, 'car');
    const js = junctions(raw, g)
      .filter((v) => !vias.has(v) && !blocked.has(v))
      .sort((a, b) => a - b);
    pairs.push(...nodePairs(js, seed));
  });
  const drive = (s: number, t: number): Route | RouteError => routeBetween(index, raw, 'car', s, t);

  it("every road stretch a route drives is a car road driven in a direction cars may take (the polyline against osm-read's ways)", () => {
    const off = offGraph(raw, g);
    const bad: string[] = [];
    let checked = 0;
    for (const [s, t] of pairs) {
      const r = drive(s, t);
      if (r instanceof RouteError) continue;
      const line = polyline.decode(r.encodedPolyline, 5);
      // the first and last points are the snapped ends (here the junctions themselves)
      checked += line.length - 1;
      for (const [a, b] of off(line)) bad.push(`${s} → ${t}: ${a} → ${b}`);
    }
    expect(checked).toBeGreaterThan(1000);
    expect(bad).toEqual([]);
  });

  it('no route is faster than the fastest legal drive ignoring turn restrictions (one-ways, access, speeds by the issue), and none joins what it cannot', () => {
    const bad: string[] = [];
    for (const [s, t] of pairs) {
      const lower = dijkstra(g, s)(t);
      const r = drive(s, t);
      if (lower.cost === Infinity) {
        if (!(r instanceof RouteError && r.problem === 'no-route'))
          bad.push(`${s} → ${t}: no legal drive, got ${r instanceof RouteError ? r.problem : r.timeInMs}`);
      } else if (!(r instanceof RouteError) && r.routeWeight * 1000 < lower.cost - edges(lower)) {
        // (weights: travel time plus the penalty of entering destination-only roads)
        bad.push(`${s} → ${t}: weighs ${r.routeWeight * 1000} ms, less than the legal ${lower.cost} ms`);
      }
    }
    expect(bad).toEqual([]);
  });

  // Whether every route of `list` takes the time of the fastest drive that also obeys the turn restrictions.
  const fastest = (list: [number, number][]) => {
    const bad: string[] = [];
    let joined = 0;
    for (const [s, t] of list) {
      const best = turns.path(s, t);
      const r = drive(s, t);
      if (best.cost === Infinity) {
        if (!(r instanceof RouteError && r.problem === 'no-route'))
          bad.push(`${s} → ${t}: no legal drive, got ${r instanceof RouteError ? r.problem : r.timeInMs}`);
        continue;
      }
      joined++;
      if (r instanceof RouteError) bad.push(`${s} → ${t}: ${r.problem}, expected ${best.cost} ms`);
      else if (Math.abs(r.routeWeight * 1000 - best.cost) > edges(best))
        bad.push(`${s} → ${t}: weighs ${r.routeWeight * 1000} ms, expected ${best.cost} ms`);
      else if (Math.abs(r.timeInMs - best.travel) > edges(best)) bad.push(`${s} → ${t}: ${r.timeInMs} ms, expected ${best.travel} ms`);
    }
    expect(bad).toEqual([]);
    expect(joined).toBeGreaterThan(list.length / 3);
  };
  // nodes on a one-way: a point there snaps onto one of its roads (see the hand-made cases)
  let onOneway: Set<number>;
  const oneway = (id: number) => {
    onOneway ??= new Set(raw.ways.filter((w) => carOk(w.tags) && carOneway(w.tags) !== 0).flatMap((w) => w.refs));
    return onOneway.has(id);
  };

  it('every route between junctions of two-way roads takes the time of the fastest drive that also obeys the turn restrictions', () => {
    const list = pairs.filter(([s, t]) => !oneway(s) && !oneway(t));
    expect(list.length).toBeGreaterThan(40);
    fastest(list);
  });

  // Fixed defect (found by this test): a point on a junction snaps onto the lowest-numbered edge there; where that
  // edge is a one-way, the route can only leave (or reach) the point along it, and takes a detour
  // (e.g. transit 1990638925 → 31150664: 196,480 ms for a 66,388 ms drive). Same cause as
  // 'a car starting at a junction may leave by any of its roads'.
  it('every route from or to a junction on a one-way takes the time of the fastest drive that also obeys the turn restrictions', () => {
    const list = pairs.filter(([s, t]) => oneway(s) || oneway(t));
    expect(list.length).toBeGreaterThan(20);
    fastest(list);
  });
});
