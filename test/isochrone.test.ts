/**
 * isochrone(): one (Multi)Polygon per contour, largest first, holes where nothing is reached; its
 * area holds what an independent search reaches in time and leaves out what it does not, within
 * a stated margin: a plain Dijkstra over the raw ways (test/support/roads-raw.ts) for foot, and
 * route() for car.
 */
import { check } from '@placemarkio/check-geojson';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import FlatQueue from 'flatqueue';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PlaceIndex } from '../src/index.js';
import { route } from '../src/query/route.js';
import { matrix } from '../src/query/matrix.js';
import { isochrone, MAX_MINUTES } from '../src/query/isochrone.js';
import { GRID, Reached, contourReached } from '../src/route/isochrone.js';
import { reachFor } from '../src/route/reach.js';
import { arcEdge, junctionAt, msPerMetre, nodeKey, snapFor, sourceSeeds } from '../src/route/seeds.js';
import type { Snap } from '../src/route/snap.js';
import { MODES } from '../src/osm/profile.js';
import { InvalidQueryError, RouteError } from '../src/errors.js';
import { engine, CENTER } from './support/fixture.js';
import { CORE, readRaw, type RawData } from './support/raw.js';
import { random } from './support/random.js';
import { blockedNodes, footGraph, junctions, type RawGraph } from './support/roads-raw.js';

const M_PER_DEG = (6371008.8 * Math.PI) / 180;
/** Walking, on the road and off it: ms per metre. */
const WALK = 720;

/** Signed area of a ring of [lon, lat] (positive: counterclockwise). */
function signedArea(ring: number[][]): number {
  let a = 0;
  for (let i = 0; i + 1 < ring.length; i++) a += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
  return a / 2;
}

/** One-to-all Dijkstra over a raw graph: per node, the travel time (ms) of its cheapest path. */
function times(g: RawGraph, source: number, msPerCost: number): Float64Array {
  const dist = new Float64Array(g.ids.length).fill(Infinity);
  const travel = new Float64Array(g.ids.length).fill(Infinity);
  const q = new FlatQueue<number>();
  const s = g.idx.get(source)!;
  dist[s] = 0;
  travel[s] = 0;
  q.push(s, 0);
  while (q.length) {
    const d = q.peekValue()!;
    const v = q.pop()!;
    if (d > dist[v]) continue;
    for (const a of g.outArcs(v)) {
      const w = g.to[a];
      if (d + g.cost[a] < dist[w]) {
        dist[w] = d + g.cost[a];
        travel[w] = travel[v] + (g.cost[a] - g.penalty[a]) * msPerCost;
        q.push(w, dist[w]);
      }
    }
  }
  return travel;
}

describe('an isochrone is a FeatureCollection of one MultiPolygon per contour, largest first', () => {
  let index: PlaceIndex;
  beforeAll(async () => {
    index = await engine();
  });

  it('valid GeoJSON; minutes and mode per feature; exterior rings counterclockwise, holes clockwise; each contour inside the next', () => {
    const fc = isochrone(index, { ...CENTER, mode: 'car', minutes: [2, 8, 5] });
    expect(check(JSON.stringify(fc))).toBeTruthy();
    expect(fc.features.map((f) => f.properties)).toEqual([
      { minutes: 8, mode: 'car' },
      { minutes: 5, mode: 'car' },
      { minutes: 2, mode: 'car' },
    ]);
    let holes = 0;
    for (const f of fc.features) {
      expect(f.geometry.type).toBe('MultiPolygon');
      expect(f.geometry.coordinates.length).toBeGreaterThan(0);
      for (const poly of f.geometry.coordinates) {
        expect(signedArea(poly[0])).toBeGreaterThan(0);
        for (const hole of poly.slice(1)) expect(signedArea(hole)).toBeLessThan(0);
        holes += poly.length - 1;
      }
    }
    expect(holes).toBeGreaterThan(0); // blocks no road crosses are left out
    // every vertex of a smaller contour lies in the larger one (or on its edge: a shared border)
    const [big, , small] = fc.features;
    const outside = small.geometry.coordinates.flat(2).filter((p) => !booleanPointInPolygon(p, big.geometry));
    expect(outside.length).toBeLessThan(0.02 * small.geometry.coordinates.flat(2).length);
  });

  it('a single number of minutes is one contour; the point itself lies inside', () => {
    const fc = isochrone(index, { ...CENTER, minutes: 5 });
    expect(fc.features).toHaveLength(1);
    expect(fc.features[0].properties).toEqual({ minutes: 5, mode: 'foot' });
    // the centre snaps within a few metres of a road
    const [{ lat, lon }] = [CENTER];
    expect(booleanPointInPolygon([lon, lat], fc.features[0].geometry)).toBe(true);
  });
});

describe('foot: the contour holds what an independent Dijkstra over the raw ways reaches in time, within the stated margin', () => {
  let raw: RawData, index: PlaceIndex;
  beforeAll(async () => {
    [raw, index] = await Promise.all([readRaw(CORE), engine()]);
  });

  it.each([
    [10, 51],
    [6, 52],
  ])('%i minutes from a random junction', (minutes, seed) => {
    const g = footGraph(raw);
    const blocked = blockedNodes(raw, 'foot');
    const js = junctions(raw, g).filter((v) => !blocked.has(v));
    const rnd = random(seed);
    // a junction near the middle, so that the contour stays inside the data
    let origin = js[0];
    for (let i = 0; i < 1000; i++) {
      origin = js[Math.floor(rnd() * js.length)];
      const n = raw.node.get(origin)!;
      if (Math.abs(n.lat - CENTER.lat) < 0.005 && Math.abs(n.lon - CENTER.lon) < 0.005) break;
    }
    const o = raw.node.get(origin)!;
    const T = minutes * 60_000;
    const t = times(g, origin, WALK);
    // the reached stretches of road: each arc from a node reached in time, as far as time allows
    const kx = M_PER_DEG * Math.cos((o.lat * Math.PI) / 180);
    const xy = (id: number) => [(raw.node.get(id)!.lon - o.lon) * kx, (raw.node.get(id)!.lat - o.lat) * M_PER_DEG];
    const segs: number[][] = [];
    let minX = Infinity,
      maxX = -Infinity,
      minY = Infinity,
      maxY = -Infinity;
    for (let a = 0; a < g.from.length; a++) {
      const tu = t[g.from[a]];
      if (!(tu <= T)) continue;
      const travel = (g.cost[a] - g.penalty[a]) * WALK;
      const f = travel > 0 ? Math.min(1, (T - tu) / travel) : 1;
      const [ax, ay] = xy(g.ids[g.from[a]]),
        [bx0, by0] = xy(g.ids[g.to[a]]);
      const bx = ax + f * (bx0 - ax),
        by = ay + f * (by0 - ay);
      segs.push([ax, ay, tu, bx, by, tu + f * travel]);
      minX = Math.min(minX, ax, bx);
      maxX = Math.max(maxX, ax, bx);
      minY = Math.min(minY, ay, by);
      maxY = Math.max(maxY, ay, by);
    }
    // the grid's documented cell and reach
    const pad = GRID.reachCells + 2;
    const cell = Math.max(GRID.minCell, Math.max(maxX - minX, maxY - minY) / (GRID.maxCells - 2 * pad));
    const R = GRID.reachCells * cell;
    const diag = cell * Math.SQRT2 * 1.01 + 1;
    // the stated margin: within a cell, the time at a road's nearest point moves by at most the
    // road's pace times the cell's diagonal, and the walk to it by the walk's
    const margin = 2 * WALK * diag;
    // f(q): per reached segment, the time at its point nearest q plus the walk from there, within r
    const f = (x: number, y: number, r: number) => {
      let best = Infinity;
      for (const [ax, ay, at, bx, by, bt] of segs) {
        const dx = bx - ax,
          dy = by - ay;
        const len2 = dx * dx + dy * dy;
        let s = len2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / len2 : 0;
        s = Math.max(0, Math.min(1, s));
        const d = Math.hypot(ax + s * dx - x, ay + s * dy - y);
        if (d <= r) best = Math.min(best, at + s * (bt - at) + d * WALK);
      }
      return best;
    };
    const fc = isochrone(index, { lat: o.lat, lon: o.lon, mode: 'foot', minutes });
    const shape = fc.features[0].geometry;
    let inside = 0,
      outside = 0;
    const bad: string[] = [];
    for (let i = 0; i < 3000; i++) {
      // half the points anywhere, half near a reached road (where the contour's edge runs)
      let x: number, y: number;
      if (i % 2) {
        x = minX - 3 * R + rnd() * (maxX - minX + 6 * R);
        y = minY - 3 * R + rnd() * (maxY - minY + 6 * R);
      } else {
        const [ax, ay, , bx, by] = segs[Math.floor(rnd() * segs.length)];
        const u = rnd(),
          a = rnd() * 2 * Math.PI,
          d = rnd() * 2 * R;
        x = ax + u * (bx - ax) + d * Math.cos(a);
        y = ay + u * (by - ay) + d * Math.sin(a);
      }
      const p = [o.lon + x / kx, o.lat + y / M_PER_DEG];
      const inShape = booleanPointInPolygon(p, shape);
      if (f(x, y, R - diag) <= T - margin) {
        inside++;
        if (!inShape) bad.push(`${p} reached at ${f(x, y, R - diag)} ms, outside the contour`);
      } else if (f(x, y, R + diag) > T + margin) {
        outside++;
        if (inShape) bad.push(`${p} reached at ${f(x, y, R + diag)} ms, inside the contour`);
      }
    }
    expect(bad).toEqual([]);
    expect(inside).toBeGreaterThan(500);
    expect(outside).toBeGreaterThan(500);
    expect(margin).toBeLessThan(60_000); // the margin stated: two walks across a cell's diagonal, under a minute here
  });
});

describe('car: junctions route() reaches within T minus the margin lie inside the contour', () => {
  it('8 minutes from the centre, 300 random junctions', async () => {
    const [raw, index] = await Promise.all([readRaw(CORE), engine()]);
    const T = 8 * 60_000;
    const fc = isochrone(index, { ...CENTER, mode: 'car', minutes: 8 });
    const shape = fc.features[0].geometry;
    const g = footGraph(raw);
    const js = junctions(raw, g);
    const rnd = random(61);
    // the cell is at least 25 m and at most the contour's extent / 120: 3 km here, so 25 m;
    // a car's slowest road is 10 km/h, 360 ms a metre, and the walk 720
    const margin = (360 + 720) * (25 * Math.SQRT2 * 1.01 + 1);
    let inside = 0;
    const bad: string[] = [];
    for (let i = 0; i < 300; i++) {
      const n = raw.node.get(js[Math.floor(rnd() * js.length)])!;
      let ms: number;
      try {
        ms = route(index, {
          points: [
            [CENTER.lat, CENTER.lon],
            [n.lat, n.lon],
          ],
          mode: 'car',
        })[0].timeInMs;
      } catch {
        continue;
      }
      // a junction on a road the car may use: it snaps to itself
      const snapped = matrix(index, { sources: [[n.lat, n.lon]], destinations: [[n.lat, n.lon]], mode: 'car' }).sources[0];
      if (ms > T - margin || snapped.snapDistanceInMeters > 0.5) continue;
      inside++;
      if (!booleanPointInPolygon([n.lon, n.lat], shape)) bad.push(`${n.id} reached in ${ms} ms, outside`);
    }
    expect(bad).toEqual([]);
    expect(inside).toBeGreaterThan(30);
  });
});

describe('bad input is an error naming the parameter', () => {
  let index: PlaceIndex;
  beforeAll(async () => {
    index = await engine();
  });
  const param = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      if (e instanceof InvalidQueryError) return e.param + ': ' + e.message;
      if (e instanceof RouteError) return `RouteError ${e.problem}: ${e.message}`;
      throw e;
    }
    return 'no error';
  };

  it.each<[string, unknown]>([
    ['0', 0],
    ['past the cap', MAX_MINUTES.car + 1],
    ['a fraction', 2.5],
    ['a string', '5'],
    ['a repeat', [5, 5]],
    ['five contours', [1, 2, 3, 4, 5]],
    ['none', []],
    ['missing', undefined],
  ])('minutes %s', (_, minutes) => {
    expect(param(() => isochrone(index, { ...CENTER, mode: 'car', minutes: minutes as number }))).toMatch(/^minutes: /);
  });

  it('the cap is per mode and named in the message', () => {
    expect(param(() => isochrone(index, { ...CENTER, mode: 'car', minutes: 61 }))).toContain(`1 to ${MAX_MINUTES.car} for car`);
    expect(param(() => isochrone(index, { ...CENTER, mode: 'foot', minutes: MAX_MINUTES.foot + 1 }))).toContain(`${MAX_MINUTES.foot}`);
  });

  it('an unknown mode, a bad lat or lon', () => {
    expect(param(() => isochrone(index, { ...CENTER, mode: 'plane' as never, minutes: 5 }))).toMatch(/^mode: /);
    expect(param(() => isochrone(index, { lat: 91, lon: 85.3, minutes: 5 }))).toMatch(/^lat: /);
    expect(param(() => isochrone(index, { lat: 27.7, lon: NaN, minutes: 5 }))).toMatch(/^lon: /);
  });

  it('a point farther than 1 km from any road of the mode: RouteError too-far', () => {
    expect(param(() => isochrone(index, { lat: 27.74, lon: 85.36, mode: 'car', minutes: 5 }))).toMatch(/^RouteError too-far: /);
  });
});

/**
 * The road stretches as first collected: from the point along its edges, then every arc out of
 * every node reached in time, whole, from the time it enters its edge (its tail's time plus its
 * turn, worked out anew by arcEdge), as far as time allows.
 */
function everyArc(index: PlaceIndex, mode: number, lat: number, lon: number, top: number): Reached {
  const router = index.router!,
    g = router.graph;
  const s = snapFor(router, mode, lat, lon, 1)!;
  const reached = new Reached();
  const walk = (key: number, t0: number, from?: Snap) => {
    const msPerM = msPerMetre(router, mode, key),
      e = key >> 1,
      back = (key & 1) === 1,
      c = g.coords;
    const lo = g.coordStart[e],
      hi = g.coordStart[e + 1] - 1,
      dir = back ? -1 : 1,
      last = back ? lo : hi;
    let i = from ? (back ? from.at : from.at + 1) : (back ? hi : lo) + dir;
    let px = from ? from.lon : c[2 * (i - dir)] / 1e7,
      py = from ? from.lat : c[2 * (i - dir) + 1] / 1e7,
      t = t0;
    const k = Math.cos((py * Math.PI) / 180);
    reached.begin();
    reached.point(px, py, t);
    for (; dir > 0 ? i <= last : i >= last; i += dir) {
      const x = c[2 * i] / 1e7,
        y = c[2 * i + 1] / 1e7;
      const dx = (x - px) * k,
        dy = y - py;
      const metres = Math.sqrt(dx * dx + dy * dy) * M_PER_DEG;
      const t1 = t + metres * msPerM;
      if (t1 > top) {
        const f = metres > 0 ? (top - t) / (t1 - t) : 0;
        reached.point(px + f * (x - px), py + f * (y - py), top);
        return;
      }
      reached.point(x, y, t1);
      px = x;
      py = y;
      t = t1;
    }
  };
  const seeds = sourceSeeds(router, mode, s);
  const reach = reachFor(router, mode);
  reach.run(seeds, { maxTime: top }, (ctx) => {
    for (const seed of seeds) walk(nodeKey(router, mode, seed.node), 0, junctionAt(router, s) >= 0 ? undefined : s);
    for (let i = 0; i < ctx.settledCount; i++) {
      const v = ctx.settled[i];
      for (let k = reach.start[v]; k < reach.start[v + 1]; k++) {
        const { key, lead } = arcEdge(router, mode, reach.arc[k]);
        if (ctx.t[v] + lead <= top) walk(key, ctx.t[v] + lead);
      }
    }
  });
  return reached;
}

describe('each road stretch counts once: the contours of every arc out of every node reached, each added whole', () => {
  let index: PlaceIndex;
  beforeAll(async () => {
    index = await engine();
  });

  // an edge is turned onto from several nodes; isochrone() adds it from the earliest only, and of
  // the later ones the segment where their time runs out: the same grid, so the same contours
  it.each([
    ['car', [15, 8, 4], 61],
    ['car', [6], 62],
    ['foot', [20, 10], 63],
    ['bike', [12, 5], 64],
  ] as const)('%s %j minutes, from 6 random road points', (mode, minutes, seed) => {
    const router = index.router!,
      g = router.graph;
    const rnd = random(seed);
    const m = MODES.indexOf(mode);
    for (let n = 0; n < 6; n++) {
      const c = Math.floor(rnd() * (g.coords.length / 2));
      const lat = g.coords[2 * c + 1] / 1e7 + (rnd() - 0.5) * 0.001,
        lon = g.coords[2 * c] / 1e7 + (rnd() - 0.5) * 0.001;
      if (!snapFor(router, m, lat, lon, 1)) continue;
      const limits = minutes.map((x) => x * 60_000);
      const expected = contourReached(everyArc(index, m, lat, lon, limits[0]), limits);
      const got = isochrone(index, { lat, lon, mode, minutes: [...minutes] });
      expect(got.features.map((f) => f.geometry)).toEqual(expected);
      expect(expected[0].coordinates.length).toBeGreaterThan(0);
    }
  });
});

describe('nepal-places isochrone prints isochrone() as GeoJSON', () => {
  it('--lat --lon --minutes 3,6 --mode car; minutes past the cap is usage (2)', async () => {
    const { cli } = await import('./support/cli.js');
    const index = await engine();
    const r = await cli('isochrone', '--lat', String(CENTER.lat), '--lon', String(CENTER.lon), '--minutes', '3,6', '--mode', 'car');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(isochrone(index, { ...CENTER, minutes: [3, 6], mode: 'car' }));
    const bad = await cli('isochrone', '--lat', String(CENTER.lat), '--lon', String(CENTER.lon), '--minutes', '61', '--mode', 'car');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('minutes');
  }, 180_000); // each run loads the fixture in a child process: generous on a busy machine
});
