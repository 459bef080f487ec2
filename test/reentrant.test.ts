import { describe, expect, it } from 'vitest';
import type { Arcs } from '../src/route/csr.js';
import { contract } from '../src/route/ch.js';
import { BiDijkstra } from '../src/route/dijkstra.js';
import type { Path } from '../src/route/ends.js';
import { around } from '../src/index/around.js';
import { nearby, type NearbyQuery } from '../src/index.js';
import { engine, CENTER } from './support/fixture.js';
import { random } from './support/random.js';

// Indexes never change after their build; a query's scratch is its own. So a query started
// while another is under way (from one of its callbacks) answers exactly as it does alone,
// and so does the query it interrupted. Each test computes every answer alone first, then
// again with the queries nested, and compares.

/** A jittered lattice with missing and one-way streets: a road-like graph with alternatives. */
function lattice(rnd: () => number, w: number, h: number): Arcs {
  const from: number[] = [],
    to: number[] = [],
    weight: number[] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const v = y * w + x;
      for (const [u, line] of [
        [x + 1 < w ? v + 1 : -1, y],
        [y + 1 < h ? v + w : -1, x],
      ]) {
        if (u < 0 || rnd() < 0.1) continue;
        const c = Math.round((line % 6 === 0 ? 300 : 1000) * (0.8 + rnd() * 0.4));
        from.push(v);
        to.push(u);
        weight.push(c);
        if (rnd() < 0.93) {
          from.push(u);
          to.push(v);
          weight.push(c);
        }
      }
    }
  }
  return { n: w * h, from: Uint32Array.from(from), to: Uint32Array.from(to), weight: Uint32Array.from(weight) };
}

interface Router {
  route(s: readonly number[], t: readonly number[]): Path | null;
  alternatives(s: readonly number[], t: readonly number[], o?: { share?: ArrayLike<number> }): Path[];
}

describe("routes: a search run inside another search's callback answers as it does alone", () => {
  const g = lattice(random(21), 30, 30);
  const searches: [string, Router][] = [
    ['CH', contract(g)],
    ['bidirectional', new BiDijkstra(g)],
  ];
  const rnd = random(22);
  const pairs = Array.from({ length: 20 }, () => [
    [Math.floor(rnd() * g.n), 0],
    [Math.floor(rnd() * g.n), 0],
  ]);

  it.each(searches)("%s: routes and alternatives from inside alternatives' measure of sharing", (_, r) => {
    const aloneAlt = pairs.map(([s, t]) => r.alternatives(s, t, { share: g.weight }));
    const aloneRoute = pairs.map(([s, t]) => r.route(s, t));
    expect(aloneAlt.some((routes) => routes.length > 1)).toBe(true);
    let nested = 0;
    pairs.forEach(([s, t], i) => {
      // the chooser reads the measure while the outer query's search trees are still in use
      let reads = 0;
      const share = new Proxy(g.weight, {
        get(target, key) {
          if (typeof key === 'string' && /^\d+$/.test(key) && reads++ % 7 === 0 && nested < 400) {
            const j = (i + 1 + (reads % (pairs.length - 1))) % pairs.length;
            nested++;
            expect(r.route(pairs[j][0], pairs[j][1])).toEqual(aloneRoute[j]);
            if (reads % 3 === 0) expect(r.alternatives(pairs[j][0], pairs[j][1], { share: g.weight })).toEqual(aloneAlt[j]);
          }
          return Reflect.get(target, key);
        },
      });
      expect(r.alternatives(s, t, { share })).toEqual(aloneAlt[i]);
    });
    expect(nested).toBeGreaterThan(20);
  });
});

describe("search: a match run inside another match's row filter answers as it does alone", async () => {
  const index = await engine();
  const queries = ['temple', 'temple road', 'hotel', 'thamel', 'kathmandu guest house', 'b', 'bank'];

  it("every pair of queries, one inside the other's accept", () => {
    const alone = queries.map((q) => index.words.match(q));
    expect(alone.every((h) => h.rows.length > 0)).toBe(true);
    queries.forEach((outer, i) => {
      let calls = 0;
      const got = index.words.match(outer, () => {
        if (calls >= 12) return true; // nested into the first rows only: 'b' has thousands
        const j = calls++ % queries.length;
        // and one level deeper, now and then
        const inner = index.words.match(
          queries[j],
          calls % 5 === 0
            ? () => {
                expect(index.words.match(outer)).toEqual(alone[i]);
                return true;
              }
            : undefined,
        );
        expect(inner).toEqual(alone[j]);
        return true;
      });
      expect(calls).toBeGreaterThan(0);
      expect(got).toEqual(alone[i]);
    });
  });
});

describe("nearby: a walk run inside another walk's visit answers as it does alone", async () => {
  const index = await engine();
  const tt = index.types.get('restaurant')!;
  const queries: NearbyQuery[] = [
    { type: 'restaurant', lat: CENTER.lat, lon: CENTER.lon, radius: 2, limit: 5 },
    { type: 'eat', lat: CENTER.lat + 0.01, lon: CENTER.lon - 0.01, radius: 3, limit: 10, sortBy: true },
    { type: 'restaurant', lat: CENTER.lat - 0.005, lon: CENTER.lon, radius: 1, limit: 3 },
  ];

  const walkAll = (lon: number, lat: number, inside?: (k: number) => void): number[] => {
    const seen: number[] = [];
    around(
      tt.tree,
      lon,
      lat,
      3,
      (id) => {
        inside?.(seen.length);
        seen.push(id);
        return false;
      },
      { walks: index.walks },
    );
    return seen;
  };

  it('nearby() and walks on the same tree from inside a nearest-first walk', () => {
    const alone = queries.map((q) => nearby(index, q));
    const aloneWalk = walkAll(CENTER.lon, CENTER.lat);
    const otherWalk = walkAll(CENTER.lon + 0.01, CENTER.lat + 0.01);
    expect(aloneWalk.length).toBeGreaterThan(50);
    const got = walkAll(CENTER.lon, CENTER.lat, (k) => {
      expect(nearby(index, queries[k % queries.length])).toEqual(alone[k % queries.length]);
      if (k % 10 === 0) expect(walkAll(CENTER.lon + 0.01, CENTER.lat + 0.01)).toEqual(otherWalk);
    });
    expect(got).toEqual(aloneWalk);
  });

  it('a walk by score, with nearby() inside', () => {
    const alone = queries.map((q) => nearby(index, q));
    const walk = (inside?: (k: number) => void) => {
      const seen: number[] = [];
      around(
        tt.tree,
        CENTER.lon,
        CENTER.lat,
        3,
        (id, _km, s) => {
          inside?.(seen.length);
          seen.push(id, s);
          return false;
        },
        { prom: tt.prom, nodeMax: tt.nodeMax, walks: index.walks },
      );
      return seen;
    };
    const aloneWalk = walk();
    expect(walk((k) => expect(nearby(index, queries[k % queries.length])).toEqual(alone[k % queries.length]))).toEqual(aloneWalk);
  });
});
