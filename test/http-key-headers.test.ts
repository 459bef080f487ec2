import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/http/openapi.js';
import { coreIndex, THAMEL, token } from './support/http-fixture.js';
import { startServer, type TestServer } from './support/http-server.js';

const good = token('h', { allowedOrigins: ['https://app.example'], quota: { requests: 1000, windowSeconds: 60 } });
const other = token('i');
const small = token('j', { quota: { requests: 3, windowSeconds: 3600 } });
const path = `/api/v1/search/nearby?type=cafe&lat=${THAMEL.lat}&lon=${THAMEL.lon}&limit=2`;
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ index: await coreIndex(), tokens: [good, other, small] });
});
afterAll(() => server?.close());

const get = (url: string, headers: Record<string, string> = {}) => server.request(url, { headers });

describe('keys in headers: X-API-Key or Authorization: Bearer', () => {
  it('X-API-Key and Bearer answer as the key parameter does', async () => {
    const byQuery = await get(`${path}&key=${good.key}`);
    const byHeader = await get(path, { 'X-API-Key': good.key });
    const byBearer = await get(path, { Authorization: `Bearer ${good.key}` });
    const byLowerBearer = await get(path, { Authorization: `bearer ${good.key}` });
    for (const r of [byQuery, byHeader, byBearer, byLowerBearer]) {
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual(byQuery.body.data);
      expect(r.headers.get('ratelimit-limit')).toBe('1000');
    }
    expect(byQuery.body.data.length).toBe(2);
  });

  it('the key parameter wins over a header', async () => {
    expect((await get(`${path}&key=${good.key}`, { 'X-API-Key': 'x'.repeat(24) })).status).toBe(200);
    const r = await get(`${path}&key=${'x'.repeat(24)}`, { 'X-API-Key': good.key, Authorization: `Bearer ${good.key}` });
    expect(r.status).toBe(401);
    expect(r.body.message).toBe('key: unknown or revoked');
  });

  it('X-API-Key wins over Authorization', async () => {
    expect((await get(path, { 'X-API-Key': good.key, Authorization: `Bearer ${'x'.repeat(24)}` })).status).toBe(200);
    expect((await get(path, { 'X-API-Key': 'x'.repeat(24), Authorization: `Bearer ${good.key}` })).status).toBe(401);
  });

  it.each([
    ['another scheme', { Authorization: `Basic ${good.key}` }, /^key: missing/],
    ['an empty X-API-Key', { 'X-API-Key': '' }, /^key: malformed/],
    ['a malformed bearer', { Authorization: 'Bearer not-a-key!' }, /^key: malformed/],
    ['an unknown key', { 'X-API-Key': 'y'.repeat(30) }, /^key: unknown or revoked$/],
  ])('%s: 401', async (_, headers, message) => {
    const r = await get(path, headers);
    expect(r.status).toBe(401);
    expect(r.body.message).toMatch(message);
  });

  it('a header key counts against the same quota as the parameter', async () => {
    const statuses = [];
    statuses.push((await get(`${path}&key=${small.key}`)).status);
    statuses.push((await get(path, { 'X-API-Key': small.key })).status);
    statuses.push((await get(path, { Authorization: `Bearer ${small.key}` })).status);
    statuses.push((await get(path, { 'X-API-Key': small.key })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('checks the origin of a header key (403) and logs its hint, never the key', async () => {
    const r = await get(path, { 'X-API-Key': good.key, Origin: 'https://evil.example' });
    expect(r.status).toBe(403);
    const before = server.lines.length;
    await get(path, { 'X-API-Key': good.key });
    const line = server.lines.slice(before).join('\n');
    expect(line).toMatch(/ 200 \d+\.\dms key=#[0-9a-f]{8}$/);
    for (const l of server.lines) expect(l).not.toContain(good.key);
  });

  it('a preflight for a header key (no key to check yet) passes for an origin some key allows', async () => {
    const preflight = (origin: string, headers: string) =>
      server.request(path, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': headers },
      });
    for (const headers of ['X-API-Key', 'authorization, x-client']) {
      const ok = await preflight('https://app.example', headers);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example');
      expect(ok.headers.get('access-control-allow-headers')).toBe(headers);
    }
    // `other` allows any origin, so every origin is some key's: a server with only `good` refuses others
    const s = await startServer({ index: await coreIndex(), tokens: [good] });
    try {
      const r = await s.request(path, {
        method: 'OPTIONS',
        headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-api-key' },
      });
      expect(r.status).toBe(403);
      expect(r.body.message).toBe('Origin: "https://evil.example" is not allowed for any key');
      expect(r.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await s.close();
    }
  });

  it('the OpenAPI document names the three ways', () => {
    const doc = openApiDocument() as any;
    expect(doc.components.securitySchemes.apiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/search/nearby'].get.security).toEqual([{ apiKey: [] }, { apiKeyHeader: [] }, { bearer: [] }]);
  });
});
