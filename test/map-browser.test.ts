/**
 * The served styles in MapLibre GL JS, in headless Chromium (Debian `chromium`, driven by
 * playwright-core, WebGL by SwiftShader): a page on another origin loads `/styles/{name}` from the
 * API server, and MapLibre fetches the TileJSON, tiles, glyph ranges and sprite with the key in
 * the style. It must draw them without an error: the road, its English label, the POIs with their
 * icons. Screenshots go to test/artifacts/.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTiles } from '../src/tiles/build.js';
import { TileArchive } from '../src/map/archive.js';
import { fileAssets } from '../src/map/assets.js';
import { CORE_PBF, coreIndex, token } from './support/http-fixture.js';
import { startServer, type TestServer } from './support/http-server.js';
import { writeTestArchive } from './support/map-archive.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));
const MAPLIBRE = fileURLToPath(new URL('../node_modules/maplibre-gl/dist/', import.meta.url));
const PAGE_ORIGIN_KEY = token('m', { allowedOrigins: '*' }).key;

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="/maplibre/maplibre-gl.css">
<style>html, body { margin: 0 } #map { width: 640px; height: 480px }</style></head>
<body><div id="map"></div>
<script type="module">
import { Map } from '/maplibre/maplibre-gl.mjs';
const q = new URLSearchParams(location.search);
window.errors = [];
window.missing = [];
const map = new Map({ container: 'map', style: q.get('style'), center: q.get('center').split(',').map(Number), zoom: Number(q.get('zoom')), fadeDuration: 0 });
map.on('error', (e) => window.errors.push(String(e.error?.message ?? e.error ?? e)));
map.on('styleimagemissing', (e) => window.missing.push(e.id));
map.once('idle', () => (window.idle = true));
window.map = map;
</script></body></html>`;

let dir: string;
let tiles: TileArchive;
let fixtureTiles: TileArchive;
let api: TestServer;
let fixtureApi: TestServer;
let pages: Server;
let pageOrigin: string;
let browser: Browser;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'map-browser-'));
  const archive = join(dir, 'thamel.pmtiles');
  writeTestArchive(archive);
  tiles = await TileArchive.open(archive);
  api = await startServer({ index: await coreIndex(), tokens: [token('m')], map: { tiles, assets: fileAssets() } });
  // and the map of the Kathmandu fixture, as `nepal-places tiles` builds it
  const fixtureArchive = join(dir, 'kathmandu.pmtiles');
  await buildTiles(CORE_PBF, fixtureArchive, { workers: 0 });
  fixtureTiles = await TileArchive.open(fixtureArchive);
  fixtureApi = await startServer({ index: await coreIndex(), tokens: [token('m')], map: { tiles: fixtureTiles, assets: fileAssets() } });
  // the page and MapLibre come from another origin than the API, as a web app on its own host would
  const types: Record<string, string> = { '.mjs': 'text/javascript', '.css': 'text/css', '.map': 'application/json' };
  pages = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    const m = /^\/maplibre\/([\w.-]+)$/.exec(path);
    if (!m) return void res.writeHead(404).end();
    try {
      res.writeHead(200, { 'content-type': types[extname(m[1]!)] ?? 'application/octet-stream' }).end(readFileSync(join(MAPLIBRE, m[1]!)));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--enable-unsafe-swiftshader', '--use-angle=swiftshader', '--ignore-gpu-blocklist'],
    headless: true,
  });
  mkdirSync(ARTIFACTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (pages ? pages.close(resolve) : resolve(undefined)));
  await Promise.all([api?.close(), fixtureApi?.close()]);
  await Promise.all([tiles?.close(), fixtureTiles?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

interface Loaded {
  page: Page;
  responses: { url: string; status: number; cors: string | null }[];
}

/** Opens the page on style `name` at `zoom` and waits for the map's first `idle`. */
async function open(
  name: string,
  zoom: number,
  deviceScaleFactor = 1,
  server = api,
  center: [number, number] = [85.3123, 27.7154],
): Promise<Loaded> {
  const context = await browser.newContext({ viewport: { width: 640, height: 480 }, deviceScaleFactor });
  const page = await context.newPage();
  const responses: Loaded['responses'] = [];
  page.on('response', (r) => {
    if (r.url().startsWith(server.origin))
      responses.push({ url: r.url(), status: r.status(), cors: r.headers()['access-control-allow-origin'] ?? null });
  });
  const style = `${server.origin}/api/v1/styles/${name}?key=${PAGE_ORIGIN_KEY}`;
  await page.goto(`${pageOrigin}/?style=${encodeURIComponent(style)}&zoom=${zoom}&center=${center.join(',')}`);
  await page
    .waitForFunction(() => (globalThis as any).idle === true, null, { timeout: 60_000 })
    .catch(async (e: Error) => {
      throw new Error(`${e.message}; map errors: ${JSON.stringify(await page.evaluate(() => (globalThis as any).errors))}`);
    });
  return { page, responses };
}

/** Rendered features of the map, as `layer id → names`. */
async function rendered(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(() => {
    const out: Record<string, string[]> = {};
    for (const f of (globalThis as any).map.queryRenderedFeatures()) {
      (out[f.layer.id] ??= []).push(String(f.properties['name:en'] ?? f.properties.name ?? ''));
    }
    return out;
  });
}

/** The screenshot's pixels, and how many differ from another screenshot. */
function pixels(png: Buffer) {
  return PNG.sync.read(png);
}

describe('MapLibre draws the served styles from this server alone', () => {
  for (const [name, ratio] of [
    ['breeze', 1],
    ['dark', 2],
  ] as const) {
    it(`${name} at ${ratio}x: tiles, English labels, POI icons; every request answered with CORS, no map error`, async () => {
      const { page, responses } = await open(name, 16, ratio);
      try {
        expect(await page.evaluate(() => (globalThis as any).errors)).toEqual([]);
        expect(await page.evaluate(() => (globalThis as any).missing)).toEqual([]);
        const layers = await rendered(page);
        expect(layers.roads_major).toContain('Thamel Marg');
        expect(layers.roads_labels_major).toContain('Thamel Marg'); // the label, drawn with our glyphs
        expect(layers.pois).toEqual(expect.arrayContaining(['Teafresho Tea Lounge', 'Thamel School']));

        // what it fetched: the style, TileJSON, tiles, glyph ranges and the sprite of its pixel ratio
        const kinds = (re: RegExp) => responses.filter((r) => re.test(new URL(r.url).pathname));
        expect(kinds(/\/styles\//)).toHaveLength(1);
        expect(kinds(/\/tiles\.json$/)).toHaveLength(1);
        expect(kinds(/\/tiles\/14\//).length).toBeGreaterThan(0); // overzoomed: the archive stops at 14
        expect(kinds(/\/fonts\/Noto%20Sans%20Regular\/0-255\.pbf$/).length).toBeGreaterThan(0);
        const suffix = ratio === 2 ? '@2x' : '';
        expect(kinds(new RegExp(`/sprites/${name}${suffix}\\.json$`))).toHaveLength(1);
        expect(kinds(new RegExp(`/sprites/${name}${suffix}\\.png$`))).toHaveLength(1);
        for (const r of responses) {
          expect([200, 204], r.url).toContain(r.status);
          expect(r.cors, r.url).toBe(pageOrigin);
          expect(new URL(r.url).searchParams.get('key'), r.url).toBe(PAGE_ORIGIN_KEY);
        }

        // the labels and icons are ink on the canvas: hiding the symbol layers changes the pixels
        const withLabels = await page.locator('#map canvas').screenshot();
        writeFileSync(join(ARTIFACTS, `map-${name}@${ratio}x.png`), withLabels);
        await page.evaluate(() => {
          const map = (globalThis as any).map;
          for (const l of map.getStyle().layers) if (l.type === 'symbol') map.setLayoutProperty(l.id, 'visibility', 'none');
          (globalThis as any).idle = false;
          map.once('idle', () => ((globalThis as any).idle = true));
        });
        await page.waitForFunction(() => (globalThis as any).idle === true, null, { timeout: 30_000 });
        const without = await page.locator('#map canvas').screenshot();
        const a = pixels(withLabels);
        const b = pixels(without);
        let changed = 0;
        let variance = 0;
        let mean = 0;
        for (let i = 0; i < a.data.length; i += 4) {
          if (
            Math.abs(a.data[i]! - b.data[i]!) + Math.abs(a.data[i + 1]! - b.data[i + 1]!) + Math.abs(a.data[i + 2]! - b.data[i + 2]!) >
            30
          )
            changed++;
          mean += a.data[i]!;
        }
        const n = a.data.length / 4;
        mean /= n;
        for (let i = 0; i < a.data.length; i += 4) variance += (a.data[i]! - mean) ** 2;
        expect(variance / n).toBeGreaterThan(20); // not a blank canvas
        expect(changed).toBeGreaterThan(300 * ratio * ratio); // three labels and two icons at least
      } finally {
        await page.context().close();
      }
    }, 120_000);
  }
});

describe('MapLibre draws the map of the Kathmandu fixture (tiles by nepal-places tiles) in both styles', () => {
  for (const name of ['breeze', 'dark'] as const) {
    it(`${name}: roads, buildings, POIs and their labels, every icon found, no error`, async () => {
      // the middle of the data: the archive's centre
      const { centerLon, centerLat } = fixtureTiles.header;
      const { page, responses } = await open(name, 16, 1, fixtureApi, [centerLon, centerLat]);
      try {
        writeFileSync(join(ARTIFACTS, `kathmandu-${name}.png`), await page.locator('#map canvas').screenshot());
        expect(await page.evaluate(() => (globalThis as any).errors)).toEqual([]);
        // every icon the real POIs, places and roads ask for is in the sprite
        expect(await page.evaluate(() => (globalThis as any).missing)).toEqual([]);
        const layers = await rendered(page);
        const count = (prefix: string) =>
          Object.entries(layers)
            .filter(([id]) => id.startsWith(prefix))
            .reduce((n, [, v]) => n + v.length, 0);
        expect(count('roads_')).toBeGreaterThan(20);
        expect(count('buildings')).toBeGreaterThan(50);
        expect(count('pois')).toBeGreaterThan(5);
        expect(count('roads_labels')).toBeGreaterThan(0);
        expect(count('places_')).toBeGreaterThan(0);
        for (const r of responses) expect([200, 204], r.url).toContain(r.status);
      } finally {
        await page.context().close();
      }
    }, 120_000);
  }
});
