/**
 * The web app in Nepali, used as a person would in headless Chromium against `nepal-places serve
 * --tiles` on the Kathmandu fixture: the language switch (remembered, defaulting from the
 * browser's language), the app's own words, the map's style, the lists, addresses and directions
 * from the API in Nepali, and the bundled Noto Sans Devanagari (this machine has no Devanagari
 * font of its own). Each answer is checked against the API asked by the test with `lang=ne`.
 * Screenshots go to test/artifacts/.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebApp } from '../scripts/web-app.js';
import { FIXTURE_TILES } from '../src/map/assets.js';
import { buildTiles } from '../src/tiles/build.js';
import { CORE_PBF } from './support/http-fixture.js';
import {
  api as askApi,
  ARTIFACTS,
  idle,
  latinDigits,
  launch,
  openApp,
  rendered,
  sameQuery,
  serveCli,
  stop,
  type Server,
} from './support/app-page.js';

const NOTO = fileURLToPath(new URL('../node_modules/@fontsource/noto-sans-devanagari/files/', import.meta.url));
const DEVANAGARI = /[\u0900-\u097F]/;
/** `12` → `१२`. */
const nepaliDigits = (n: number) => String(n).replace(/\d/g, (d) => '०१२३४५६७८९'[Number(d)]!);
const LATIN = /[A-Za-z]/;

let dir: string;
let server: Server;
let browser: Browser;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'app-nepali-'));
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

const api = <T = any>(pathAndQuery: string) => askApi<T>(server, pathAndQuery);

/** The app's own words on the page: every text node and word attribute of the panel, less the data (names, addresses, steps) and the "English" button. */
const ownWords = (page: Page) =>
  page.evaluate(() => {
    const document = (globalThis as any).document;
    const out: string[] = [];
    const data = '.np-name, .np-address, .np-step, .np-from-label, .np-to-label, .np-lang[data-lang="en"]';
    const walker = document.createTreeWalker(document.getElementById('np-panel')!, 4 /* NodeFilter.SHOW_TEXT */);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      if (parent.closest(data) || parent.closest('[hidden]') || !n.textContent!.trim()) continue;
      out.push(n.textContent!.trim());
    }
    for (const e of document.querySelectorAll('#np-panel [placeholder], #np-panel [aria-label], #np-panel [title], #map[aria-label]'))
      for (const a of ['placeholder', 'aria-label', 'title'])
        if (e.getAttribute(a) && !e.closest('.np-lang[data-lang="en"]')) out.push(e.getAttribute(a)!);
    out.push(document.title);
    return out;
  });

/** The name the page shows in Nepali: `name:ne` where OSM has it (what the map labels), else the name the API gave for `lang=ne`. */
const nepaliName = (r: { name: string; tags?: string[] }) => r.tags?.find((t) => t.startsWith('name:ne|'))?.slice(8) || r.name;

describe('the language switch', () => {
  it('opens in Nepali for a browser that prefers it, in English for one that does not; the choice is remembered', async () => {
    const { page, errors } = await openApp(browser, server, { locale: 'ne-NP' });
    try {
      expect(await page.evaluate(() => (globalThis as any).document.documentElement.lang)).toBe('ne');
      expect(await page.locator('.np-lang[aria-pressed="true"]').innerText()).toBe('नेपाली');
      expect(await page.locator('.np-chip[data-type="hospital"]').innerText()).toBe('अस्पताल');
      // English chosen: remembered over the browser's language at the next visit
      await page.locator('.np-lang[data-lang="en"]').click();
      expect(await page.locator('.np-chip[data-type="hospital"]').innerText()).toBe('Hospitals');
      await page.reload();
      await page.waitForFunction(() => (globalThis as any).nepalPlaces?.map);
      expect(await page.evaluate(() => (globalThis as any).document.documentElement.lang)).toBe('en');
      expect(await page.locator('#np-q').getAttribute('placeholder')).toBe('Search places, streets, areas');
      expect(errors).toEqual([]);
    } finally {
      await page.context().close();
    }
    const english = await openApp(browser, server, { locale: 'en-GB' });
    try {
      expect(await english.page.evaluate(() => (globalThis as any).document.documentElement.lang)).toBe('en');
      expect(await english.page.locator('.np-chip[data-type="hospital"]').innerText()).toBe('Hospitals');
    } finally {
      await english.page.context().close();
    }
  }, 120_000);
});

describe('in Nepali, on a laptop', () => {
  let page: Page;
  let errors: string[];
  beforeAll(async () => ({ page, errors } = await openApp(browser, server, { locale: 'en-US' })), 120_000);
  afterAll(() => page?.context().close());

  it("switching: the map loads the Nepali style (lang=ne) and keeps the app's layers; every word of the app is Nepali", async () => {
    expect((await ownWords(page)).filter((w) => LATIN.test(w)).length).toBeGreaterThan(10);
    const styled = page.waitForRequest((r) => r.url().includes('/api/v1/styles/breeze'));
    await page.locator('.np-lang[data-lang="ne"]').click();
    const url = new URL((await styled).url());
    expect(url.searchParams.get('lang')).toBe('ne');
    // the map's layers become the Nepali style's, as the server answers it, with the app's after
    // (waited for: the map is idle with the old style until the new one has come)
    const expected = (await (await fetch(`${server.origin}/api/v1/styles/breeze?lang=ne&key=${server.devKey}`)).json()) as any;
    const fields = (ls: { id: string; layout?: any }[]) =>
      ls.filter((l) => !l.id.startsWith('np-')).map((l) => `${l.id} ${JSON.stringify(l.layout?.['text-field'] ?? null)}`);
    const mapLayers = () => page.evaluate(() => (globalThis as any).nepalPlaces.map.getStyle().layers as { id: string; layout?: any }[]);
    await expect.poll(async () => fields(await mapLayers()), { timeout: 20_000 }).toEqual(fields(expected.layers));
    await idle(page);
    const layers = await mapLayers();
    expect(layers.map((l) => l.id)).toEqual(expect.arrayContaining(['np-radius-fill', 'np-route-line', 'np-reach-fill-0']));
    // the words: Devanagari, with no Latin letter but the API's name and its key's units
    const words = await ownWords(page);
    expect(words.length).toBeGreaterThan(20);
    for (const w of words) expect(w, w).toMatch(DEVANAGARI);
    expect(words.filter((w) => LATIN.test(w) && !/nepal-places|API/.test(w))).toEqual([]);
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.lang)).toBe('ne');
    expect(errors).toEqual([]);
  });

  it('a chip: asked with lang=ne; names, addresses as the API answers them in Nepali; distances in Nepali digits and units', async () => {
    const asked = page.waitForResponse((r) => r.url().includes('/api/v1/search/nearby'));
    await page.locator('.np-chip[data-type="cafe"]').click();
    const url = (await asked).url();
    expect(new URL(url).searchParams.get('lang')).toBe('ne');
    const expected = await api(sameQuery(url));
    expect(expected.length).toBeGreaterThan(3);
    await expect.poll(() => page.locator('.np-result').count()).toBe(expected.length);
    expect(await page.locator('.np-result .np-name').allInnerTexts()).toEqual(expected.map(nepaliName));
    expect(await page.locator('.np-result .np-address').allInnerTexts()).toEqual(expected.map((r) => r.address));
    // every part of these addresses has a Nepali name in the fixture's table of districts and provinces at least
    for (const r of expected) expect(r.address).toMatch(DEVANAGARI);
    // "३५० मि." / "१.२ कि.मि.": the API's distance in Devanagari digits, to the rounding shown
    const shown = await page.locator('.np-result .np-distance').allInnerTexts();
    shown.forEach((text, i) => {
      const m = /^([०-९.]+) (मि\.|कि\.मि\.)$/.exec(text);
      expect(m, text).not.toBeNull();
      const metres = Number(latinDigits(m![1]!)) * (m![2] === 'कि.मि.' ? 1000 : 1);
      expect(Math.abs(metres - expected[i].radialDistanceInKm * 1000), text).toBeLessThanOrEqual(m![2] === 'कि.मि.' ? 50 : 5);
    });
    for (const text of await page.locator('.np-result .np-open, .np-result .np-closed').allInnerTexts())
      expect(['अहिले खुला', 'अहिले बन्द', 'समय थाहा छैन']).toContain(text);
    // the status counts in Nepali digits
    const status = await page.locator('#np-status').innerText();
    expect(status).toContain(` ${nepaliDigits(expected.length)} `);
    expect(status).not.toMatch(/[0-9]/);
    await idle(page);
    writeFileSync(join(ARTIFACTS, 'app-nepali-laptop.png'), await page.screenshot());
  });

  it('directions: asked with lang=ne; the summary in Nepali, the steps as the API words them', async () => {
    // from the first café listed to the second, through their popups, as a person would
    await page.locator('.np-result button').nth(0).click();
    await page.locator('.np-popup .np-from').click();
    await page.locator('.np-result button').nth(1).click();
    const asked = page.waitForResponse((r) => r.url().includes('/api/v1/directions'));
    expect(await page.locator('.np-popup .np-to').innerText()).toBe('यहाँसम्म बाटो');
    await page.locator('.np-popup .np-to').click();
    const routed = await asked;
    const q = new URL(routed.url()).searchParams;
    expect(q.get('lang')).toBe('ne');
    const [route] = await api(sameQuery(routed.url()));
    await expect.poll(() => page.locator('.np-step').count()).toBe(route.instructionList.length);
    const steps = await page.locator('.np-step').evaluateAll((els) => els.map((e) => e.firstChild!.textContent));
    expect(steps).toEqual(route.instructionList.map((i: any) => i.text));
    for (const s of steps) expect(s).toMatch(DEVANAGARI);
    // "१.२ कि.मि. · हिँडेर १५ मिनेट"
    const summary = await page.locator('.np-summary').innerText();
    const m = /^([०-९.]+) (मि\.|कि\.मि\.) · हिँडेर (?:([०-९]+) घण्टा )?([०-९]+) (मिनेट|सेकेन्ड)$/.exec(summary);
    expect(m, summary).not.toBeNull();
    const shownMetres = Number(latinDigits(m![1]!)) * (m![2] === 'कि.मि.' ? 1000 : 1);
    expect(Math.abs(shownMetres - route.distanceInMeters)).toBeLessThanOrEqual(m![2] === 'कि.मि.' ? 50 : 5);
    const seconds = (Number(latinDigits(m![3] ?? '0')) * 60 + Number(latinDigits(m![4]!))) * (m![5] === 'मिनेट' ? 60 : 1);
    expect(Math.abs(seconds - route.timeInMs / 1000)).toBeLessThanOrEqual(m![5] === 'मिनेट' ? 30 : 1);
    await idle(page);
    expect(await rendered(page, ['np-route-line'])).toBeGreaterThan(0);
    // the ends are named as the list named them
    const ids = await page
      .locator('.np-result button')
      .evaluateAll((els) => els.slice(0, 2).map((e) => Number((e as any).dataset.placeId)));
    const listed = await page.locator('.np-result .np-name').allInnerTexts();
    expect(await page.locator('.np-from-label').innerText()).toBe(listed[0]);
    expect(await page.locator('.np-to-label').innerText()).toBe(listed[1]);
    // and back to English: the same route asked again in English, the ends named in English
    const again = page.waitForResponse((r) => r.url().includes('/api/v1/directions'));
    await page.locator('.np-lang[data-lang="en"]').click();
    expect(new URL((await again).url()).searchParams.get('lang')).toBe('en');
    await expect.poll(() => page.locator('.np-summary').innerText()).toMatch(/ on foot$/);
    const english = (r: { name: string; tags: string[] }) => r.tags.find((t) => t.startsWith('name:en|'))?.slice(8) || r.name;
    const [from] = await api(`/api/v1/places?placeId=${ids[0]}&lang=en`);
    const [to] = await api(`/api/v1/places?placeId=${ids[1]}&lang=en`);
    await expect.poll(() => page.locator('.np-from-label').innerText()).toBe(english(from));
    await expect.poll(() => page.locator('.np-to-label').innerText()).toBe(english(to));
    await page.locator('.np-lang[data-lang="ne"]').click();
    await expect.poll(() => page.locator('.np-summary').innerText()).toMatch(/हिँडेर/);
    expect(errors).toEqual([]);
  });

  it('the Devanagari text is set in the bundled Noto Sans Devanagari, from this server', async () => {
    // the faces the page declared and loaded
    const faces = await page.evaluate(async () => {
      const { fonts } = (globalThis as any).document;
      await fonts.ready;
      return [...fonts].map((f: any) => ({ family: f.family.replace(/"/g, ''), weight: f.weight, status: f.status }));
    });
    expect(faces).toEqual(
      expect.arrayContaining([
        { family: 'Noto Sans Devanagari', weight: '400', status: 'loaded' },
        { family: 'Noto Sans Devanagari', weight: '600', status: 'loaded' },
      ]),
    );
    expect(await page.evaluate(() => (globalThis as any).document.fonts.check('15px "Noto Sans Devanagari"', 'नेपाली'))).toBe(true);
    // what Chromium drew a chip's Devanagari with: the page's web font, not a system face
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument');
    // a chip (regular) and the route's summary (semibold), both Nepali words of the app
    for (const [selector, face] of [
      ['.np-chip[data-type="cafe"]', 'NotoSansDevanagari-Regular'],
      ['.np-summary', 'NotoSansDevanagari-SemiBold'],
    ]) {
      const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
      const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
      const noto = fonts.find((f) => f.postScriptName === face);
      expect(noto, JSON.stringify(fonts)).toMatchObject({ isCustomFont: true });
      expect(noto!.glyphCount).toBeGreaterThan(0);
    }
    // the font's bytes are fontsource's, served by the app itself
    const res = await fetch(`${server.origin}/app/noto-sans-devanagari-400.woff2`);
    expect(res.headers.get('content-type')).toBe('font/woff2');
    expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(NOTO, 'noto-sans-devanagari-devanagari-400-normal.woff2')))).toBe(
      true,
    );
  });
});

describe('in Nepali, on a phone', () => {
  it('the sheet in Nepali, a chip listed; nothing is asked of another origin', async () => {
    const others: string[] = [];
    const { page, errors } = await openApp(browser, server, {
      viewport: { width: 390, height: 844 },
      mobile: true,
      locale: 'ne-NP',
      before: async (p) => {
        p.on('request', (r) => {
          if (!r.url().startsWith(server.origin) && !/^(data|blob):/.test(r.url())) others.push(r.url());
        });
      },
    });
    try {
      expect(await page.locator('#np-handle').innerText()).toBe('ठाउँहरू');
      const asked = page.waitForResponse((r) => r.url().includes('/api/v1/search/nearby'));
      await page.locator('.np-chip[data-type="eat"]').tap();
      const expected = await api(sameQuery((await asked).url()));
      await expect.poll(() => page.locator('.np-result').count()).toBe(expected.length);
      expect(await page.locator('.np-result .np-name').allInnerTexts()).toEqual(expected.map(nepaliName));
      await idle(page);
      writeFileSync(join(ARTIFACTS, 'app-nepali-phone.png'), await page.screenshot());
      expect(others).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await page.context().close();
    }
  }, 120_000);
});
