/**
 * The page key in a real browser (headless Chromium): the server's own page may use it; another
 * site's page (`localhost` is another site than `127.0.0.1`) or another origin of the same site
 * (another port) may not, whether it loads an `<img>` (no `Origin`) or fetches. What Chromium
 * sends is what decides, not headers the test writes.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/http/app.js';
import { Keyring } from '../src/http/keys.js';
import { serve, type Running } from '../src/http/server.js';
import { pageToken, withWebApp } from '../src/http/web-app.js';
import { coreIndex, THAMEL } from './support/http-fixture.js';

const KEY = 'Br7WmX3pL9vT2nR8bY4cF6hJ';
const QUERY = `search/nearby?type=cafe&lat=${THAMEL.lat}&lon=${THAMEL.lon}&key=${KEY}`;

let running: Running;
let foreign: Server;
let foreignPort: number;
let browser: Browser;
const lines: string[] = [];

beforeAll(async () => {
  const keyring = new Keyring([]);
  const api = createApp({ index: await coreIndex(), tokens: keyring, log: (l) => lines.push(l) });
  const dir = await mkdtemp(join(tmpdir(), 'np-key-browser-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><html><head><title>own</title></head><body></body></html>');
  running = await serve(await withWebApp(api, { key: KEY, dir, log: (l) => lines.push(l) }), { port: 0, host: '127.0.0.1', signals: [] });
  keyring.replace([pageToken(KEY, [running.origin])]);
  // another site's server: an empty page, on another port
  foreign = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>other</title>'));
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
  foreignPort = (foreign.address() as { port: number }).port;
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
    headless: true,
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  foreign?.close();
  await running?.close();
});

/** The statuses the server logged for `QUERY` while `page` (a URL) loaded it as an `<img>` and fetched it. */
async function fromPage(url: string): Promise<{ img: string; fetch: string }> {
  const page = await browser.newPage();
  try {
    await page.goto(url);
    const target = `${running.origin}/api/v1/${QUERY}`;
    const before = lines.length;
    // an <img> sends no Origin; it fails to decode JSON either way, so its status is read from the log
    await page.evaluate(
      (src) =>
        new Promise((resolve) => {
          const img = new (globalThis as any).Image(); // in the page (the test's types have no DOM)
          img.onload = img.onerror = resolve;
          img.src = src;
        }),
      `${target}&limit=1`,
    );
    await page.evaluate(
      (src) =>
        fetch(src, { mode: 'no-cors' }).then(
          () => null,
          () => null,
        ),
      `${target}&limit=2`,
    );
    // the two told apart by their limit
    const status = (limit: number) =>
      lines
        .slice(before)
        .find((l) => l.includes(`&limit=${limit} `))
        ?.split(' ')[4] ?? 'none';
    return { img: status(1), fetch: status(2) };
  } finally {
    await page.close();
  }
}

describe("the page key in Chromium: the server's own page only", () => {
  it("the server's own page: 200", async () => {
    expect(await fromPage(`${running.origin}/`)).toEqual({ img: '200', fetch: '200' });
  });
  it("another site's page (localhost against 127.0.0.1, cross-site): 403", async () => {
    expect(await fromPage(`http://localhost:${foreignPort}/`)).toEqual({ img: '403', fetch: '403' });
  });
  it('another origin of the same site (another port, same-site): 403', async () => {
    expect(await fromPage(`http://127.0.0.1:${foreignPort}/`)).toEqual({ img: '403', fetch: '403' });
  });
  it('never logs the key', () => {
    expect(lines.length).toBeGreaterThan(6);
    for (const l of lines) expect(l).not.toContain(KEY);
  });
});
