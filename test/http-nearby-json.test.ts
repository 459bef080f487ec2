import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { nearby, type NearbyQuery, type PlaceIndex } from '../src/index.js';
import { createApp } from '../src/http/app.js';
import { envelope, toWire } from '../src/http/envelope.js';
import { NearbyJson } from '../src/http/nearby-json.js';
import { nearbyHits } from '../src/query/nearby.js';
import { coreIndex, THAMEL, token } from './support/http-fixture.js';

// What the envelope of nearby() was before its JSON was kept in parts: JSON.stringify of the
// records, as a string; the writer's UTF-8 bytes are decoded (fatal on a bad sequence) to compare.
const expected = (index: PlaceIndex, q: NearbyQuery, now: number) =>
  JSON.stringify(envelope(200, undefined, nearby(index, q).map(toWire), now));
const decode = (bytes: Uint8Array) => new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
const NOW = Date.parse('2026-11-21T10:00:00Z');

describe('NearbyJson: the 200 envelope of nearby, byte for byte JSON.stringify of its records', () => {
  let index: PlaceIndex;
  let types: string[];
  beforeAll(async () => {
    index = await coreIndex();
    types = Object.keys(index.typeCounts());
  });

  it('the bench query (non-Latin names: multi-byte UTF-8), asked twice (written, then kept)', () => {
    const json = new NearbyJson();
    const q: NearbyQuery = { type: 'eat', ...THAMEL, radius: 2, limit: 5, at: new Date(NOW) };
    const want = expected(index, q, NOW);
    expect(want).toMatch(/[^\x00-\xff]/); // the case that needs UTF-8's longer sequences
    for (let i = 0; i < 2; i++) {
      const body = json.answer(index, nearbyHits(index, q)).envelope(NOW);
      expect(decode(body.bytes)).toBe(want);
      expect(body.bytes.length).toBe(Buffer.byteLength(want));
      expect(body.chars).toBe(want.length);
    }
  });

  it('any type, point, radius, limit, order and instant (polygons, lines, no results)', () => {
    const json = new NearbyJson(50); // small: the kept parts are dropped and written again on the way
    fc.assert(
      fc.property(
        fc.constantFrom(...types),
        fc.double({ min: 27.6, max: 27.8, noNaN: true }),
        fc.double({ min: 85.2, max: 85.4, noNaN: true }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 40 }),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 0, max: 7 * 24 * 60 }),
        (type, lat, lon, radius, limit, sortBy, isOpen, minute) => {
          const at = new Date(NOW + minute * 60_000);
          const q: NearbyQuery = { type, lat, lon, radius, limit, sortBy, isOpen, at };
          const body = json.answer(index, nearbyHits(index, q)).envelope(NOW);
          const want = expected(index, q, NOW);
          expect(decode(body.bytes)).toBe(want);
          expect(body.chars).toBe(want.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('scores and distances that are not finite (strings, as toWire writes them), -0 and tiny or huge numbers', () => {
    const q: NearbyQuery = { type: 'eat', ...THAMEL, radius: 2, limit: 3, at: new Date(NOW) };
    const real = nearbyHits(index, q);
    const odd = [NaN, Infinity, -Infinity, -0, 5e-324, 1e21, 123456789.125, -1.5e-7];
    const hits = odd.map((n, i) => ({
      ...real[i % real.length]!,
      score: n,
      radialDistanceInKm: odd[(i + 3) % odd.length]!,
      open: i % 2 === 0,
    }));
    const answer = new NearbyJson().answer(index, hits);
    const want = JSON.stringify(envelope(200, undefined, answer.records(), NOW));
    expect(want).toContain('"score":"NaN"');
    expect(want).toContain('"radialDistanceInKm":"-Infinity"');
    expect(decode(answer.envelope(NOW).bytes)).toBe(want);
  });

  it('records(): the records nearby() returns, as JSON carries them', () => {
    const q: NearbyQuery = { type: 'eat', ...THAMEL, radius: 3, limit: 20, at: new Date(NOW) };
    expect(new NearbyJson().answer(index, nearbyHits(index, q)).records()).toEqual(nearby(index, q).map(toWire));
  });

  it('keeps at most its bound of records, and answers the same past it', () => {
    const json = new NearbyJson(3);
    const q: NearbyQuery = { type: 'eat', ...THAMEL, radius: 3, limit: 10, at: new Date(NOW) };
    const a = json.answer(index, nearbyHits(index, q)).envelope(NOW);
    expect(decode(a.bytes)).toBe(expected(index, q, NOW));
    expect((json as unknown as { count: number }).count).toBeLessThanOrEqual(3);
  });
});

describe('GET /search/nearby: the kept-parts envelope is what the records would give', () => {
  it('the same body as a stand-in nearby() (the core search, records stringified)', async () => {
    const index = await coreIndex();
    const key = token('j');
    const now = () => NOW;
    const fast = createApp({ index, tokens: [key], now, log: () => {} });
    const plain = createApp({ index, tokens: [key], now, log: () => {}, nearby: (i, q) => nearby(i, q) });
    for (const query of [
      'type=eat&radius=2&limit=5',
      'type=eat&radius=1&limit=1',
      'type=school&radius=5&limit=30&sortBy=true',
      'type=cafe&radius=2&limit=3&isOpen=true',
      'type=bus_stop&radius=1',
    ]) {
      const path = `/api/v1/search/nearby?${query}&lat=${THAMEL.lat}&lon=${THAMEL.lon}&key=${key.key}`;
      for (const headers of [{}, { Origin: 'https://app.example' }, { 'X-Request-Id': 'lb-7f3a-0001' }] as Record<string, string>[]) {
        const [a, b] = await Promise.all([fast.request(path, { headers }), plain.request(path, { headers })]);
        expect(a.status).toBe(200);
        const [ta, tb] = [await a.text(), await b.text()];
        expect(ta).toBe(tb);
        // every header, the same (the request ids differ unless handed in; the reset may cross a second)
        const seen = (r: Response) =>
          [...r.headers]
            .filter(([k]) => k !== 'ratelimit-reset')
            .map(([k, v]) => [k, k === 'x-request-id' && !('X-Request-Id' in headers) ? 'id' : v]);
        expect(seen(a)).toEqual(seen(b));
        expect(a.headers.get('ratelimit-limit')).toBe(String(key.quota.requests));
        expect(a.headers.get('vary')).toMatch(/\bOrigin\b/);
      }
    }
  });
});
