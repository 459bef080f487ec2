import { describe, expect, it } from 'vitest';
import { joinPairs, tileOffsets } from '../scripts/nepal-data.js';
import { random } from './support/random.js';

// bench:data joins its tiles into one road network; these check the choice of joined pairs
// (the roads themselves are checked by reading a generated file back, see the script's notes).

/** Number of components the pairs leave among n tiles (union-find, written here independently). */
function components(n: number, pairs: [number, number][]): number {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (x: number): number => (parent[x] === x ? x : (parent[x] = find(parent[x])));
  for (const [a, b] of pairs) parent[find(a)] = find(b);
  return new Set(parent.map((_, i) => find(i))).size;
}

describe('joinPairs joins every tile into one network', () => {
  it('for the tiles bench:data lays out (100 and 310 copies of a Kathmandu-sized tile)', () => {
    const bbox = { minLat: 277006229, maxLat: 277160104, minLon: 853002400, maxLon: 853409231 };
    for (const copies of [100, 310]) {
      const centres = tileOffsets(bbox, copies).map(
        ([dLat, dLon]) => [(bbox.minLon + bbox.maxLon + 2 * dLon) / 2e7, (bbox.minLat + bbox.maxLat + 2 * dLat) / 2e7] as [number, number],
      );
      const pairs = joinPairs(centres);
      expect(components(copies, pairs)).toBe(1);
      expect(pairs.length).toBeGreaterThanOrEqual(copies - 1);
    }
  });

  it('for random centres: connected, each tile joined to its nearest, pairs unique and sorted', () => {
    const rnd = random(21);
    for (let t = 0; t < 20; t++) {
      const n = 2 + Math.floor(rnd() * 60);
      const centres = Array.from({ length: n }, () => [80 + rnd() * 8, 26.5 + rnd() * 3] as [number, number]);
      const pairs = joinPairs(centres);
      expect(components(n, pairs)).toBe(1);
      const keys = pairs.map(([a, b]) => `${a},${b}`);
      expect(new Set(keys).size).toBe(keys.length);
      expect(pairs.every(([a, b]) => a < b)).toBe(true);
      expect([...pairs].sort((x, y) => x[0] - y[0] || x[1] - y[1])).toEqual(pairs);
      // the nearest neighbour of each tile (planar, as the script measures) is joined to it
      for (let a = 0; a < n; a++) {
        const k = Math.cos((centres[a][1] * Math.PI) / 180);
        let near = -1,
          best = Infinity;
        for (let b = 0; b < n; b++) {
          if (b === a) continue;
          const d = Math.hypot((centres[a][0] - centres[b][0]) * k, centres[a][1] - centres[b][1]);
          if (d < best) {
            best = d;
            near = b;
          }
        }
        expect(keys).toContain(a < near ? `${a},${near}` : `${near},${a}`);
      }
    }
  });

  it('is deterministic', () => {
    const rnd = random(22);
    const centres = Array.from({ length: 40 }, () => [80 + rnd() * 8, 26.5 + rnd() * 3] as [number, number]);
    expect(joinPairs(centres)).toEqual(joinPairs(centres.map((c) => [...c] as [number, number])));
  });
});
