/**
 * A hierarchy stored compact (`compactData()`: the order, slot ranges, per rank the count of
 * slots that lead to it, and a few bits per slot) and restored by `Hierarchy.fromCompact`, which
 * derives every slot's head, weight and halves again from the arcs. The restored arrays must be
 * the contracted ones, byte for byte; data that derives no hierarchy is a RangeError; and
 * whatever damaged data does derive answers with paths whose arcs join their ends.
 */
import { describe, expect, it } from 'vitest';
import type { Arcs } from '../src/route/csr.js';
import { contract, Hierarchy, type CompactHierarchy, type HierarchyData } from '../src/route/ch.js';
import type { Path } from '../src/route/ends.js';
import { ladder } from './support/ladder.js';
import { random } from './support/random.js';

type Rnd = () => number;

/** A random graph: two-way and one-way arcs between near nodes, ~10% of weight 0, parallel arcs and self-loops, in no order. */
function randomGraph(rnd: Rnd, n: number, m: number, maxWeight = 100): Arcs {
  const from: number[] = [],
    to: number[] = [],
    weight: number[] = [];
  const add = (a: number, b: number, w: number) => {
    from.push(a);
    to.push(b);
    weight.push(w);
  };
  while (from.length < m) {
    const a = Math.floor(rnd() * n);
    const b = rnd() < 0.8 ? Math.min(n - 1, Math.max(0, a + Math.floor((rnd() - 0.5) * 10))) : Math.floor(rnd() * n);
    const w = rnd() < 0.1 ? 0 : maxWeight - Math.floor(rnd() * Math.min(maxWeight, 100));
    add(a, b, w);
    const r = rnd();
    if (r < 0.6)
      add(b, a, w); // two-way
    else if (r < 0.7)
      add(a, b, Math.min(maxWeight, w + Math.floor(rnd() * 3))); // a parallel arc, as light or heavier
    else if (r < 0.73) add(a, a, Math.floor(rnd() * 5)); // a self-loop
  }
  return { n, from: Uint32Array.from(from), to: Uint32Array.from(to), weight: Uint32Array.from(weight) };
}

/** A lattice of w × h with some one-way and missing streets. */
function lattice(rnd: Rnd, w: number, h: number): Arcs {
  const from: number[] = [],
    to: number[] = [],
    weight: number[] = [];
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const v = y * w + x;
      for (const u of [x + 1 < w ? v + 1 : -1, y + 1 < h ? v + w : -1]) {
        if (u < 0 || rnd() < 0.1) continue;
        const c = 500 + Math.floor(rnd() * 1000);
        from.push(v);
        to.push(u);
        weight.push(c);
        if (rnd() < 0.9) {
          from.push(u);
          to.push(v);
          weight.push(c);
        }
      }
    }
  return { n: w * h, from: Uint32Array.from(from), to: Uint32Array.from(to), weight: Uint32Array.from(weight) };
}

/** Copies of the compact form's arrays, to damage. */
function copy(c: CompactHierarchy): CompactHierarchy {
  return {
    rank: c.rank.slice(),
    first: c.first.slice(),
    mid: c.mid.slice(),
    outTo: c.outTo.slice(),
    inTo: c.inTo.slice(),
    slots: c.slots.slice(),
  };
}

/** Whether two hierarchies' arrays are the same: each of the same type, byte for byte. */
function sameArrays(a: HierarchyData, b: HierarchyData): string[] {
  const differ: string[] = [];
  for (const k of ['rank', 'first', 'mid', 'head', 'weight', 'ab'] as const) {
    const x = a[k],
      y = b[k];
    if (
      x.constructor !== y.constructor ||
      !Buffer.from(x.buffer, x.byteOffset, x.byteLength).equals(Buffer.from(y.buffer, y.byteOffset, y.byteLength))
    )
      differ.push(k);
  }
  return differ;
}

/** What is wrong with a path from s to t over the arcs: arcs that do not join, or a cost that is not theirs. */
function pathFaults(g: Arcs, p: Path, s: number, t: number): string[] {
  let at = p.source,
    cost = 0;
  const out: string[] = [];
  for (const a of p.arcs) {
    if (g.from[a] !== at) out.push(`arc ${a} does not start at ${at}`);
    at = g.to[a];
    cost += g.weight[a];
  }
  if (p.source !== s || at !== t) out.push(`a path from ${s} to ${t} runs from ${p.source} to ${at}`);
  if (cost !== p.cost) out.push(`a path of cost ${p.cost} over arcs of ${cost}`);
  return out;
}

/** Bits that hold x. */
const widthOf = (x: number) => (x === 0 ? 0 : Math.floor(Math.log2(x)) + 1);

/** One value of the slots' stream: where it lies, its width, and how many values it may take. */
interface Field {
  at: number;
  width: number;
  ways: number;
  /** The slot's `x` (original or shortcut), or a shortcut's `y`. */
  what: 'x' | 'y';
}

/**
 * Where each value of the slots' stream lies, worked out as the format describes it
 * (CompactHierarchy) from the contracted hierarchy's own arrays, not by the reader.
 */
function fields(g: Arcs, d: HierarchyData, c: CompactHierarchy): Field[] {
  const { rank, first, mid, ab } = d;
  const node = new Array<number>(g.n);
  rank.forEach((r, v) => (node[r] = v));
  const owner = (k: number) => first.findIndex((f, r) => r < g.n && k >= f && k < first[r + 1]);
  const out: Field[] = [];
  let at = 0;
  for (let r = 0; r < g.n; r++) {
    for (let k = first[r]; k < first[r + 1]; k++) {
      const isOut = k < mid[r];
      const deg = (isOut ? g.from : g.to).filter((v) => v === node[r]).length;
      const len = isOut ? c.inTo[r + 1] - c.inTo[r] : c.outTo[r + 1] - c.outTo[r];
      out.push({ at, width: widthOf(deg + len - 1), ways: deg + len, what: 'x' });
      at += widthOf(deg + len - 1);
      if (ab[2 * k + 1] === 0xffffffff) continue;
      const v = owner(ab[2 * k + (isOut ? 0 : 1)]);
      const size = isOut ? mid[v] - first[v] : first[v + 1] - mid[v];
      out.push({ at, width: widthOf(size - 1), ways: size, what: 'y' });
      at += widthOf(size - 1);
    }
  }
  expect(Math.ceil(at / 32)).toBe(c.slots.length);
  return out;
}

/** Writes `value` into a field of the stream, in place. */
function put(slots: Uint32Array, f: Field, value: number): void {
  for (let i = 0; i < f.width; i++) {
    const bit = f.at + i;
    if ((value >> i) & 1) slots[bit >>> 5] |= 1 << (bit & 31);
    else slots[bit >>> 5] &= ~(1 << (bit & 31));
  }
}

const GRAPHS: [string, Arcs][] = [
  ['a random graph (parallel arcs, self-loops, weights of 0, arcs in no order)', randomGraph(random(1), 300, 1200)],
  ['a sparse random graph of several parts', randomGraph(random(2), 500, 700)],
  ['a lattice', lattice(random(3), 30, 25)],
  ['a ladder', ladder(40)],
];

describe('fromCompact(compactData()) is the contracted hierarchy: the same arrays, the same answers', () => {
  it.each(GRAPHS)('%s', (_, g) => {
    const h = contract(g);
    const restored = Hierarchy.fromCompact(g, copy(h.compactData()));
    expect(sameArrays(h.data(), restored.data())).toEqual([]);
    const rnd = random(7);
    for (let q = 0; q < 200; q++) {
      const s = [Math.floor(rnd() * g.n), 0, Math.floor(rnd() * g.n), Math.floor(rnd() * 50)],
        t = [Math.floor(rnd() * g.n), Math.floor(rnd() * 20)];
      expect(restored.route(s, t)).toEqual(h.route(s, t));
      if (q % 10 === 0) expect(restored.alternatives(s, t)).toEqual(h.alternatives(s, t));
    }
  });

  it('weights whose sums pass 2^32 - 1: Float64Array weights, as contracted', () => {
    const g = randomGraph(random(4), 120, 400, 0xf0000000);
    const h = contract(g);
    expect(h.data().weight).toBeInstanceOf(Float64Array);
    const restored = Hierarchy.fromCompact(g, h.compactData());
    expect(sameArrays(h.data(), restored.data())).toEqual([]);
    const rnd = random(8);
    for (let q = 0; q < 50; q++) {
      const s = [Math.floor(rnd() * g.n), 0],
        t = [Math.floor(rnd() * g.n), 0];
      expect(restored.route(s, t)).toEqual(h.route(s, t));
    }
  });

  it('no nodes, and nodes without arcs: nothing to store, restored alike', () => {
    for (const g of [
      { n: 0, from: new Uint32Array(0), to: new Uint32Array(0), weight: new Uint32Array(0) },
      { n: 5, from: new Uint32Array(0), to: new Uint32Array(0), weight: new Uint32Array(0) },
    ]) {
      const h = contract(g);
      const c = h.compactData();
      expect(c.slots.length).toBe(0);
      expect(sameArrays(h.data(), Hierarchy.fromCompact(g, c).data())).toEqual([]);
    }
  });

  it('a slot takes a few bits (a lattice: under 8 on average, where its head alone took 10 as a bit-packed rank)', () => {
    const g = GRAPHS[2][1];
    const h = contract(g);
    const c = h.compactData();
    expect((32 * c.slots.length) / h.size.edges).toBeLessThan(8);
  });
});

describe('fromCompact refuses data that derives no hierarchy: a RangeError naming what', () => {
  const g = GRAPHS[0][1];
  const c = contract(g).compactData();
  const refused = (change: (d: CompactHierarchy) => CompactHierarchy | void) => {
    const d = copy(c);
    return () => Hierarchy.fromCompact(g, change(d) ?? d);
  };

  it('arrays of the wrong length', () => {
    expect(refused((d) => ({ ...d, rank: d.rank.subarray(1) }))).toThrow(/hierarchy data: rank and mid must have n = 300 entries/);
    expect(refused((d) => ({ ...d, inTo: d.inTo.subarray(1) }))).toThrow(/n \+ 1/);
    expect(refused((d) => ({ ...d, slots: Array.from(d.slots) as unknown as Uint32Array }))).toThrow(/32-bit words/);
  });

  it('a rank that is no order of the nodes', () => {
    expect(
      refused((d) => {
        d.rank[1] = d.rank[0];
      }),
    ).toThrow(/rank is not an order of the nodes/);
  });

  it('slot ranges out of order, or counts of the slots that lead up that are not theirs', () => {
    expect(
      refused((d) => {
        d.mid[10] = d.first[11] + 1;
      }),
    ).toThrow(/slot ranges of rank 10 are not ordered/);
    expect(
      refused((d) => {
        d.outTo[g.n] += 1;
      }),
    ).toThrow(/slots lead up, of/);
    expect(
      refused((d) => {
        d.inTo[5] = d.inTo[6] + 1;
      }),
    ).toThrow(/the slots to rank 5 are not counted/);
  });

  it('more slots than the bits can name, refused before any is made', () => {
    expect(
      refused((d) => {
        const more = 1e9 - d.first[g.n];
        d.first[g.n] += more;
        d.outTo[g.n] += more;
      }),
    ).toThrow(/1000000000 slots in \d+ words of bits/);
  });

  it('bits missing, or bits left over', () => {
    expect(refused((d) => ({ ...d, slots: d.slots.subarray(0, d.slots.length - 1) }))).toThrow(/the slots' bits end at slot \d+/);
    expect(refused((d) => ({ ...d, slots: Uint32Array.from([...d.slots, 0]) }))).toThrow(/words of bits for \d+ bits of slots/);
  });

  it("a slot that names a way past its node's arcs and the lower slots it may be made of", () => {
    const f = fields(g, contract(g).data(), c).find((x) => x.what === 'x' && x.ways < 2 ** x.width)!;
    expect(refused((d) => put(d.slots, f, f.ways))).toThrow(/hierarchy data: slot \d+ names way \d+ of \d+/);
  });

  it("a shortcut whose other half is named past its middle's half", () => {
    const f = fields(g, contract(g).data(), c).find((x) => x.what === 'y' && x.ways < 2 ** x.width)!;
    expect(refused((d) => put(d.slots, f, f.ways))).toThrow(/hierarchy data: shortcut \d+ names slot \d+ of \d+/);
  });

  it('every bit set: a slot names a way past those it has, or more slots lead to a rank than counted', () => {
    expect(
      refused((d) => {
        d.slots.fill(0xffffffff);
      }),
    ).toThrow(/hierarchy data: (slot \d+ names way|shortcut \d+ names slot|more slots lead to rank)/);
  });
});

describe('whatever damaged compact data derives, its paths are arcs that join their ends, at their cost', () => {
  it.each(GRAPHS.slice(0, 3))('%s: 300 damaged copies, each refused or answering soundly', (_, g) => {
    const h = contract(g);
    const c = h.compactData();
    const layout = fields(g, h.data(), c);
    const rnd = random(9);
    let refusals = 0,
      loads = 0;
    const faults: string[] = [];
    for (let trial = 0; trial < 300; trial++) {
      const d = copy(c);
      const roll = rnd();
      if (roll < 0.35) {
        // bits of the stream flipped
        for (let k = 1 + Math.floor(rnd() * 3); k > 0; k--) d.slots[Math.floor(rnd() * d.slots.length)] ^= 1 << Math.floor(rnd() * 32);
      } else if (roll < 0.7) {
        // a value of the stream made another of its width: another arc, candidate or half, or one past them
        const f = layout[Math.floor(rnd() * layout.length)];
        put(d.slots, f, Math.floor(rnd() * 2 ** f.width));
      } else {
        // a slot moved between a rank's halves, or a count moved between ranks
        const r = Math.floor(rnd() * (g.n - 1));
        if (roll < 0.85 && d.mid[r] > d.first[r]) d.mid[r]--;
        else if (d.outTo[r + 1] > d.outTo[r]) d.outTo[r + 1]--;
        else d.inTo[r + 1] = Math.max(d.inTo[r], d.inTo[r + 1] - 1);
      }
      let got: Hierarchy;
      try {
        got = Hierarchy.fromCompact(g, d);
      } catch (err) {
        if (!(err instanceof RangeError)) faults.push(`trial ${trial}: ${String(err)}`);
        refusals++;
        continue;
      }
      loads++;
      for (let q = 0; q < 20; q++) {
        const s = Math.floor(rnd() * g.n),
          t = Math.floor(rnd() * g.n);
        try {
          const paths = q % 5 ? [got.route([s, 0], [t, 0])] : got.alternatives([s, 0], [t, 0]);
          for (const p of paths) if (p) faults.push(...pathFaults(g, p, s, t).map((f) => `trial ${trial}: ${f}`));
        } catch (err) {
          faults.push(`trial ${trial}: ${String(err)}`);
        }
      }
    }
    expect(faults.slice(0, 5)).toEqual([]);
    // both kinds of outcome were met: the checks were reached, and so were the searches
    expect(refusals).toBeGreaterThan(30);
    expect(loads).toBeGreaterThan(5);
  });
});
