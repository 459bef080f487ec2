import distance from '@turf/distance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nearby, type PlaceIndex } from '../src/index.js';
import { openApiDocument } from '../src/http/openapi.js';
import { coreIndex, THAMEL, token } from './support/http-fixture.js';
import { startServer, type Reply, type TestServer } from './support/http-server.js';
import { ResponseValidator } from './support/http-schema.js';

const open = token('o');
const restricted = token('r', { allowedOrigins: ['https://maps.example.com'] });
const tiny = token('t', { quota: { requests: 1, windowSeconds: 3600 } });
const gone = token('g', { deleted: true });
const at = Date.parse('2026-11-21T06:15:00Z'); // 12:00 NPT, a Saturday

const validator = new ResponseValidator(openApiDocument());
let index: PlaceIndex;
let server: TestServer;

beforeAll(async () => {
  index = await coreIndex();
  server = await startServer({ index, tokens: [open, restricted, tiny, gone], now: () => at });
  // use up `tiny`'s single request
  expect((await server.request(`/api/v1/search/nearby?type=cafe&lat=1&lon=1&key=${tiny.key}`)).status).toBe(200);
});
afterAll(() => server?.close());

const nearbyUrl = (q: string) => `/api/v1/search/nearby?${q}`;
const good = `type=cafe&lat=${THAMEL.lat}&lon=${THAMEL.lon}`;

/** Asserts the status, the error envelope and that the body fits the document's schema. */
function expectError(r: Reply, status: number, message: RegExp) {
  expect(r.status).toBe(status);
  expect(r.body).toMatchObject({ status, data: [] });
  expect(r.body.message).toMatch(message);
  expect(validator.errors('/search/nearby', 'get', status, r.body)).toEqual([]);
}

describe('200: nearby() records in the envelope', () => {
  it('answers what nearby() answers for the same query, at the server clock', async () => {
    const r = await server.request(nearbyUrl(`${good}&radius=2&limit=7&key=${open.key}`));
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Success');
    const direct = nearby(index, { type: 'cafe', ...THAMEL, radius: 2, limit: 7, at: new Date(at) });
    expect(direct.length).toBe(7);
    expect(r.body.data).toEqual(JSON.parse(JSON.stringify(direct)));
    expect(validator.errors('/search/nearby', 'get', 200, r.body)).toEqual([]);
  });

  it('records are cafes within the radius, by an independent distance', async () => {
    const r = await server.request(nearbyUrl(`${good}&radius=1&limit=20&sortBy=TRUE&key=${open.key}`));
    expect(r.body.data.length).toBe(20);
    let last = 0;
    for (const p of r.body.data) {
      expect(
        p.tags.some((t: string) =>
          t
            .slice(t.indexOf('|') + 1)
            .split(';')
            .map((s) => s.trim())
            .includes('cafe'),
        ),
      ).toBe(true);
      const km = distance([THAMEL.lon, THAMEL.lat], [p.centroid.lon, p.centroid.lat], { units: 'kilometers' });
      expect(km).toBeLessThanOrEqual(1);
      expect(p.radialDistanceInKm).toBeCloseTo(km, 6);
      expect(p.radialDistanceInKm).toBeGreaterThanOrEqual(last); // sortBy: nearest first
      last = p.radialDistanceInKm;
    }
  });

  it('isOpen=true keeps only places open at the server clock (Nepal Time)', async () => {
    const r = await server.request(nearbyUrl(`type=eat&lat=${THAMEL.lat}&lon=${THAMEL.lon}&isOpen=true&limit=50&key=${open.key}`));
    expect(r.status).toBe(200);
    expect(r.body.data.length).toBeGreaterThan(0);
    expect(r.body.data.every((p: { open: boolean }) => p.open)).toBe(true);
  });

  it('at (an extension, not API v1): open places at that instant, Nepal Time without an offset', async () => {
    // 22:10 in Kathmandu is 16:25 UTC; the server clock (12:00 NPT) must not be used
    const want = nearby(index, { type: 'eat', ...THAMEL, radius: 3, limit: 100, isOpen: true, at: new Date('2026-11-21T16:25:00Z') });
    const atClock = nearby(index, { type: 'eat', ...THAMEL, radius: 3, limit: 100, isOpen: true, at: new Date(at) });
    expect(want.map((p) => p.placeId)).not.toEqual(atClock.map((p) => p.placeId));
    for (const v of ['2026-11-21T22:10', '2026-11-21T16:25Z', '2026-11-21T22:10%2B05:45', '2026-11-21T11:25-05:00']) {
      const r = await server.request(
        nearbyUrl(`type=eat&lat=${THAMEL.lat}&lon=${THAMEL.lon}&radius=3&limit=100&isOpen=true&at=${v}&key=${open.key}`),
      );
      expect(r.status, v).toBe(200);
      expect(r.body.data, v).toEqual(JSON.parse(JSON.stringify(want)));
      expect(validator.errors('/search/nearby', 'get', 200, r.body)).toEqual([]);
    }
  });

  it('at that is not ISO 8601 is a 400 saying what is accepted; an unencoded + gets a hint', async () => {
    for (const v of ['yesterday', 'Nov%2021%202026', '2026-02-30T10:00', '1763742600000']) {
      expectError(
        await server.request(nearbyUrl(`${good}&at=${v}&key=${open.key}`)),
        400,
        /^at: must be an ISO 8601 date and time such as 2026-11-21T22:10 \(Nepal Time when no offset is given\)/,
      );
    }
    expectError(
      await server.request(nearbyUrl(`${good}&at=2026-11-21T22:10+05:45&key=${open.key}`)),
      400,
      /^at: .*write the offset's \+ as %2B/,
    );
  });

  it('an unknown type is a 400 that suggests the type meant', async () => {
    const r = await server.request(nearbyUrl(`type=cafee&lat=27.7154&lon=85.3123&key=${open.key}`));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ status: 400, data: [] });
    expect(r.body.message).toMatch(/^type: unknown type "cafee".*did you mean "cafe"/);
  });

  it('lat and lon swapped is a 400 that shows the swapped reading', async () => {
    const r = await server.request(nearbyUrl(`type=cafe&lat=85.3123&lon=27.7154&key=${open.key}`));
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(
      /^lat: lat=85\.3123, lon=27\.7154 lies outside the data, but swapped \(lat=27\.7154, lon=85\.3123\) it lies in it/,
    );
  });

  it('HEAD answers the headers of GET without a body', async () => {
    const r = await server.request(nearbyUrl(`${good}&key=${open.key}`), { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(r.text).toBe('');
    expect(r.headers.get('ratelimit-limit')).toBe('1000000');
  });
});

describe('400: a parameter missing or malformed, named in the message', () => {
  it.each([
    ['lat=1&lon=1', /^type: missing/],
    ['type=cafe&lat=abc&lon=85.3', /^lat: /],
    ['type=cafe&lat=91&lon=85.3', /^lat: /],
    [`${good}&radius=1.5`, /^radius: .*only integers are supported/],
    [`${good}&limit=0`, /^limit: /],
    [`${good}&isOpen=maybe`, /^isOpen: /],
    [`${good}&lat=27.7`, /^lat: given more than once/],
    [`${good}&limit=101`, /^limit: .*at most 100/],
    [`${good}&radius=101`, /^radius: .*at most 100 km/],
    [`${good}&Limit=3`, /^Limit: unknown parameter/],
  ])('%s', async (q, message) => {
    expectError(await server.request(nearbyUrl(`${q}&key=${open.key}`)), 400, message);
  });

  it("the engine's InvalidQueryError becomes a 400 naming its parameter", async () => {
    const s = await startServer({
      index,
      tokens: [open],
      nearby: () => {
        throw new (class extends Error {
          param = 'type';
        })();
      },
    });
    try {
      // a plain Error is a fault, not a bad request
      expect((await s.request(nearbyUrl(`${good}&key=${open.key}`))).status).toBe(500);
    } finally {
      await s.close();
    }
    const { InvalidQueryError } = await import('../src/errors.js');
    const t = await startServer({
      index,
      tokens: [open],
      nearby: () => {
        throw new InvalidQueryError('type', 'not a known kind');
      },
    });
    try {
      expectError(await t.request(nearbyUrl(`${good}&key=${open.key}`)), 400, /^type: not a known kind$/);
    } finally {
      await t.close();
    }
  });
});

describe('401: key missing, malformed, unknown or deleted', () => {
  it.each([
    ['missing', good, /^key: missing/],
    ['empty', `${good}&key=`, /^key: malformed/],
    ['too short', `${good}&key=abc`, /^key: malformed/],
    ['bad characters', `${good}&key=${'x'.repeat(20)}%21`, /^key: malformed/],
    ['too long', `${good}&key=${'x'.repeat(129)}`, /^key: malformed/],
    ['unknown', `${good}&key=${'u'.repeat(24)}`, /^key: unknown or revoked$/],
    ['one character off', `${good}&key=${open.key.slice(0, -1)}p`, /^key: unknown or revoked$/],
    ['deleted', `${good}&key=${gone.key}`, /^key: unknown or revoked$/],
    ['given twice', `${good}&key=${open.key}&key=${open.key}`, /^key: given more than once/],
  ])('%s', async (_, q, message) => {
    const r = await server.request(nearbyUrl(q));
    expectError(r, 401, message);
    expect(r.headers.get('ratelimit-limit')).toBeNull();
  });
});

describe('403: a valid key that does not allow the Origin', () => {
  it('refuses another origin, naming it', async () => {
    const r = await server.request(nearbyUrl(`${good}&key=${restricted.key}`), { headers: { Origin: 'https://evil.example.com' } });
    expectError(r, 403, /^Origin: "https:\/\/evil.example.com" is not allowed/);
    // readable by the page: another key of this server (`open`) allows any origin
    expect(r.headers.get('access-control-allow-origin')).toBe('https://evil.example.com');
  });
  it.each(['https://maps.example.com', 'https://MAPS.example.com', 'https://maps.example.com:443'])(
    'admits %s (same origin)',
    async (origin) => {
      const r = await server.request(nearbyUrl(`${good}&key=${restricted.key}`), { headers: { Origin: origin } });
      expect(r.status).toBe(200);
    },
  );
  it.each(['http://maps.example.com', 'https://maps.example.com:8443', 'https://sub.maps.example.com', 'null'])(
    'refuses %s',
    async (origin) => {
      const r = await server.request(nearbyUrl(`${good}&key=${restricted.key}`), { headers: { Origin: origin } });
      expect(r.status).toBe(403);
    },
  );
  it('a key allowing "*" takes any origin', async () => {
    const r = await server.request(nearbyUrl(`${good}&key=${open.key}`), { headers: { Origin: 'https://anywhere.example' } });
    expect(r.status).toBe(200);
  });
  it('a request without Origin (not from a browser) is not origin-checked', async () => {
    expect((await server.request(nearbyUrl(`${good}&key=${restricted.key}`))).status).toBe(200);
  });
});

describe('404 and 405: unknown path, wrong method', () => {
  it.each(['/', '/api/v1', '/api/v1/place', '/api/v1/search/nearby/', '/api/v2/search/nearby', '/API/V1/search/nearby'])(
    '404 %s',
    async (path) => {
      const r = await server.request(`${path}?key=${open.key}`);
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ status: 404, data: [] });
      expect(r.body.message).toMatch(/^Not found: /);
      expect(validator.schemaErrors('ErrorEnvelope', r.body)).toEqual([]);
    },
  );
  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('405 %s on /search/nearby, with Allow', async (method) => {
    const r = await server.request(nearbyUrl(`${good}&key=${open.key}`), { method });
    expectError(r, 405, new RegExp(`^Method not allowed: "${method}"`));
    expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
  it('405 POST on /openapi.json', async () => {
    const r = await server.request('/api/v1/openapi.json', { method: 'POST' });
    expect(r.status).toBe(405);
    expect(validator.errors('/openapi.json', 'get', 405, r.body)).toEqual([]);
  });
});

describe('429: quota used up, with Retry-After and RateLimit headers', () => {
  it('refuses the key past its quota', async () => {
    const r = await server.request(nearbyUrl(`${good}&key=${tiny.key}`));
    expectError(r, 429, /^key: quota of 1 requests per 3600 s used up; retry in \d+ s/);
    expect(r.headers.get('ratelimit-limit')).toBe('1');
    expect(r.headers.get('ratelimit-remaining')).toBe('0');
    const reset = Number(r.headers.get('ratelimit-reset'));
    expect(reset).toBeGreaterThan(3500);
    expect(reset).toBeLessThanOrEqual(3600);
    expect(r.headers.get('retry-after')).toBe(String(reset));
  });
  it('sends RateLimit headers on every keyed response, 200 and 400 too', async () => {
    for (const q of [good, `${good}&limit=0`]) {
      const r = await server.request(nearbyUrl(`${q}&key=${open.key}`));
      expect(r.headers.get('ratelimit-limit')).toBe('1000000');
      expect(Number(r.headers.get('ratelimit-remaining'))).toBeLessThan(1_000_000);
      expect(Number(r.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
      expect(r.headers.get('retry-after')).toBeNull();
    }
  });
});

describe('checks run in the order 401, 403, 429, 400', () => {
  const bad = 'type=cafe&lat=abc&lon=1';
  it('no key beats a foreign origin and bad parameters: 401', async () => {
    const r = await server.request(nearbyUrl(bad), { headers: { Origin: 'https://evil.example.com' } });
    expect(r.status).toBe(401);
  });
  it('a foreign origin beats a used-up quota: 403, and does not count against the quota', async () => {
    const limited = token('l', { allowedOrigins: ['https://maps.example.com'], quota: { requests: 2, windowSeconds: 3600 } });
    const s = await startServer({ index, tokens: [limited] });
    try {
      for (let i = 0; i < 5; i++) {
        const r = await s.request(nearbyUrl(`${bad}&key=${limited.key}`), { headers: { Origin: 'https://evil.example.com' } });
        expect(r.status).toBe(403);
      }
      const first = await s.request(nearbyUrl(`${good}&key=${limited.key}`));
      expect(first.status).toBe(200);
      expect(first.headers.get('ratelimit-remaining')).toBe('1');
    } finally {
      await s.close();
    }
  });
  it('a used-up quota beats bad parameters: 429', async () => {
    expect((await server.request(nearbyUrl(`${bad}&key=${tiny.key}`))).status).toBe(429);
  });
  it('bad parameters with a good key: 400', async () => {
    expect((await server.request(nearbyUrl(`${bad}&key=${open.key}`))).status).toBe(400);
  });
});
