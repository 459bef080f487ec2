/**
 * The Nepali map in MapLibre GL JS as the web app bundles it, unmodified, in headless Chromium
 * (playwright-core, WebGL by SwiftShader): the labels of a hand-made map are drawn from the
 * shaped names in its tiles and the glyphs of their clusters the server draws, and look like the
 * same words set by Chromium's own text engine (HarfBuzz) in the same font and size.
 *
 * The likeness: both images are cut to the bounding box of their ink, the map's resampled to the
 * reference's size, and compared by normalised cross-correlation of their darkness (1: the same
 * picture up to brightness and contrast; 0: unrelated). The map draws glyphs from signed distance
 * fields, rounds each cluster's advance to a whole pixel at 24 px and lays a halo around them, so
 * it never reaches 1; `LIKENESS` is the bound it must pass, and the same word set letter by
 * letter without shaping (what MapLibre alone would draw) must score clearly lower.
 * Screenshots go to test/artifacts/.
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
import { PbfWriter } from '../scripts/pbf-writer.js';
import { buildTiles } from '../src/tiles/build.js';
import { TileArchive } from '../src/map/archive.js';
import { fileAssets, withShapedGlyphs } from '../src/map/assets.js';
import { devanagariFontBytes } from '../src/map/shape.js';
import { coreIndex, token } from './support/http-fixture.js';
import { startServer, type TestServer } from './support/http-server.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));
const MAPLIBRE = fileURLToPath(new URL('../node_modules/maplibre-gl/dist/', import.meta.url));
const KEY = token('m', { allowedOrigins: '*' }).key;

/**
 * The least likeness (normalised cross-correlation) of the map's label to Chromium's. Measured:
 * 0.89–0.91 for the word here; the same word letter by letter scores 0.12–0.15 against the map,
 * and the clusters drawn with their glyphs' offsets dropped (a matra or half form out of place)
 * 0.76.
 */
const LIKENESS = 0.85;

/** The label compared: a conjunct (ज्ञ), a vowel sign written before its consonant (ि) and the half forms of श्व. */
const WORD = 'ज्ञानेश्वर';
/** Where each feature is (degrees): far enough apart that at zoom 18 only one is in view. */
const AT = { place: [85.3, 27.7], road: [85.32, 27.7], cafe: [85.3, 27.72] } as const;

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="/maplibre/maplibre-gl.css">
<style>html, body { margin: 0 } #map { width: 640px; height: 480px }</style></head>
<body><div id="map"></div>
<script type="module">
import { Map } from '/maplibre/maplibre-gl.mjs';
const q = new URLSearchParams(location.search);
window.errors = [];
const map = new Map({ container: 'map', style: q.get('style'), center: q.get('center').split(',').map(Number), zoom: Number(q.get('zoom')), fadeDuration: 0, attributionControl: false });
map.on('error', (e) => window.errors.push(String(e.error?.message ?? e.error ?? e)));
map.once('idle', () => (window.idle = true));
window.map = map;
</script></body></html>`;

// Chromium's own text: the word in the same face (the same bytes the server shapes with), 24 px.
const TEXT_PAGE = (word: string, unshaped: boolean) => `<!doctype html>
<html><head><meta charset="utf-8"><style>
@font-face { font-family: 'Devanagari Test'; src: url(/font.ttf) format('truetype'); }
html, body { margin: 0; background: #fff }
#t { display: inline-block; padding: 20px; font: 24px 'Devanagari Test'; color: #000 }
#t span { display: inline-block }
</style></head><body><div id="t">${unshaped ? [...word].map((c) => `<span>${c}</span>`).join('') : word}</div></body></html>`;

let dir: string;
let tiles: TileArchive;
let api: TestServer;
let pages: Server;
let pageOrigin: string;
let browser: Browser;

/** A map of three features: a neighbourhood named in Devanagari, a street with `name:ne`, a café with a mixed name. */
async function writeMap(file: string): Promise<void> {
  const w = new PbfWriter(file, { sorted: true });
  const e7 = (d: number) => Math.round(d * 1e7);
  // the corners of the data (nodes 0 and 5): the earth the tiles draw (the data's box) fills every view
  w.node({ id: 0, lon: e7(85.25), lat: e7(27.65) });
  w.node({
    id: 1,
    lon: e7(AT.place[0]),
    lat: e7(AT.place[1]),
    tags: [
      ['place', 'neighbourhood'],
      ['name', WORD],
    ],
  });
  w.node({ id: 2, lon: e7(AT.road[0] - 0.002), lat: e7(AT.road[1]) });
  w.node({ id: 3, lon: e7(AT.road[0] + 0.002), lat: e7(AT.road[1]) });
  w.node({
    id: 4,
    lon: e7(AT.cafe[0]),
    lat: e7(AT.cafe[1]),
    tags: [
      ['amenity', 'cafe'],
      ['name', 'फलोरैन्स fashion नेपाल'],
    ],
  });
  w.node({ id: 5, lon: e7(85.35), lat: e7(27.75) });
  w.way({
    id: 10,
    refs: [2, 3],
    tags: [
      ['highway', 'residential'],
      ['name', 'Pradarshani Marg'],
      ['name:ne', 'प्रदर्शनी मार्ग'],
    ],
  });
  await w.close();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'map-nepali-'));
  await writeMap(join(dir, 'nepali.osm.pbf'));
  await buildTiles(join(dir, 'nepali.osm.pbf'), join(dir, 'nepali.pmtiles'), { workers: 0 });
  tiles = await TileArchive.open(join(dir, 'nepali.pmtiles'));
  const shaped = await withShapedGlyphs(fileAssets(), tiles.metadata);
  expect(shaped.problem).toBeUndefined();
  api = await startServer({ index: await coreIndex(), tokens: [token('m')], map: { tiles, assets: shaped.assets } });
  const font = await devanagariFontBytes();
  const types: Record<string, string> = { '.mjs': 'text/javascript', '.css': 'text/css', '.map': 'application/json' };
  pages = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    if (url.pathname === '/text')
      return void res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(TEXT_PAGE(url.searchParams.get('word')!, url.searchParams.has('unshaped')));
    if (url.pathname === '/font.ttf') return void res.writeHead(200, { 'content-type': 'font/ttf' }).end(font);
    const m = /^\/maplibre\/([\w.-]+)$/.exec(url.pathname);
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
  await api?.close();
  await tiles?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Opens the Nepali style at `center`, `zoom` and waits for the map's first `idle`. */
async function openMap(center: readonly number[], zoom: number): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 640, height: 480 } })).newPage();
  const style = `${api.origin}/api/v1/styles/breeze?lang=ne&key=${KEY}`;
  await page.goto(`${pageOrigin}/?style=${encodeURIComponent(style)}&zoom=${zoom}&center=${center.join(',')}`);
  await page
    .waitForFunction(() => (globalThis as any).idle === true, null, { timeout: 60_000 })
    .catch(async (e: Error) => {
      throw new Error(`${e.message}; map errors: ${JSON.stringify(await page.evaluate(() => (globalThis as any).errors))}`);
    });
  return page;
}

/** The rendered features of the symbol layers: layer id → their shaped names. */
async function labels(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(() => {
    const out: Record<string, string[]> = {};
    const map = (globalThis as any).map;
    const ids = map
      .getStyle()
      .layers.filter((l: any) => l.type === 'symbol')
      .map((l: any) => l.id);
    for (const f of map.queryRenderedFeatures({ layers: ids })) (out[f.layer.id] ??= []).push(String(f.properties['pgf:name:ne'] ?? ''));
    return out;
  });
}

/** A grey image: darkness in [0, 1] per pixel. */
interface Ink {
  width: number;
  height: number;
  data: Float64Array;
}

/** The darkness of a screenshot against its background (its corner pixel), cut to the box of the pixels darker than it. */
function inkBox(png: Buffer): Ink {
  const img = PNG.sync.read(png);
  const lum = (i: number) => 0.299 * img.data[4 * i]! + 0.587 * img.data[4 * i + 1]! + 0.114 * img.data[4 * i + 2]!;
  const bg = lum(0);
  let x0 = img.width,
    y0 = img.height,
    x1 = -1,
    y1 = -1;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      if (bg - lum(y * img.width + x) <= 40) continue;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  }
  expect(x1, 'no ink').toBeGreaterThanOrEqual(0);
  const width = x1 - x0 + 1,
    height = y1 - y0 + 1;
  const data = new Float64Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) data[y * width + x] = Math.max(0, bg - lum((y + y0) * img.width + x + x0)) / bg;
  return { width, height, data };
}

/** `a` resampled (bilinear) to `width` × `height`. */
function resample(a: Ink, width: number, height: number): Float64Array {
  const out = new Float64Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sx = ((x + 0.5) * a.width) / width - 0.5,
        sy = ((y + 0.5) * a.height) / height - 0.5;
      const x0 = Math.max(0, Math.floor(sx)),
        y0 = Math.max(0, Math.floor(sy));
      const x1 = Math.min(a.width - 1, x0 + 1),
        y1 = Math.min(a.height - 1, y0 + 1);
      const fx = Math.min(1, Math.max(0, sx - x0)),
        fy = Math.min(1, Math.max(0, sy - y0));
      const at = (px: number, py: number) => a.data[py * a.width + px]!;
      out[y * width + x] = (at(x0, y0) * (1 - fx) + at(x1, y0) * fx) * (1 - fy) + (at(x0, y1) * (1 - fx) + at(x1, y1) * fx) * fy;
    }
  }
  return out;
}

/** Normalised cross-correlation of `a` and `b`, `a` resampled to `b`'s size. */
function likeness(a: Ink, b: Ink): number {
  const x = resample(a, b.width, b.height),
    y = b.data;
  const n = y.length;
  const mx = x.reduce((s, v) => s + v, 0) / n,
    my = y.reduce((s, v) => s + v, 0) / n;
  let sxy = 0,
    sxx = 0,
    syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
    syy += (y[i]! - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

/** Chromium's rendering of `word` in the face at 24 px, shaped (its text engine) or letter by letter. */
async function chromiumText(word: string, unshaped = false): Promise<Buffer> {
  const page = await (await browser.newContext({ viewport: { width: 640, height: 200 } })).newPage();
  try {
    await page.goto(`${pageOrigin}/text?word=${encodeURIComponent(word)}${unshaped ? '&unshaped' : ''}`);
    await page.evaluate(() => (globalThis as any).document.fonts.ready);
    return await page.locator('#t').screenshot();
  } finally {
    await page.context().close();
  }
}

describe('the Nepali style in MapLibre draws the shaped label as Chromium sets the word', () => {
  it(`${WORD} at 24 px: likeness to Chromium's text above ${LIKENESS}, and above the unshaped letters'`, async () => {
    // zoom 18: the neighbourhood label's text-size is 24 px there, the size the glyphs are drawn at
    const page = await openMap(AT.place, 18);
    try {
      expect(await page.evaluate(() => (globalThis as any).errors)).toEqual([]);
      const found = await labels(page);
      expect(found.places_subplace).toHaveLength(1);
      expect(found.places_subplace![0]).toMatch(/^[\ue000-\uf8ff]+$/);
      // only that label: the roads and POIs are out of view, the other symbol layers hidden
      await page.evaluate(() => {
        const map = (globalThis as any).map;
        for (const l of map.getStyle().layers)
          if (l.type === 'symbol' && l.id !== 'places_subplace') map.setLayoutProperty(l.id, 'visibility', 'none');
        (globalThis as any).idle = false;
        map.once('idle', () => ((globalThis as any).idle = true));
      });
      await page.waitForFunction(() => (globalThis as any).idle === true, null, { timeout: 30_000 });
      const shot = await page.locator('#map canvas').screenshot();
      writeFileSync(join(ARTIFACTS, 'nepali-label-map.png'), shot);
      const reference = await chromiumText(WORD);
      writeFileSync(join(ARTIFACTS, 'nepali-label-chromium.png'), reference);
      const letters = await chromiumText(WORD, true);
      writeFileSync(join(ARTIFACTS, 'nepali-label-unshaped.png'), letters);
      const map = inkBox(shot),
        text = inkBox(reference),
        plain = inkBox(letters);
      const shaped = likeness(map, text);
      const unshaped = likeness(map, plain);
      // the same size, give or take the SDF's soft edge and rounded advances
      expect(Math.abs(map.width - text.width) / text.width).toBeLessThan(0.1);
      expect(Math.abs(map.height - text.height) / text.height).toBeLessThan(0.15);
      expect(shaped).toBeGreaterThan(LIKENESS);
      expect(shaped - unshaped).toBeGreaterThan(0.2);
      writeFileSync(
        join(ARTIFACTS, 'nepali-label-likeness.json'),
        JSON.stringify({ word: WORD, shaped, unshaped, map: [map.width, map.height], text: [text.width, text.height] }),
      );
    } finally {
      await page.context().close();
    }
  }, 120_000);

  it('draws a street name along its line and a mixed Devanagari and Latin name, from the shaped names', async () => {
    const page = await openMap([(AT.road[0] + AT.cafe[0]) / 2, (AT.road[1] + AT.cafe[1]) / 2], 14.5);
    try {
      await page.evaluate(() => (globalThis as any).map.jumpTo({ zoom: 17, center: [85.32, 27.7] }));
      await page.evaluate(
        () => (((globalThis as any).idle = false), (globalThis as any).map.once('idle', () => ((globalThis as any).idle = true))),
      );
      await page.waitForFunction(() => (globalThis as any).idle === true, null, { timeout: 30_000 });
      writeFileSync(join(ARTIFACTS, 'nepali-street.png'), await page.locator('#map canvas').screenshot());
      const street = await labels(page);
      // repeated along the line, each the shaped name: two words of clusters
      expect(street.roads_labels_minor?.length).toBeGreaterThan(0);
      for (const label of street.roads_labels_minor!) expect(label).toMatch(/^[\ue000-\uf8ff]+ [\ue000-\uf8ff]+$/);

      await page.evaluate(
        () => (
          ((globalThis as any).idle = false),
          (globalThis as any).map.once('idle', () => ((globalThis as any).idle = true)),
          (globalThis as any).map.jumpTo({ zoom: 18, center: [85.3, 27.72] })
        ),
      );
      await page.waitForFunction(() => (globalThis as any).idle === true, null, { timeout: 30_000 });
      writeFileSync(join(ARTIFACTS, 'nepali-mixed.png'), await page.locator('#map canvas').screenshot());
      const cafe = await labels(page);
      expect(cafe.pois).toHaveLength(1);
      expect(cafe.pois![0]).toMatch(/^[\ue000-\uf8ff]+ fashion [\ue000-\uf8ff]+$/);
      expect(await page.evaluate(() => (globalThis as any).errors)).toEqual([]);
    } finally {
      await page.context().close();
    }
  }, 120_000);
});
