import { get } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { beforeAll, describe, expect, it } from 'vitest';
import { types, type PlaceIndex } from '../src/index.js';
import { createApp } from '../src/http/app.js';
import { HttpError } from '../src/http/http-error.js';
import { openApiDocument } from '../src/http/openapi.js';
import { coreIndex, THAMEL, token } from './support/http-fixture.js';
import { fetchReply, startServer } from './support/http-server.js';

const key = token('e');
const nearby = `/search/nearby?type=eat&lat=${THAMEL.lat}&lon=${THAMEL.lon}&limit=100&key=${key.key}`;
let index: PlaceIndex;
beforeAll(async () => {
  index = await coreIndex();
});

/** A host app with its own routes and 404, and our API mounted under `prefix`. */
function host(prefix: string) {
  const lines: string[] = [];
  const h = new Hono();
  h.get('/health', (c) => c.text('ok'));
  h.route(prefix, createApp({ index, tokens: [key], log: (l) => lines.push(l) }));
  h.notFound((c) => c.text('host 404', 404));
  return { h, lines };
}

describe('embedded in a host Hono app: our middleware, 404 and errors stay on our routes', () => {
  it.each(['/geo', '/'])("mounted at %s: the host's routes see none of it", async (prefix) => {
    const { h, lines } = host(prefix);
    const health = await h.request('/health');
    expect(await health.text()).toBe('ok');
    expect(health.headers.get('x-request-id')).toBeNull();
    expect(health.headers.get('vary')).toBeNull();
    const other = await h.request('/elsewhere');
    expect([other.status, await other.text()]).toEqual([404, 'host 404']);
    expect(lines).toEqual([]); // no access-log line for the host's requests
  });

  it.each(['/geo', '/'])('mounted at %s: our routes answer, with our 404 under the API and our log', async (prefix) => {
    const { h, lines } = host(prefix);
    const base = `${prefix === '/' ? '' : prefix}/api/v1`;
    const ok = await h.request(base + nearby);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { data: unknown[] }).data.length).toBeGreaterThan(5);
    expect(ok.headers.get('x-request-id')).toBeTruthy();
    for (const path of [`${base}/nope`, base, `${base}/search/nearby/`]) {
      const r = await h.request(path);
      expect(r.status).toBe(404);
      expect(await r.json()).toMatchObject({
        status: 404,
        data: [],
        message: `Not found: no route "${path}"; the API is under ${base} (see ${base}/openapi.json)`,
      });
    }
    const post = await h.request(base + nearby, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(lines.length).toBe(5);
    expect(lines.map((l) => l.split(' ')[3]!.split('?')[0])).toEqual([
      `${base}/search/nearby`,
      `${base}/nope`,
      base,
      `${base}/search/nearby/`,
      `${base}/search/nearby`,
    ]);
  });

  it.each([
    ['/geo', '/geo/api/v1'],
    ['/', '/api/v1'],
    ['/a/b', '/a/b/api/v1'],
  ])('mounted at %s: OpenAPI servers is %s', async (prefix, url) => {
    const { h } = host(prefix);
    const r = await h.request(`${url}/openapi.json`);
    const doc = (await r.json()) as { servers: unknown };
    expect(doc.servers).toEqual([{ url }]);
    // everything else as for the app alone (with the types of the data it serves)
    expect(doc).toEqual(openApiDocument({ basePath: url, types: types(index).map((t) => t.type) }));
  });

  it("our errors are Hono's HTTPException, for a host's error handler", () => {
    const err = new HttpError(429, 'key: quota used up', { 'Retry-After': '5' });
    expect(err).toBeInstanceOf(HTTPException);
    expect([err.status, err.message, err.headers]).toEqual([429, 'key: quota used up', { 'Retry-After': '5' }]);
  });

  it('takes a request id handed in by a proxy (X-Request-Id, word characters only) and logs it', async () => {
    const { h, lines } = host('/');
    const r = await h.request(`/api/v1${nearby}`, { headers: { 'X-Request-Id': 'lb-7f3a-0001' } });
    expect(r.headers.get('x-request-id')).toBe('lb-7f3a-0001');
    expect(lines[0]).toMatch(/^\S+ lb-7f3a-0001 GET /);
    const bad = await h.request(`/api/v1${nearby}`, { headers: { 'X-Request-Id': 'a b\u0007' } });
    expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f]{6}-[0-9a-z]+$/);
  });
});

describe('compression (Hono compress): gzip when asked, for bodies worth it', () => {
  it('gzips a large answer and the OpenAPI document; the bytes inflate to the same JSON', async () => {
    const s = await startServer({ index, tokens: [key] });
    try {
      for (const path of [`/api/v1${nearby}`, '/api/v1/openapi.json']) {
        const plain = await fetchReply(s.origin + path);
        // fetch (undici) inflates on its own: the raw bytes through node:http instead
        const raw = await new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
          get(s.origin + path, { headers: { 'Accept-Encoding': 'gzip' } }, (r) => {
            const chunks: Buffer[] = [];
            r.on('data', (c: Buffer) => chunks.push(c));
            r.on('end', () => resolve({ headers: r.headers, body: Buffer.concat(chunks) }));
          }).on('error', reject);
        });
        expect(raw.headers['content-encoding']).toBe('gzip');
        expect(String(raw.headers.vary)).toMatch(/Accept-Encoding/);
        const inflated = JSON.parse(gunzipSync(raw.body).toString());
        const { timestamp: _a, ...a } = inflated;
        const { timestamp: _b, ...b } = plain.body;
        expect(a).toEqual(b);
        expect(raw.body.length).toBeLessThan(plain.text.length / 3);
      }
      // a short error envelope is not worth it: sent as it is, with its length
      const small = await fetch(`${s.origin}/api/v1/search/nearby?type=cafe`, { headers: { 'Accept-Encoding': 'gzip' } });
      expect(small.headers.get('content-encoding')).toBeNull();
      expect(Number(small.headers.get('content-length'))).toBe(Buffer.byteLength(await small.text()));
    } finally {
      await s.close();
    }
  });
});
