/**
 * The types a data set answers, unknown types with suggestions, and points given longitude
 * first: expectations from the fixture's raw tags (test/support/places.ts reads them without
 * the engine) and from hand-worked cases.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidQueryError, nearby, reverse, route, search, suggestTypes, types } from '../src/index.js';
import type { PlaceIndex } from '../src/index.js';
import { engine, expected } from './support/fixture.js';
import { MERGED } from './support/merged.js';
import type { ExpectedPlaces } from './support/places.js';

let index: PlaceIndex;
let want: ExpectedPlaces;
const THAMEL = { lat: 27.7154, lon: 85.3123 };

beforeAll(async () => {
  [index, want] = await Promise.all([engine(), expected()]);
});

/** How many expected places have `type`, or any member of a merged type (each place once). */
function count(type: string): number {
  const members = Object.hasOwn(MERGED, type) ? MERGED[type] : [type];
  return want.places.filter((p) => p.types.some((t) => members.includes(t))).length;
}

describe('types(): every type of the data and every merged type, with counts', () => {
  it('lists exactly the plain types the raw tags give, with their counts', () => {
    const raw = new Set(want.places.flatMap((p) => p.types));
    const plain = types(index).filter((t) => !t.members);
    // a merged name shadows the plain type of the same name (parking, tourism, clinic)
    const expectedPlain = [...raw].filter((t) => !Object.hasOwn(MERGED, t));
    expect(plain.map((t) => t.type).sort()).toEqual(expectedPlain.sort());
    for (const t of plain) expect(t.count, t.type).toBe(count(t.type));
  });

  it('lists every merged type with its members, a place counted once', () => {
    const merged = types(index).filter((t) => t.members);
    expect(Object.fromEntries(merged.map((t) => [t.type, t.members]))).toEqual(MERGED);
    for (const t of merged) expect(t.count, t.type).toBe(count(t.type));
  });

  it('most places first, ties by name', () => {
    const list = types(index);
    for (let i = 1; i < list.length; i++) {
      const a = list[i - 1],
        b = list[i];
      expect(a.count > b.count || (a.count === b.count && a.type < b.type), `${a.type} before ${b.type}`).toBe(true);
    }
  });

  it('every listed type with places answers nearby', () => {
    for (const t of types(index)
      .filter((x) => x.count > 0)
      .slice(0, 40)) {
      expect(nearby(index, { type: t.type, ...THAMEL, radius: 100, limit: 1 }), t.type).toHaveLength(1);
    }
  });
});

describe('an unknown type is an InvalidQueryError that suggests the nearest known types', () => {
  const error = (type: string): InvalidQueryError => {
    try {
      nearby(index, { type, ...THAMEL });
    } catch (err) {
      return err as InvalidQueryError;
    }
    throw new Error(`no error for ${type}`);
  };

  it('a typo, a swap of letters and a plural each suggest the type meant', () => {
    expect(suggestTypes(index, 'cafee')[0]).toBe('cafe');
    expect(suggestTypes(index, 'resturant')[0]).toBe('restaurant');
    expect(suggestTypes(index, 'hsopital')[0]).toBe('hospital');
    expect(suggestTypes(index, 'cafes')[0]).toBe('cafe');
    expect(suggestTypes(index, 'pharmacies')).toEqual([]); // not a plural we fold (ies), and 3 edits away
    expect(suggestTypes(index, 'banks')[0]).toBe('bank');
  });

  it('the error names type, says the type is unknown and carries the suggestion', () => {
    const err = error('cafee');
    expect(err).toBeInstanceOf(InvalidQueryError);
    expect(err.param).toBe('type');
    expect(err.message).toMatch(/^type: unknown type "cafee".*did you mean "cafe"/);
  });

  it('a word far from every type gets no suggestion, still the error', () => {
    const err = error('zzzzzzzzzz');
    expect(err.param).toBe('type');
    expect(err.message).not.toMatch(/did you mean/);
  });

  it('a merged type none of whose members the data holds is known: an empty answer', () => {
    const empty = types(index).find((t) => t.members && t.count === 0);
    if (empty) expect(nearby(index, { type: empty.type, ...THAMEL })).toEqual([]);
    // and every merged type is accepted whatever the data
    for (const type of Object.keys(MERGED)) expect(() => nearby(index, { type, ...THAMEL })).not.toThrow();
  });

  it('types are folded before the check, as nearby folds them', () => {
    expect(() => nearby(index, { type: '  CAFE ', ...THAMEL })).not.toThrow();
  });
});

describe('a point given longitude first is refused, showing the swapped reading', () => {
  const swapped = { lat: THAMEL.lon, lon: THAMEL.lat };

  it('nearby, reverse and search with lat and lon swapped: InvalidQueryError naming lat', () => {
    for (const call of [
      () => nearby(index, { type: 'cafe', ...swapped }),
      () => reverse(index, swapped),
      () => search(index, { q: 'thamel', ...swapped }),
    ]) {
      expect(call).toThrow(InvalidQueryError);
      expect(call).toThrow(
        /^lat: lat=85\.3123, lon=27\.7154 lies outside the data, but swapped \(lat=27\.7154, lon=85\.3123\) it lies in it/,
      );
    }
  });

  it('route: the point named, its swapped reading shown, before any distance check', () => {
    const call = () =>
      route(index, {
        points: [
          [THAMEL.lat, THAMEL.lon],
          [85.329, 27.709],
        ],
        mode: 'car',
      });
    expect(call).toThrow(
      /^points: point 2 \(85\.329,27\.709\) lies outside the data, but swapped \(27\.709,85\.329\) it lies in it: points are lat,lon/,
    );
  });

  it('a point outside the data whose swapped reading is outside too is not a swap', () => {
    // the North Atlantic both ways: answered as asked (nothing there)
    expect(nearby(index, { type: 'cafe', lat: 40, lon: -30, radius: 1 })).toEqual([]);
    expect(() => reverse(index, { lat: 40, lon: -30 })).not.toThrow();
  });

  it('a point inside the data is never a swap, nor one just outside within the radius', () => {
    expect(() => nearby(index, { type: 'cafe', ...THAMEL })).not.toThrow();
    const b = index.bounds!;
    // 5 km north of the data with a 10 km radius: legal and not swapped
    expect(() => nearby(index, { type: 'cafe', lat: b.north + 0.045, lon: (b.west + b.east) / 2, radius: 10 })).not.toThrow();
  });

  it('the data bounds: inside the file extent and within 50 m of each of its sides', () => {
    // the extent of the fixture's nodes, as `osmium fileinfo -e` reads it
    const file = { west: 85.30024, south: 27.7006229, east: 85.3409231, north: 27.7160104 };
    const b = index.bounds!;
    expect(b.west).toBeGreaterThanOrEqual(file.west);
    expect(b.south).toBeGreaterThanOrEqual(file.south);
    expect(b.east).toBeLessThanOrEqual(file.east);
    expect(b.north).toBeLessThanOrEqual(file.north);
    for (const side of ['west', 'south', 'east', 'north'] as const) expect(Math.abs(b[side] - file[side]), side).toBeLessThan(0.0005);
  });
});
