/**
 * Foot routes are the shortest walking distance (issue 11, §2 and §6): on both real
 * fixtures, between many seeded pairs of junctions, the engine's route matches a plain
 * Dijkstra run here over the raw ways osm-read gives, with the foot rules written again
 * from the issue (test/support/roads-raw.ts) and segment lengths by @turf/distance.
 */
import polyline from '@mapbox/polyline';
import distance from '@turf/distance';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PlaceIndex } from '../src/index.js';
import { route } from '../src/query/route.js';
import { RouteError } from '../src/errors.js';
import { engine } from './support/fixture.js';
import { CORE, TRANSIT, readRaw, type RawData } from './support/raw.js';
import { random } from './support/random.js';
import { blockedNodes, dijkstra, edgeCounter, footGraph, junctions, type RawGraph, type RawPath } from './support/roads-raw.js';

/** Walking at 5 km/h: 720 ms a metre. */
const MS_PER_M = 720;
/** Per edge, the engine rounds its weight to a whole ms: at most 0.5 / 720 m, under 0.001 m. */
const ROUNDING_M = 0.001;
const SOURCES = 30,
  TARGETS = 5;

interface Pair {
  s: number;
  t: number;
  expect: RawPath;
}

// Length of a [lat, lon] line, haversine by @turf/distance.
function lineMetres(line: [number, number][]): number {
  let m = 0;
  for (let i = 0; i + 1 < line.length; i++)
    m += distance([line[i][1], line[i][0]], [line[i + 1][1], line[i + 1][0]], { units: 'kilometers' }) * 1000;
  return m;
}

describe.each([
  ['core', CORE, 11],
  ['transit', TRANSIT, 12],
])('foot routes are the shortest walk (%s fixture)', (_, file, seed) => {
  let raw: RawData, index: PlaceIndex, g: RawGraph;
  const pairs: Pair[] = [];
  let edges: (p: RawPath) => number;

  beforeAll(async () => {
    [raw, index] = await Promise.all([readRaw(file), engine(file)]);
    g = footGraph(raw);
    edges = edgeCounter(raw);
    // nodes a walker may not pass left out (a point there snaps beside them)
    const blocked = blockedNodes(raw, 'foot');
    const js = junctions(raw, g)
      .filter((v) => !blocked.has(v))
      .sort((a, b) => a - b);
    const rnd = random(seed);
    const pick = () => js[Math.floor(rnd() * js.length)];
    for (let i = 0; i < SOURCES; i++) {
      const s = pick();
      const sp = dijkstra(g, s);
      for (let k = 0; k < TARGETS; k++) {
        const t = pick();
        if (t !== s) pairs.push({ s, t, expect: sp(t) });
      }
    }
  });

  const at = (id: number, asString: boolean): [number, number] | string => {
    const n = raw.node.get(id)!;
    return asString ? `${n.lat},${n.lon}` : [n.lat, n.lon];
  };

  it('has pairs both joined and not joined by a walk', () => {
    expect(pairs.length).toBeGreaterThan(SOURCES * TARGETS * 0.9);
    expect(pairs.filter((p) => p.expect.cost < Infinity).length).toBeGreaterThan(pairs.length / 2);
  });

  it('the time is the shortest walk at 5 km/h (timeInMs / 720 = the Dijkstra distance, up to whole-ms rounding per edge)', () => {
    const bad: string[] = [];
    pairs.forEach((p, i) => {
      if (p.expect.cost === Infinity) return;
      const [r] = route(index, { points: [at(p.s, i % 2 === 0), at(p.t, i % 2 === 1)], mode: 'foot' });
      const metres = r.timeInMs / MS_PER_M;
      if (Math.abs(metres - p.expect.metres) > ROUNDING_M * edges(p.expect)) {
        bad.push(`${p.s} → ${p.t}: expected ${p.expect.metres} m, route time gives ${metres} m`);
      }
      expect(r.routeWeight).toBeCloseTo(r.timeInMs / 1000, 9);
    });
    expect(bad).toEqual([]);
  });

  it("distanceInMeters is the Dijkstra path drawn at the polyline's 1e-5° (the same line where the paths agree)", () => {
    const bad: string[] = [];
    let same = 0,
      joined = 0;
    pairs.forEach((p, i) => {
      if (p.expect.cost === Infinity) return;
      joined++;
      const [r] = route(index, { points: [at(p.s, i % 2 === 1), at(p.t, i % 2 === 0)], mode: 'foot' });
      const line = p.expect.nodes.map((id) => [raw.node.get(id)!.lat, raw.node.get(id)!.lon] as [number, number]);
      const mine = polyline.encode(line, 5);
      const rounded = lineMetres(polyline.decode(mine, 5));
      const theirs = polyline.decode(r.encodedPolyline, 5);
      // the route starts and ends on the junctions themselves
      expect(theirs[0]).toEqual(polyline.decode(polyline.encode([line[0]], 5), 5)[0]);
      expect(theirs.at(-1)).toEqual(polyline.decode(polyline.encode([line.at(-1)!], 5), 5)[0]);
      if (r.encodedPolyline === mine) {
        same++;
        if (Math.abs(r.distanceInMeters - rounded) > 1e-6 * Math.max(1, rounded))
          bad.push(`${p.s} → ${p.t}: ${r.distanceInMeters} vs ${rounded}`);
      } else {
        // an equally short path drawn differently: rounding each vertex to 1e-5° (≤ 0.75 m) moves
        // each segment's length by at most 1.5 m
        const slack = 1.5 * (theirs.length - 1);
        if (Math.abs(r.distanceInMeters - p.expect.metres) > slack)
          bad.push(`${p.s} → ${p.t}: ${r.distanceInMeters} vs ${p.expect.metres} (other line)`);
      }
    });
    expect(bad).toEqual([]);
    // shortest walks between junctions are unique but for exact ties: nearly all lines agree
    expect(same).toBeGreaterThanOrEqual(joined * 0.9);
  });
});

describe.each([
  ['core', CORE, 21],
  ['transit', TRANSIT, 22],
])('points no walk joins give RouteError no-route (%s fixture)', (_, file, seed) => {
  it('every pair the Dijkstra cannot join throws RouteError("no-route") naming the leg', async () => {
    const [raw, index] = await Promise.all([readRaw(file), engine(file)]);
    const g = footGraph(raw);
    // nodes a walker may not pass left out (a point there snaps beside them)
    const blocked = blockedNodes(raw, 'foot');
    const js = junctions(raw, g)
      .filter((v) => !blocked.has(v))
      .sort((a, b) => a - b);
    const rnd = random(seed);
    let apart = 0;
    for (let i = 0; i < 60 && apart < 25; i++) {
      const s = js[Math.floor(rnd() * js.length)];
      const sp = dijkstra(g, s);
      // a target off s's island, where there is one
      const others = js.filter((t) => sp(t).cost === Infinity);
      if (others.length === 0) continue;
      const t = others[Math.floor(rnd() * others.length)];
      apart++;
      const pt = (id: number) => [raw.node.get(id)!.lat, raw.node.get(id)!.lon] as [number, number];
      let err: unknown;
      try {
        route(index, { points: [pt(s), pt(t)], mode: 'foot' });
      } catch (e) {
        err = e;
      }
      expect(err, `${s} → ${t}`).toBeInstanceOf(RouteError);
      expect((err as RouteError).problem).toBe('no-route');
      expect((err as RouteError).point).toBe(0);
      expect((err as RouteError).mode).toBe('foot');
      expect((err as Error).message).toMatch(/point 1 and point 2/);
    }
    // the cut extracts do have islands
    expect(apart).toBeGreaterThan(0);
  });
});
