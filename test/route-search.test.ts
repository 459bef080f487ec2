import { describe, expect, it } from 'vitest';
import type { Arcs } from '../src/route/csr.js';
import { BiDijkstra, Dijkstra } from '../src/route/dijkstra.js';
import { contract, Hierarchy, type HierarchyData } from '../src/route/ch.js';
import type { Path } from '../src/route/ends.js';
import { random } from './support/random.js';

// The search core on seeded random graphs. Expected costs come from Floyd–Warshall over
// the raw arc lists (small graphs) or from the plain Dijkstra, itself checked against
// Floyd–Warshall here; paths are checked arc by arc against the raw arcs.

type Rnd = () => number;

/**
 * Random graph: `parts` components (arcs never cross them), some isolated nodes, a mix of
 * two-way and one-way arcs, ~10% zero weights, parallel arcs and self-loops.
 */
function randomGraph(rnd: Rnd, n: number, m: number, parts = 1): Arcs {
  const from: number[] = [],
    to: number[] = [],
    weight: number[] = [];
  const part = (v: number) => Math.floor((v * parts) / n);
  const isolated = (v: number) => v % 17 === 5;
  const add = (a: number, b: number, w: number) => {
    from.push(a);
    to.push(b);
    weight.push(w);
  };
  while (from.length < m) {
    const a = Math.floor(rnd() * n);
    if (isolated(a)) continue;
    // a node of the same component, often a near one, so paths have many arcs
    const span = Math.ceil(n / parts);
    const base = part(a) * span;
    let b = rnd() < 0.7 ? a + Math.floor((rnd() - 0.5) * 8) : base + Math.floor(rnd() * span);
    b = Math.min(Math.max(b, base), Math.min(n, base + span) - 1);
    if (isolated(b) || part(b) !== part(a)) continue;
    const w = rnd() < 0.1 ? 0 : 1 + Math.floor(rnd() * 100);
    add(a, b, w);
    const r = rnd();
    if (r < 0.6)
      add(b, a, w); // two-way
    else if (r < 0.65)
      add(a, b, w + Math.floor(rnd() * 3)); // a parallel arc
    else if (r < 0.67) add(a, a, Math.floor(rnd() * 5)); // a self-loop
  }
  return { n, from: Uint32Array.from(from), to: Uint32Array.from(to), weight: Uint32Array.from(weight) };
}

/** A jittered lattice with missing and one-way streets and a faster avenue every 6th line: a road-like graph. */
function lattice(rnd: Rnd, w: number, h: number): Arcs {
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

/** All-pairs shortest costs by Floyd–Warshall straight from the arc list. */
function floyd(g: Arcs): Float64Array[] {
  const d = Array.from({ length: g.n }, (_, i) => {
    const row = new Float64Array(g.n).fill(Infinity);
    row[i] = 0;
    return row;
  });
  for (let i = 0; i < g.from.length; i++) d[g.from[i]][g.to[i]] = Math.min(d[g.from[i]][g.to[i]], g.weight[i]);
  for (let k = 0; k < g.n; k++) {
    const dk = d[k];
    for (let i = 0; i < g.n; i++) {
      const di = d[i],
        dik = di[k];
      if (dik === Infinity) continue;
      for (let j = 0; j < g.n; j++) if (dik + dk[j] < di[j]) di[j] = dik + dk[j];
    }
  }
  return d;
}

/** Random ends: 1–3 (node, cost) pairs, sometimes the same node twice. */
function ends(rnd: Rnd, n: number, zero = false): number[] {
  const out: number[] = [];
  const k = zero ? 1 : 1 + Math.floor(rnd() * 3);
  for (let i = 0; i < k; i++) {
    const v = i > 0 && rnd() < 0.2 ? out[0] : Math.floor(rnd() * n);
    out.push(v, zero ? 0 : Math.floor(rnd() * 50));
  }
  return out;
}

/** Cheapest cost over the given ends by the all-pairs table. */
function expected(d: Float64Array[], s: number[], t: number[]): number {
  let best = Infinity;
  for (let i = 0; i < s.length; i += 2) for (let j = 0; j < t.length; j += 2) best = Math.min(best, s[i + 1] + d[s[i]][t[j]] + t[j + 1]);
  return best;
}

/** Asserts that `p` is a connected path of `g` from one of `s` to one of `t` whose costs add up to p.cost. */
function checkPath(g: Arcs, p: Path, s: number[], t: number[]): void {
  const start = pairCost(s, p.source),
    end = pairCost(t, p.target);
  expect(start, `source ${p.source} is one of the sources`).toBeLessThan(Infinity);
  expect(end, `target ${p.target} is one of the targets`).toBeLessThan(Infinity);
  let at = p.source,
    sum = start + end;
  for (const a of p.arcs) {
    expect(a).toBeLessThan(g.from.length);
    expect(g.from[a], `arc ${a} starts where the path is`).toBe(at);
    at = g.to[a];
    sum += g.weight[a];
  }
  expect(at, 'the path ends at its target').toBe(p.target);
  expect(sum, 'arc weights plus initial costs are the cost').toBe(p.cost);
}

function pairCost(list: number[], v: number): number {
  let c = Infinity;
  for (let i = 0; i < list.length; i += 2) if (list[i] === v) c = Math.min(c, list[i + 1]);
  return c;
}

function copy(data: HierarchyData): HierarchyData {
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, v.slice()])) as unknown as HierarchyData;
}

describe('all three searches find the cheapest cost (checked against Floyd–Warshall)', () => {
  const graphs: [string, Arcs][] = [
    ['connected, sparse', randomGraph(random(1), 120, 300)],
    ['connected, dense', randomGraph(random(2), 80, 900)],
    ['three components', randomGraph(random(3), 150, 400, 3)],
    ['mostly one-way', randomGraph(random(4), 100, 200)],
    ['lattice', lattice(random(5), 12, 10)],
  ];
  it.each(graphs)('%s', (_, g) => {
    const d = floyd(g);
    const plain = new Dijkstra(g),
      bi = new BiDijkstra(g),
      ch = contract(g);
    const rnd = random(g.n);
    let found = 0,
      none = 0;
    for (let q = 0; q < 700; q++) {
      const s = ends(rnd, g.n, q % 3 === 0),
        t = ends(rnd, g.n, q % 3 === 0);
      const want = expected(d, s, t);
      for (const [name, r] of [
        ['plain', plain],
        ['bidirectional', bi],
        ['CH', ch],
      ] as const) {
        const p = r.route(s, t);
        if (want === Infinity) {
          expect(p, `${name} ${s} -> ${t}`).toBeNull();
        } else {
          expect(p?.cost, `${name} ${s} -> ${t}`).toBe(want);
          checkPath(g, p!, s, t);
        }
      }
      if (want === Infinity) none++;
      else found++;
    }
    expect(found).toBeGreaterThan(200);
    if (_ === 'three components') expect(none).toBeGreaterThan(100);
  });
});

describe('on bigger graphs CH and bidirectional costs equal the plain Dijkstra, and paths are valid', () => {
  it('thousands of pairs over a lattice and a random graph with zero weights', () => {
    for (const g of [lattice(random(6), 60, 50), randomGraph(random(7), 3000, 9000, 2)]) {
      const plain = new Dijkstra(g),
        bi = new BiDijkstra(g),
        ch = contract(g);
      const rnd = random(8);
      let compared = 0;
      for (let q = 0; q < 1000; q++) {
        const s = ends(rnd, g.n),
          t = ends(rnd, g.n);
        const want = plain.route(s, t);
        const b = bi.route(s, t),
          c = ch.route(s, t);
        expect(b?.cost ?? null).toBe(want?.cost ?? null);
        expect(c?.cost ?? null).toBe(want?.cost ?? null);
        if (want) {
          checkPath(g, want, s, t);
          checkPath(g, b!, s, t);
          checkPath(g, c!, s, t);
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(500);
    }
  });
});

describe('ends', () => {
  const g = lattice(random(9), 8, 8);
  const searches = [new Dijkstra(g), new BiDijkstra(g), contract(g)];

  it('a node that is both a source and a target costs its two initial costs, with no arcs', () => {
    for (const r of searches) {
      const p = r.route([10, 7, 20, 1], [30, 0, 10, 5])!;
      expect(p.arcs.length).toBe(0);
      expect(p.cost).toBe(12);
      expect([p.source, p.target]).toEqual([10, 10]);
    }
  });

  it('a mid-edge start: the cheaper end with its partial cost wins', () => {
    const d = floyd(g);
    // a point on the arc 0 -> 1, 30% along: reach 0 back for 30%, 1 ahead for 70%
    const w = g.weight[g.from.findIndex((f, i) => f === 0 && g.to[i] === 1)];
    const s = [0, 0.3 * w, 1, 0.7 * w];
    for (const r of searches) expect(r.route(s, [63, 0])?.cost).toBe(Math.min(0.3 * w + d[0][63], 0.7 * w + d[1][63]));
  });

  it('no ends on one side: null', () => {
    for (const r of searches) {
      expect(r.route([], [1, 0])).toBeNull();
      expect(r.route([1, 0], [])).toBeNull();
    }
  });

  it('malformed ends throw a RangeError naming the list', () => {
    for (const r of searches) {
      expect(() => r.route([1], [2, 0])).toThrow(/sources/);
      expect(() => r.route([1, 0], [64, 0])).toThrow(/targets\[0\]: node 64/);
      expect(() => r.route([1, -1], [2, 0])).toThrow(/sources\[1\]: cost -1/);
      expect(() => r.route([1.5, 0], [2, 0])).toThrow(RangeError);
      expect(() => r.route([1, NaN], [2, 0])).toThrow(RangeError);
    }
  });

  it('malformed arcs throw a RangeError', () => {
    const bad = { n: 3, from: Uint32Array.of(0, 1), to: Uint32Array.of(1, 3), weight: Uint32Array.of(1, 1) };
    expect(() => new Dijkstra(bad)).toThrow(/arc 1/);
    expect(() => contract(bad)).toThrow(RangeError);
    expect(() => new BiDijkstra({ ...bad, to: Uint32Array.of(1) })).toThrow(/length/);
  });
});

describe('unreachable targets give null, quickly', () => {
  it('a big component and a small one: CH and bidirectional stop without searching the big one', () => {
    const big = lattice(random(10), 100, 100);
    const n = big.n + 2;
    // node n-2 -> n-1, cut off from the lattice
    const g: Arcs = {
      n,
      from: Uint32Array.from([...big.from, n - 2]),
      to: Uint32Array.from([...big.to, n - 1]),
      weight: Uint32Array.from([...big.weight, 5]),
    };
    const searches = [new Dijkstra(g), new BiDijkstra(g), contract(g)];
    for (const r of searches) {
      expect(r.route([0, 0], [n - 1, 0])).toBeNull();
      expect(r.route([n - 2, 0], [0, 0])).toBeNull();
      expect(r.route([n - 1, 0], [n - 2, 0])).toBeNull(); // one-way
      expect(r.route([n - 2, 0], [n - 1, 0])?.cost).toBe(5);
    }
  });
});

describe('a hierarchy is deterministic and restores without recomputation', () => {
  const g = lattice(random(11), 40, 30);
  const h = contract(g);

  it('contracting twice gives the same arrays', () => {
    const again = contract(g).data();
    for (const [k, v] of Object.entries(h.data()))
      expect(Buffer.from(again[k as keyof HierarchyData].buffer).equals(Buffer.from(v.buffer)), k).toBe(true);
  });

  it('Hierarchy.from(copies of its arrays) answers routes and alternatives exactly alike', () => {
    const restored = Hierarchy.from(g, copy(h.data()));
    const rnd = random(12);
    for (let q = 0; q < 300; q++) {
      const s = ends(rnd, g.n),
        t = ends(rnd, g.n);
      expect(restored.route(s, t)).toEqual(h.route(s, t));
      if (q % 10 === 0) expect(restored.alternatives(s, t)).toEqual(h.alternatives(s, t));
    }
  });

  it('Hierarchy.from refuses arrays that do not fit', () => {
    const d = copy(h.data());
    expect(() => Hierarchy.from(g, { ...d, rank: d.rank.subarray(1) })).toThrow(/rank/);
    const head = d.head.slice();
    head[0] = g.n;
    expect(() => Hierarchy.from(g, { ...d, head })).toThrow(/slot 0/);
    expect(() => Hierarchy.from(g, { ...d, ab: d.ab.subarray(1) })).toThrow(/length/);
    const ab = d.ab.slice();
    ab[0] = g.from.length; // slot 0 is at the lowest node: an original arc, now past the last
    ab[1] = 0xffffffff;
    expect(() => Hierarchy.from(g, { ...d, ab })).toThrow(/slot 0 refers/);
    expect(() => Hierarchy.from({ ...g, n: g.n + 1 }, d)).toThrow(RangeError);
  });
});

describe('alternatives: best first, then different and not much worse', () => {
  const g = lattice(random(13), 40, 40);
  const plain = new Dijkstra(g);
  const searches: [string, BiDijkstra | Hierarchy][] = [
    ['bidirectional', new BiDijkstra(g)],
    ['CH', contract(g)],
  ];

  it.each(searches)('%s', (_, r) => {
    const rnd = random(14);
    let withAlternatives = 0;
    for (let q = 0; q < 60; q++) {
      const s = [Math.floor(rnd() * g.n), 0],
        t = [Math.floor(rnd() * g.n), 0];
      const best = plain.route(s, t);
      const routes = r.alternatives(s, t, { count: 2, maxShare: 0.7, maxStretch: 1.4 });
      if (!best) {
        expect(routes).toEqual([]);
        continue;
      }
      expect(routes[0].cost).toBe(best.cost);
      expect(routes.length).toBeLessThanOrEqual(3);
      const bestLength = routes[0].arcs.reduce((x, a) => x + g.weight[a], 0);
      const sets = routes.map((p) => new Set(p.arcs));
      routes.forEach((p, i) => {
        checkPath(g, p, s, t);
        expect(p.cost).toBeLessThanOrEqual(1.4 * best.cost);
        expect(new Set([p.source, ...Array.from(p.arcs, (a) => g.to[a])]).size, 'a simple path').toBe(p.arcs.length + 1);
        for (let j = 0; j < i; j++) {
          const shared = p.arcs.reduce((x, a) => x + (sets[j].has(a) ? g.weight[a] : 0), 0);
          expect(shared, `route ${i} shares with route ${j}`).toBeLessThanOrEqual(0.7 * bestLength);
        }
      });
      if (routes.length > 1) withAlternatives++;
    }
    expect(withAlternatives, 'most queries find an alternative on a lattice').toBeGreaterThan(30);
  });

  it('a share measure of its own: with every arc counting 1, sharing is counted in arcs', () => {
    const [, ch] = searches[1];
    const share = new Float64Array(g.from.length).fill(1);
    const rnd = random(15);
    let found = 0;
    for (let q = 0; q < 30; q++) {
      const routes = ch.alternatives([Math.floor(rnd() * g.n), 0], [Math.floor(rnd() * g.n), 0], { share, maxShare: 0.5 });
      const first = new Set(routes[0].arcs);
      for (const p of routes.slice(1)) expect(p.arcs.filter((a) => first.has(a)).length).toBeLessThanOrEqual(0.5 * routes[0].arcs.length);
      if (routes.length > 1) found++;
    }
    expect(found).toBeGreaterThan(10);
  });

  it('unreachable: no routes', () => {
    const g2: Arcs = { n: 3, from: Uint32Array.of(0), to: Uint32Array.of(1), weight: Uint32Array.of(1) };
    expect(new BiDijkstra(g2).alternatives([0, 0], [2, 0])).toEqual([]);
    expect(contract(g2).alternatives([0, 0], [2, 0])).toEqual([]);
  });
});
