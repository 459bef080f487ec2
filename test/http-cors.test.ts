import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/http/openapi.js';
import { coreIndex, THAMEL, token } from './support/http-fixture.js';
import { startServer, type TestServer } from './support/http-server.js';
import { ResponseValidator } from './support/http-schema.js';

const site = 'https://maps.example.com';
const restricted = token('c', { allowedOrigins: [site, 'http://localhost:5173'] });
const any = token('a');
const validator = new ResponseValidator(openApiDocument());
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ index: await coreIndex(), tokens: [restricted, any] });
});
afterAll(() => server?.close());

const path = (key: string) => `/api/v1/search/nearby?type=cafe&lat=${THAMEL.lat}&lon=${THAMEL.lon}&key=${key}`;
const preflight = (origin: string, method = 'GET', headers?: string) => ({
  method: 'OPTIONS',
  headers: {
    Origin: origin,
    'Access-Control-Request-Method': method,
    ...(headers ? { 'Access-Control-Request-Headers': headers } : {}),
  },
});

describe('CORS preflight: answered for allowed origins', () => {
  it.each([site, 'http://localhost:5173'])('echoes the allowed origin %s', async (origin) => {
    const r = await server.request(path(restricted.key), preflight(origin, 'GET', 'x-client-version'));
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe(origin);
    expect(r.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
    expect(r.headers.get('access-control-allow-headers')).toBe('x-client-version');
    expect(Number(r.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(r.headers.get('vary')).toMatch(/Origin/);
    expect(validator.errors('/search/nearby', 'options', 200, r.body)).toEqual([]);
  });

  it('echoes any origin for a key allowing "*"', async () => {
    const r = await server.request(path(any.key), preflight('https://elsewhere.example'));
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe('https://elsewhere.example');
  });

  it('refuses an origin the key does not allow: 403, no Allow-Origin', async () => {
    const r = await server.request(path(restricted.key), preflight('https://evil.example'));
    expect(r.status).toBe(403);
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    expect(validator.errors('/search/nearby', 'options', 403, r.body)).toEqual([]);
  });

  it('refuses a preflight without a valid key: 401', async () => {
    const r = await server.request('/api/v1/search/nearby?type=cafe', preflight(site));
    expect(r.status).toBe(401);
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a method other than GET/HEAD: 405', async () => {
    const r = await server.request(path(any.key), preflight(site, 'POST'));
    expect(r.status).toBe(405);
    expect(r.body.message).toMatch(/^Access-Control-Request-Method: "POST"/);
  });

  it('does not count against the quota', async () => {
    const key = token('q', { quota: { requests: 1, windowSeconds: 3600 } });
    const s = await startServer({ index: await coreIndex(), tokens: [key] });
    try {
      for (let i = 0; i < 3; i++) expect((await s.request(path(key.key), preflight(site))).status).toBe(200);
      expect((await s.request(path(key.key))).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('a plain OPTIONS (no preflight headers) lists the methods', async () => {
    const r = await server.request('/api/v1/search/nearby', { method: 'OPTIONS' });
    expect(r.status).toBe(200);
    expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe('CORS on actual requests', () => {
  it('echoes the allowed origin and exposes the rate headers', async () => {
    const r = await server.request(path(restricted.key), { headers: { Origin: site } });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe(site);
    const exposed = r.headers.get('access-control-expose-headers')!.split(/,\s*/);
    expect(exposed).toEqual(expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After']));
  });
  it('also on a 400, so the page can read why', async () => {
    const r = await server.request(`${path(restricted.key)}&limit=0`, { headers: { Origin: site } });
    expect(r.status).toBe(400);
    expect(r.headers.get('access-control-allow-origin')).toBe(site);
  });
  it('no Allow-Origin without an Origin header', async () => {
    const r = await server.request(path(restricted.key));
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });
  it('the OpenAPI document is public: any origin, no key', async () => {
    const r = await server.request('/api/v1/openapi.json', { headers: { Origin: 'https://docs.example' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    const p = await server.request('/api/v1/openapi.json', preflight('https://docs.example'));
    expect(p.status).toBe(200);
    expect(p.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('CORS on errors: a page from an origin some key allows can read why it was refused', () => {
  const app = 'https://app.example';
  const other = 'https://other.example';
  const onlyApp = token('p', { allowedOrigins: [app] });
  const onlyOther = token('s', { allowedOrigins: [other] });
  const revoked = token('v', { allowedOrigins: ['https://gone.example'], deleted: true });
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ index: await coreIndex(), tokens: [onlyApp, onlyOther, revoked] });
  });
  afterAll(() => s?.close());

  it.each([
    ['401, no key', '/api/v1/search/nearby?type=cafe&lat=1&lon=1', app, 401],
    ['401, unknown key', path('u'.repeat(24)), app, 401],
    ['401, revoked key', path(revoked.key), app, 401],
    ["403, a key that allows another of the server's origins", path(onlyOther.key), app, 403],
    ['400, a bad parameter', `${path(onlyApp.key)}&limit=0`, app, 400],
  ])('%s: Allow-Origin and the message readable', async (_, url, origin, status) => {
    const r = await s.request(url, { headers: { Origin: origin } });
    expect(r.status).toBe(status);
    expect(r.headers.get('access-control-allow-origin')).toBe(origin);
    expect(r.headers.get('access-control-expose-headers')).toMatch(/Retry-After/);
    expect(r.headers.get('vary')).toMatch(/Origin/);
  });

  it.each([
    ['401 from an origin no key allows', '/api/v1/search/nearby?type=cafe&lat=1&lon=1', 'https://evil.example', 401],
    ['403 from an origin no key allows', path(onlyApp.key), 'https://evil.example', 403],
    ["401 from a revoked key's origin", path(revoked.key), 'https://gone.example', 401],
  ])('%s: no Allow-Origin', async (_, url, origin, status) => {
    const r = await s.request(url, { headers: { Origin: origin } });
    expect(r.status).toBe(status);
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });
});
