/**
 * The web app's travel-time features, used as a person would in headless Chromium against
 * `nepal-places serve --tiles` on the Kathmandu fixture: "within N minutes" by walk, motorbike or
 * car on the category chips (`/search/nearby?by=time`), travel times in the list, and the reach
 * of the map's centre (`/isochrone`) drawn as stacked fills. Each answer the page shows is checked
 * against the answer it got from the server (whose answers docs/travel-time.md's own tests check).
 * Screenshots go to test/artifacts/.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebApp } from '../scripts/web-app.js';
import { FIXTURE_TILES } from '../src/map/assets.js';
import { buildTiles } from '../src/tiles/build.js';
import { CORE_PBF } from './support/http-fixture.js';
import { ARTIFACTS, centre, idle, launch, metres, openApp, rendered, serveCli, stop, type Server } from './support/app-page.js';

let dir: string;
let server: Server;
let browser: Browser;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'app-travel-'));
  await buildWebApp();
  let tiles = FIXTURE_TILES;
  if (!existsSync(tiles)) await buildTiles(CORE_PBF, (tiles = join(dir, 'kathmandu.pmtiles')), { workers: 0 });
  server = await serveCli(['--tiles', tiles]);
  browser = await launch();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stop(server);
  rmSync(dir, { recursive: true, force: true });
});

/** The app's `np-reach` source as the map holds it. */
const reachData = (page: Page) =>
  page.evaluate(async () => (await (globalThis as any).nepalPlaces.map.getSource('np-reach').getData()).features as any[]);

/** `12 min`, `45 s`, `1 h 05 min` in seconds. */
function seconds(text: string): number {
  const m = /^(?:(\d+) h )?(\d+) (min|s)$/.exec(text);
  if (!m) throw new Error(`not a duration: ${text}`);
  return (Number(m[1] ?? 0) * 60 + Number(m[2])) * (m[3] === 'min' ? 60 : 1);
}

describe('"within N minutes" on the chips', () => {
  let page: Page;
  let errors: string[];
  beforeAll(async () => ({ page, errors } = await openApp(browser, server, { locale: 'en-GB' })), 120_000);
  afterAll(() => page?.context().close());

  it('asks /search/nearby by time for the mode and minutes chosen, lists the places in travel-time order with their times', async () => {
    await page.locator('#np-minutes').selectOption('10');
    await page.locator('.np-travel-mode[data-mode="motorbike"]').click();
    const asked = page.waitForResponse((r) => r.url().includes('/api/v1/search/nearby'));
    const at = await centre(page);
    await page.locator('.np-chip[data-type="eat"]').click();
    const res = await asked;
    const q = new URL(res.url()).searchParams;
    expect([q.get('by'), q.get('mode'), q.get('minutes'), q.get('type')]).toEqual(['time', 'motorbike', '10', 'eat']);
    expect(q.has('radius')).toBe(false); // refused with by=time
    expect(metres([Number(q.get('lon')), Number(q.get('lat'))], at)).toBeLessThan(1);
    expect(res.status()).toBe(200);
    const expected = ((await res.json()) as { data: any[] }).data;
    expect(expected.length).toBeGreaterThan(3);
    await expect.poll(() => page.locator('.np-result').count()).toBe(expected.length);
    // the name as the map labels it in English: `name:en` where OSM has it
    const named = (r: any) => r.tags.find((t: string) => t.startsWith('name:en|'))?.slice(8) || r.name;
    expect(await page.locator('.np-result .np-name').allInnerTexts()).toEqual(expected.map(named));
    expect(await page.locator('.np-marker').count()).toBe(expected.length);
    // the times: each record's travelTimeInMs to the rounding shown, least first; all within the 10 minutes
    const times = await page.locator('.np-result .np-time').allInnerTexts();
    expect(times.length).toBe(expected.length);
    times.forEach((t, i) => {
      const ms = expected[i].travelTimeInMs;
      expect(ms).toBeLessThanOrEqual(10 * 60_000);
      expect(Math.abs(seconds(t) - ms / 1000), t).toBeLessThanOrEqual(/min/.test(t) ? 30 : 1);
    });
    for (let i = 1; i < expected.length; i++) expect(expected[i].travelTimeInMs).toBeGreaterThanOrEqual(expected[i - 1].travelTimeInMs);
    // the distance beside it is the way's, not the crow's
    const ways = await page.locator('.np-result .np-distance').allInnerTexts();
    ways.forEach((text, i) => {
      const m = /^([\d.]+) (m|km)$/.exec(text)!;
      expect(m, text).not.toBeNull();
      expect(Math.abs(Number(m[1]) * (m[2] === 'km' ? 1000 : 1) - expected[i].travelDistanceInMeters), text).toBeLessThanOrEqual(
        m[2] === 'km' ? 50 : 5,
      );
    });
    expect(await page.locator('#np-status').innerText()).toBe(`${expected.length} places to eat within 10 min by motorbike`);
    // no radius circle: the minutes bound the search
    await idle(page);
    expect(await rendered(page, ['np-radius-fill', 'np-radius-line'])).toBe(0);
    expect(errors).toEqual([]);
  });

  it('another mode asks again at the same point; "any time" goes back to the radius of the view', async () => {
    const asked = page.waitForResponse((r) => r.url().includes('/api/v1/search/nearby'));
    await page.locator('.np-travel-mode[data-mode="car"]').click();
    const q = new URL((await asked).url()).searchParams;
    expect([q.get('by'), q.get('mode'), q.get('minutes')]).toEqual(['time', 'car', '10']);
    const expected = ((await (await asked).json()) as { data: any[] }).data;
    await expect.poll(() => page.locator('.np-result').count()).toBe(expected.length);
    const plain = page.waitForResponse((r) => r.url().includes('/api/v1/search/nearby'));
    await page.locator('#np-minutes').selectOption('');
    const p = new URL((await plain).url()).searchParams;
    expect(p.has('by') || p.has('mode') || p.has('minutes')).toBe(false);
    expect(Number(p.get('radius'))).toBeGreaterThanOrEqual(1);
    await expect.poll(() => page.locator('.np-result .np-time').count()).toBe(0);
    await idle(page);
    expect(await rendered(page, ['np-radius-line'])).toBeGreaterThan(0);
    await page.locator('.np-chip[data-type="eat"]').click(); // off
  });
});

describe("the reach of the map's centre", () => {
  it('draws /isochrone of the centre for the mode chosen as stacked fills, largest at the bottom, with a legend; a second press hides it', async () => {
    const { page, errors } = await openApp(browser, server, { locale: 'en-GB' });
    try {
      await page.evaluate(() => (globalThis as any).nepalPlaces.map.jumpTo({ zoom: 14 }));
      await idle(page);
      await page.locator('#np-minutes').selectOption('15');
      await page.locator('.np-travel-mode[data-mode="motorbike"]').click();
      const at = await centre(page);
      const asked = page.waitForResponse((r) => r.url().includes('/api/v1/isochrone'));
      await page.locator('#np-reach').click();
      const res = await asked;
      const q = new URL(res.url()).searchParams;
      expect([q.get('mode'), q.get('minutes')]).toEqual(['motorbike', '5,10,15']);
      expect(metres([Number(q.get('lon')), Number(q.get('lat'))], at)).toBeLessThan(1);
      const answer = (await res.json()) as { features: any[] };
      expect(answer.features.map((f) => f.properties.minutes)).toEqual([15, 10, 5]);
      // the map holds the contours as answered, in order
      await expect.poll(async () => (await reachData(page)).length).toBe(3);
      const held = await reachData(page);
      expect(held.map((f) => f.geometry)).toEqual(answer.features.map((f) => f.geometry));
      expect(held.map((f) => f.properties.minutes)).toEqual([15, 10, 5]);
      // one fill layer per contour, the largest first (lowest), all below the map's first label layer
      const order = await page.evaluate(
        () => (globalThis as any).nepalPlaces.map.getStyle().layers.map((l: any) => `${l.type}:${l.id}`) as string[],
      );
      const fills = [0, 1, 2].map((i) => order.indexOf(`fill:np-reach-fill-${i}`));
      expect(fills.every((i) => i >= 0)).toBe(true);
      expect([...fills].sort((a, b) => a - b)).toEqual(fills);
      expect(fills[2]!).toBeLessThan(order.findIndex((l) => l.startsWith('symbol:')));
      await idle(page);
      for (const i of [0, 1, 2]) expect(await rendered(page, [`np-reach-fill-${i}`]), `np-reach-fill-${i}`).toBeGreaterThan(0);
      // the rank each contour is drawn at: the smallest on top
      const ranks = await page.evaluate(() =>
        [0, 1, 2].map(
          (i) => (globalThis as any).nepalPlaces.map.queryRenderedFeatures({ layers: [`np-reach-fill-${i}`] })[0]?.properties.minutes,
        ),
      );
      expect(ranks).toEqual([15, 10, 5]);
      expect(await page.locator('#np-reach-legend .np-swatch').allInnerTexts()).toEqual(['5', '10', '15']);
      expect(await page.locator('#np-reach-legend').innerText()).toContain("Within 5, 10, 15 min by motorbike of the map's centre");
      writeFileSync(join(ARTIFACTS, 'app-isochrone.png'), await page.screenshot());

      // in Nepali: the same contours kept over the Nepali style, the legend in Nepali
      await page.locator('.np-lang[data-lang="ne"]').click();
      await expect.poll(() => page.locator('#np-reach-legend').innerText()).toContain('मोटरसाइकलमा ५, १०, १५ मिनेट भित्र');
      await idle(page);
      expect((await reachData(page)).map((f) => f.geometry)).toEqual(answer.features.map((f) => f.geometry));
      expect(await rendered(page, ['np-reach-fill-0'])).toBeGreaterThan(0);
      await page.locator('.np-lang[data-lang="en"]').click();

      await page.locator('#np-reach').click();
      await expect.poll(async () => (await reachData(page)).length).toBe(0);
      expect(await page.locator('#np-reach-legend').isVisible()).toBe(false);
      expect(errors).toEqual([]);
    } finally {
      await page.context().close();
    }
  }, 120_000);

  it("a point the mode cannot reach from: the API's message, nothing drawn", async () => {
    const { page } = await openApp(browser, server, { locale: 'en-GB' });
    try {
      // far from every road of the data
      await page.evaluate(() => (globalThis as any).nepalPlaces.map.jumpTo({ center: [84.0, 28.5], zoom: 14 }));
      await idle(page);
      const asked = page.waitForResponse((r) => r.url().includes('/api/v1/isochrone'));
      await page.locator('#np-reach').click();
      const res = await asked;
      expect(res.status()).toBe(404);
      const { message } = (await res.json()) as { message: string };
      await expect.poll(() => page.locator('#np-status').innerText()).toBe(`Could not draw the reach: ${message}`);
      expect(await page.locator('#np-reach').getAttribute('aria-pressed')).toBe('false');
      expect((await reachData(page)).length).toBe(0);
    } finally {
      await page.context().close();
    }
  }, 120_000);
});
