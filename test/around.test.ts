import { describe, it, expect } from 'vitest';
import KDBush from 'kdbush';
import distance from '@turf/distance';
import { around, nodeMaxima } from '../src/index/around.js';

// a deterministic spread of points over 2 x 2 degrees around Kathmandu
function points(n: number): [number, number][] {
  let s = 12345;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: n }, () => [Math.round((84.3 + 2 * rnd()) * 1e7), Math.round((26.7 + 2 * rnd()) * 1e7)]);
}

describe('around: every point within the radius, nearest first, whatever the size of the walk', () => {
  const pts = points(60_000);
  const tree = new KDBush(pts.length, 16, Int32Array);
  for (const [x, y] of pts) tree.add(x, y);
  tree.finish();

  it('a walk that opens thousands of tree nodes finds exactly the brute-force set, in order', () => {
    const q: [number, number] = [85.3, 27.7];
    const want = pts.map((p, i) => ({ i, km: distance(q, [p[0] / 1e7, p[1] / 1e7]) })).filter((x) => x.km <= 60);
    const got: { i: number; km: number }[] = [];
    around(tree, q[0], q[1], 60, (i, km) => {
      got.push({ i, km });
      return false;
    });
    expect(want.length).toBeGreaterThan(10_000);
    expect(got.length).toBe(want.length);
    expect(new Set(got.map((g) => g.i))).toEqual(new Set(want.map((w) => w.i)));
    for (let k = 1; k < got.length; k++) expect(got[k].km).toBeGreaterThanOrEqual(got[k - 1].km);
    for (const g of got.slice(0, 100)) expect(g.km).toBeCloseTo(distance(q, [pts[g.i][0] / 1e7, pts[g.i][1] / 1e7]), 9);
  });

  it('by score: best prominence / (1 + km) first, over the whole walk', () => {
    const prom = Float64Array.from(pts, (_, i) => 1 + (i % 7) / 2);
    const q: [number, number] = [85.9, 27.2];
    const want = pts
      .map((p, i) => {
        const km = distance(q, [p[0] / 1e7, p[1] / 1e7]);
        return { i, km, s: prom[i] / (1 + km) };
      })
      .filter((x) => x.km <= 40)
      .sort((a, b) => b.s - a.s);
    const got: number[] = [];
    around(
      tree,
      q[0],
      q[1],
      40,
      (i, _km, s) => {
        got.push(s);
        return false;
      },
      { prom, nodeMax: nodeMaxima(tree, prom) },
    );
    expect(got.length).toBe(want.length);
    for (let k = 0; k < got.length; k++) expect(got[k]).toBeCloseTo(want[k].s, 9);
  });
});
