/**
 * format=geojson on /search/nearby, /places and /reverse: the same records as the envelope's, as a
 * GeoJSON FeatureCollection served as application/geo+json; errors stay JSON envelopes.
 */
import { check } from '@placemarkio/check-geojson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaceIndex } from '../src/index.js';
import { coreIndex, THAMEL, token } from './support/http-fixture.js';
import { fetchReply, startServer, type Reply, type TestServer } from './support/http-server.js';
import { ResponseValidator } from './support/http-schema.js';

const key = token('g');
let index: PlaceIndex;
let server: TestServer;
let schema: ResponseValidator;

beforeAll(async () => {
  index = await coreIndex();
  // one fixed instant, so that the JSON and GeoJSON answers agree on `open`
  const at = Date.parse('2026-11-21T12:00:00+05:45');
  server = await startServer({ index, tokens: [key], now: () => at });
  schema = new ResponseValidator((await server.request('/api/v1/openapi.json')).body);
});
afterAll(() => server?.close());

const get = (path: string): Promise<Reply> => server.request(`${path}&key=${key.key}`);
const geo = async (path: string) => {
  const r = await fetchReply(`${server.origin}${path}&key=${key.key}`);
  return { ...r, body: JSON.parse(r.text) };
};

/** What a feature must be for a record of the envelope, checked field by field. */
function expectFeature(f: any, r: any, geometry: 'full' | 'centroid') {
  expect(f.type).toBe('Feature');
  expect(f.id).toBe(r.placeId);
  if (geometry === 'full') expect(f.geometry).toEqual(r.geometry);
  else expect(f.geometry).toEqual({ type: 'Point', coordinates: [r.centroid.lon, r.centroid.lat] });
  const { tags, ...props } = f.properties;
  // every "key|value" of the record is a key: value, and no more
  expect(Object.keys(tags).length).toBe(r.tags.length);
  for (const kv of r.tags as string[]) {
    const [k, ...v] = kv.split('|');
    expect(tags[k!]).toBe(v.join('|'));
  }
  for (const [k, v] of Object.entries(r)) {
    if (k === 'tags' || k === 'geometry' || (k === 'centroid' && geometry === 'centroid')) expect(props).not.toHaveProperty(k);
    else expect(props[k]).toEqual(v);
  }
}

const ROUTES = [
  ['/search/nearby', `/api/v1/search/nearby?type=eat&lat=${THAMEL.lat}&lon=${THAMEL.lon}&radius=2&limit=20`, 'NearbyFeatures'],
  ['/reverse', `/api/v1/reverse?lat=${THAMEL.lat}&lon=${THAMEL.lon}&radius=1&limit=10`, 'ReverseFeatures'],
] as const;

describe('format=geojson answers a FeatureCollection of the same records, as application/geo+json', () => {
  for (const [route, path] of ROUTES) {
    for (const geometry of ['full', 'centroid'] as const) {
      it(`${route}, geometry=${geometry}`, async () => {
        const json = await get(path);
        expect(json.status).toBe(200);
        expect(json.body.data.length).toBeGreaterThan(1);
        const r = await geo(`${path}&format=geojson${geometry === 'centroid' ? '&geometry=centroid' : ''}`);
        expect(r.status).toBe(200);
        expect(r.headers.get('content-type')).toBe('application/geo+json');
        expect(r.body.type).toBe('FeatureCollection');
        expect(r.body.features.length).toBe(json.body.data.length);
        r.body.features.forEach((f: any, i: number) => expectFeature(f, json.body.data[i], geometry));
        // the envelope's other fields ride along as foreign members
        expect(r.body.status).toBe(200);
        expect(r.body.message).toBe('Success');
        expect(r.body.timestamp).toBe(json.body.timestamp);
        expect(() => check(r.text)).not.toThrow();
        expect(schema.errors(route, 'get', 200, r.body, 'application/geo+json')).toEqual([]);
      });
    }
  }

  it('/places: one feature, the place with its full shape', async () => {
    const near = await get(`/api/v1/search/nearby?type=school&lat=${THAMEL.lat}&lon=${THAMEL.lon}&radius=3&limit=50`);
    const polygon = near.body.data.find((p: any) => p.geometry.type === 'Polygon');
    expect(polygon).toBeDefined();
    const json = await get(`/api/v1/places?placeId=${polygon.placeId}`);
    const r = await geo(`/api/v1/places?placeId=${polygon.placeId}&format=geojson`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/geo+json');
    expect(r.body.features).toHaveLength(1);
    expectFeature(r.body.features[0], json.body.data[0], 'full');
    expect(r.body.features[0].properties.score).toBe('NaN');
    expect(schema.errors('/places', 'get', 200, r.body, 'application/geo+json')).toEqual([]);
  });

  it('no places found by nearby: an empty collection', async () => {
    const r = await geo(`/api/v1/search/nearby?type=cafe&lat=40&lon=-30&radius=1&format=geojson`);
    expect(r.status).toBe(200);
    expect(r.body.features).toEqual([]);
    expect(() => check(r.text)).not.toThrow();
  });

  it('format=json is the envelope, as without format', async () => {
    const path = `/api/v1/search/nearby?type=eat&lat=${THAMEL.lat}&lon=${THAMEL.lon}&radius=2&limit=5`;
    const plain = await get(path);
    const json = await get(`${path}&format=json`);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(json.body).toEqual(plain.body);
  });

  it('the schema has teeth: a record where a feature should be is refused', async () => {
    const r = await geo(`/api/v1/search/nearby?type=eat&lat=${THAMEL.lat}&lon=${THAMEL.lon}&radius=2&limit=2&format=geojson`);
    const f = r.body.features[0];
    for (const broken of [
      { ...r.body, features: [{ ...f, properties: { ...f.properties, tags: ['amenity|cafe'] } }] },
      { ...r.body, features: [{ ...f, id: 'x' }] },
      { ...r.body, features: [{ ...f, properties: { ...f.properties, geometry: f.geometry } }] },
      { ...r.body, type: 'Feature' },
    ]) {
      expect(schema.errors('/search/nearby', 'get', 200, broken, 'application/geo+json')).not.toEqual([]);
    }
  });
});

describe('bad format or geometry: a 400 envelope naming the parameter; other errors stay envelopes', () => {
  it.each([
    ['format=xml', /^format: must be json or geojson, got "xml"/],
    ['format=GeoJSON', /^format: must be json or geojson/],
    ['format=', /^format: must be json or geojson/],
    ['geometry=centroid', /^geometry: only goes with format=geojson/],
    ['format=json&geometry=full', /^geometry: only goes with format=geojson/],
    ['format=geojson&geometry=point', /^geometry: must be full or centroid, got "point"/],
    ['format=geojson&format=json', /^format: given more than once/],
  ])('%s', async (extra, message) => {
    const r = await get(`/api/v1/search/nearby?type=eat&lat=${THAMEL.lat}&lon=${THAMEL.lon}&${extra}`);
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.body.message).toMatch(message);
    expect(r.body.data).toEqual([]);
  });

  it('/search has no geometry to give: format is an unknown parameter there', async () => {
    const r = await get('/api/v1/search?q=thamel&format=geojson');
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/^format: unknown parameter/);
  });

  it('a 404 and a 401 asked as GeoJSON are JSON envelopes', async () => {
    const missing = await get('/api/v1/places?placeId=4&format=geojson');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^application\/json/);
    expect(missing.body.message).toMatch(/^Not found: no place with placeId 4/);
    const far = await get('/api/v1/reverse?lat=0&lon=0&format=geojson');
    expect(far.status).toBe(404);
    expect(far.body.data).toEqual([]);
    const unkeyed = await server.request(`/api/v1/search/nearby?type=eat&lat=${THAMEL.lat}&lon=${THAMEL.lon}&format=geojson`);
    expect(unkeyed.status).toBe(401);
    expect(unkeyed.headers.get('content-type')).toMatch(/^application\/json/);
  });
});
