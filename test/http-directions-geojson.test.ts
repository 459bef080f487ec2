/**
 * /directions?format=geojson: the routes as a GeoJSON FeatureCollection (application/geo+json),
 * one LineString Feature per route, best first, whose line is the JSON route's encodedPolyline
 * decoded; its properties the route's figures (and instructions only when asked); valid GeoJSON
 * and valid against the served OpenAPI document; errors stay JSON envelopes.
 */
import polyline from '@mapbox/polyline';
import { check } from '@placemarkio/check-geojson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaceIndex } from '../src/index.js';
import { coreIndex, token } from './support/http-fixture.js';
import { fetchReply, startServer, type TestServer } from './support/http-server.js';
import { ResponseValidator } from './support/http-schema.js';

const key = token('h');
// Thamel, Kamalpokhari and Asan: inside the fixture's bounds
const A = '27.7154,85.3123',
  B = '27.7090,85.3290',
  C = '27.7060,85.3100';
let index: PlaceIndex;
let server: TestServer;
let schema: ResponseValidator;

beforeAll(async () => {
  index = await coreIndex();
  server = await startServer({ index, tokens: [key] });
  schema = new ResponseValidator((await server.request('/api/v1/openapi.json')).body);
}, 120_000);
afterAll(() => server?.close());

const json = (q: string) => server.request(`/api/v1/directions?${q}&key=${key.key}`);
const geo = async (q: string) => {
  const r = await fetchReply(`${server.origin}/api/v1/directions?${q}&format=geojson&key=${key.key}`);
  return { ...r, body: r.status === 200 ? JSON.parse(r.text) : undefined };
};

describe('format=geojson: one LineString Feature per route, the same routes as the JSON answer', () => {
  it.each([
    ['car, alternatives', `points[]=${A}&points[]=${B}&mode=car&alternatives=true`, 'car'],
    ['foot through a via point', `points[]=${A}&points[]=${C}&points[]=${B}`, 'foot'],
    ['motorcycle, named motorbike', `points[]=${A}&points[]=${B}&mode=motorcycle`, 'motorbike'],
  ])('%s', async (_, q, mode) => {
    const [j, g] = await Promise.all([json(q), geo(q)]);
    expect(j.status).toBe(200);
    expect(g.status).toBe(200);
    expect(g.headers.get('content-type')).toBe('application/geo+json');
    expect(() => check(g.text)).not.toThrow();
    expect(schema.errors('/directions', 'get', 200, g.body, 'application/geo+json')).toEqual([]);
    expect(g.body.type).toBe('FeatureCollection');
    expect(g.body.status).toBe(200);
    const routes = j.body.data;
    expect(g.body.features).toHaveLength(routes.length);
    g.body.features.forEach((f: any, i: number) => {
      expect(f.geometry.type).toBe('LineString');
      // GeoJSON positions are [lon, lat]; the polyline's are lat,lon
      expect(f.geometry.coordinates.map(([lon, lat]: number[]) => [lat, lon])).toEqual(polyline.decode(routes[i].encodedPolyline, 5));
      expect(f.properties).toEqual({
        rank: i,
        mode,
        distanceInMeters: routes[i].distanceInMeters,
        timeInMs: routes[i].timeInMs,
        routeWeight: routes[i].routeWeight,
      });
    });
  });
  it('instructions=true: each feature carries its route’s instructionList', async () => {
    const q = `points[]=${A}&points[]=${B}&mode=car&instructions=true`;
    const [j, g] = await Promise.all([json(q), geo(q)]);
    expect(schema.errors('/directions', 'get', 200, g.body, 'application/geo+json')).toEqual([]);
    expect(g.body.features[0].properties.instructionList).toEqual(j.body.data[0].instructionList);
    expect(g.body.features[0].properties.instructionList.length).toBeGreaterThanOrEqual(2);
  });
});

describe('errors stay JSON envelopes', () => {
  it.each([
    ['a bad format is a 400 naming format', `points[]=${A}&points[]=${B}&format=kml`, 400, /format/],
    ['geometry is not a directions parameter', `points[]=${A}&points[]=${B}&format=geojson&geometry=centroid`, 400, /geometry/],
    ['one point is a 400 naming points', `points[]=${A}&format=geojson`, 400, /points/],
    ['a point far from every road is a 404', `points[]=${A}&points[]=28.5,84.0&format=geojson`, 404, /farther/],
  ])('%s', async (_, q, status, message) => {
    const r = await json(q);
    expect(r.status).toBe(status);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.body.status).toBe(status);
    expect(r.body.message).toMatch(message);
  });
});
