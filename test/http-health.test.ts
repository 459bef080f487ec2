/** GET /api/v1/health: for load balancers; no key, not counted against any quota; says what it serves. */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaceIndex } from '../src/index.js';
import { nearby } from '../src/index.js';
import { coreIndex, THAMEL, token } from './support/http-fixture.js';
import { readRaw } from './support/raw.js';
import { startServer, type TestServer } from './support/http-server.js';
import { ResponseValidator } from './support/http-schema.js';

// a quota of 2, to see that health checks do not use it up
const key = token('h', { quota: { requests: 2, windowSeconds: 3600 } });
let server: TestServer;
let index: PlaceIndex;
const DATE = new Date('2026-01-10T06:30:00Z');

beforeAll(async () => {
  index = await coreIndex();
  server = await startServer({ index, tokens: [key], dataDate: () => DATE });
});
afterAll(() => server?.close());

describe('health: a 200 envelope saying what it serves, without a key', () => {
  it('answers 200 with one record, not cached; fits the document', async () => {
    const r = await server.request('/api/v1/health');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ timestamp: expect.any(String), status: 200, message: 'Success', data: [expect.any(Object)] });
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('ratelimit-limit')).toBeNull();
    const doc = (await server.request('/api/v1/openapi.json')).body;
    expect(doc.paths['/health'].get.security).toBeUndefined();
    expect(new ResponseValidator(doc).errors('/health', 'get', 200, r.body)).toEqual([]);
  });

  it("the version of package.json, the places, the data's date, no map; nothing secret", async () => {
    const [h] = (await server.request('/api/v1/health')).body.data;
    const version = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
    expect(h).toEqual({ version, places: index.size, bounds: expect.any(Array), dataDate: '2026-01-10T06:30:00.000Z', map: false });
    expect(JSON.stringify(h)).not.toContain(key.key);
  });

  it("bounds: inside the fixture's nodes, around every place of nearby", async () => {
    const [h] = (await server.request('/api/v1/health')).body.data;
    const [w, s, e, n] = h.bounds as number[];
    const raw = await readRaw();
    const box = raw.nodes.reduce(
      (b, p) => [Math.min(b[0], p.lon), Math.min(b[1], p.lat), Math.max(b[2], p.lon), Math.max(b[3], p.lat)],
      [Infinity, Infinity, -Infinity, -Infinity],
    );
    expect(w).toBeGreaterThanOrEqual(box[0]);
    expect(s).toBeGreaterThanOrEqual(box[1]);
    expect(e).toBeLessThanOrEqual(box[2]);
    expect(n).toBeLessThanOrEqual(box[3]);
    let seen = 0;
    for (const type of Object.keys(index.typeCounts())) {
      for (const p of nearby(index, { type, lat: THAMEL.lat, lon: THAMEL.lon, radius: 100, limit: 100_000 })) {
        seen++;
        expect(p.centroid.lon).toBeGreaterThanOrEqual(w);
        expect(p.centroid.lon).toBeLessThanOrEqual(e);
        expect(p.centroid.lat).toBeGreaterThanOrEqual(s);
        expect(p.centroid.lat).toBeLessThanOrEqual(n);
      }
    }
    expect(seen).toBeGreaterThanOrEqual(index.size);
  });

  it('HEAD answers 200 with no body; other methods 405', async () => {
    const head = await fetch(`${server.origin}/api/v1/health`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await server.request('/api/v1/health', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('does not count against a quota, nor care about a bad key', async () => {
    for (let i = 0; i < 5; i++) expect((await server.request(`/api/v1/health?key=${key.key}`)).status).toBe(200);
    expect((await server.request('/api/v1/health?key=nope')).status).toBe(200);
    const search = `/api/v1/search/nearby?type=eat&lat=${THAMEL.lat}&lon=${THAMEL.lon}&key=${key.key}`;
    expect((await server.request(search)).status).toBe(200);
    expect((await server.request(search)).status).toBe(200);
    expect((await server.request(search)).status).toBe(429);
    expect((await server.request('/api/v1/health')).status).toBe(200);
  });

  it('is logged like every request', async () => {
    const before = server.lines.length;
    await server.request('/api/v1/health');
    expect(server.lines.slice(before).some((l) => / GET \/api\/v1\/health 200 /.test(l))).toBe(true);
  });
});
