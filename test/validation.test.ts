/**
 * Query validation: every bad argument throws InvalidQueryError naming its parameter;
 * edge values that are valid pass; an unknown type answers [].
 */
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { InvalidQueryError, nearby, place, search, reverse } from '../src/index.js';
import type { NearbyQuery, PlaceIndex, QueryParam } from '../src/index.js';
import { CENTER, engine } from './support/fixture.js';

let index: PlaceIndex;

beforeAll(async () => {
  index = await engine();
});

const OK: NearbyQuery = { type: 'cafe', ...CENTER, at: new Date('2026-01-17T06:15:00Z') };

/** Runs a query with some fields replaced (or removed when given `undefined` via `delete`). */
function ask(patch: Record<string, unknown>, drop: string[] = []): () => unknown {
  const q: Record<string, unknown> = { ...OK, ...patch };
  for (const k of drop) delete q[k];
  return () => nearby(index, q as unknown as NearbyQuery);
}

function expectInvalid(fn: () => unknown, param: QueryParam): void {
  let err: unknown;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  expect(err, `expected InvalidQueryError(${param})`).toBeInstanceOf(InvalidQueryError);
  const e = err as InvalidQueryError;
  expect(e).toBeInstanceOf(Error);
  expect(e.name).toBe('InvalidQueryError');
  expect(e.param).toBe(param);
  expect(e.message).toContain(param);
  expect(e.message.length).toBeGreaterThan(param.length + 5);
}

describe('type: required, a non-empty string', () => {
  it('missing', () => expectInvalid(ask({}, ['type']), 'type'));
  it('empty', () => expectInvalid(ask({ type: '' }), 'type'));
  it('blank', () => expectInvalid(ask({ type: '   ' }), 'type'));
  it('not a string', () => {
    expectInvalid(ask({ type: 42 }), 'type');
    expectInvalid(ask({ type: null }), 'type');
    expectInvalid(ask({ type: ['cafe'] }), 'type');
  });
  it('unknown: InvalidQueryError naming type, the names of Object.prototype too', () => {
    for (const type of ['no_such_type_here', 'toString', '__proto__', 'constructor']) expectInvalid(ask({ type }), 'type');
  });
});

describe('lat: a finite number in [-90, 90]', () => {
  it('missing', () => expectInvalid(ask({}, ['lat']), 'lat'));
  for (const lat of [NaN, Infinity, -Infinity, 90.0001, -90.5, 1000]) {
    it(`${lat}`, () => expectInvalid(ask({ lat }), 'lat'));
  }
  it('not a number', () => {
    expectInvalid(ask({ lat: '27.7' }), 'lat');
    expectInvalid(ask({ lat: null }), 'lat');
  });
  it('the poles are valid', () => {
    expect(nearby(index, { ...OK, lat: 90 })).toEqual([]);
    expect(nearby(index, { ...OK, lat: -90 })).toEqual([]);
  });
});

describe('lon: a finite number in [-180, 180]', () => {
  it('missing', () => expectInvalid(ask({}, ['lon']), 'lon'));
  for (const lon of [NaN, Infinity, -Infinity, 180.0001, -181, 360]) {
    it(`${lon}`, () => expectInvalid(ask({ lon }), 'lon'));
  }
  it('not a number', () => expectInvalid(ask({ lon: '85.3' }), 'lon'));
  it('the antimeridian is valid', () => {
    expect(nearby(index, { ...OK, lon: 180 })).toEqual([]);
    expect(nearby(index, { ...OK, lon: -180 })).toEqual([]);
  });
});

describe('radius: a positive integer (km)', () => {
  for (const radius of [0, -1, 1.5, 0.1, NaN, Infinity, -Infinity]) {
    it(`${radius}`, () => expectInvalid(ask({ radius }), 'radius'));
  }
  it('not a number', () => {
    expectInvalid(ask({ radius: '10' }), 'radius');
    expectInvalid(ask({ radius: null }), 'radius');
  });
  it('1 and 20000 are valid', () => {
    expect(nearby(index, { ...OK, radius: 1 }).length).toBeGreaterThan(0);
    expect(nearby(index, { ...OK, radius: 20000 }).length).toBe(5);
  });
});

describe('limit: a positive integer', () => {
  for (const limit of [0, -5, 2.5, NaN, Infinity]) {
    it(`${limit}`, () => expectInvalid(ask({ limit }), 'limit'));
  }
  it('not a number', () => expectInvalid(ask({ limit: '5' }), 'limit'));
  it('1 is valid', () => expect(nearby(index, { ...OK, limit: 1 }).length).toBe(1));
});

describe('sortBy and isOpen: booleans when given', () => {
  for (const v of ['true', 1, 0, 'yes', null]) {
    it(`sortBy ${JSON.stringify(v)}`, () => expectInvalid(ask({ sortBy: v }), 'sortBy'));
    it(`isOpen ${JSON.stringify(v)}`, () => expectInvalid(ask({ isOpen: v }), 'isOpen'));
  }
  it('undefined means not given', () => {
    expect(nearby(index, { ...OK, sortBy: undefined, isOpen: undefined })).toEqual(nearby(index, OK));
  });
});

describe('at: a valid Date when given', () => {
  it('an invalid Date', () => expectInvalid(ask({ at: new Date('not a date') }), 'at'));
  it('not a Date', () => {
    expectInvalid(ask({ at: '2026-01-17T12:00:00+05:45' }), 'at');
    expectInvalid(ask({ at: 1768630500000 }), 'at');
    expectInvalid(ask({ at: null }), 'at');
  });
  it('omitted: evaluated now, still a boolean', () => {
    const got = nearby(index, { type: 'eat', ...CENTER, limit: 20 });
    expect(got.length).toBe(20);
    for (const r of got) expect(typeof r.open).toBe('boolean');
  });
});

describe('InvalidQueryError.param is one of the parameter names, as a type', () => {
  const ALL: QueryParam[] = ['query', 'type', 'lat', 'lon', 'radius', 'limit', 'sortBy', 'isOpen', 'at', 'q', 'placeId'];

  it('typed as the union, not any string', () => {
    expectTypeOf<InvalidQueryError['param']>().toEqualTypeOf<QueryParam>();
    expectTypeOf<'lat'>().toExtend<InvalidQueryError['param']>();
    expectTypeOf<'latitude'>().not.toExtend<InvalidQueryError['param']>();
  });

  it('every query function names a member of it', () => {
    const bad: (() => unknown)[] = [
      () => nearby(index, null as unknown as NearbyQuery),
      () => nearby(index, { ...OK, type: '' }),
      () => nearby(index, { ...OK, at: new Date(NaN) }),
      () => place(index, -1),
      () => search(index, { q: ' ' }),
      () => search(index, { q: 'x', lat: 27.7 }),
      () => reverse(index, { lat: 27.7, lon: 200 }),
      () => reverse(index, { lat: 27.7, lon: 85.3, radius: 0 }),
    ];
    for (const fn of bad) {
      const e = (() => {
        try {
          fn();
        } catch (x) {
          return x;
        }
      })() as InvalidQueryError;
      expect(e).toBeInstanceOf(InvalidQueryError);
      expect(ALL).toContain(e.param);
    }
  });
});
