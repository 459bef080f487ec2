/**
 * Opening a snapshot reads its header and directory alone: each part (a table column, a type's
 * spatial index, the text index, the landmarks, the streets, the road graph) is decoded and
 * checked when a query first needs it, then kept. What each query answers is what the index the
 * snapshot was built from answers; a section damaged after the open is refused, as `corrupted`,
 * by the first query that needs it, and only by the queries that need it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  fromSnapshot,
  isochrone,
  matrix,
  nearby,
  openWhole,
  place,
  reverse,
  route,
  search,
  SnapshotError,
  types,
  type PlaceIndex,
} from '../src/index.js';
import { COLUMN_NAMES } from '../src/model/table.js';
import { isMade } from '../src/index/later.js';
import { section, transitSnapshot } from './support/crafted.js';

let whole: PlaceIndex;
let bytes: Uint8Array;
let points: [number, number][];
let at: { lat: number; lon: number };
let type: string;

beforeAll(async () => {
  ({ whole, bytes, points } = await transitSnapshot());
  at = { lat: points[0][0], lon: points[0][1] };
  // the type with the most places
  type = Object.entries(whole.typeCounts()).sort((a, b) => b[1] - a[1])[0][0];
});

/** Each kind of query, as an app asks it first. */
const QUERIES: [string, (index: PlaceIndex) => unknown][] = [
  ['nearby', (index) => nearby(index, { ...at, type, limit: 20, radius: 50 })],
  ['search', (index) => search(index, { q: 'school', limit: 10 })],
  ['search near a point', (index) => search(index, { q: 'hotel', limit: 10, ...at })],
  ['reverse', (index) => reverse(index, { ...at, limit: 5 })],
  ['place', (index) => [...whole.lookup.ids.subarray(0, 50)].map((id) => place(index, id))],
  ['types', (index) => types(index)],
  ['route', (index) => route(index, { points, mode: 'car' })],
  ['matrix', (index) => matrix(index, { sources: points, destinations: points, mode: 'foot' })],
  ['isochrone', (index) => isochrone(index, { ...at, mode: 'bike', minutes: 5 })],
  ['bounds', (index) => index.bounds],
];

describe('opening reads the directory alone: no part is decoded', () => {
  it('no column, string list, type tree, text index, landmarks, streets or road graph is made', () => {
    const index = fromSnapshot(bytes);
    const parts = (index as unknown as { parts: Record<string, { made: boolean }> }).parts;
    for (const name of ['lookup', 'words', 'landmarks', 'streets', 'bounds', 'router']) expect(parts[name].made, name).toBe(false);
    for (const name of [...COLUMN_NAMES, 'strings']) expect(isMade(index.table, name), name).toBe(false);
    for (const [name, tt] of index.types) expect(isMade(tt, 'tree'), name).toBe(false);
  });
});

describe('the first query of each kind answers as the index the snapshot was built from', () => {
  it.each(QUERIES)('%s, first on a fresh open', (_, ask) => {
    expect(ask(fromSnapshot(bytes))).toEqual(ask(whole));
  });

  it('every kind, in turn, on one open; and again', () => {
    const index = fromSnapshot(bytes);
    for (const [what, ask] of QUERIES) expect(ask(index), what).toEqual(ask(whole));
    for (const [what, ask] of QUERIES) expect(ask(index), `${what}, again`).toEqual(ask(whole));
  });

  it('{ whole: true } and openWhole make every part at once, and answer the same', () => {
    const index = fromSnapshot(bytes, 'x.places', { whole: true });
    for (const name of [...COLUMN_NAMES, 'strings']) expect(isMade(index.table, name), name).toBe(true);
    const parts = (index as unknown as { parts: Record<string, { made: boolean }> }).parts;
    for (const name of ['lookup', 'words', 'landmarks', 'streets', 'bounds', 'router']) expect(parts[name].made, name).toBe(true);
    for (const [what, ask] of QUERIES) expect(ask(index), what).toEqual(ask(whole));
    const later = openWhole(fromSnapshot(bytes));
    for (const [what, ask] of QUERIES) expect(ask(later), what).toEqual(ask(whole));
  });
});

/** The error `f` throws, or undefined. */
function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (err) {
    return err;
  }
  return undefined;
}

/**
 * A snapshot opened from a copy of the bytes, then a byte in the middle of `name` flipped in the
 * buffer the index reads from: the header and directory, checked at the open, are whole.
 */
function damagedAfterOpen(name: string): PlaceIndex {
  const b = bytes.slice();
  const index = fromSnapshot(b, 'damaged.places');
  const s = section(b, name);
  b[s.at + (s.bytes >> 1)] ^= 0x10;
  return index;
}

describe('a section damaged after the open is refused as corrupted by the first query that needs it, and by the next', () => {
  it.each([
    ['postingDoc', 'search'],
    ['typeIds', 'nearby'],
    ['landmarkIds', 'reverse'],
    ['lookup', 'place'],
    ['edgeCoords', 'route'],
    ['edgeCoords', 'matrix'],
    ['edgeCoords', 'isochrone'],
    ['coords', 'reverse'],
    ['tagKV', 'place'],
  ])('%s: %s throws SnapshotError corrupted, naming the section and the file', (name, kind) => {
    const index = damagedAfterOpen(name);
    const ask = QUERIES.find(([k]) => k === kind)![1];
    for (const time of ['first', 'again']) {
      const err = thrown(() => ask(index));
      expect(err, time).toBeInstanceOf(SnapshotError);
      expect(err, time).toMatchObject({ problem: 'corrupted', file: 'damaged.places' });
      expect((err as Error).message).toContain(`checksum mismatch in section ${name}`);
    }
  });

  it('the queries that do not read it answer as before', () => {
    const index = damagedAfterOpen('postingDoc');
    for (const [what, ask] of QUERIES.filter(([k]) => !k.startsWith('search'))) expect(ask(index), what).toEqual(ask(whole));
    expect(() => search(index, { q: 'school' })).toThrow(SnapshotError);
  });

  it('{ whole: true } refuses it at the open', () => {
    const b = bytes.slice();
    const s = section(b, 'postingDoc');
    b[s.at + (s.bytes >> 1)] ^= 0x10;
    expect(() => fromSnapshot(b, 'damaged.places')).not.toThrow();
    expect(thrown(() => fromSnapshot(b, 'damaged.places', { whole: true }))).toMatchObject({ problem: 'corrupted' });
  });
});
