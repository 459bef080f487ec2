import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathOf, withWebApp } from '../src/http/web-app.js';

const KEY = 'page-key-0123456789abcdef';

async function appDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'np-web-app-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><html><head><title>t</title></head><body></body></html>');
  await writeFile(join(dir, 'main.js'), 'console.log(1);');
  return dir;
}

describe('withWebApp: the page and its files in front of the API, everything else to the API as it came', () => {
  it('serves / with the key written in, and /app/{file}', async () => {
    const site = await withWebApp({ fetch: () => new Response('api', { status: 418 }) }, { key: KEY, dir: await appDir() });
    const page = await site.fetch(new Request('http://h/'));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`<meta name="nepal-places-key" content="${KEY}">`);
    const file = await site.fetch(new Request('http://h/app/main.js?v=1'));
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('console.log(1);');
  });

  it("hands the API the runtime's env and context with the request (the access log reads the Node response from it)", async () => {
    const seen: unknown[][] = [];
    const site = await withWebApp(
      { fetch: (...args: unknown[]) => (seen.push(args), new Response('api')) },
      { key: KEY, dir: await appDir() },
    );
    const env = { incoming: {}, outgoing: {} };
    const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} };
    for (const [method, url] of [
      ['GET', 'http://h/api/v1/health'],
      ['POST', 'http://h/'],
      ['GET', 'http://h/app/none.js'],
      ['GET', 'http://h/apple'],
    ]) {
      seen.length = 0;
      const r = await site.fetch(new Request(url!, { method }), env, ctx);
      expect(await r.text()).toBe('api');
      expect(seen).toHaveLength(1);
      expect(seen[0]![1]).toBe(env);
      expect(seen[0]![2]).toBe(ctx);
    }
  });
});

describe('pathOf: the path of a request URL, as new URL() reads it', () => {
  const urls = [
    'http://h/',
    'http://h',
    'http://h:8080/app/main.js',
    'http://h/app/main.js?x=1',
    'http://h/a#frag',
    'http://h/a?b#c',
    'https://h.example/x/y/z?q=/a/b',
    'http://h/%61pp/main.js',
    'http://h/app/?',
    'http://[::1]:80/app/x',
    'http://h/?a=http://x/y',
  ];
  for (const url of urls) {
    it(url, () => {
      // the URL a Request carries is normalized: read it back through one
      const normal = new Request(url).url;
      expect(pathOf(normal)).toBe(new URL(normal).pathname);
    });
  }
});
