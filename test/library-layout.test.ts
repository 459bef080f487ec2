import { describe, expect, it } from 'vitest';
import KDBush from 'kdbush';
import Flatbush from 'flatbush';
import { flatbushData } from '../src/snapshot/flatbush.js';

// The engine reads what KDBush and Flatbush do not document: index/around.ts, index/nearest.ts
// and nodeMaxima walk KDBush's `ids`, `coords` and tree shape; snapshot/flatbush.ts computes
// Flatbush's byte length, snapshot/read.ts checks its `_indices` and `_levelBounds`.
// package.json pins both versions exactly; these tests state the layout relied on, against
// expectations worked out by hand, so that a new version that changes it fails here first.

function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

describe('KDBush: ids and coords are the items in tree order, the tree a median split alternating x and y', () => {
  it('15 points, nodeSize 2: the order worked out by hand', () => {
    // x = i, y = 7i mod 15: the root splits at the x median (item 7); each half at its y median
    const tree = new KDBush(15, 2, Int32Array);
    for (let i = 0; i < 15; i++) tree.add(i, (i * 7) % 15);
    tree.finish();
    expect(tree.nodeSize).toBe(2);
    const ids = Array.from(tree.ids);
    expect(ids[7]).toBe(7);
    // left half (x < 7): y = 0 7 14 6 13 5 12 for items 0..6; median y 7 is item 1
    expect(ids[3]).toBe(1);
    expect(new Set(ids.slice(0, 3))).toEqual(new Set([0, 5, 3])); // y 0, 5, 6: a leaf (3 items, r - l = nodeSize)
    expect(new Set(ids.slice(4, 7))).toEqual(new Set([6, 4, 2])); // y 12, 13, 14
    // right half (x > 7): y = 11 3 10 2 9 1 8 for items 8..14; median y 8 is item 14
    expect(ids[11]).toBe(14);
    expect(new Set(ids.slice(8, 11))).toEqual(new Set([13, 11, 9])); // y 1, 2, 3
    expect(new Set(ids.slice(12, 15))).toEqual(new Set([12, 10, 8])); // y 9, 10, 11
    // coords hold each position's item, x then y
    for (let k = 0; k < 15; k++) expect([tree.coords[2 * k], tree.coords[2 * k + 1]]).toEqual([ids[k], (ids[k] * 7) % 15]);
  });

  it.each([
    [1000, 16],
    [70_000, 16],
    [333, 64],
  ])('%i random points, nodeSize %i: every split is the median of its range on its axis', (n, nodeSize) => {
    const rnd = random(n);
    const pts = Array.from({ length: n }, () => [Math.round((84 + 4 * rnd()) * 1e7), Math.round((26 + 4 * rnd()) * 1e7)]);
    const tree = new KDBush(n, nodeSize, Int32Array);
    for (const [x, y] of pts) tree.add(x, y);
    tree.finish();
    const { ids, coords } = tree;
    expect(tree.nodeSize).toBe(nodeSize);
    expect(ids.length).toBe(n);
    expect(coords).toBeInstanceOf(Int32Array);
    expect(coords.length).toBe(2 * n);
    expect(new Set(ids).size).toBe(n);
    let misplaced = 0;
    for (let k = 0; k < n; k++) if (coords[2 * k] !== pts[ids[k]][0] || coords[2 * k + 1] !== pts[ids[k]][1]) misplaced++;
    expect(misplaced).toBe(0);
    // the shape `around` walks: [l, r] is a leaf when r - l <= nodeSize, else split at m = (l + r) >> 1
    let splits = 0;
    const check = (l: number, r: number, axis: number): void => {
      if (r - l <= nodeSize) return;
      const m = (l + r) >> 1;
      const v = coords[2 * m + axis];
      for (let i = l; i < m; i++) if (coords[2 * i + axis] > v) throw new Error(`position ${i} is above the split at ${m}`);
      for (let i = m + 1; i <= r; i++) if (coords[2 * i + axis] < v) throw new Error(`position ${i} is below the split at ${m}`);
      splits++;
      check(l, m - 1, 1 - axis);
      check(m + 1, r, 1 - axis);
    };
    check(0, n - 1, 0);
    expect(splits).toBeGreaterThan(0);
    // a tree restored from its bytes (a snapshot's) has the same arrays
    const restored = KDBush.from(tree.data);
    expect(Array.from(restored.ids)).toEqual(Array.from(ids));
    expect(Array.from(restored.coords)).toEqual(Array.from(coords));
  });
});

describe('Flatbush: its bytes are a header, the boxes of every node and their indices, level after level', () => {
  // nodes: the items, then ceil(n / nodeSize) per level up to the root; bytes: 8 + 4 coordinates and one index per node
  it.each([
    // n, nodeSize, coordinates, bytes worked out by hand
    [5, 4, Float64Array, 8 + (5 + 2 + 1) * (4 * 8 + 2)],
    [1, 16, Int32Array, 8 + (1 + 1) * (4 * 4 + 2)],
    [16, 16, Int32Array, 8 + (16 + 1) * (4 * 4 + 2)],
    [17, 16, Int32Array, 8 + (17 + 2 + 1) * (4 * 4 + 2)],
    [257, 16, Int32Array, 8 + (257 + 17 + 2 + 1) * (4 * 4 + 2)],
    [20_000, 16, Int32Array, 8 + (20_000 + 1250 + 79 + 5 + 1) * (4 * 4 + 4)], // past 16,384 nodes the indices are Uint32
  ] as const)(
    '%i items, nodeSize %i: the byte length, and flatbushData gives exactly them, fresh or restored at an offset',
    (n, nodeSize, Type, bytes) => {
      const rnd = random(n + nodeSize);
      const tree = new Flatbush(n, nodeSize, Type);
      for (let i = 0; i < n; i++) {
        const x = Math.round(rnd() * 1e6),
          y = Math.round(rnd() * 1e6);
        tree.add(x, y, x + Math.round(rnd() * 1e3), y + Math.round(rnd() * 1e3));
      }
      tree.finish();
      expect(tree.data.byteLength).toBe(bytes);
      const own = flatbushData(tree);
      expect(own.byteLength).toBe(bytes);
      // inside a bigger buffer (a snapshot's), at an offset a multiple of 8, with bytes after it
      const big = new Uint8Array(64 + bytes + 40);
      big.set(own, 64);
      const restored = Flatbush.from(big.buffer, 64);
      const again = flatbushData(restored);
      expect(again.byteOffset).toBe(64);
      expect(Buffer.from(again).equals(Buffer.from(own))).toBe(true);
      expect(restored.search(2e5, 2e5, 6e5, 6e5).sort((a, b) => a - b)).toEqual(tree.search(2e5, 2e5, 6e5, 6e5).sort((a, b) => a - b));
    },
  );

  it("5 items, nodeSize 4: level ends and each inner node's first child, as the snapshot reader checks them", () => {
    const tree = new Flatbush(5, 4);
    for (let i = 0; i < 5; i++) tree.add(i, i, i + 1, i + 1);
    tree.finish();
    // levels end after 5 leaves, 2 inner nodes, the root; 4 numbers a node
    expect(tree._levelBounds).toEqual([20, 28, 32]);
    // the inner nodes point at their first child's numbers: leaf 0, leaf 4, inner node 5
    expect(Array.from(tree._indices.subarray(5))).toEqual([0, 16, 20]);
    expect(new Set(tree._indices.subarray(0, 5))).toEqual(new Set([0, 1, 2, 3, 4]));
  });
});
