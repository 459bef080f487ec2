/** GET /api/v1/health: for load balancers; no key, no data, not counted against any quota. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreIndex, THAMEL, token } from './support/http-fixture.js';
import { startServer, type TestServer } from './support/http-server.js';
import { ResponseValidator } from './support/http-schema.js';

// a quota of 2, to see that health checks do not use it up
const key = token('h', { quota: { requests: 2, windowSeconds: 3600 } });
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ index: await coreIndex(), tokens: [key] });
});
afterAll(() => server?.close());

describe('health: a 200 envelope with no data, without a key', () => {
  it('answers 200, data [], not cached; fits the document', async () => {
    const r = await server.request('/api/v1/health');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ timestamp: expect.any(String), status: 200, message: 'Success', data: [] });
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('ratelimit-limit')).toBeNull();
    const doc = (await server.request('/api/v1/openapi.json')).body;
    expect(doc.paths['/health'].get.security).toBeUndefined();
    expect(new ResponseValidator(doc).errors('/health', 'get', 200, r.body)).toEqual([]);
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
