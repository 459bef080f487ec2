import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { place, search, reverse, type PlaceIndex } from '../src/index.js';
import { openApiDocument } from '../src/http/openapi.js';
import { PLACE_PARAMS, SEARCH_PARAMS, REVERSE_PARAMS } from '../src/http/params.js';
import { placeId as rowId } from '../src/query/record.js';
import { coreIndex, THAMEL, token } from './support/http-fixture.js';
import { startServer, qs, type Reply, type TestServer } from './support/http-server.js';
import { ResponseValidator } from './support/http-schema.js';

const open = token('o');
const restricted = token('r', { allowedOrigins: ['https://maps.example.com'] });
const tiny = token('t', { quota: { requests: 3, windowSeconds: 3600 } });
const gone = token('g', { deleted: true });
const now = Date.parse('2026-11-21T06:15:00Z'); // 12:00 NPT, a Saturday
const at = new Date(now);

const doc = openApiDocument();
const validator = new ResponseValidator(doc);
let index: PlaceIndex;
let server: TestServer;

/** Thamel Chowk, a node (hand-checked). */
const CHOWK = 5599095623 * 4;

beforeAll(async () => {
  index = await coreIndex();
  server = await startServer({ index, tokens: [open, restricted, tiny, gone], now: () => now });
  // use up `tiny`'s three requests, one per route
  for (const p of [`/api/v1/places?placeId=${CHOWK}`, '/api/v1/search?q=thamel', `/api/v1/reverse?lat=${THAMEL.lat}&lon=${THAMEL.lon}`]) {
    expect((await server.request(`${p}&key=${tiny.key}`)).status).toBe(200);
  }
});
afterAll(() => server?.close());

const ROUTES = ['/places', '/search', '/reverse'] as const;
type Route = (typeof ROUTES)[number];
const GOOD: Record<Route, string> = {
  '/places': `placeId=${CHOWK}`,
  '/search': 'q=thame',
  '/reverse': `lat=${THAMEL.lat}&lon=${THAMEL.lon}`,
};
const get = (route: Route, q: string, init?: RequestInit) => server.request(`/api/v1${route}?${q}`, init);
const json = (x: unknown) => JSON.parse(JSON.stringify(x));

/** Asserts the status, an error envelope naming what went wrong, and the document's schema. */
function expectError(route: Route, r: Reply, status: number, message: RegExp) {
  expect(r.status).toBe(status);
  expect(r.body).toMatchObject({ status, data: [] });
  expect(r.body.message).toMatch(message);
  expect(validator.errors(route, 'get', status, r.body)).toEqual([]);
}

describe('GET /places: one place by placeId', () => {
  it('a one-element data array: place() of the id at the server clock', async () => {
    const r = await get('/places', `placeId=${CHOWK}&key=${open.key}`);
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Success');
    expect(r.body.data).toEqual([json(place(index, CHOWK, { at }))]);
    expect(r.body.data[0].name).toBe('Thamel Chowk');
    expect(validator.errors('/places', 'get', 200, r.body)).toEqual([]);
  });

  it('every kind of row and geometry fits the Place schema', async () => {
    const t = index.table;
    const picked = new Map<string, number>();
    for (let r = 0; r < t.size; r++) picked.set(`${t.what[r]}/${t.geom[r]}`, rowId(t, r));
    expect(picked.size).toBeGreaterThan(5);
    for (const id of picked.values()) {
      const r = await get('/places', `placeId=${id}&key=${open.key}`);
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual([json(place(index, id, { at }))]);
      expect(validator.errors('/places', 'get', 200, r.body)).toEqual([]);
    }
  });

  it('an id no row has: 404 with an empty data array', async () => {
    for (const id of [0, CHOWK + 1, CHOWK + 3, Number.MAX_SAFE_INTEGER]) {
      const r = await get('/places', `placeId=${id}&key=${open.key}`);
      expectError('/places', r, 404, new RegExp(`^Not found: no place with placeId ${id}$`));
      expect(r.headers.get('ratelimit-limit')).toBe('1000000');
    }
  });

  it.each([
    ['', /^placeId: missing/],
    ['placeId=', /^placeId: must be a whole number/],
    ['placeId=abc', /^placeId: must be a whole number/],
    ['placeId=-4', /^placeId: must be a whole number/],
    ['placeId=1.5', /^placeId: must be a whole number/],
    ['placeId=1e3', /^placeId: must be a whole number/],
    ['placeId=%2012', /^placeId: must be a whole number/],
    ['placeId=9007199254740992', /^placeId: must be a whole number/],
    [`placeId=${CHOWK}&placeId=${CHOWK}`, /^placeId: given more than once/],
    [`placeId=${CHOWK}&id=3`, /^id: unknown parameter/],
  ])('400 %s', async (q, message) => {
    expectError('/places', await get('/places', `${q}&key=${open.key}`), 400, message);
  });
});

describe('GET /search: suggestions', () => {
  it.each([
    [{ q: 'thame' }],
    [{ q: 'thamel', limit: 25 }],
    [{ q: 'nabil bank', lat: 27.701, lon: 85.34 }],
    [{ q: 'ban', ...THAMEL, radius: 1, limit: 100 }],
    [{ q: 'thamel', type: 'eat' }],
    [{ q: 'ठमेल' }],
    [{ q: 'BĀLĀJU' }],
  ])('%j: search() of the same query', async (query) => {
    const pairs = Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]);
    const r = await get('/search', `${qs(pairs)}&key=${open.key}`);
    expect(r.status).toBe(200);
    const want = search(index, { limit: 10, ...query });
    expect(want.length).toBeGreaterThan(0);
    expect(r.body.data).toEqual(json(want));
    expect(validator.errors('/search', 'get', 200, r.body)).toEqual([]);
  });

  it('no match is an empty 200', async () => {
    const r = await get('/search', `q=zqxjzqxj&key=${open.key}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 200, message: 'Success', data: [] });
    expect(validator.errors('/search', 'get', 200, r.body)).toEqual([]);
  });

  it.each([
    ['limit=3', /^q: missing/],
    ['q=', /^q: must not be blank/],
    ['q=%20%20', /^q: must not be blank/],
    [`q=${'a'.repeat(201)}`, /^q: must be at most 200 characters/],
    ['q=a&limit=0', /^limit: /],
    ['q=a&limit=101', /^limit: .*at most 100/],
    ['q=a&lat=27.7', /^lon: missing/],
    ['q=a&lon=85.3', /^lat: missing/],
    ['q=a&lat=x&lon=85.3', /^lat: /],
    ['q=a&radius=2', /^radius: needs lat and lon/],
    [`q=a&lat=${THAMEL.lat}&lon=${THAMEL.lon}&radius=1.5`, /^radius: .*only integers/],
    ['q=a&type=', /^type: must not be empty/],
    ['q=a&q=b', /^q: given more than once/],
    ['q=a&sortBy=true', /^sortBy: unknown parameter/],
  ])('400 %s', async (q, message) => {
    expectError('/search', await get('/search', `${q}&key=${open.key}`), 400, message);
  });
});

describe('GET /reverse: what is at a point', () => {
  it.each([[{ lat: 27.7139, lon: 85.3117 }], [{ lat: 27.7139, lon: 85.3117, radius: 0.05, limit: 5 }], [{ ...THAMEL, radius: 0.25 }]] as {
    lat: number;
    lon: number;
    radius?: number;
    limit?: number;
  }[][])('%j: reverse() of the same query at the server clock', async (query) => {
    const pairs = Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]);
    const r = await get('/reverse', `${qs(pairs)}&key=${open.key}`);
    expect(r.status).toBe(200);
    const want = reverse(index, { ...query, at });
    expect(want.length).toBe(query.limit ?? 1);
    expect(r.body.data).toEqual(json(want));
    expect(validator.errors('/reverse', 'get', 200, r.body)).toEqual([]);
  });

  it('at a POI node: that POI, a one-element data array by default', async () => {
    const p = place(index, CHOWK)!;
    const r = await get('/reverse', `lat=${p.centroid.lat}&lon=${p.centroid.lon}&key=${open.key}`);
    expect(r.body.data.map((x: { placeId: number }) => x.placeId)).toEqual([CHOWK]);
    expect(r.body.data[0].radialDistanceInKm).toBe(0);
  });

  it('nothing within the radius: 404 with an empty data array', async () => {
    for (const q of ['lat=0&lon=0', 'lat=27.65&lon=85.32&radius=0.5', 'lat=27.7139&lon=85.3117&radius=0.000001']) {
      const r = await get('/reverse', `${q}&key=${open.key}`);
      expectError('/reverse', r, 404, /^Not found: no place within [\d.e-]+ km of /);
    }
  });

  it.each([
    ['lon=85.3', /^lat: missing/],
    ['lat=27.7', /^lon: missing/],
    ['lat=95&lon=85.3', /^lat: /],
    ['lat=27.7&lon=85.3&radius=0', /^radius: must be a number of km above 0/],
    ['lat=27.7&lon=85.3&radius=-1', /^radius: /],
    ['lat=27.7&lon=85.3&radius=abc', /^radius: /],
    ['lat=27.7&lon=85.3&radius=101', /^radius: .*at most 100/],
    ['lat=27.7&lon=85.3&limit=0', /^limit: /],
    ['lat=27.7&lon=85.3&limit=2.5', /^limit: /],
    ['lat=27.7&lon=85.3&type=cafe', /^type: unknown parameter/],
  ])('400 %s', async (q, message) => {
    expectError('/reverse', await get('/reverse', `${q}&key=${open.key}`), 400, message);
  });
});

describe.each(ROUTES)('%s: keys, origins, quota, methods, in the order of nearby', (route) => {
  it.each([
    ['missing', '', /^key: missing/],
    ['malformed', '&key=abc', /^key: malformed/],
    ['unknown', `&key=${'u'.repeat(24)}`, /^key: unknown or revoked$/],
    ['deleted', `&key=${gone.key}`, /^key: unknown or revoked$/],
  ])('401 key %s', async (_, k, message) => {
    const r = await get(route, `${GOOD[route]}${k}`);
    expectError(route, r, 401, message);
    expect(r.headers.get('ratelimit-limit')).toBeNull();
  });

  it('403 for an origin the key does not allow; 200 for the one it does', async () => {
    const bad = await get(route, `${GOOD[route]}&key=${restricted.key}`, { headers: { Origin: 'https://evil.example.com' } });
    expectError(route, bad, 403, /^Origin: "https:\/\/evil.example.com" is not allowed/);
    const good = await get(route, `${GOOD[route]}&key=${restricted.key}`, { headers: { Origin: 'https://maps.example.com' } });
    expect(good.status).toBe(200);
    expect(good.headers.get('access-control-allow-origin')).toBe('https://maps.example.com');
  });

  it('429 when the quota is used up, with Retry-After', async () => {
    const r = await get(route, `${GOOD[route]}&key=${tiny.key}`);
    expectError(route, r, 429, /^key: quota of 3 requests per 3600 s used up/);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('405 for other methods, with Allow', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const r = await get(route, `${GOOD[route]}&key=${open.key}`, { method });
      expectError(route, r, 405, new RegExp(`^Method not allowed: "${method}"`));
      expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    }
  });

  it('a CORS preflight of an allowed origin: 200', async () => {
    const r = await get(route, `key=${restricted.key}`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://maps.example.com', 'Access-Control-Request-Method': 'GET' },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe('https://maps.example.com');
    expect(validator.errors(route, 'options', 200, r.body)).toEqual([]);
  });

  it('checks run 401, 403, 429, 400 (then 404)', async () => {
    const bad = 'lat=x&placeId=x&q=';
    expect((await get(route, bad, { headers: { Origin: 'https://evil.example.com' } })).status).toBe(401);
    expect((await get(route, `${bad}&key=${restricted.key}`, { headers: { Origin: 'https://evil.example.com' } })).status).toBe(403);
    expect((await get(route, `${bad}&key=${tiny.key}`)).status).toBe(429);
    expect((await get(route, `${bad}&key=${open.key}`)).status).toBe(400);
  });
});

describe('500: a fault in the engine is an envelope, its cause in the log under the request id', () => {
  it.each([
    [
      '/places',
      'lookup',
      {
        row: () => {
          throw new Error('boom in lookup');
        },
      },
    ],
    [
      '/search',
      'words',
      {
        match: () => {
          throw new Error('boom in words');
        },
      },
    ],
    [
      '/reverse',
      'landmarks',
      {
        containing: () => {
          throw new Error('boom in landmarks');
        },
      },
    ],
  ] as const)('%s', async (route, field, broken) => {
    // the loaded index with one part replaced by one that throws
    const faulty = Object.create(index, { [field]: { value: broken } }) as PlaceIndex;
    const s = await startServer({ index: faulty, tokens: [open], now: () => now });
    try {
      const r = await s.request(`/api/v1${route}?${GOOD[route]}&key=${open.key}`);
      expectError(route, r, 500, /^Internal server error$/);
      const rid = r.headers.get('x-request-id');
      expect(s.lines.some((l) => l.startsWith(`${rid} error: Error: boom in ${field}`))).toBe(true);
    } finally {
      await s.close();
    }
  });
});

describe('the OpenAPI document describes the three routes', () => {
  it.each([
    ['/places', PLACE_PARAMS, ['placeId'], ['200', '400', '401', '403', '404', '405', '429', '500', '503']],
    ['/search', SEARCH_PARAMS, ['q'], ['200', '400', '401', '403', '405', '429', '500', '503']],
    ['/reverse', REVERSE_PARAMS, ['lat', 'lon'], ['200', '400', '401', '403', '404', '405', '429', '500', '503']],
  ] as const)('%s: its parameters, the required ones, its statuses', (path, params, required, statuses) => {
    const op = (doc.paths as any)[path].get;
    const ps = op.parameters;
    expect(ps.map((p: { name: string }) => p.name).sort()).toEqual([...params].sort());
    expect(
      ps
        .filter((p: { required?: boolean }) => p.required)
        .map((p: { name: string }) => p.name)
        .sort(),
    ).toEqual([...required].sort());
    expect(Object.keys(op.responses).sort()).toEqual([...statuses].sort());
  });

  it('the schemas have teeth', async () => {
    const p = (await get('/places', `placeId=${CHOWK}&key=${open.key}`)).body;
    const place0 = p.data[0];
    const { score, ...noScore } = place0;
    for (const broken of [
      { ...p, data: [] },
      { ...p, data: [place0, place0] },
      { ...p, data: [noScore] },
      { ...p, data: [{ ...place0, score: 1 }] },
      { ...p, data: [{ ...place0, osmId: 1 }] },
      { ...p, data: [{ ...place0, radialDistanceInKm: 0 }] },
    ])
      expect(validator.errors('/places', 'get', 200, broken)).not.toEqual([]);
    const s = (await get('/search', `q=thamel&key=${open.key}`)).body;
    for (const broken of [
      { ...s, data: [{ ...s.data[0], score: 'NaN' }] },
      { ...s, data: [{ ...s.data[0], centroid: { lat: 1, lon: 1 } }] },
      { ...s, data: [{ ...s.data[0], placeId: -1 }] },
    ])
      expect(validator.errors('/search', 'get', 200, broken)).not.toEqual([]);
    const r = (await get('/reverse', `${GOOD['/reverse']}&key=${open.key}`)).body;
    const { radialDistanceInKm, ...noDistance } = r.data[0];
    for (const broken of [
      { ...r, data: [] },
      { ...r, data: [noDistance] },
    ]) {
      expect(validator.errors('/reverse', 'get', 200, broken)).not.toEqual([]);
    }
  });
});
