/**
 * Addresses computed in runs of rows (most on a thread, the rest on the main thread once its
 * indexes are built) are the addresses of one pass over the table: the same text for every row
 * and column, the distinct texts numbered in the order one pass meets them (all rows as mapped,
 * then English, then Nepali), whatever the runs.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPbf } from '../src/index.js';
import { addressInput, computeAddresses, mergeAddresses, type AddressInput, type Addresses } from '../src/address/assign.js';
import { CORE } from './support/raw.js';

let input: AddressInput;
let size: number;
let whole: Addresses;
beforeAll(async () => {
  const index = await loadPbf(CORE, { workers: 0 });
  size = index.table.size;
  input = addressInput(index.table, []);
  whole = mergeAddresses([await computeAddresses(input)], size);
});

// each row's three texts
const rows = (a: Addresses) =>
  Array.from({ length: size }, (_, r) => [a.list[r], a.en[r], a.ne[r]].map((i) => (i === 0 ? '' : a.texts[i - 1])));

describe('runs of rows merge into the addresses of one pass', () => {
  it('one pass: the distinct texts in the order a scan of the columns meets them, every row pointing at its own', () => {
    const texts = rows(whole);
    const met: string[] = [];
    for (let c = 0; c < 3; c++) for (const r of texts) if (r[c] && !met.includes(r[c])) met.push(r[c]);
    expect(whole.texts).toEqual(met);
    expect(texts.filter((r) => r[0] !== '').length).toBeGreaterThan(size / 2);
  });

  // cuts as shares of the table (its size is known once loaded): the first row alone, halves, the last row alone, four runs
  it.each([[[0]], [[0.5]], [[1]], [[0, 0.2, 0.2, 0.7]]])('split at %j of the rows', async (shares: number[]) => {
    const cuts = shares.map((f) => Math.max(f === 0 ? 1 : 0, Math.min(size - 1, Math.round(f * size))));
    const bounds = [0, ...cuts, size];
    const runs = [];
    for (let i = 0; i + 1 < bounds.length; i++) runs.push(await computeAddresses(input, undefined, { from: bounds[i], to: bounds[i + 1] }));
    const merged = mergeAddresses(runs, size);
    expect(merged.texts).toEqual(whole.texts);
    expect(merged.list).toEqual(whole.list);
    expect(merged.en).toEqual(whole.en);
    expect(merged.ne).toEqual(whole.ne);
  });
});
