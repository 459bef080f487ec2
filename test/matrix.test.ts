/**
 * matrix(): durations and distances from many sources to many destinations, by the bucket method
 * on each mode's hierarchy, against two independent code paths over the same data: `route()`
 * for every pair (its own searches, unpacking and polyline), and, for foot, a plain Dijkstra over
 * the raw ways osm-read gives (test/support/roads-raw.ts).
 */
import polyline from '@mapbox/polyline';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPbf, type PlaceIndex } from '../src/index.js';
import { route } from '../src/query/route.js';
import { matrix, MATRIX_MAX } from '../src/query/matrix.js';
import { InvalidQueryError, RouteError } from '../src/errors.js';
import { engine, CENTER } from './support/fixture.js';
import { CORE, readRaw, type RawData } from './support/raw.js';
import { random } from './support/random.js';
import { blockedNodes, dijkstra, edgeCounter, footGraph, junctions } from './support/roads-raw.js';

type Mode = 'foot' | 'bike' | 'car';

/** Random points within ~2.5 km of the fixture's centre that `route()` can snap by `mode` (it throws too-far otherwise). */
function points(index: PlaceIndex, mode: Mode, count: number, seed: number): [number, number][] {
  const rnd = random(seed);
  const out: [number, number][] = [];
  while (out.length < count) {
    const p: [number, number] = [CENTER.lat + (rnd() - 0.5) * 0.045, CENTER.lon + (rnd() - 0.5) * 0.05];
    try {
      route(index, { points: [p, p], mode });
      out.push(p);
    } catch (err) {
      if (!(err instanceof RouteError && err.problem === 'too-far')) throw err;
    }
  }
  return out;
}

/**
 * route()'s distanceInMeters measures its polyline, whose vertices are rounded to 1e-5° (at most
 * 0.75 m each, so each segment's length moves by 1.5 m at most): the matrix sums the roads' own
 * lengths. Every pair must agree within that bound; nearly all within 0.2 % + 2 m.
 */
const within = (a: number, r: { distanceInMeters: number; encodedPolyline: string }) =>
  Math.abs(a - r.distanceInMeters) <= 1.5 * (polyline.decode(r.encodedPolyline, 5).length - 1) + 1e-6;
const close = (a: number, b: number) => Math.abs(a - b) <= 2 + 0.002 * b;

describe('matrix() equals route() for every pair (durations exactly, distances up to the polyline rounding)', () => {
  let index: PlaceIndex;
  beforeAll(async () => {
    index = await engine();
    expect(index.router?.contracted).toBe(true);
  });

  it.each<[Mode, number]>([
    ['car', 1],
    ['foot', 2],
    ['bike', 3],
  ])('%s: 20 × 20 random points (400 pairs)', (mode, seed) => {
    const sources = points(index, mode, 20, seed),
      destinations = points(index, mode, 20, seed + 100);
    // half the points as "lat,lon" strings
    const m = matrix(index, { sources: sources.map((p, i) => (i % 2 ? `${p[0]},${p[1]}` : p)), destinations, mode });
    expect(m.durations.length).toBe(20);
    const bad: string[] = [];
    let joined = 0,
      near = 0;
    sources.forEach((s, i) =>
      destinations.forEach((t, j) => {
        let r;
        try {
          [r] = route(index, { points: [s, t], mode });
        } catch (err) {
          if (!(err instanceof RouteError && err.problem === 'no-route')) throw err;
        }
        const d = m.durations[i][j],
          x = m.distances[i][j];
        if (!r) {
          if (d !== null || x !== null) bad.push(`${i}→${j}: route none, matrix ${d} ms ${x} m`);
          return;
        }
        joined++;
        if (x !== null && close(x, r.distanceInMeters)) near++;
        if (d !== r.timeInMs || x === null || !within(x, r))
          bad.push(`${i}→${j}: route ${r.timeInMs} ms ${r.distanceInMeters} m, matrix ${d} ms ${x} m`);
      }),
    );
    expect(bad).toEqual([]);
    expect(joined).toBeGreaterThan(200);
    expect(near).toBeGreaterThanOrEqual(joined * 0.95);
  });

  it('a point that is both a source and a destination is 0 from itself; the snapped points are reported', () => {
    // two points that snap mid-edge (a search alone would go round the block), one at random
    const p: [number, number][] = [[27.7083, 85.3206], [27.71, 85.325], ...points(index, 'car', 1, 9)];
    const m = matrix(index, { sources: p, destinations: p, mode: 'car' });
    for (let i = 0; i < 3; i++) {
      expect(m.durations[i][i]).toBe(0);
      expect(m.distances[i][i]).toBe(0);
    }
    expect(m.sources).toEqual(m.destinations);
    for (const s of m.sources) expect(s.snapDistanceInMeters).toBeLessThanOrEqual(1000);
  });
});

describe('foot durations equal an independent Dijkstra over the raw ways (distance at 5 km/h)', () => {
  let raw: RawData, index: PlaceIndex;
  beforeAll(async () => {
    [raw, index] = await Promise.all([readRaw(CORE), engine()]);
  });

  it('30 × 10 junctions: duration / 720 ms per metre = the shortest walk, up to whole-ms rounding per edge', () => {
    const g = footGraph(raw);
    const edges = edgeCounter(raw);
    const blocked = blockedNodes(raw, 'foot');
    const js = junctions(raw, g)
      .filter((v) => !blocked.has(v))
      .sort((a, b) => a - b);
    const rnd = random(41);
    const pick = () => js[Math.floor(rnd() * js.length)];
    const src = Array.from({ length: 30 }, pick),
      dst = Array.from({ length: 10 }, pick);
    const at = (id: number): [number, number] => [raw.node.get(id)!.lat, raw.node.get(id)!.lon];
    const m = matrix(index, { sources: src.map(at), destinations: dst.map(at), mode: 'foot' });
    const bad: string[] = [];
    let joined = 0;
    src.forEach((s, i) => {
      const sp = dijkstra(g, s);
      dst.forEach((t, j) => {
        const p = sp(t);
        const d = m.durations[i][j];
        if (p.cost === Infinity) {
          if (d !== null) bad.push(`${s}→${t}: no walk, matrix ${d}`);
          return;
        }
        joined++;
        // each edge's weight is its length × 720 rounded to a whole ms: 0.001 m of slack per edge
        if (d === null || Math.abs(d / 720 - p.metres) > 0.001 * Math.max(1, edges(p)))
          bad.push(`${s}→${t}: ${p.metres} m, matrix ${d} ms`);
        if (m.distances[i][j] === null || Math.abs(m.distances[i][j]! - p.metres) > 0.1 + 1e-6 * p.metres)
          bad.push(`${s}→${t}: ${p.metres} m, matrix distance ${m.distances[i][j]}`);
      });
    });
    expect(bad).toEqual([]);
    expect(joined).toBeGreaterThan(250);
  });
});

describe('an index without hierarchies answers the same (one bounded search per source)', () => {
  it('car and foot, 12 × 12, equal to the contracted index', async () => {
    const [plain, ch] = await Promise.all([loadPbf(CORE, { contract: 'never' }), engine()]);
    expect(plain.router?.contracted).toBe(false);
    for (const [mode, seed] of [
      ['car', 5],
      ['foot', 6],
    ] as const) {
      const q = { sources: points(ch, mode, 12, seed), destinations: points(ch, mode, 12, seed + 1), mode };
      expect(matrix(plain, q).durations).toEqual(matrix(ch, q).durations);
      const a = matrix(plain, q).distances.flat(),
        b = matrix(ch, q).distances.flat();
      a.forEach((x, k) => (x === null ? expect(b[k]).toBeNull() : expect(Math.abs(x - b[k]!)).toBeLessThan(0.5)));
    }
  });
});

describe('bad input is an error naming the parameter (and the point)', () => {
  let index: PlaceIndex;
  beforeAll(async () => {
    index = await engine();
  });
  const p: [number, number] = [27.7083, 85.3206];
  const err = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e as Error;
    }
    throw new Error('no error');
  };

  it('too many points: InvalidQueryError naming the list and the limit', () => {
    const e = err(() => matrix(index, { sources: Array(MATRIX_MAX + 1).fill(p), destinations: [p] }));
    expect(e).toBeInstanceOf(InvalidQueryError);
    expect((e as InvalidQueryError).param).toBe('sources');
    expect(e.message).toContain(`1 to ${MATRIX_MAX}`);
    expect((err(() => matrix(index, { sources: [p], destinations: [] })) as InvalidQueryError).param).toBe('destinations');
  });

  it('a bad point names its list and index', () => {
    const e = err(() => matrix(index, { sources: [p], destinations: [p, '27.7,'] }));
    expect((e as InvalidQueryError).param).toBe('destinations');
    expect(e.message).toContain('destinations[1]');
    expect((err(() => matrix(index, { sources: [[91, 85]], destinations: [p] })) as InvalidQueryError).param).toBe('sources');
    expect((err(() => matrix(index, { sources: 'x' as never, destinations: [p] })) as InvalidQueryError).param).toBe('sources');
  });

  it('an unknown mode names mode', () => {
    const e = err(() => matrix(index, { sources: [p], destinations: [p], mode: 'plane' as never }));
    expect((e as InvalidQueryError).param).toBe('mode');
  });

  it('a point farther than 1 km from any road: RouteError too-far naming the list and index', () => {
    const far: [number, number] = [27.74, 85.36]; // inside the data's box grown by 1 km, past its roads
    const e = err(() => matrix(index, { sources: [p], destinations: [p, far], mode: 'car' }));
    expect(e).toBeInstanceOf(RouteError);
    expect((e as RouteError).problem).toBe('too-far');
    expect((e as RouteError).point).toBe(1);
    expect(e.message).toContain('destinations[1]');
  });

  it('a point given as lon,lat names the list', () => {
    const e = err(() => matrix(index, { sources: [[85.3206, 27.7083]], destinations: [p] }));
    expect((e as InvalidQueryError).param).toBe('sources');
    expect(e.message).toContain('swapped');
  });
});

describe('nepal-places matrix prints matrix() as JSON; a point too far from any road exits 1 naming it', () => {
  it('--sources, --destinations, --mode', async () => {
    const { cli } = await import('./support/cli.js');
    const index = await engine();
    const r = await cli('matrix', '--sources', '27.7154,85.3123;27.7060,85.3100', '--destinations', '27.7090,85.3290', '--mode', 'car');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(
      matrix(index, { sources: ['27.7154,85.3123', '27.7060,85.3100'], destinations: ['27.7090,85.3290'], mode: 'car' }),
    );
    const far = await cli('matrix', '--sources', '27.7154,85.3123', '--destinations', '27.74,85.36', '--mode', 'car');
    expect(far.code).toBe(1);
    expect(far.stderr).toContain('destinations[0]');
    const bad = await cli('matrix', '--sources', '27.7154,85.3123', '--destinations', 'x');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('destinations');
  }, 180_000); // each run loads the fixture in a child process: generous on a busy machine
});
