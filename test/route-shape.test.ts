/**
 * The shape of a route (issue 11, §3 and §6): the polyline, its length, the instructions,
 * alternatives, via points, and the typed errors of bad input. Routes are seeded ones on
 * the core fixture (points near junctions, so they snap mid-edge as well as on nodes) and
 * hand-made ones (test/support/roads.ts); expectations come from the decoded polyline
 * (@mapbox/polyline, @turf/distance) and from osm-read's tags, never from the engine.
 */
import polyline from '@mapbox/polyline';
import distance from '@turf/distance';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidQueryError, loadPbf, type PlaceIndex } from '../src/index.js';
import { route, type Route, type RouteQuery } from '../src/query/route.js';
import { RouteError } from '../src/errors.js';
import { BiDijkstra, SearchLimitError } from '../src/route/dijkstra.js';
import { TURN_COSTS } from '../src/route/turns.js';
import { engine } from './support/fixture.js';
import { CORE, readRaw, tag, type RawData } from './support/raw.js';
import { random } from './support/random.js';
import { footGraph, footOk, junctions } from './support/roads-raw.js';
import { CASES, latLon, writeRoads } from './support/roads.js';

type LatLon = [number, number];
const MODES = ['foot', 'bike', 'car'] as const;

function metres(a: LatLon, b: LatLon): number {
  return distance([a[1], a[0]], [b[1], b[0]], { units: 'kilometers' }) * 1000;
}

function lineMetres(line: LatLon[], from = 0, to = line.length - 1): number {
  let m = 0;
  for (let i = from; i < to; i++) m += metres(line[i], line[i + 1]);
  return m;
}

/** Runs a query, giving the routes or the RouteError (other errors throw). */
function tryRoute(index: PlaceIndex, q: RouteQuery): Route[] | RouteError {
  try {
    return route(index, q);
  } catch (e) {
    if (e instanceof RouteError) return e;
    throw e;
  }
}

let index: PlaceIndex, raw: RawData;
/** Seeded queries on the core fixture that have a route: [query, routes]. */
const routed: [RouteQuery, Route[]][] = [];
const viaRouted: [RouteQuery, Route[]][] = [];
const altRouted: [RouteQuery, Route[]][] = [];
let junctionIds: number[];

beforeAll(async () => {
  [index, raw] = await Promise.all([engine(CORE), readRaw(CORE)]);
  junctionIds = junctions(raw, footGraph(raw)).sort((a, b) => a - b);
  const rnd = random(41);
  // near a junction: on it, or up to ~50 m off, so that points snap onto nodes and mid-edge
  const point = (): LatLon => {
    const n = raw.node.get(junctionIds[Math.floor(rnd() * junctionIds.length)])!;
    return rnd() < 0.3 ? [n.lat, n.lon] : [n.lat + (rnd() - 0.5) * 0.001, n.lon + (rnd() - 0.5) * 0.001];
  };
  for (let k = 0; routed.length < 80 && k < 400; k++) {
    const q: RouteQuery = { points: [point(), point()], mode: MODES[k % 3], instructions: true };
    const r = tryRoute(index, q);
    if (Array.isArray(r)) routed.push([q, r]);
  }
  for (let k = 0; viaRouted.length < 30 && k < 400; k++) {
    const q: RouteQuery = { points: Array.from({ length: 3 + (k % 3) }, point), mode: MODES[k % 3], instructions: true };
    const r = tryRoute(index, q);
    if (Array.isArray(r)) viaRouted.push([q, r]);
  }
  for (let k = 0; altRouted.length < 40 && k < 400; k++) {
    const q: RouteQuery = { points: [point(), point()], mode: MODES[k % 3], alternatives: true, instructions: k % 2 === 0 };
    const r = tryRoute(index, q);
    if (Array.isArray(r)) altRouted.push([q, r]);
  }
});

const all = (): [RouteQuery, Route][] =>
  [...routed, ...viaRouted, ...altRouted].flatMap(([q, rs]) => rs.map((r) => [q, r] as [RouteQuery, Route]));

describe('encodedPolyline is a Google polyline (precision 5, lat,lon) from the first snapped point to the last', () => {
  it('enough seeded routes of every mode were found', () => {
    expect(routed.length).toBe(80);
    expect(viaRouted.length).toBe(30);
    expect(altRouted.length).toBe(40);
    for (const m of MODES) expect(routed.some(([q]) => q.mode === m)).toBe(true);
  });

  it('round-trips through @mapbox/polyline', () => {
    for (const [, r] of all()) {
      const line = polyline.decode(r.encodedPolyline, 5);
      expect(line.length).toBeGreaterThanOrEqual(2);
      expect(polyline.encode(line, 5)).toBe(r.encodedPolyline);
    }
  });

  it('starts and ends at the snapped points: no farther from the query point than the nearest node of a foot road (+ rounding)', () => {
    const nodes = new Set<number>();
    for (const w of raw.ways) if (footOk(w.tags)) for (const id of w.refs) if (raw.node.has(id)) nodes.add(id);
    const near = [...nodes].map((id) => raw.node.get(id)!);
    const nearest = (p: LatLon) => Math.min(...near.map((n) => metres(p, [n.lat, n.lon])));
    for (const [q, [r]] of routed.filter(([q]) => q.mode === 'foot')) {
      const line = polyline.decode(r.encodedPolyline, 5) as LatLon[];
      const [a, b] = q.points as LatLon[];
      expect(metres(a, line[0])).toBeLessThanOrEqual(nearest(a) + 1);
      expect(metres(b, line.at(-1)!)).toBeLessThanOrEqual(nearest(b) + 1);
    }
  });
});

describe('distanceInMeters is the length of the decoded polyline (haversine, R = 6371.0088 km)', () => {
  it('equals @turf/distance summed over the decoded line', () => {
    for (const [, r] of all()) {
      const line = polyline.decode(r.encodedPolyline, 5) as LatLon[];
      expect(Math.abs(r.distanceInMeters - lineMetres(line))).toBeLessThanOrEqual(1e-9 * Math.max(1, r.distanceInMeters));
    }
  });

  it('timeInMs is in milliseconds and routeWeight is what was minimised, in seconds; walking time is the distance at 5 km/h give or take the polyline rounding', () => {
    for (const [q, r] of all()) {
      expect(Number.isFinite(r.timeInMs)).toBe(true);
      expect(r.routeWeight).toBeCloseTo(r.timeInMs / 1000, 9);
      if (q.mode === 'foot') {
        const line = polyline.decode(r.encodedPolyline, 5);
        // 1e-5° rounding moves each vertex ≤ 0.75 m
        expect(Math.abs(r.timeInMs / 720 - r.distanceInMeters)).toBeLessThanOrEqual(1.5 * (line.length - 1) + 0.01);
      }
    }
  });
});

describe('instructionList: null unless asked; GraphHopper steps that cover the polyline and end with the finish', () => {
  it('is null without instructions: true, and the same route otherwise', () => {
    for (const [q, [r]] of routed.slice(0, 20)) {
      const [plain] = route(index, { ...q, instructions: false });
      expect(plain.instructionList).toBeNull();
      expect({ ...plain, instructionList: r.instructionList }).toEqual(r);
    }
  });

  it('intervals are contiguous, from point 0 to the last point; the last step is the finish (sign 4, 0 m, [last, last])', () => {
    for (const [, r] of all()) {
      const steps = r.instructionList;
      if (!steps) continue;
      const last = polyline.decode(r.encodedPolyline, 5).length - 1;
      expect(steps[0].interval[0]).toBe(0);
      for (let i = 0; i + 1 < steps.length; i++) expect(steps[i + 1].interval[0]).toBe(steps[i].interval[1]);
      for (const s of steps) expect(s.interval[0]).toBeLessThanOrEqual(s.interval[1]);
      expect(steps.at(-1)).toMatchObject({ sign: 4, distance: 0, time: 0, interval: [last, last] });
    }
  });

  it("each step's distance is its interval's length; the distances sum to distanceInMeters and the times to timeInMs", () => {
    for (const [, r] of all()) {
      const steps = r.instructionList;
      if (!steps) continue;
      const line = polyline.decode(r.encodedPolyline, 5) as LatLon[];
      for (const s of steps) expect(s.distance).toBeCloseTo(lineMetres(line, s.interval[0], s.interval[1]), 6);
      const d = steps.reduce((a, s) => a + s.distance, 0),
        t = steps.reduce((a, s) => a + s.time, 0);
      expect(Math.abs(d - r.distanceInMeters)).toBeLessThanOrEqual(1e-6 * Math.max(1, r.distanceInMeters));
      expect(Math.abs(t - r.timeInMs)).toBeLessThanOrEqual(1);
      for (const s of steps) {
        expect(Number.isInteger(s.time) && s.time >= 0).toBe(true);
        expect([-98, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6]).toContain(s.sign);
        expect(typeof s.text).toBe('string');
        expect(s.text.length).toBeGreaterThan(0);
      }
    }
  });

  it("names are streets' name:en, else name (a name that has an English one is never shown)", () => {
    const shown = new Set<string>(['']),
      hidden = new Set<string>();
    for (const w of raw.ways) {
      if (!tag(w.tags, 'highway')) continue;
      const en = tag(w.tags, 'name:en'),
        name = tag(w.tags, 'name');
      if (en) shown.add(en);
      else if (name) shown.add(name);
      if (en && name && name !== en) hidden.add(name);
    }
    for (const n of shown) hidden.delete(n);
    const names = all()
      .flatMap(([, r]) => r.instructionList ?? [])
      .map((s) => s.name);
    expect(names.some((n) => n !== '')).toBe(true);
    for (const n of names) {
      expect(shown.has(n), `"${n}" is no street's name:en or name`).toBe(true);
      expect(hidden.has(n)).toBe(false);
    }
  });

  it('a step onto a named street says so in English ("… onto <name>")', () => {
    for (const s of all().flatMap(([, r]) => r.instructionList ?? [])) {
      if (s.sign !== 4 && s.sign !== 5 && s.name) expect(s.text).toContain(s.name);
    }
  });
});

describe('via points: each is a step with sign 5, and the legs are the routes between consecutive points', () => {
  it('one sign-5 step per via point, at the polyline point of the via', () => {
    for (const [q, [r]] of viaRouted) {
      const vias = r.instructionList!.filter((s) => s.sign === 5);
      expect(vias).toHaveLength(q.points.length - 2);
      const line = polyline.decode(r.encodedPolyline, 5) as LatLon[];
      vias.forEach((s, i) => {
        expect(s.interval[0]).toBe(s.interval[1]);
        expect(s.distance).toBe(0);
        // the via's leg ends where a route to the via point alone ends
        const [leg] = route(index, { points: [q.points[i], q.points[i + 1]] as LatLon[], mode: q.mode });
        const end = polyline.decode(leg.encodedPolyline, 5).at(-1)!;
        expect(line[s.interval[0]]).toEqual(end);
      });
    }
  });

  // a via point is a stop where the route may go on any way: it turns back there only paying a
  // U-turn's cost (src/route/turns.ts), so the legs' own routes are its legs unless turning back
  // costs more than going round
  it("time and distance are the sums of the legs' routes, but for the U-turns at via points", () => {
    let same = 0;
    for (const [q, [r]] of viaRouted) {
      const legs = q.points.slice(1).map((p, i) => route(index, { points: [q.points[i], p] as LatLon[], mode: q.mode })[0]);
      const sum = legs.reduce((a, l) => a + l.timeInMs, 0);
      const uTurn = TURN_COSTS[q.mode ?? 'foot'].uTurn;
      expect(r.timeInMs).toBeGreaterThanOrEqual(sum);
      expect(r.timeInMs).toBeLessThanOrEqual(sum + (q.points.length - 2) * uTurn);
      if (r.timeInMs !== sum) continue;
      same++;
      expect(r.distanceInMeters).toBeCloseTo(
        legs.reduce((a, l) => a + l.distanceInMeters, 0),
        6,
      );
    }
    expect(same).toBeGreaterThan(viaRouted.length / 4);
  });
});

describe('alternatives: up to two more, each differing from the best (sharing at most ~70% of its length) and costing at most 1.4x', () => {
  // length of a's segments that b also runs along (either way), on the decoded lines
  const shared = (a: LatLon[], b: LatLon[]) => {
    const key = (p: LatLon, q: LatLon) => `${p[0]},${p[1]}|${q[0]},${q[1]}`;
    const segs = new Set<string>();
    for (let i = 0; i + 1 < b.length; i++) {
      segs.add(key(b[i], b[i + 1]));
      segs.add(key(b[i + 1], b[i]));
    }
    let m = 0;
    for (let i = 0; i + 1 < a.length; i++) if (segs.has(key(a[i], a[i + 1]))) m += metres(a[i], a[i + 1]);
    return m;
  };

  it('some queries have alternatives', () => {
    expect(altRouted.filter(([, rs]) => rs.length > 1).length).toBeGreaterThan(5);
  });

  it('at most 3 routes, the best first, all from the same start to the same end', () => {
    for (const [, rs] of altRouted) {
      expect(rs.length).toBeGreaterThanOrEqual(1);
      expect(rs.length).toBeLessThanOrEqual(3);
      const lines = rs.map((r) => polyline.decode(r.encodedPolyline, 5));
      for (const l of lines) {
        expect(l[0]).toEqual(lines[0][0]);
        expect(l.at(-1)).toEqual(lines[0].at(-1));
      }
      for (const r of rs) expect(r.routeWeight).toBeGreaterThanOrEqual(rs[0].routeWeight);
    }
  });

  it('the best is the route without alternatives', () => {
    for (const [q, rs] of altRouted) {
      const [best] = route(index, { ...q, alternatives: false });
      expect(rs[0]).toEqual(best);
    }
  });

  it('each alternative costs at most 1.4x the best and differs from the routes before it', () => {
    for (const [, rs] of altRouted) {
      for (let i = 1; i < rs.length; i++) {
        expect(rs[i].timeInMs).toBeLessThanOrEqual(1.4 * rs[0].timeInMs + 1);
        for (let j = 0; j < i; j++) expect(rs[i].encodedPolyline).not.toBe(rs[j].encodedPolyline);
      }
    }
  });

  // ~70%: the partial edges at the two ends, which every route shares, may add a little
  const SHARE = 0.75;
  const maxShare = (modes: string[]) => {
    let worst = 0;
    for (const [q, rs] of altRouted) {
      if (!modes.includes(q.mode!)) continue;
      const lines = rs.map((r) => polyline.decode(r.encodedPolyline, 5) as LatLon[]);
      for (let i = 1; i < rs.length; i++) {
        for (let j = 0; j < i; j++) worst = Math.max(worst, shared(lines[i], lines[j]) / rs[0].distanceInMeters);
      }
    }
    return worst;
  };

  it("a foot or bike alternative shares at most ~70% of the best's length with the best or another alternative", () => {
    expect(maxShare(['foot', 'bike'])).toBeLessThanOrEqual(SHARE);
  });

  // Fixed defect (found by this test): route() passes ALTERNATIVES to the search without `share`, so the via-node
  // chooser measures sharing by arc weight (time), not length as the issue and route.ts's own doc say.
  // For cars they differ: [27.7159667, 85.332028] → [27.71492027701605, 85.3274981417532] gives an
  // alternative (1,843 m) sharing 76% of the best's 1,341 m.
  it("a car alternative shares at most ~70% of the best's length (not of its time)", () => {
    expect(maxShare(['car'])).toBeLessThanOrEqual(SHARE);
  });
});

describe('bad input throws InvalidQueryError naming the parameter', () => {
  const a: LatLon = [27.7172, 85.324],
    b: LatLon = [27.7083, 85.3206];
  const bad = (q: unknown, param: string) => {
    let err: unknown;
    try {
      route(index, q as RouteQuery);
    } catch (e) {
      err = e;
    }
    expect(err, JSON.stringify(q)).toBeInstanceOf(InvalidQueryError);
    expect((err as InvalidQueryError).param).toBe(param);
    expect((err as Error).message).toContain(param);
  };

  it('fewer than 2 or more than 25 points', () => {
    bad({ points: [] }, 'points');
    bad({ points: [a] }, 'points');
    bad({ points: Array.from({ length: 26 }, () => a) }, 'points');
    bad({}, 'points');
    bad({ points: 'a;b' }, 'points');
  });

  it('25 points are allowed', () => {
    const r = route(index, { points: Array.from({ length: 25 }, (_, i) => (i % 2 ? a : b)), mode: 'foot', instructions: true });
    expect(r[0].instructionList!.filter((s) => s.sign === 5)).toHaveLength(23);
  });

  it('points more than 2,000 km apart in all (straight lines from point to point, summed)', () => {
    // a degree of latitude is 111.195 km (R = 6371.0088 km): 9 degrees there and back is 2,001.5 km
    const north: LatLon = [a[0] + 9, a[1]];
    bad({ points: [a, north, a] }, 'points');
    // the same trip one way is 1,000.8 km: routed or too far from a road, never refused as too long
    let err: unknown;
    try {
      route(index, { points: [a, north] });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RouteError);
    // 1,990 km across Nepal-sized legs is allowed
    expect(() => route(index, { points: [a, [a[0] + 8.95, a[1]], a] })).toThrow(RouteError);
  });

  it('a malformed point', () => {
    for (const p of [
      [27.7],
      [27.7, 85.3, 1],
      [27.7, '85.3'],
      [NaN, 85.3],
      [27.7, Infinity],
      [91, 85.3],
      [27.7, 181],
      'abc',
      '27.7;85.3',
      '27.7,',
      ',85.3',
      '27.7,85.3,1',
      null,
      {},
      { lat: 27.7, lon: 85.3 },
    ]) {
      bad({ points: [a, p] }, 'points');
    }
  });

  it('"lat,lon" strings are points, as pairs are', () => {
    expect(route(index, { points: [`${a[0]},${a[1]}`, ` ${b[0]} , ${b[1]} `] })).toEqual(route(index, { points: [a, b] }));
  });

  it('an unknown mode', () => {
    for (const mode of ['plane', 'CAR', '', 'walk', 1]) bad({ points: [a, b], mode }, 'mode');
  });

  it('alternatives with more than two points', () => {
    bad({ points: [a, b, a], alternatives: true }, 'alternatives');
  });

  it('flags that are not booleans', () => {
    for (const v of ['true', 1, 0, null, 'yes']) {
      bad({ points: [a, b], instructions: v }, 'instructions');
      bad({ points: [a, b], alternatives: v }, 'alternatives');
    }
  });
});

describe('a point farther than 1 km from every road the mode may use throws RouteError too-far naming it', () => {
  it('a point 5 km from any road', () => {
    // 5 km north of the fixture's northernmost node: no road of the extract comes nearer
    let north = -Infinity;
    for (const n of raw.nodes) north = Math.max(north, n.lat);
    const far: LatLon = [north + 0.045, 85.3206];
    let d = Infinity;
    for (const n of raw.nodes) d = Math.min(d, metres(far, [n.lat, n.lon]));
    expect(d).toBeGreaterThan(4900);
    for (const mode of MODES) {
      for (const [points, at] of [
        [[far, [27.7083, 85.3206]], 0],
        [[[27.7083, 85.3206], [27.7172, 85.324], far], 2],
      ] as [LatLon[], number][]) {
        let err: unknown;
        try {
          route(index, { points, mode });
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(RouteError);
        expect((err as RouteError).problem).toBe('too-far');
        expect((err as RouteError).point).toBe(at);
        expect((err as RouteError).mode).toBe(mode);
        expect((err as Error).message).toContain(`point ${at + 1}`);
        expect((err as Error).message).toMatch(/km/);
      }
    }
  });
});

describe('instructions on the hand-made network: names in English, the roundabout, the finish', () => {
  let roads: PlaceIndex;
  beforeAll(async () => {
    roads = await loadPbf(await writeRoads());
  });

  it('a car through the roundabout: continue on West Road, exit 3 onto South Road (its name:en, not its name), finish', () => {
    const { W, S } = CASES.roundabout;
    const [r] = route(roads, { points: [latLon(W), latLon(S)], mode: 'car', instructions: true });
    // W RW RN RE RS S: 6 points
    expect(r.instructionList!.map((s) => [s.sign, s.name, s.interval])).toEqual([
      [0, 'West Road', [0, 1]],
      [6, 'South Road', [1, 5]],
      [4, '', [5, 5]],
    ]);
    expect(r.instructionList![1].exitNumber).toBe(3);
  });

  // Fixed defect (found by this test): with both points on one edge, route() puts the leg along the edge first and
  // keeps the search's paths after it as alternatives without checking them against it: from 30% to
  // 70% along A→B on foot the "alternative" walks back to A and forward again over the same street
  // (70,886 ms against the best's 28,354: 2.5x; by car round the block, 11.6x).
  it('alternatives between two points on one street still cost at most 1.4x the best and differ from it', () => {
    const { A, B } = CASES.oneway;
    const along = (f: number): LatLon => {
      const [a, b] = [latLon(A), latLon(B)];
      return [a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1])];
    };
    for (const mode of MODES) {
      const rs = route(roads, { points: [along(0.3), along(0.7)], mode, alternatives: true });
      for (const r of rs.slice(1)) expect(r.timeInMs, mode).toBeLessThanOrEqual(1.4 * rs[0].timeInMs);
    }
  });

  // Fixed defect (found by this test): the same point twice with alternatives gives the same empty route twice.
  it('alternatives from a point to itself are not the best route again', () => {
    const rs = route(roads, { points: [latLon(CASES.oneway.A), latLon(CASES.oneway.A)], mode: 'foot', alternatives: true });
    expect(rs[0].distanceInMeters).toBe(0);
    expect(rs).toHaveLength(1);
  });

  it('a point 945 m from the nearest road snaps onto it; one 1,056 m away is too far', () => {
    const { A, C, D } = CASES.oneway;
    // north of the square's north side (y = 1), whose nearest point is straight south
    const near = latLon([0.5, 9.5]),
      far = latLon([0.5, 10.5]);
    expect(metres(near, latLon([0.5, 1]))).toBeCloseTo(945.16, 1);
    expect(metres(far, latLon([0.5, 1]))).toBeCloseTo(1056.35, 1);
    const [r] = route(roads, { points: [near, latLon(A)], mode: 'foot' });
    const line = polyline.decode(r.encodedPolyline, 5);
    expect(line[0][0]).toBeCloseTo(latLon([0.5, 1])[0], 6);
    expect(line[0][1]).toBeCloseTo(latLon([0.5, 1])[1], 6);
    expect(line.slice(1)).toEqual([latLon(D), latLon(A)]);
    for (const mode of MODES) {
      let err: unknown;
      try {
        route(roads, { points: [latLon(C), far], mode });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(RouteError);
      expect(err).toMatchObject({ problem: 'too-far', point: 1, mode });
    }
  });

  it('a turn left and a turn right are signs -2 and 2', () => {
    // no_left_turn case, M → P: south on Middle, right onto Bottom West (heading south, west is to the right)
    const { M, P: Pw } = CASES.noLeft;
    const [r] = route(roads, { points: [latLon(M), latLon(Pw)], mode: 'car', instructions: true });
    expect(r.instructionList!.map((s) => [s.sign, s.name])).toEqual([
      [0, 'Middle'],
      [2, 'Bottom West'],
      [4, ''],
    ]);
    expect(r.instructionList![1].text).toBe('Turn right onto Bottom West');
    // P → M on foot: east on Bottom West, left onto Middle at V (heading east, north is to the left)
    const [f] = route(roads, { points: [latLon(Pw), latLon(M)], mode: 'foot', instructions: true });
    expect(f.instructionList!.map((s) => [s.sign, s.name])).toEqual([
      [0, 'Bottom West'],
      [-2, 'Middle'],
      [4, ''],
    ]);
    expect(f.instructionList![1].text).toBe('Turn left onto Middle');
    expect(f.instructionList!.map((s) => s.interval)).toEqual([
      [0, 1],
      [1, 2],
      [2, 2],
    ]);
  });
});

describe('without hierarchies, a search is bounded: past its limit of settled nodes a leg is RouteError too-long, never seconds of work', () => {
  let plain: PlaceIndex;
  beforeAll(async () => {
    plain = await loadPbf(CORE, { contract: 'never' });
  }, 120_000);

  it('the bidirectional Dijkstra with a limit finds the same paths as without, or throws SearchLimitError', () => {
    const arcs = plain.router!.modes[0].arcs;
    const free = new BiDijkstra(arcs),
      bounded = new BiDijkstra(arcs, 300);
    const rnd = random(5);
    let same = 0,
      stopped = 0;
    for (let i = 0; i < 200; i++) {
      const s = Math.floor(rnd() * arcs.n),
        t = Math.floor(rnd() * arcs.n);
      const want = free.route([s, 0], [t, 0]);
      try {
        const got = bounded.route([s, 0], [t, 0]);
        expect(got?.cost).toBe(want?.cost);
        same++;
      } catch (e) {
        expect(e).toBeInstanceOf(SearchLimitError);
        stopped++;
      }
    }
    // both outcomes occur on the fixture at this limit
    expect(same).toBeGreaterThan(0);
    expect(stopped).toBeGreaterThan(0);
  });

  it('route() refuses the leg past the limit, naming it and the remedy; the index with hierarchies routes it', () => {
    plain.router!.plainLimit = 50;
    const q: RouteQuery = {
      points: [
        [27.7154, 85.3123],
        [27.7172, 85.324],
        [27.709, 85.329],
      ],
      mode: 'car',
    };
    const r = tryRoute(plain, q);
    expect(r).toBeInstanceOf(RouteError);
    expect((r as RouteError).problem).toBe('too-long');
    expect((r as RouteError).point).toBe(0);
    expect((r as RouteError).message).toMatch(/from point 1 to point 2 \(car\).*snapshot/);
    expect(Array.isArray(tryRoute(index, q))).toBe(true);
  });
});
