/**
 * `Areas.at` answers which areas contain a point exactly as ray casting every ring of every area
 * does, though it remembers answers per grid cell (about 1 km, and about 100 m where a border
 * crosses): for points far from borders, on both sides of one, in holes, and where areas overlap.
 */
import { describe, expect, it } from 'vitest';
import { random } from './support/random.js';
import { Areas, type Area } from '../src/geom/areas.js';

/** A closed ring around (cx, cy) of `n` vertices at radii between r and 1.6 r: a jagged border, like a municipality's. */
function jagged(rnd: () => number, cx: number, cy: number, r: number, n: number): number[] {
  const ring: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    const d = r * (1 + 0.6 * rnd());
    ring.push(cx + d * Math.cos(a), cy + d * Math.sin(a));
  }
  ring.push(ring[0], ring[1]);
  return ring;
}

/** Even-odd ray casting of every ring of every area, written apart from the library's. */
function contains(areas: Area[], x: number, y: number): number[] {
  const out: number[] = [];
  areas.forEach((a, i) => {
    let inside = false;
    for (const r of a.rings) {
      for (let k = 0, j = r.length - 2; k < r.length; j = k, k += 2) {
        const [xi, yi, xj, yj] = [r[k], r[k + 1], r[j], r[j + 1]];
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
      }
    }
    if (inside) out.push(i);
  });
  return out;
}

describe('at answers as ray casting every area', () => {
  const rnd = random(17);
  // two neighbouring towns whose borders cross, one with a hole, and a district around both
  const areas: Area[] = [
    { name: 'A', level: 7, rings: [jagged(rnd, 85.3, 27.7, 0.03, 400)] },
    { name: 'B', level: 7, rings: [jagged(rnd, 85.36, 27.71, 0.03, 300), jagged(rnd, 85.36, 27.71, 0.004, 40)] },
    { name: 'D', level: 6, rings: [jagged(rnd, 85.33, 27.7, 0.09, 200)] },
  ];
  const index = new Areas(areas);

  it('points spread over the whole region', () => {
    for (let i = 0; i < 3000; i++) {
      const x = 85.2 + 0.27 * rnd(),
        y = 27.58 + 0.24 * rnd();
      expect(index.at(x, y), `${x},${y}`).toEqual(contains(areas, x, y));
    }
  });

  it('points crowded near the borders, many in one small cell', () => {
    let near = 0;
    for (let i = 0; i < 4000; i++) {
      // a vertex of a border, and a point within about 300 m of it
      const ring = areas[Math.floor(rnd() * 2)].rings[0];
      const v = 2 * Math.floor((rnd() * (ring.length - 2)) / 2);
      const x = ring[v] + (rnd() - 0.5) * 0.006,
        y = ring[v + 1] + (rnd() - 0.5) * 0.006;
      const want = contains(areas, x, y);
      if (want.length > 0 && want.length < 3) near++;
      expect(index.at(x, y), `${x},${y}`).toEqual(want);
      // asked twice: what a cell remembers is the same answer
      expect(index.at(x, y)).toEqual(want);
    }
    expect(near).toBeGreaterThan(1000);
  });

  it('points in the hole are not in the town around it', () => {
    const [cx, cy] = [85.36, 27.71];
    expect(index.at(cx, cy)).toEqual(contains(areas, cx, cy));
    expect(index.at(cx, cy)).not.toContain(1);
  });
});

describe('no areas', () => {
  it('contain nothing', () => {
    expect(new Areas([]).at(85.3, 27.7)).toEqual([]);
  });
});
