/**
 * `BlockIds.find` finds an id, and says where, exactly as a scan of every block does, whatever the
 * order of the lookups: it searches from the last hit outwards (ahead, behind, far off, in another
 * block), and answers absent ids, ids between blocks and ids past either end as absent.
 */
import { describe, expect, it } from 'vitest';
import { random } from './support/random.js';
import { BlockIds } from '../src/load/ids.js';

/** Ascending ids in `blocks` blocks of up to `size`, with gaps of 1 to `gap`; a base per block (offsets) or none. */
function makeBlocks(rnd: () => number, blocks: number, size: number, gap: number, offsets: boolean) {
  const arrays: (Float64Array | Int32Array)[] = [];
  const bases: number[] = [];
  let id = 1_000_000_000 + Math.floor(rnd() * 1000);
  for (let b = 0; b < blocks; b++) {
    const n = 1 + Math.floor(rnd() * size);
    const ids: number[] = [];
    for (let i = 0; i < n; i++) ids.push((id += 1 + Math.floor(rnd() * gap)));
    id += Math.floor(rnd() * 50 * gap); // a gap between blocks, sometimes wide
    if (offsets) {
      arrays.push(Int32Array.from(ids, (v) => v - ids[0]));
      bases.push(ids[0]);
    } else {
      arrays.push(Float64Array.from(ids));
      bases.push(0);
    }
  }
  return { arrays, bases };
}

/** Where a scan of every block finds `id`, or undefined. */
function scan(arrays: (Float64Array | Int32Array)[], bases: number[], id: number): [number, number] | undefined {
  for (let b = 0; b < arrays.length; b++) {
    const k = arrays[b].indexOf(id - bases[b]);
    if (k >= 0) return [b, k];
  }
  return undefined;
}

/** Looks up each id in turn and checks each answer against the scan. */
function check(ids: BlockIds, arrays: (Float64Array | Int32Array)[], bases: number[], queries: number[]): number {
  let hits = 0;
  for (const q of queries) {
    const want = scan(arrays, bases, q);
    const found = ids.find(q);
    expect(found, `id ${q}`).toBe(want !== undefined);
    if (want) {
      expect([ids.block, ids.index], `id ${q}`).toEqual(want);
      hits++;
    }
  }
  return hits;
}

describe('find answers as a scan of every block', () => {
  for (const offsets of [true, false]) {
    it(`ids held ${offsets ? 'as offsets from a base' : 'as they are'}, lookups walking along, back and across`, () => {
      const rnd = random(offsets ? 7 : 11);
      const { arrays, bases } = makeBlocks(rnd, 12, 300, 4, offsets);
      const ids = new BlockIds(arrays, offsets ? bases : undefined);
      const all = arrays.flatMap((a, b) => Array.from(a, (v) => v + bases[b]));
      const queries: number[] = [];
      let i = Math.floor(rnd() * all.length);
      for (let q = 0; q < 4000; q++) {
        const r = rnd();
        // mostly a few ids ahead or behind the last (a way's nodes), sometimes anywhere
        if (r < 0.5) i = Math.min(all.length - 1, i + 1 + Math.floor(rnd() * 6));
        else if (r < 0.7) i = Math.max(0, i - 1 - Math.floor(rnd() * 40));
        else if (r < 0.8) i = Math.min(all.length - 1, i + Math.floor(rnd() * 700));
        else i = Math.floor(rnd() * all.length);
        // and now and then an id that is absent: in a gap, or just off the last hit
        const off = rnd() < 0.15 ? (rnd() < 0.5 ? -1 : 1) : 0;
        queries.push(all[i] + off);
      }
      const hits = check(ids, arrays, bases, queries);
      expect(hits).toBeGreaterThan(3000);
    });
  }

  it('the first and last id of each block, ids between blocks, and ids past both ends', () => {
    const rnd = random(3);
    const { arrays, bases } = makeBlocks(rnd, 6, 50, 3, true);
    const ids = new BlockIds(arrays, bases);
    const queries: number[] = [];
    arrays.forEach((a, b) => {
      const first = bases[b] + a[0],
        last = bases[b] + a[a.length - 1];
      queries.push(last, first, first - 1, last + 1, last, first);
    });
    queries.push(0, bases[0] + arrays[0][0] - 1, Number.MAX_SAFE_INTEGER);
    check(ids, arrays, bases, queries);
    // a block of one id
    const one = new BlockIds([Int32Array.of(0)], [42]);
    expect([one.find(42), one.find(41), one.find(43), one.find(42)]).toEqual([true, false, false, true]);
  });

  it('ids out of order across blocks (an unsorted file) are found as well', () => {
    const rnd = random(5);
    const { arrays, bases } = makeBlocks(rnd, 8, 100, 3, false);
    arrays.reverse();
    const ids = new BlockIds(arrays);
    const all = arrays.flatMap((a) => Array.from(a));
    const queries = Array.from({ length: 800 }, () => all[Math.floor(rnd() * all.length)] + (rnd() < 0.2 ? 1 : 0));
    check(
      ids,
      arrays,
      bases.map(() => 0),
      queries,
    );
  });
});
