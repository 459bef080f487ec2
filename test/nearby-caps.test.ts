/**
 * The bound on one nearby query's work (issue 13, item 4): it examines at most its limit and
 * MAX_SCANNED more places in its order, so an `isOpen` query at an hour when little is open does not walk
 * every place of its type in the radius. On a hand-made file of 12,000 cafes in a row, where
 * which cafes a capped query can find follows from where they were written.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPbf, nearby, MAX_SCANNED, type PlaceIndex } from '../src/index.js';
import { PbfWriter } from '../scripts/pbf-writer.js';

/** Cafes 1..N on a line due east, 0.0001° (about 10 m) apart, from lon 85.3 at lat 27.7. */
const N = 12_000;
/** The cafes open around the clock; the others have no opening hours (never open). */
const OPEN_NEAR_WEST = [6];
const OPEN_NEAR_EAST = [11_001, 11_002, 11_003, 11_004, 11_005];
const lonOf = (id: number) => 853_000_000 + id * 1_000;

let index: PlaceIndex;
beforeAll(async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'nepal-places-scan-')), 'row.osm.pbf');
  const w = new PbfWriter(file, { sorted: true });
  const open = new Set([...OPEN_NEAR_WEST, ...OPEN_NEAR_EAST]);
  for (let id = 1; id <= N; id++) {
    w.node({
      id,
      lat: 277_000_000,
      lon: lonOf(id),
      tags: open.has(id)
        ? [
            ['amenity', 'cafe'],
            ['opening_hours', '24/7'],
          ]
        : [['amenity', 'cafe']],
    });
  }
  await w.close();
  index = await loadPbf(file);
}, 60_000);

const at = new Date('2026-01-14T21:15:00Z');
const query = (lon: number) => ({ type: 'cafe', lat: 27.7, lon, radius: 1000, limit: 10, sortBy: true, isOpen: true, at });
const osmIds = (q: ReturnType<typeof query>) => nearby(index, q).map((p) => p.osmId);

describe(`a nearby query examines at most limit + MAX_SCANNED (${MAX_SCANNED}) places`, () => {
  it('the file holds what the cases assume', () => {
    expect(MAX_SCANNED).toBe(10_000);
    expect(index.typeCounts().cafe).toBe(N);
    // without isOpen the nearest come first, whatever their hours: the walk stops at the limit
    expect(nearby(index, { ...query(lonOf(0) / 1e7), isOpen: false }).map((p) => p.osmId)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('from the west end, the 10,010 nearest cafes (1..10,010) hold one open: cafe 6, not the open ones at 11,001..11,005', () => {
    expect(osmIds(query(lonOf(0) / 1e7))).toEqual(OPEN_NEAR_WEST);
  });

  it('from the east end, the 10,010 nearest (12,000 down to 1,991) hold the five open ones at 11,001..11,005, not cafe 6', () => {
    expect(osmIds(query(lonOf(N + 1) / 1e7))).toEqual([...OPEN_NEAR_EAST].reverse());
  });

  it('a limit above the cap is work asked for: limit 12,000 without isOpen lists every cafe, nearest first', () => {
    const all = nearby(index, { ...query(lonOf(0) / 1e7), isOpen: false, limit: N }).map((p) => p.osmId);
    expect(all).toEqual(Array.from({ length: N }, (_, i) => i + 1));
  });

  it('with fewer places in range than the cap the walk sees them all: 12 km from cafe 10,000 (about 2,400 cafes) hold 11,001..11,005', () => {
    // 0.0001° of longitude at 27.7° N is about 9.85 m: 11,001 is 9.9 km away, cafe 6 98 km
    expect(osmIds({ ...query(lonOf(10_000) / 1e7), radius: 12 })).toEqual(OPEN_NEAR_EAST);
  });
});
