import { describe, expect, it } from 'vitest';
import { HttpError } from '../src/http/http-error.js';
import { parseNearbyParams } from '../src/http/params.js';
import { queryOf, rawQuery } from '../src/http/query.js';
import fc from 'fast-check';

const limits = { maxLimit: 100, maxRadius: 100 };
const parse = (q: string) => parseNearbyParams(new URLSearchParams(q), limits);

/** The 400 message for a query string, or undefined when it parses. */
function refusal(q: string): string | undefined {
  try {
    parse(q);
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(400);
    return (err as HttpError).message;
  }
}

const base = 'type=cafe&lat=27.7&lon=85.3';

describe('params: a well-formed query', () => {
  it('reads the required parameters and leaves the optional ones to the engine defaults', () => {
    expect(parse(base)).toEqual({ type: 'cafe', lat: 27.7, lon: 85.3 });
  });
  it('reads every optional parameter', () => {
    expect(parse(`${base}&radius=3&limit=7&sortBy=true&isOpen=false&key=whatever`)).toEqual({
      type: 'cafe',
      lat: 27.7,
      lon: 85.3,
      radius: 3,
      limit: 7,
      sortBy: true,
      isOpen: false,
    });
  });
  it('reads at, an extension: ISO 8601, Nepal Time without an offset', () => {
    expect(parse(`${base}&at=2026-11-21T22:10`).at?.toISOString()).toBe('2026-11-21T16:25:00.000Z');
    expect(parse(`${base}&at=${encodeURIComponent('2026-11-21T22:10:00+05:45')}`).at?.toISOString()).toBe('2026-11-21T16:25:00.000Z');
    expect(parse(`${base}&at=2026-11-21`).at?.toISOString()).toBe('2026-11-20T18:15:00.000Z');
    expect(refusal(`${base}&at=2026-11-21T22:10&at=2026-11-21T22:11`)).toMatch(/^at: given more than once/);
    expect(refusal(`${base}&at=`)).toMatch(/^at: must be an ISO 8601/);
  });
  it.each(['true', 'TRUE', 'True', 'tRuE'])('booleans are case-insensitive: %s', (v) => {
    expect(parse(`${base}&sortBy=${v}&isOpen=${v}`)).toMatchObject({ sortBy: true, isOpen: true });
  });
  it.each(['false', 'FALSE', 'False'])('booleans are case-insensitive: %s', (v) => {
    expect(parse(`${base}&sortBy=${v}`)).toMatchObject({ sortBy: false });
  });
  it.each([
    ['-90', -90],
    ['90', 90],
    ['+45.5', 45.5],
    ['.5', 0.5],
    ['27.', 27],
    ['2.77e1', 27.7],
    ['-0', -0],
  ])('lat %s is %d', (s, n) => {
    expect(parse(`type=cafe&lat=${encodeURIComponent(s)}&lon=0`).lat).toBe(n);
  });
  it('limit and radius reach their maxima', () => {
    expect(parse(`${base}&radius=100&limit=100`)).toMatchObject({ radius: 100, limit: 100 });
  });
  it('keeps the type as given (the engine trims and lower-cases it)', () => {
    expect(parse('type=%20Cafe%20&lat=1&lon=1').type).toBe(' Cafe ');
  });
});

describe('params: 400 naming the parameter', () => {
  it.each([
    ['lat=1&lon=1', /^type: missing/],
    ['type=&lat=1&lon=1', /^type: must not be empty/],
    ['type=%20%20&lat=1&lon=1', /^type: must not be empty/],
    ['type=cafe&lon=1', /^lat: missing/],
    ['type=cafe&lat=1', /^lon: missing/],
    ['type=cafe&lat=abc&lon=1', /^lat: must be a number from -90 to 90, got "abc"/],
    ['type=cafe&lat=91&lon=1', /^lat: .*got "91"/],
    ['type=cafe&lat=-90.0001&lon=1', /^lat: /],
    ['type=cafe&lat=1&lon=180.5', /^lon: must be a number from -180 to 180/],
    ['type=cafe&lat=&lon=1', /^lat: .*got ""/],
    ['type=cafe&lat=NaN&lon=1', /^lat: /],
    ['type=cafe&lat=Infinity&lon=1', /^lat: /],
    ['type=cafe&lat=1e309&lon=1', /^lat: /],
    ['type=cafe&lat=0x1A&lon=1', /^lat: /],
    ['type=cafe&lat=%201&lon=1', /^lat: /],
    ['type=cafe&lat=1_0&lon=1', /^lat: /],
    [`${base}&radius=1.5`, /^radius: .*only integers are supported.*got "1.5"/],
    [`${base}&radius=0`, /^radius: must be at least 1/],
    [`${base}&radius=-3`, /^radius: must be a whole number/],
    [`${base}&radius=101`, /^radius: must be at most 100 km \(the maximum\)/],
    [`${base}&radius=99999999999999999999999`, /^radius: must be at most 100 km/],
    [`${base}&radius=1e1`, /^radius: .*only integers/],
    [`${base}&radius=`, /^radius: /],
    [`${base}&limit=0`, /^limit: must be at least 1/],
    [`${base}&limit=101`, /^limit: must be at most 100 \(the maximum\)/],
    [`${base}&limit=2.0`, /^limit: .*only integers/],
    [`${base}&limit=ten`, /^limit: must be a whole number from 1 to 100, got "ten"/],
    [`${base}&isOpen=maybe`, /^isOpen: must be true or false, got "maybe"/],
    [`${base}&isOpen=1`, /^isOpen: /],
    [`${base}&sortBy=`, /^sortBy: /],
    [`${base}&sortBy=yes`, /^sortBy: /],
    [`${base}&lat=3`, /^lat: given more than once/],
    [`${base}&limit=3&limit=3`, /^limit: given more than once/],
    [`${base}&sortby=true`, /^sortby: unknown parameter/],
    [`${base}&=x`, /^\(empty name\): unknown parameter/],
  ])('%s', (q, message) => {
    expect(refusal(q)).toMatch(message);
  });

  it('uses the configured maxima in the message', () => {
    expect(() => parseNearbyParams(new URLSearchParams(`${base}&limit=21`), { maxLimit: 20, maxRadius: 5 })).toThrow(
      /limit: must be at most 20 \(the maximum\)/,
    );
    expect(() => parseNearbyParams(new URLSearchParams(`${base}&radius=6`), { maxLimit: 20, maxRadius: 5 })).toThrow(
      /radius: must be at most 5 km/,
    );
  });

  it('cuts a long value short in the message', () => {
    const message = refusal(`type=cafe&lat=${'9'.repeat(10_000)}&lon=1`)!;
    expect(message.length).toBeLessThan(200);
  });
});

describe('params: a query is read as URLSearchParams reads it', () => {
  // queryOf cuts plain queries itself: whatever the query, it must read what URLSearchParams reads.
  const piece = fc.constantFrom(
    'key=abc',
    'type=cafe',
    'lat=27.7',
    '?',
    '??',
    '&',
    '&&',
    '=',
    '==',
    'a=b=c',
    '#',
    ';',
    ' ',
    '+',
    '%',
    '%zz',
    '%2',
    '%41',
    'k%65y=1',
    'é',
    '%C3%A9',
    '\u{1F600}',
    '\ud800',
    'x',
    'limit=',
    '=v',
    'type',
  );
  it('holds for 20,000 generated queries: entries, get, getAll, has and keys', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const url = `http://127.0.0.1:8080/api/v1/search/nearby?${pieces.join('')}`;
        const got = queryOf(url);
        const want = new URLSearchParams(rawQuery(url));
        expect([...got]).toEqual([...want]);
        expect([...got.keys()]).toEqual([...want.keys()]);
        for (const name of ['key', 'type', 'lat', 'limit', '', 'a', 'x', 'k%65y', 'é']) {
          expect([name, got.get(name), got.getAll(name), got.has(name)]).toEqual([name, want.get(name), want.getAll(name), want.has(name)]);
        }
      }),
      { numRuns: 20_000, seed: 24 },
    );
  });

  it('a plain query by hand: a leading ? dropped, empty parts skipped, a name up to its first =', () => {
    const q = queryOf('http://h/p??a=1&&b&=c&d=e=f&a=2&');
    expect([...q]).toEqual([
      ['a', '1'],
      ['b', ''],
      ['', 'c'],
      ['d', 'e=f'],
      ['a', '2'],
    ]);
    expect(q.get('a')).toBe('1');
    expect(q.getAll('a')).toEqual(['1', '2']);
    expect(q.has('c')).toBe(false);
    expect([...queryOf('http://h/p')]).toEqual([]);
    expect([...queryOf('http://h/p?')]).toEqual([]);
  });
});
