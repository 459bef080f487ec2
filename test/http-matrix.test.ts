/**
 * The travel-time endpoints over HTTP: GET /api/v1/matrix (an extension), and /search/nearby with
 * by=time; their answers are the library's and validate against the served document, and bad
 * input is a 400 or 404 envelope naming the parameter.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync, inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaceIndex } from '../src/index.js';
import { matrix, MATRIX_HTTP_MAX } from '../src/query/matrix.js';
import { nearby } from '../src/query/nearby.js';
import { isochrone } from '../src/query/isochrone.js';
import { coreIndex, token } from './support/http-fixture.js';
import { startServer, type TestServer } from './support/http-server.js';
import { ResponseValidator } from './support/http-schema.js';

const key = token('m');
const SHOP = 'https://shop.example';
const shop = token('s', { allowedOrigins: [SHOP] });
let server: TestServer;
let index: PlaceIndex;
let doc: unknown;

const A = '27.7154,85.3123',
  B = '27.7090,85.3290',
  C = '27.7060,85.3100';

beforeAll(async () => {
  index = await coreIndex();
  server = await startServer({ index, tokens: [key, shop] });
  doc = (await server.request('/api/v1/openapi.json')).body;
}, 60_000);
afterAll(() => server?.close());

const get = (query: string) => server.request(`/api/v1/matrix?key=${key.key}&${query}`);
const pts = (name: string, list: string[]) => list.map((p) => `${name}[]=${p}`).join('&');

describe('GET /matrix: one record, the library matrix()', () => {
  it('sources[] and destinations[] as lat,lon, mode=car: the envelope holds matrix() and validates against the document', async () => {
    const r = await get(`${pts('sources', [A, B])}&${pts('destinations', [B, C, A])}&mode=car`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toEqual([matrix(index, { sources: [A, B], destinations: [B, C, A], mode: 'car' })]);
    expect(new ResponseValidator(doc as never).errors('/matrix', 'get', 200, r.body)).toEqual([]);
  });
});

describe('GET /matrix: bad input is a 400 or 404 envelope naming the parameter', () => {
  it(`more than ${MATRIX_HTTP_MAX} sources: 400 saying the limit`, async () => {
    const many = Array.from({ length: MATRIX_HTTP_MAX + 1 }, () => A);
    const r = await get(`${pts('sources', many)}&${pts('destinations', [B])}`);
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/sources/);
    expect(r.body.message).toContain(String(MATRIX_HTTP_MAX));
  });

  it('missing destinations, a bad point, an unknown mode, an unknown parameter: 400s naming them', async () => {
    const cases: [string, RegExp][] = [
      [pts('sources', [A]), /destinations/],
      [`${pts('sources', [A])}&${pts('destinations', ['27.7,x'])}`, /destinations/],
      [`${pts('sources', [A])}&${pts('destinations', [B])}&mode=plane`, /mode/],
      [`${pts('sources', [A])}&${pts('destinations', [B])}&points[]=${A}`, /points/],
    ];
    for (const [q, re] of cases) {
      const r = await get(q);
      expect(r.status, q).toBe(400);
      expect(r.body.message, q).toMatch(re);
    }
  });

  it('a point farther than 1 km from any road: 404 naming it', async () => {
    const r = await get(`${pts('sources', [A])}&${pts('destinations', [B, '27.74,85.36'])}&mode=car`);
    expect(r.status).toBe(404);
    expect(r.body.message).toContain('destinations[1]');
  });

  it('no key: 401', async () => {
    expect((await server.request(`/api/v1/matrix?${pts('sources', [A])}&${pts('destinations', [B])}`)).status).toBe(401);
  });
});

describe('POST /matrix: the same arguments as a JSON body, the same answers', () => {
  const post = (body: unknown, init: { type?: string; raw?: string; key?: string; query?: string; origin?: string } = {}) =>
    server.request(`/api/v1/matrix?key=${init.key ?? key.key}${init.query ?? ''}`, {
      method: 'POST',
      headers: { 'Content-Type': init.type ?? 'application/json', ...(init.origin ? { Origin: init.origin } : {}) },
      body: init.raw ?? JSON.stringify(body),
    });

  it('points as [lat, lon] pairs or "lat,lon" strings: the body of GET with the same points, validating against the document', async () => {
    const g = await get(`${pts('sources', [A, B])}&${pts('destinations', [B, C, A])}&mode=car`);
    const pairs = (l: string[]) => l.map((p) => p.split(',').map(Number));
    for (const body of [
      { sources: [A, B], destinations: [B, C, A], mode: 'car' },
      { sources: pairs([A, B]), destinations: pairs([B, C, A]), mode: 'car' },
      { sources: [A, pairs([B])[0]], destinations: [B, C, A], mode: ' Car ' },
    ]) {
      const r = await post(body);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data).toEqual(g.body.data);
      expect(new ResponseValidator(doc as never).errors('/matrix', 'post', 200, r.body)).toEqual([]);
    }
    // mode defaults to foot, as GET's does
    const foot = await post({ sources: [A], destinations: [B] });
    expect(foot.body.data).toEqual([matrix(index, { sources: [A], destinations: [B], mode: 'foot' })]);
  });

  it(`${MATRIX_HTTP_MAX} points each: answered; one more: 400 saying the limit, as GET's`, async () => {
    const at = (i: number) => `${(27.7 + (i % 10) * 0.001).toFixed(4)},${(85.31 + Math.floor(i / 10) * 0.001).toFixed(4)}`;
    const full = Array.from({ length: MATRIX_HTTP_MAX }, (_, i) => at(i));
    const r = await post({ sources: full, destinations: full, mode: 'car' });
    expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    expect(r.body.data[0].durations).toHaveLength(MATRIX_HTTP_MAX);
    const over = await post({ sources: [...full, A], destinations: [B], mode: 'car' });
    expect(over.status).toBe(400);
    expect(over.body.message).toMatch(/sources/);
    expect(over.body.message).toContain(String(MATRIX_HTTP_MAX));
  });

  it('a body not JSON, not an object, a missing or unknown field, a bad point, an unknown mode, a wrong Content-Type: 400 envelopes naming it', async () => {
    const cases: [Parameters<typeof post>, RegExp][] = [
      [[null, { raw: '{"sources": [' }], /^body: not valid JSON/],
      [[null, { raw: '' }], /^body: not valid JSON/],
      [[[A, B]], /^body: must be a JSON object/],
      [[{ sources: [A] }], /^destinations: missing/],
      [[{ sources: [A], destinations: [B], modes: 'car' }], /^modes: unknown field/],
      [[{ sources: [A], destinations: [[27.7, 'x']] }], /destinations/],
      [[{ sources: 'A', destinations: [B] }], /sources/],
      [[{ sources: [A], destinations: [B], mode: 'plane' }], /mode/],
      [[{ sources: [A], destinations: [B], mode: 3 }], /^mode: /],
      [[{ sources: [A], destinations: [B] }, { type: 'text/plain' }], /^Content-Type: must be application\/json/],
      [[{ sources: [A], destinations: [B] }, { type: 'application/x-www-form-urlencoded' }], /^Content-Type/],
      [[{ sources: [A], destinations: [B] }, { query: '&mode=car' }], /^mode: unknown parameter/],
    ];
    for (const [args, re] of cases) {
      const r = await post(...args);
      expect(r.status, String(re)).toBe(400);
      expect(r.body.status).toBe(400);
      expect(r.body.data).toEqual([]);
      expect(r.body.message, String(re)).toMatch(re);
    }
  });

  it('a point farther than 1 km from any road: 404 naming it', async () => {
    const r = await post({ sources: [A], destinations: [B, [27.74, 85.36]], mode: 'car' });
    expect(r.status).toBe(404);
    expect(r.body.message).toContain('destinations[1]');
  });

  it('a body over 256 KiB: 413 envelope, with or without Content-Length', async () => {
    const big = JSON.stringify({ sources: [A], destinations: [B], mode: 'car', pad: 'x'.repeat(300 * 1024) });
    const r = await post(null, { raw: big });
    expect(r.status).toBe(413);
    expect(r.body.status).toBe(413);
    expect(r.body.message).toMatch(/256 KiB/);
    // streamed (chunked, no Content-Length): counted as it arrives
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < bytes.length; i += 16384) c.enqueue(bytes.subarray(i, i + 16384));
        c.close();
      },
    });
    const s = await server.request(`/api/v1/matrix?key=${key.key}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(s.status).toBe(413);
  });

  it('keyed and counted as GET: no key 401, an origin the key refuses 403, each POST counted', async () => {
    expect(
      (await server.request(`/api/v1/matrix`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).status,
    ).toBe(401);
    const r = await post({ sources: [A], destinations: [B] }, { key: shop.key, origin: 'https://evil.example' });
    expect(r.status).toBe(403);
    const first = await post({ sources: [A], destinations: [B] }, { key: shop.key, origin: SHOP });
    const second = await post({ sources: [A], destinations: [B] }, { key: shop.key, origin: SHOP });
    expect(first.status).toBe(200);
    expect(first.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(Number(first.headers.get('ratelimit-remaining')) - Number(second.headers.get('ratelimit-remaining'))).toBe(1);
  });

  it('the preflight of a POST with Content-Type application/json passes for an allowed origin, not for another', async () => {
    const preflight = (origin: string, method = 'POST') =>
      server.request(`/api/v1/matrix?key=${shop.key}`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'content-type' },
      });
    const ok = await preflight(SHOP);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(ok.headers.get('access-control-allow-methods')).toContain('POST');
    expect(ok.headers.get('access-control-allow-headers')).toBe('content-type');
    expect((await preflight('https://evil.example')).status).toBe(403);
    expect((await preflight(SHOP, 'PUT')).status).toBe(405);
    // routes without a body still refuse a POST preflight
    const nearbyPost = await server.request(`/api/v1/search/nearby?key=${shop.key}`, {
      method: 'OPTIONS',
      headers: { Origin: SHOP, 'Access-Control-Request-Method': 'POST' },
    });
    expect(nearbyPost.status).toBe(405);
  });

  it('other methods: 405 whose Allow names POST', async () => {
    const r = await server.request(`/api/v1/matrix?key=${key.key}`, { method: 'PUT', body: '{}' });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
  });
});

describe('the answer on the wire: compressed for a client that takes gzip or deflate, with its length', () => {
  // node:http, not fetch: fetch would ask for gzip itself and hand back the inflated text
  const raw = (path: string, headers: Record<string, string>, body?: string) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; bytes: Buffer }>((resolve, reject) => {
      const req = httpRequest(`${server.origin}${path}`, { method: body ? 'POST' : 'GET', headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end(body);
    });
  const many = ['27.7154,85.3123', '27.7090,85.3290', '27.7060,85.3100', '27.7172,85.3240', '27.6990,85.3150', '27.7120,85.3170'];
  const path = `/api/v1/matrix?key=${key.key}&${pts('sources', many)}&${pts('destinations', many)}&mode=car`;

  it('gzip and deflate (as the header ranks them): Content-Encoding, Content-Length of the bytes sent, Vary; they inflate to the plain answer', async () => {
    const plain = await raw(path, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    const data = JSON.parse(plain.bytes.toString()).data;
    expect(data).toEqual([matrix(index, { sources: many, destinations: many, mode: 'car' })]);
    for (const [accept, encoding, inflate] of [
      ['gzip, deflate, br', 'gzip', gunzipSync],
      ['deflate', 'deflate', inflateSync],
      ['gzip;q=0, deflate', 'deflate', inflateSync],
    ] as const) {
      const r = await raw(path, { 'Accept-Encoding': accept });
      expect(r.status).toBe(200);
      expect(r.headers['content-encoding'], accept).toBe(encoding);
      expect(r.headers['content-length'], accept).toBe(String(r.bytes.length));
      expect(r.headers.vary).toMatch(/Accept-Encoding/);
      expect(r.bytes.length).toBeLessThan(plain.bytes.length);
      expect(JSON.parse(inflate(r.bytes).toString()).data, accept).toEqual(data);
    }
  });

  it('POST likewise; an encoding the app does not make (br), or a short answer: sent as it is', async () => {
    const body = JSON.stringify({ sources: many, destinations: many, mode: 'car' });
    const post = await raw(`/api/v1/matrix?key=${key.key}`, { 'Content-Type': 'application/json', 'Accept-Encoding': 'gzip' }, body);
    expect(post.headers['content-encoding']).toBe('gzip');
    expect(post.headers['content-length']).toBe(String(post.bytes.length));
    expect(JSON.parse(gunzipSync(post.bytes).toString()).data).toEqual([matrix(index, { sources: many, destinations: many, mode: 'car' })]);
    const br = await raw(path, { 'Accept-Encoding': 'br' });
    expect(br.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(br.bytes.toString()).status).toBe(200);
    const short = await raw(`/api/v1/matrix?key=${key.key}&${pts('sources', [A])}&${pts('destinations', [B])}&mode=car`, {
      'Accept-Encoding': 'gzip',
    });
    expect(short.headers['content-encoding']).toBeUndefined();
    expect(short.headers['content-length']).toBe(String(short.bytes.length));
    expect(JSON.parse(short.bytes.toString()).data).toEqual([matrix(index, { sources: [A], destinations: [B], mode: 'car' })]);
  });
});

describe('GET /search/nearby?by=time (an extension): the library records, with their trips', () => {
  const base = `/api/v1/search/nearby?key=${key.key}&type=eat&lat=27.7083&lon=85.3206&at=2026-11-26T12:00`;
  it("by=time&mode=car&minutes=4&sortBy=true: nearby()'s records with travelTimeInMs, validating against the document", async () => {
    const r = await server.request(`${base}&by=time&mode=car&minutes=4&sortBy=true&limit=20`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const want = nearby(index, {
      type: 'eat',
      lat: 27.7083,
      lon: 85.3206,
      at: new Date('2026-11-26T12:00:00+05:45'),
      by: 'time',
      mode: 'car',
      minutes: 4,
      sortBy: true,
      limit: 20,
    });
    expect(want.length).toBeGreaterThan(0);
    expect(r.body.data).toEqual(JSON.parse(JSON.stringify(want)));
    expect(r.body.data[0].travelTimeInMs).toBeGreaterThanOrEqual(0);
    expect(new ResponseValidator(doc as never).errors('/search/nearby', 'get', 200, r.body)).toEqual([]);
  });

  it('radius with by=time, mode without it, minutes out of range: 400s naming them; a point far from roads: 404', async () => {
    const cases: [string, number, RegExp][] = [
      ['&by=time&radius=5', 400, /radius/],
      ['&mode=car', 400, /mode/],
      ['&by=time&mode=car&minutes=61', 400, /minutes/],
      ['&by=time&minutes=0', 400, /minutes/],
      ['&by=fast', 400, /by/],
    ];
    for (const [q, status, re] of cases) {
      const r = await server.request(base + q);
      expect(r.status, q).toBe(status);
      expect(r.body.message, q).toMatch(re);
    }
    const far = await server.request(`/api/v1/search/nearby?key=${key.key}&type=eat&lat=27.74&lon=85.36&by=time&mode=car`);
    expect(far.status).toBe(404);
  });
});

describe('GET /isochrone (an extension): the library isochrone() as application/geo+json', () => {
  it('lat, lon, mode=car, minutes=3,6: the FeatureCollection, largest first', async () => {
    const r = await server.request(`/api/v1/isochrone?key=${key.key}&lat=27.7083&lon=85.3206&mode=car&minutes=3,6`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/geo+json');
    const fc = JSON.parse(r.text);
    expect(fc).toEqual(JSON.parse(JSON.stringify(isochrone(index, { lat: 27.7083, lon: 85.3206, mode: 'car', minutes: [3, 6] }))));
    expect(fc.features.map((f: { properties: { minutes: number } }) => f.properties.minutes)).toEqual([6, 3]);
  });

  it('minutes past the cap, five contours, an unknown mode, a missing lat: 400 naming them; far from roads: 404; no key: 401', async () => {
    const base = `/api/v1/isochrone?key=${key.key}&lat=27.7083&lon=85.3206`;
    const cases: [string, number, RegExp][] = [
      [`${base}&mode=car&minutes=61`, 400, /minutes/],
      [`${base}&minutes=1,2,3,4,5`, 400, /minutes/],
      [`${base}&minutes=5&mode=plane`, 400, /mode/],
      [`/api/v1/isochrone?key=${key.key}&lon=85.3206&minutes=5`, 400, /lat/],
      [`/api/v1/isochrone?key=${key.key}&lat=27.74&lon=85.36&mode=car&minutes=5`, 404, /farther/],
    ];
    for (const [q, status, re] of cases) {
      const r = await server.request(q);
      expect(r.status, q).toBe(status);
      expect(r.body.message, q).toMatch(re);
    }
    expect((await server.request('/api/v1/isochrone?lat=27.7083&lon=85.3206&minutes=5')).status).toBe(401);
  });
});
