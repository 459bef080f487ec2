/**
 * The web app at `/`, used as a person would: `nepal-places serve --tiles` on the Kathmandu
 * fixture (the real command, as `npm start` runs it), the page opened in headless Chromium
 * (Debian `chromium`, playwright-core, WebGL by SwiftShader). Each step's answer is checked
 * against the API asked independently by the test, with the development key. Screenshots go to
 * test/artifacts/.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import polyline from '@mapbox/polyline';
import turfLength from '@turf/length';
import { lineString } from '@turf/helpers';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTiles } from '../src/tiles/build.js';
import { KEY_PATTERN } from '../src/http/keys.js';
import { FIXTURE_TILES } from '../src/map/assets.js';
import { buildWebApp } from '../scripts/web-app.js';
import { CORE_PBF } from './support/http-fixture.js';
import {
  api as askApi,
  ARTIFACTS,
  centre,
  idle,
  launch,
  metres,
  openApp as open,
  sameQuery,
  serveCli,
  stop,
  type Server,
} from './support/app-page.js';

let dir: string;
let server: Server;
let devKey: string;
let browser: Browser;
let appDir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'app-browser-'));
  // the app as `npm run prepare` builds it, from the sources under test, where serve reads it
  appDir = (await buildWebApp()).dir;
  // the fixture's map as `npm run assets` builds it for `npm start`
  let tiles = FIXTURE_TILES;
  if (!existsSync(tiles)) await buildTiles(CORE_PBF, (tiles = join(dir, 'kathmandu.pmtiles')), { workers: 0 });
  server = await serveCli(['--tiles', tiles]);
  devKey = server.devKey;
  browser = await launch();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stop(server);
  rmSync(dir, { recursive: true, force: true });
});

/** The API asked by the test itself, with the development key: the envelope's data. */
const api = <T = any>(pathAndQuery: string) => askApi<T>(server, pathAndQuery);

/**
 * Opens the app and waits for the map's first `idle`: at street level in the middle of the data,
 * or with `hash` null at the URL without one, as a first visit does.
 */
const openApp = (viewport = { width: 1280, height: 800 }, mobile = false, hash?: null, origin = server.origin) =>
  open(browser, { ...server, origin }, { viewport, mobile, hash });

/**
 * The name the page shows for a record: English where OSM has `name:en`, as the map labels it,
 * else `name`, else the type in words (`Bus stop`).
 */
const shownName = (r: { name: string; type: string; tags?: string[] }) => {
  const type = r.type.replace(/_/g, ' ');
  return r.tags?.find((t) => t.startsWith('name:en|'))?.slice(8) || r.name || type.charAt(0).toUpperCase() + type.slice(1);
};

/**
 * What the map shows of the world, `[west, south, east, north, zoom]`: the part above the
 * phone's sheet (the map's bottom padding), which covers the rest.
 */
const visibleBox = (page: Page) =>
  page.evaluate(() => {
    const map = (globalThis as any).nepalPlaces.map;
    const c = map.getContainer() as { clientWidth: number; clientHeight: number };
    const sw = map.unproject([0, c.clientHeight - map.getPadding().bottom]),
      ne = map.unproject([c.clientWidth, 0]);
    return [sw.lng, sw.lat, ne.lng, ne.lat, map.getZoom()] as number[];
  });

/** The data's extent as `/health` says it. */
async function dataBounds(origin = server.origin): Promise<number[]> {
  const body = (await (await fetch(`${origin}/api/v1/health`)).json()) as any;
  return body.data[0].bounds;
}

/** That `view` holds all of `data` and is fitted to it: the data spans most of it one way. */
function expectFits(view: number[], data: number[]): void {
  const [w, s, e, n] = data;
  expect(view[0]).toBeLessThanOrEqual(w!);
  expect(view[1]).toBeLessThanOrEqual(s!);
  expect(view[2]).toBeGreaterThanOrEqual(e!);
  expect(view[3]).toBeGreaterThanOrEqual(n!);
  const across = Math.max((e! - w!) / (view[2]! - view[0]!), (n! - s!) / (view[3]! - view[1]!));
  expect(across).toBeGreaterThan(0.5);
}

describe('the page and its key', () => {
  it('the page carries a key from the server; no built file on disk holds it or any key', async () => {
    const res = await fetch(`${server.origin}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    const key = /<meta name="nepal-places-key" content="([^"]+)">/.exec(html)?.[1];
    expect(key).toMatch(KEY_PATTERN);
    expect(key).not.toBe(devKey);
    // the files as built: the key is in none of them, and the page on disk has no key at all
    const files = readdirSync(appDir);
    expect(files).toEqual(expect.arrayContaining(['index.html', 'app.js', 'app.css', 'maplibre-gl.css', 'maplibre-gl-worker.mjs']));
    for (const f of files) expect(readFileSync(join(appDir, f), 'latin1').includes(key!), f).toBe(false);
    expect(readFileSync(join(appDir, 'index.html'), 'utf8')).not.toMatch(/nepal-places-key/);
    // the same key for every visitor of this server
    expect(await (await fetch(`${server.origin}/`)).text()).toContain(key);
  });

  it("the page key answers the server's own origin and requests without one, and is refused (403) from another origin", async () => {
    const key = /name="nepal-places-key" content="([^"]+)"/.exec(await (await fetch(`${server.origin}/`)).text())![1]!;
    const url = `${server.origin}/api/v1/search?q=thamel&key=${key}`;
    expect((await fetch(url)).status).toBe(200);
    expect((await fetch(url, { headers: { Origin: server.origin } })).status).toBe(200);
    const other = await fetch(url, { headers: { Origin: 'https://elsewhere.example' } });
    expect(other.status).toBe(403);
    expect(((await other.json()) as any).message).toMatch(/Origin/);
    // and the styles it loads the map with
    expect((await fetch(`${server.origin}/api/v1/styles/breeze?key=${key}`, { headers: { Origin: 'http://127.0.0.1:1' } })).status).toBe(
      403,
    );
  });

  it("the app's files: content types, ETag and 304, gzip; an unknown file is a 404 envelope", async () => {
    for (const [path, type] of [
      ['/app/app.js', 'text/javascript'],
      ['/app/app.css', 'text/css'],
      ['/app/maplibre-gl.css', 'text/css'],
      ['/app/maplibre-gl-worker.mjs', 'text/javascript'],
      ['/app/noto-sans-devanagari-400.woff2', 'font/woff2'],
      ['/app/noto-sans-devanagari-600.woff2', 'font/woff2'],
      ['/app/noto-sans-devanagari-OFL.txt', 'text/plain'],
    ]) {
      const res = await fetch(server.origin + path, { headers: { 'Accept-Encoding': 'identity' } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toContain(type);
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.equals(readFileSync(join(appDir, path.slice(5)))), path).toBe(true);
      const etag = res.headers.get('etag')!;
      expect(etag).toMatch(/^"[0-9a-f]+"$/);
      const again = await fetch(server.origin + path, { headers: { 'If-None-Match': etag, 'Accept-Encoding': 'identity' } });
      expect(again.status, path).toBe(304);
    }
    const head = await fetch(`${server.origin}/app/app.css`, { method: 'HEAD', headers: { 'Accept-Encoding': 'identity' } });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBe(readFileSync(join(appDir, 'app.css')).length);
    expect(await head.text()).toBe('');
    const gz = await fetch(`${server.origin}/app/app.js`); // fetch asks for gzip and inflates it
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(Buffer.from(await gz.arrayBuffer()).equals(readFileSync(join(appDir, 'app.js')))).toBe(true);
    const missing = await fetch(`${server.origin}/app/nothing.js`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).status).toBe(404);
  });
});

describe('the map draws the loaded data, on a laptop', () => {
  let page: Page;
  let errors: string[];
  beforeAll(async () => ({ page, errors } = await openApp()), 120_000);
  afterAll(() => page?.context().close());

  it('tiles rendered: roads, buildings and POIs, a canvas that is not blank, the attribution, no error', async () => {
    const layers = await page.evaluate(() => {
      const count: Record<string, number> = {};
      for (const f of (globalThis as any).nepalPlaces.map.queryRenderedFeatures()) count[f.sourceLayer] = (count[f.sourceLayer] ?? 0) + 1;
      return count;
    });
    expect(layers.roads).toBeGreaterThan(10);
    expect(layers.buildings).toBeGreaterThan(20);
    expect(layers.pois).toBeGreaterThan(3);
    const png = PNG.sync.read(await page.locator('#map canvas').screenshot());
    let mean = 0;
    for (let i = 0; i < png.data.length; i += 4) mean += png.data[i]!;
    const n = png.data.length / 4;
    mean /= n;
    let variance = 0;
    for (let i = 0; i < png.data.length; i += 4) variance += (png.data[i]! - mean) ** 2;
    expect(variance / n).toBeGreaterThan(20);
    expect(await page.locator('.maplibregl-ctrl-attrib').innerText()).toContain('© OpenStreetMap contributors');
    expect(errors).toEqual([]);
  });

  it('a category chip: as many markers as /search/nearby returns around the centre, the same names listed, the radius drawn', async () => {
    const asked = page.waitForResponse((r) => r.url().includes('/api/v1/search/nearby'));
    const at = await centre(page);
    await page.locator('.np-chip[data-type="cafe"]').click();
    const url = (await asked).url();
    const q = new URL(url).searchParams;
    expect(q.get('type')).toBe('cafe');
    expect(metres([Number(q.get('lon')), Number(q.get('lat'))], at)).toBeLessThan(1);
    const expected = await api(sameQuery(url));
    expect(expected.length).toBeGreaterThan(3);
    await expect.poll(() => page.locator('.np-marker').count()).toBe(expected.length);
    const names = await page.locator('.np-result .np-name').allInnerTexts();
    expect(names).toEqual(expected.map(shownName));
    const shown = await page.locator('.np-marker').evaluateAll((els) => els.map((e) => Number((e as any).dataset.placeId)));
    expect(shown.sort()).toEqual(expected.map((r) => r.placeId).sort());
    // the list says the distance and whether it is open now, as the API does
    const first = await page.locator('.np-result .np-meta').first().innerText();
    expect(first).toMatch(expected[0].open ? /open now/ : /closed now|hours unknown/);
    // the radius: a ring drawn at the asked radius from the centre
    const ring = await page.evaluate(
      async () =>
        (await (globalThis as any).nepalPlaces.map.getSource('np-radius').getData()).features[0].geometry.coordinates[0] as [
          number,
          number,
        ][],
    );
    const radiusKm = Number(q.get('radius'));
    for (const p of ring.slice(0, 8)) expect(metres(p, [Number(q.get('lon')), Number(q.get('lat'))])).toBeCloseTo(radiusKm * 1000, -1);
    await idle(page);
    expect(
      await page.evaluate(() => (globalThis as any).nepalPlaces.map.queryRenderedFeatures({ layers: ['np-radius-line'] }).length),
    ).toBeGreaterThan(0);
    writeFileSync(join(ARTIFACTS, 'app-laptop-cafes.png'), await page.screenshot());

    // "open now": asks again with isOpen=true, and shows what that answers
    const again = page.waitForResponse((r) => r.url().includes('/api/v1/search/nearby'));
    await page.locator('#np-open-now').check();
    const openUrl = (await again).url();
    expect(new URL(openUrl).searchParams.get('isOpen')).toBe('true');
    const open = await api(sameQuery(openUrl));
    for (const r of open) expect(r.open).toBe(true);
    await expect.poll(() => page.locator('.np-marker').count()).toBe(open.length);
    // waited for before the click: a quick answer would otherwise come before the wait
    const reset = page.waitForResponse((r) => r.url().includes('/api/v1/search/nearby'));
    await page.locator('#np-open-now').uncheck();
    await reset;
    await page.locator('.np-chip[data-type="cafe"]').click(); // off again: no markers, no ring
    await expect.poll(() => page.locator('.np-marker').count()).toBe(0);
  });

  it('a search pick flies to the place', async () => {
    const suggested = page.waitForResponse((r) => r.url().includes('/api/v1/search?'));
    await page.locator('#np-q').pressSequentially('teafresho', { delay: 30 });
    const url = (await suggested).url();
    // biased to the map's centre
    const q = new URL(url).searchParams;
    expect(metres([Number(q.get('lon')), Number(q.get('lat'))], await centre(page))).toBeLessThan(1);
    const suggestions = await api(sameQuery(url));
    await expect.poll(() => page.locator('.np-suggestion').count()).toBe(suggestions.length);
    // each says what it is: its type, in words
    const kinds = await page.locator('.np-suggestion .np-kind').allInnerTexts();
    expect(kinds.map((k) => k.toLowerCase())).toEqual(suggestions.map((s) => s.type.replace(/_/g, ' ')));
    const first = suggestions[0];
    expect(first.name).toMatch(/Teafresho/);
    const moved = page.evaluate(() => new Promise<void>((resolve) => (globalThis as any).nepalPlaces.map.once('moveend', () => resolve())));
    await page.locator('.np-suggestion').first().click();
    await moved;
    const [place] = await api(`/api/v1/places?placeId=${first.placeId}`);
    expect(metres(await centre(page), [place.centroid.lon, place.centroid.lat])).toBeLessThan(5);
    await expect.poll(() => page.locator('.np-popup .np-title').innerText()).toBe(shownName(place));
    await page.keyboard.press('Escape');
    await idle(page);
  });

  it('a click on the map shows what /reverse finds there; directions from and to it draw a route; the mode switch asks again', async () => {
    const box = (await page.locator('#map').boundingBox())!;
    const click = async (dx: number, dy: number) => {
      const asked = page.waitForResponse((r) => r.url().includes('/api/v1/reverse'));
      await page.mouse.click(box.x + box.width / 2 + dx, box.y + box.height / 2 + dy);
      const url = (await asked).url();
      const q = new URL(url).searchParams;
      // the point clicked, as the map has it
      const at = await page.evaluate(
        ([x, y]) => (globalThis as any).nepalPlaces.map.unproject([x, y]).toArray(),
        [box.width / 2 + dx, box.height / 2 + dy],
      );
      expect(metres([Number(q.get('lon')), Number(q.get('lat'))], at)).toBeLessThan(1);
      const [found] = await api(sameQuery(url));
      await expect.poll(() => page.locator('.np-popup .np-address').innerText()).toBe(found.address);
      await expect.poll(() => page.locator('.np-popup .np-title').innerText()).toBe(shownName(found));
      return found;
    };
    await click(-220, 120);
    await page.locator('.np-popup .np-from').click();
    await click(200, -150);
    const routed = page.waitForResponse((r) => r.url().includes('/api/v1/directions'));
    await page.locator('.np-popup .np-to').click();
    const url = (await routed).url();
    expect(new URL(url).searchParams.get('mode')).toBe('foot');
    await checkRoute(url);
    writeFileSync(join(ARTIFACTS, 'app-laptop-route.png'), await page.screenshot());

    for (const mode of ['car', 'bike', 'motorbike']) {
      const next = page.waitForResponse((r) => r.url().includes('/api/v1/directions'));
      await page.locator(`.np-mode[data-mode="${mode}"]`).click();
      const modeUrl = (await next).url();
      expect(new URL(modeUrl).searchParams.get('mode')).toBe(mode);
      expect(new URL(modeUrl).searchParams.getAll('points[]')).toEqual(new URL(url).searchParams.getAll('points[]'));
      await checkRoute(modeUrl);
    }
    expect(errors).toEqual([]);
  });

  /** The route the page drew for `url`: the line as /directions answers it, its distance and time in the panel. */
  async function checkRoute(url: string) {
    const [route] = await api(sameQuery(url));
    const expected = polyline.decode(route.encodedPolyline).map(([lat, lon]) => [lon, lat]);
    await expect.poll(() => page.locator('.np-summary').innerText()).toMatch(/ (on foot|by bike|by motorbike|by car)$/);
    const line = await page.evaluate(
      async () =>
        (await (globalThis as any).nepalPlaces.map.getSource('np-route').getData()).features.find((f: any) => f.properties.part === 'route')
          .geometry.coordinates as [number, number][],
    );
    expect(line).toEqual(expected);
    // its length, measured here, is the distance the API says
    expect(turfLength(lineString(line), { units: 'kilometers' }) * 1000).toBeCloseTo(route.distanceInMeters, -1);
    // the panel: "1.2 km · 15 min on foot", to the rounding it shows
    const text = await page.locator('.np-summary').innerText();
    const m = /^([\d.]+) (m|km) · (?:(\d+) h )?(\d+) (min|s) /.exec(text)!;
    expect(m, text).not.toBeNull();
    const shownMetres = Number(m[1]) * (m[2] === 'km' ? 1000 : 1);
    expect(Math.abs(shownMetres - route.distanceInMeters)).toBeLessThanOrEqual(m[2] === 'km' ? 50 : 5);
    const shownSeconds = (Number(m[3] ?? 0) * 60 + Number(m[4])) * (m[5] === 'min' ? 60 : 1);
    expect(Math.abs(shownSeconds - route.timeInMs / 1000)).toBeLessThanOrEqual(m[5] === 'min' ? 30 : 1);
    // the steps, as the API words them
    const steps = await page.locator('.np-step').evaluateAll((els) => els.map((e) => e.firstChild!.textContent));
    expect(steps).toEqual(route.instructionList.map((i: { text: string }) => i.text));
    expect(steps.length).toBeGreaterThan(1);
    await idle(page);
    expect(
      await page.evaluate(() => (globalThis as any).nepalPlaces.map.queryRenderedFeatures({ layers: ['np-route-line'] }).length),
    ).toBeGreaterThan(0);
  }
});

describe('on a phone', () => {
  it('the map fills the screen, the panel is a sheet at the bottom that folds away; the chips work the same', async () => {
    const { page, errors } = await openApp({ width: 390, height: 844 }, true);
    try {
      const map = (await page.locator('#map').boundingBox())!;
      expect(map.width).toBe(390);
      expect(map.height).toBe(844);
      const sheet = (await page.locator('#np-panel').boundingBox())!;
      expect(sheet.y + sheet.height).toBeCloseTo(844, 0);
      expect(sheet.y).toBeGreaterThan(844 / 3);
      expect(await page.locator('.maplibregl-ctrl-attrib').innerText()).toContain('© OpenStreetMap contributors');
      // the sheet leaves the top of the map visible: searches go around the middle of that part
      const visible = await page.evaluate(([h]) => (globalThis as any).nepalPlaces.map.unproject([195, h / 2]).toArray(), [sheet.y]);
      const asked = page.waitForResponse((r) => r.url().includes('/api/v1/search/nearby'));
      await page.locator('.np-chip[data-type="eat"]').tap();
      const q = new URL((await asked).request().url()).searchParams;
      expect(metres([Number(q.get('lon')), Number(q.get('lat'))], visible)).toBeLessThan(2);
      const expected = await api(sameQuery((await asked).url()));
      expect(expected.length).toBeGreaterThan(3);
      await expect.poll(() => page.locator('.np-marker').count()).toBe(expected.length);
      await idle(page);
      writeFileSync(join(ARTIFACTS, 'app-phone.png'), await page.screenshot());
      await page.locator('#np-handle').tap();
      await expect.poll(() => page.locator('#np-body').isVisible()).toBe(false);
      expect((await page.locator('#np-panel').boundingBox())!.height).toBeLessThan(sheet.height);
      expect(errors).toEqual([]);
    } finally {
      await page.context().close();
    }
  }, 120_000);
});

describe('a first visit (no # in the URL) opens on the data, at every size', () => {
  it.each([
    ['a phone', { width: 390, height: 844 }, true],
    ['a tablet', { width: 768, height: 1024 }, true],
    ['a laptop', { width: 1280, height: 800 }, false],
  ])(
    '%s',
    async (_, viewport, mobile) => {
      const { page, errors } = await openApp(viewport, mobile, null);
      try {
        expectFits(await visibleBox(page), await dataBounds());
        // and the map is drawn there: the tiles' features
        const drawn = await page.evaluate(() => (globalThis as any).nepalPlaces.map.queryRenderedFeatures().length);
        expect(drawn).toBeGreaterThan(20);
        expect(errors).toEqual([]);
      } finally {
        await page.context().close();
      }
    },
    120_000,
  );
});

describe('a server without map tiles', () => {
  it('the page says so, opens on the data, and its places still work', async () => {
    const bare = await serveCli(['--data', CORE_PBF]);
    try {
      expect(bare.out.stdout).toContain('no map tiles');
      const { page, errors } = await openApp({ width: 390, height: 844 }, true, null, bare.origin);
      try {
        await expect.poll(() => page.locator('#np-status').innerText()).toMatch(/no map tiles[^]*--tiles/);
        expectFits(await visibleBox(page), await dataBounds(bare.origin));
        await page.locator('.np-chip[data-type="eat"]').tap();
        await expect.poll(() => page.locator('.np-marker').count()).toBeGreaterThan(3);
        writeFileSync(join(ARTIFACTS, 'app-no-tiles.png'), await page.screenshot());
        expect(errors).toEqual([]);
      } finally {
        await page.context().close();
      }
    } finally {
      await stop(bare);
    }
  }, 120_000);
});

describe('a page from before a restart of the server', () => {
  it('holds a key the server no longer knows: the page says to reload it', async () => {
    const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
    const page = await context.newPage();
    try {
      // the page as a previous run of the server wrote it, with its own page key
      await page.route(`${server.origin}/`, async (route) => {
        const res = await route.fetch();
        const old = (await res.text()).replace(/(name="nepal-places-key" content=")[^"]+/, '$1KeyOfAnEarlierRun_0123456789');
        await route.fulfill({ response: res, body: old });
      });
      await page.goto(`${server.origin}/`);
      await expect.poll(() => page.locator('#np-status').innerText(), { timeout: 15_000 }).toMatch(/no longer valid .* reload the page/);
    } finally {
      await context.close();
    }
  }, 60_000);
});

describe('the access log', () => {
  it('never holds the page key', async () => {
    const pages = () => server.out.stdout.split('\n').filter((l) => / GET \/ 200 /.test(l)).length;
    const before = pages();
    const key = /name="nepal-places-key" content="([^"]+)"/.exec(await (await fetch(`${server.origin}/`)).text())![1]!;
    // the log is written in batches: waited for, not slept on
    await expect.poll(pages, { timeout: 10_000 }).toBeGreaterThan(before); // this request is logged…
    expect(server.out.stdout).toMatch(/GET \/api\/v1\/tiles\/\d+\/\d+\/\d+\.mvt 200/); // the page's requests are logged…
    expect(server.out.stdout).toMatch(/GET \/app\/app\.js 200/);
    expect(server.out.stdout.includes(key)).toBe(false); // …without their key
    expect(server.out.stderr.includes(key)).toBe(false);
  });
});

describe('serve --public-url', () => {
  it('binds the page key to the public origin too, and lets the page connect to it', async () => {
    const pub = await serveCli(['--public-url', 'https://maps.example.com/']);
    try {
      expect(pub.out.stdout).toContain('the map at https://maps.example.com/ ');
      const res = await fetch(`${pub.origin}/`);
      expect(res.headers.get('content-security-policy')).toContain("connect-src 'self' https://maps.example.com;");
      const key = /name="nepal-places-key" content="([^"]+)"/.exec(await res.text())![1]!;
      const url = `${pub.origin}/api/v1/search?q=thamel&key=${key}`;
      for (const origin of ['https://maps.example.com', pub.origin])
        expect((await fetch(url, { headers: { Origin: origin } })).status, origin).toBe(200);
      expect((await fetch(url, { headers: { Origin: 'https://maps.example.org' } })).status).toBe(403);
    } finally {
      await stop(pub);
    }
  }, 60_000);
});

describe('serve --no-app', () => {
  it('has no page at /: a 404 envelope', async () => {
    const other = await serveCli(['--no-app']);
    try {
      expect(other.out.stdout).toContain('no web app (--no-app)');
      const res = await fetch(`${other.origin}/`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as any).status).toBe(404);
      expect((await fetch(`${other.origin}/app/app.js`)).status).toBe(404);
    } finally {
      await stop(other);
    }
  }, 60_000);
});
