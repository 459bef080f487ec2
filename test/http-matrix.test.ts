/**
 * The travel-time endpoints over HTTP: GET /api/v1/matrix (an extension), and /search/nearby with
 * by=time; their answers are the library's and validate against the served document, and bad
 * input is a 400 or 404 envelope naming the parameter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaceIndex } from '../src/index.js';
import { matrix, MATRIX_HTTP_MAX } from '../src/query/matrix.js';
import { nearby } from '../src/query/nearby.js';
import { isochrone } from '../src/query/isochrone.js';
import { coreIndex, token } from './support/http-fixture.js';
import { startServer, type TestServer } from './support/http-server.js';
import { ResponseValidator } from './support/http-schema.js';

const key = token('m');
let server: TestServer;
let index: PlaceIndex;
let doc: unknown;

const A = '27.7154,85.3123',
  B = '27.7090,85.3290',
  C = '27.7060,85.3100';

beforeAll(async () => {
  index = await coreIndex();
  server = await startServer({ index, tokens: [key] });
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
