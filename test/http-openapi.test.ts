import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { types, type PlaceIndex } from '../src/index.js';
import { openApiDocument } from '../src/http/openapi.js';
import { NEARBY_PARAMS } from '../src/http/params.js';
import { MODES } from '../src/osm/profile.js';
import { maxMinutes } from '../src/query/isochrone.js';
import { coreIndex, THAMEL, token } from './support/http-fixture.js';
import { startServer, type TestServer } from './support/http-server.js';
import { ResponseValidator } from './support/http-schema.js';

const key = token('n');
let index: PlaceIndex;
let server: TestServer;
let served: Record<string, any>;

beforeAll(async () => {
  index = await coreIndex();
  server = await startServer({ index, tokens: [key], maxLimit: 100 });
  const r = await server.request('/api/v1/openapi.json');
  expect(r.status).toBe(200);
  served = r.body;
});
afterAll(() => server?.close());

describe('openapi.json: a valid OpenAPI 3.1 document of the API', () => {
  it('validates as OpenAPI 3.1, with info.version 1.0.0', async () => {
    const v = new Validator();
    const res = await v.validate(structuredClone(served)); // the validator resolves $refs in place
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);
    expect(v.version).toBe('3.1');
    expect(served.info.version).toBe('1.0.0');
    // every $ref resolves
    expect(() => JSON.stringify(v.resolveRefs())).not.toThrow();
  });

  it('is served at <basePath>/openapi.json, as built for the app', () => {
    // with the types of the data it serves (GET /types) as examples of `type`
    expect(served).toEqual(openApiDocument({ basePath: '/api/v1', maxLimit: 100, maxRadius: 100, types: types(index).map((t) => t.type) }));
    expect(served.servers).toEqual([{ url: '/api/v1' }]);
  });

  it('describes every parameter the route accepts, required ones marked', () => {
    const params = served.paths['/search/nearby'].get.parameters;
    expect(params.map((p: { name: string }) => p.name).sort()).toEqual([...NEARBY_PARAMS].sort());
    const required = params
      .filter((p: { required?: boolean }) => p.required)
      .map((p: { name: string }) => p.name)
      .sort();
    expect(required).toEqual(['lat', 'lon', 'type']); // key: the parameter, or a header (see securitySchemes)
    expect(served.components.securitySchemes.apiKey).toEqual(expect.objectContaining({ type: 'apiKey', in: 'query', name: 'key' }));
  });

  it('marks at, nearby by travel time (by, mode, minutes) and lang, and only those, as extensions that are not part of API v1', () => {
    const params = Object.values(served.paths).flatMap((ops: any) => Object.values(ops).flatMap((op: any) => op.parameters ?? [])) as {
      name: string;
      description: string;
      required?: boolean;
      'x-extension'?: boolean;
      schema: { pattern?: string };
    }[];
    expect(new Set(params.filter((p) => p['x-extension']).map((p) => p.name))).toEqual(new Set(['at', 'by', 'mode', 'minutes', 'lang']));
    const at = params.find((p) => p.name === 'at')!;
    expect(at.required).not.toBe(true);
    expect(at.description).toMatch(/^\*\*Extension, not part of API v1\*\*/);
    expect(at.description).toMatch(/Nepal Time \(UTC\+05:45\)/);
    // the pattern takes what the server takes, and not what it refuses
    const re = new RegExp(at.schema.pattern!);
    for (const v of ['2026-11-21', '2026-11-21T22:10', '2026-11-21T22:10:05.25Z', '2026-11-21T22:10-0500'])
      expect(re.test(v), v).toBe(true);
    for (const v of ['2026-11-21 22:10', 'Nov 21 2026', '2026-11-21T22']) expect(re.test(v), v).toBe(false);
  });

  it('describes every status the route answers', () => {
    expect(Object.keys(served.paths['/search/nearby'].get.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '405',
      '429',
      '500',
      '503',
    ]);
    const r429 = served.paths['/search/nearby'].get.responses['429'];
    expect(Object.keys(r429.headers)).toEqual(
      expect.arrayContaining(['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
    );
    expect(served.components.responses.NotFound).toBeDefined();
  });

  it('carries the configured maxima', async () => {
    const s = await startServer({ index, tokens: [key], maxLimit: 20, maxRadius: 7, basePath: '/places/api/v1' });
    try {
      const doc = (await s.request('/places/api/v1/openapi.json')).body;
      const nearby = (name: string) => doc.paths['/search/nearby'].get.parameters.find((p: { name: string }) => p.name === name);
      expect(nearby('limit').schema.maximum).toBe(20);
      expect(nearby('radius').schema.maximum).toBe(7);
      expect(doc.servers).toEqual([{ url: '/places/api/v1' }]);
      const r = await s.request(`/places/api/v1/search/nearby?type=cafe&lat=${THAMEL.lat}&lon=${THAMEL.lon}&limit=21&key=${key.key}`);
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/^limit: must be at most 20/);
      expect((await s.request(`/api/v1/search/nearby?key=${key.key}`)).status).toBe(404);
    } finally {
      await s.close();
    }
  });
});

describe('responses fit the schemas of the document', () => {
  const validator = () => new ResponseValidator(served);

  it('real answers of many types, with every kind of geometry, fit NearbyEnvelope', async () => {
    const v = validator();
    const kinds = new Set<string>();
    let records = 0;
    for (const type of ['school', 'hospital', 'eat', 'place_of_worship', 'parking', 'bank', 'hotel', 'bus_stop', 'park']) {
      for (const sortBy of ['true', 'false']) {
        const r = await server.request(
          `/api/v1/search/nearby?type=${type}&lat=${THAMEL.lat}&lon=${THAMEL.lon}&radius=10&limit=100&sortBy=${sortBy}&key=${key.key}`,
        );
        expect(r.status).toBe(200);
        expect(v.errors('/search/nearby', 'get', 200, r.body)).toEqual([]);
        for (const p of r.body.data) kinds.add(p.geometry.type);
        records += r.body.data.length;
      }
    }
    expect(records).toBeGreaterThan(500);
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['MultiPolygon', 'Point', 'Polygon']));
  });

  it('the schemas have teeth: broken bodies are refused', async () => {
    const v = validator();
    const r = await server.request(`/api/v1/search/nearby?type=cafe&lat=${THAMEL.lat}&lon=${THAMEL.lon}&limit=1&key=${key.key}`);
    const body = r.body;
    const place = body.data[0];
    const broken = [
      { ...body, status: 201 },
      { ...body, message: 'OK' },
      { ...body, timestamp: '2026-11-21T21:50:03+05:45' },
      { ...body, timestamp: 'Sat Nov 1 21:50:03 NPT 2026' },
      { ...body, extra: 1 },
      { ...body, data: [{ ...place, score: null }] },
      { ...body, data: [{ ...place, score: 'nan' }] },
      { ...body, data: [{ ...place, centroid: { lat: 95, lon: 85 } }] },
      { ...body, data: [{ ...place, geometry: { type: 'Point', coordinates: [85.3] } }] },
      { ...body, data: [{ ...place, open: 'yes' }] },
      { ...body, data: [{ ...place, placeId: 1.5 }] },
      { ...body, data: [(({ license: _license, ...rest }) => rest)(place)] },
    ];
    for (const b of broken) expect(v.errors('/search/nearby', 'get', 200, b)).not.toEqual([]);
    expect(v.errors('/search/nearby', 'get', 401, { ...body, status: 401, message: 'key: unknown' })).not.toEqual([]); // data must be empty
    expect(v.errors('/search/nearby', 'get', 401, { ...body, status: 401, message: 'key: unknown', data: [] })).toEqual([]);
    expect(v.errors('/search/nearby', 'get', 401, { ...body, status: 403, message: 'x', data: [] })).not.toEqual([]);
    expect(v.errors('/search/nearby', 'get', 200, { ...body, data: [{ ...place, score: 'NaN' }] })).toEqual([]);
  });
});

describe('the isochrone in the document: an extension answering GeoJSON', () => {
  const op = () => served.paths['/isochrone']?.get;

  it('GET /isochrone and its preflight are described, marked as an extension', () => {
    expect(op()).toBeDefined();
    expect(served.paths['/isochrone'].options).toBeDefined();
    expect(op()['x-extension']).toBe(true);
    expect(op().description).toMatch(/^\*\*Extension, not part of API v1\.\*\*/);
  });

  it("documents lat, lon, mode and minutes (lat, lon and minutes required), with each mode's cap on minutes", () => {
    const params = op().parameters as { name: string; required?: boolean; description: string; schema: { enum?: string[] } }[];
    expect(params.map((p) => p.name).sort()).toEqual(['key', 'lat', 'lon', 'minutes', 'mode']);
    expect(
      params
        .filter((p) => p.required)
        .map((p) => p.name)
        .sort(),
    ).toEqual(['lat', 'lon', 'minutes']);
    const minutes = params.find((p) => p.name === 'minutes')!;
    for (const m of MODES) expect(minutes.description).toContain(`${maxMinutes(m)} ${m === 'foot' ? 'on foot' : `by ${m}`}`);
    expect(params.find((p) => p.name === 'mode')!.schema.enum).toEqual([...MODES]);
  });

  it('answers application/geo+json (not an envelope), refusals as envelopes, 404 for a point far from roads', () => {
    expect(Object.keys(op().responses['200'].content)).toEqual(['application/geo+json']);
    expect(Object.keys(op().responses).sort()).toEqual(['200', '400', '401', '403', '404', '405', '429', '500', '503']);
  });

  it("a real answer fits the document's schema, and broken ones do not", async () => {
    const v = new ResponseValidator(served);
    const r = await server.request(`/api/v1/isochrone?lat=${THAMEL.lat}&lon=${THAMEL.lon}&mode=car&minutes=3,6&key=${key.key}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/geo\+json/);
    const body = JSON.parse(r.text);
    expect(v.errors('/isochrone', 'get', 200, body, 'application/geo+json')).toEqual([]);
    const f = body.features[0];
    for (const broken of [
      { ...body, features: [] },
      { ...body, status: 200 },
      { ...body, features: [{ ...f, properties: { ...f.properties, minutes: 1.5 } }] },
      { ...body, features: [{ ...f, geometry: { type: 'Polygon', coordinates: f.geometry.coordinates[0] } }] },
    ])
      expect(v.errors('/isochrone', 'get', 200, broken, 'application/geo+json')).not.toEqual([]);
  });
});
