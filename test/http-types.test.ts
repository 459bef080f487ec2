/**
 * GET /api/v1/types: what `type` of /search/nearby takes, with counts; the OpenAPI document
 * lists the data's types. Counts from the fixture's raw tags (test/support/places.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaceIndex } from '../src/index.js';
import { coreIndex, token } from './support/http-fixture.js';
import { expected } from './support/fixture.js';
import { MERGED } from './support/merged.js';
import { startServer, type TestServer } from './support/http-server.js';
import { ResponseValidator } from './support/http-schema.js';
import type { ExpectedPlaces } from './support/places.js';

const key = token('t');
let server: TestServer;
let index: PlaceIndex;
let want: ExpectedPlaces;

beforeAll(async () => {
  [index, want] = await Promise.all([coreIndex(), expected()]);
  server = await startServer({ index, tokens: [key] });
});
afterAll(() => server?.close());

const count = (type: string) => {
  const members = Object.hasOwn(MERGED, type) ? MERGED[type] : [type];
  return want.places.filter((p) => p.types.some((t) => members.includes(t))).length;
};

describe('GET /types: every type of the data and every merged type, with counts', () => {
  it('a 200 envelope of { type, count, members? }, counts as the raw tags give them, most first', async () => {
    const r = await server.request(`/api/v1/types?key=${key.key}`);
    expect(r.status).toBe(200);
    const data = r.body.data as { type: string; count: number; members?: string[] }[];
    expect(data.length).toBeGreaterThan(200);
    for (const t of data) expect(t.count, t.type).toBe(count(t.type));
    for (const [type, members] of Object.entries(MERGED)) expect(data.find((t) => t.type === type)?.members).toEqual(members);
    for (let i = 1; i < data.length; i++) expect(data[i - 1].count).toBeGreaterThanOrEqual(data[i].count);
    const doc = (await server.request('/api/v1/openapi.json')).body;
    expect(new ResponseValidator(doc).errors('/types', 'get', 200, r.body)).toEqual([]);
  });

  it('keyed like the search routes: 401 without a key, 400 for an unknown parameter', async () => {
    expect((await server.request('/api/v1/types')).status).toBe(401);
    const r = await server.request(`/api/v1/types?key=${key.key}&lang=ne`);
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/lang/);
  });

  it('every listed type answers /search/nearby; a misspelled one is a 400 naming the nearest', async () => {
    const data = (await server.request(`/api/v1/types?key=${key.key}`)).body.data as { type: string }[];
    for (const { type } of data.slice(0, 10)) {
      expect((await server.request(`/api/v1/search/nearby?type=${type}&lat=27.7154&lon=85.3123&key=${key.key}`)).status, type).toBe(200);
    }
    const bad = await server.request(`/api/v1/search/nearby?type=resturant&lat=27.7154&lon=85.3123&key=${key.key}`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^type: unknown type "resturant".*did you mean "restaurant"/);
  });
});

describe('the OpenAPI document lists the types of the data served', () => {
  it('as examples of the type parameter, the same as GET /types', async () => {
    const doc = (await server.request('/api/v1/openapi.json')).body;
    const data = (await server.request(`/api/v1/types?key=${key.key}`)).body.data as { type: string }[];
    const type = doc.paths['/search/nearby'].get.parameters.find((p: { name: string }) => p.name === 'type');
    expect(type.schema.examples).toEqual(data.map((t) => t.type));
    expect(doc.paths['/types'].get.operationId).toBe('types');
  });
});
