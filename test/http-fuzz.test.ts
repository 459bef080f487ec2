import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/http/openapi.js';
import { NEARBY_PARAMS } from '../src/http/params.js';
import { coreIndex, THAMEL, token } from './support/http-fixture.js';
import { fetchReply, startServer, type TestServer } from './support/http-server.js';
import { ResponseValidator } from './support/http-schema.js';

const key = token('z');
const validator = new ResponseValidator(openApiDocument());
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ index: await coreIndex(), tokens: [key] });
});
afterAll(() => server?.close());

const TEN_KB = 10_240;
const long = fc.constantFrom(
  'x'.repeat(TEN_KB),
  '9'.repeat(TEN_KB),
  'क'.repeat(TEN_KB / 3), // 10 kB of UTF-8 (Devanagari, 3 bytes each)
  `27.${'1'.repeat(TEN_KB)}`,
  '%'.repeat(TEN_KB),
);
const odd = fc.constantFrom(
  '',
  ' ',
  'NaN',
  'nan',
  'Infinity',
  '-Infinity',
  '1e309',
  '-1e309',
  '1e-400',
  '0',
  '-0',
  '00',
  '1.5',
  '1.',
  '.5',
  '-1',
  '101',
  '100',
  '1',
  '99999999999999999999999',
  '0x10',
  '1_0',
  '1,5',
  'true',
  'TRUE',
  'False',
  'maybe',
  'null',
  'undefined',
  '[]',
  '{}',
  '\u0000',
  '\uFEFF1',
  '１',
  '٣',
  'cafe',
  'eat',
  'CAFE',
  ' cafe ',
  'café',
  'कफी',
  '😀',
  '%',
  '%zz',
  '%E0%A4',
  '+',
  '&',
  '=',
  '#',
  '?',
  String(THAMEL.lat),
  String(THAMEL.lon),
  '27.7',
  '85.3',
  '-90',
  '180.0001',
);
const value = fc.oneof(
  { weight: 6, arbitrary: odd },
  { weight: 3, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 10 }) },
  { weight: 2, arbitrary: fc.double().map(String) },
  { weight: 2, arbitrary: fc.integer({ min: -1_000, max: 1_000 }).map(String) },
  { weight: 1, arbitrary: long },
);
const name = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...NEARBY_PARAMS.filter((n) => n !== 'key')) },
  { weight: 1, arbitrary: fc.constantFrom('', 'Type', 'LAT', 'sortby', 'is_open', 'radius ', 'key2', '%6Bey', 'x') },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
);
/** A part `name=value`, each side either percent-encoded or raw (the URL parser copes with raw). */
const part = fc.tuple(name, value, fc.boolean(), fc.boolean()).map(([n, v, encode, bare]) => {
  const e = (s: string) => (encode ? encodeURIComponent(s) : s.replace(/[&#]/g, encodeURIComponent));
  return bare && v === '' ? e(n) : `${e(n)}=${e(v)}`;
});
const query = fc
  .record({
    parts: fc.array(part, { maxLength: 10 }),
    withKey: fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    keyAt: fc.nat(),
  })
  // at most one 10 kB value per request, so the request stays under the server's 64 KiB limit
  .filter(({ parts }) => parts.filter((p) => p.length > 1000).length <= 1)
  .map(({ parts, withKey, keyAt }) => {
    const all = [...parts];
    if (withKey) all.splice(keyAt % (all.length + 1), 0, `key=${key.key}`);
    return all.join('&');
  });

describe('fuzzing the query string: a 2xx or 4xx envelope, never a 500 or a crash', () => {
  it('answers every generated query with a valid envelope', async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const r = await fetchReply(`${server.origin}/api/v1/search/nearby?${q}`);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        expect([200, 400, 401]).toContain(r.status);
        expect(r.body.status).toBe(r.status);
        expect(validator.errors('/search/nearby', 'get', r.status, r.body)).toEqual([]);
      }),
      { numRuns: 400 },
    );
    // the generator reaches the interesting outcomes, not only one of them
    expect(statuses.get(400) ?? 0).toBeGreaterThan(50);
    expect(statuses.get(401) ?? 0).toBeGreaterThan(5);
    // and the server is still fine
    const ok = await server.request(`/api/v1/search/nearby?type=cafe&lat=${THAMEL.lat}&lon=${THAMEL.lon}&key=${key.key}`);
    expect(ok.status).toBe(200);
    expect(server.lines.some((l) => l.includes(' error: '))).toBe(false);
  });

  it('well-formed queries with arbitrary in-range values always succeed', async () => {
    const good = fc.record({
      // types of the data in any case (an unknown type is a 400 with suggestions)
      type: fc.constantFrom('cafe', 'eat', 'school', 'ATM', 'Restaurant', 'Bank', 'PARKING', 'toilets'),
      lat: fc.double({ min: -90, max: 90, noNaN: true }),
      lon: fc.double({ min: -180, max: 180, noNaN: true }),
      radius: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
      limit: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
      sortBy: fc.option(fc.constantFrom('true', 'false', 'True', 'FALSE'), { nil: undefined }),
      isOpen: fc.option(fc.constantFrom('true', 'false', 'tRUE'), { nil: undefined }),
    });
    await fc.assert(
      // any point but one given lon,lat that lies in the data swapped (a 400 that says so)
      fc.asyncProperty(
        good.filter((g) => !(Math.abs(g.lon - 27.7) < 2 && Math.abs(g.lat - 85.3) < 2)),
        async (g) => {
          // String(-0) is "0" and exponents like 1e-7 are accepted plain decimals
          const q = Object.entries(g)
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);
          const r = await fetchReply(`${server.origin}/api/v1/search/nearby?${q.join('&')}&key=${key.key}`);
          expect(r.status).toBe(200);
          expect(r.body.data.length).toBeLessThanOrEqual(g.limit ?? 5);
          expect(validator.errors('/search/nearby', 'get', 200, r.body)).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a request too large for the server still gets an envelope (431)', async () => {
    const r = await fetchReply(`${server.origin}/api/v1/search/nearby?type=${'x'.repeat(70_000)}&key=${key.key}`);
    expect(r.status).toBe(431);
    expect(r.body).toMatchObject({ status: 431, data: [] });
    expect(validator.schemaErrors('ErrorEnvelope', r.body)).toEqual([]);
  });
});
