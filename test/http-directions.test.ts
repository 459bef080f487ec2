/**
 * GET /api/v1/directions: the point list as the real clients send it, through the real
 * @baatomaps/baato-js-client, and the errors of routing as envelopes.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import polyline from '@mapbox/polyline';
import { route } from '../src/query/route.js';
import { loadPbf, type PlaceIndex } from '../src/index.js';
import { CORE_PBF, coreIndex, token } from './support/http-fixture.js';
import { startServer, type TestServer } from './support/http-server.js';

// The client ships one webpack bundle for browsers (axios with its XMLHttpRequest adapter
// only), so it runs where its users run it: in a page, headless Chromium, on our origin.
const CLIENT = fileURLToPath(new URL('../node_modules/@baatomaps/baato-js-client/dist/bundle.js', import.meta.url));
/** CI installs Debian's chromium here (.ci/run). */
const CHROMIUM = '/usr/bin/chromium';

const KEY = token('d');
// Thamel, Kamalpokhari and Asan: inside the fixture's bounds
const A = '27.7154,85.3123',
  B = '27.7090,85.3290',
  C = '27.7060,85.3100';

let index: PlaceIndex;
let server: TestServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  index = await coreIndex();
  server = await startServer({ index, tokens: [KEY] });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  page = await browser.newPage();
  await page.goto(`${server.origin}/api/v1/openapi.json`);
  await page.addScriptTag({ path: CLIENT });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

// Runs the client in the page: `build` is the body of a function of (Baato, base, key, points) returning the request.
async function client(build: string, points: string[]): Promise<any[]> {
  return page.evaluate(
    async ([body, base, key, pts]) => {
      const make = new Function('Baato', 'base', 'key', 'points', body) as (...a: unknown[]) => { doRequest(): Promise<unknown> };
      return make((globalThis as unknown as { Baato: unknown }).Baato, base, key, pts).doRequest();
    },
    [build, `${server.origin}/api`, KEY.key, points] as const,
  ) as Promise<any[]>;
}

const directions = (query: string) => server.request(`/api/v1/directions?${query}&key=${KEY.key}`);

describe('the Baato JS client works unchanged', () => {
  it("getBest() with instructions: the engine's best car route, instructions included", async () => {
    const res = await client(
      "return new Baato.Routing({ key }).setBaseUrl(base).addPoints(points).setVehicle('car').hasInstructions(true).getBest();",
      [A, B],
    );
    const expected = route(index, { points: [A, B], mode: 'car', instructions: true });
    expect(res).toHaveLength(1);
    expect(res[0].distanceInMeters).toBe(expected[0].distanceInMeters);
    expect(res[0].timeInMs).toBe(expected[0].timeInMs);
    expect(res[0].instructionList).toEqual(expected[0].instructionList);
    // the client decodes the polyline into a GeoJSON line itself
    const line = polyline.decode(expected[0].encodedPolyline, 5);
    expect(res[0].geojson.type).toBe('LineString');
    expect(res[0].geojson.coordinates).toHaveLength(line.length);
    const [lon, lat] = res[0].geojson.coordinates[0];
    expect([lat, lon].map((v: number) => Math.round(v * 1e5))).toEqual(line[0].map((v) => Math.round(v * 1e5)));
  });

  it('getAlternatives(true) on foot: the best and its alternatives, as route() gives them', async () => {
    const res = await client(
      "return new Baato.Routing({ key }).setBaseUrl(base).addPoints(points).setVehicle('foot').getAlternatives(true);",
      [A, B],
    );
    const expected = route(index, { points: [A, B], mode: 'foot', alternatives: true });
    expect(expected.length).toBeGreaterThan(1);
    expect(res.map((r: any) => r.distanceInMeters)).toEqual(expected.map((r) => r.distanceInMeters));
    expect(res[0].instructionList).toBeNull();
  });
});

describe('the point list as clients send it', () => {
  it('points[] unescaped (axios), points%5B%5D (the Java client) and repeated points answer alike', async () => {
    const a = await directions(`points[]=${A}&points[]=${B}&mode=bike`);
    const b = await directions(`points%5B%5D=${A}&points%5B%5D=${B}&mode=bike`);
    const c = await directions(`points=${A}&points=${B}&mode=bike`);
    expect(a.status).toBe(200);
    expect(b.body.data).toEqual(a.body.data);
    expect(c.body.data).toEqual(a.body.data);
    expect(a.body.data).toEqual(route(index, { points: [A, B], mode: 'bike' }));
  });

  it('keeps the order of three points (a via point)', async () => {
    const r = await directions(`points[]=${A}&points[]=${C}&points[]=${B}&mode=foot&instructions=TRUE`);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual(route(index, { points: [A, C, B], mode: 'foot', instructions: true }));
    expect(r.body.data[0].instructionList.filter((i: any) => i.sign === 5)).toHaveLength(1);
  });

  it('missing instructions and alternatives are false; mode defaults to foot', async () => {
    const r = await directions(`points[]=${A}&points[]=${B}`);
    expect(r.body.data).toHaveLength(1);
    expect(r.body.data[0].instructionList).toBeNull();
    expect(r.body.data).toEqual(route(index, { points: [A, B] }));
  });
});

describe('bad input is a 400 naming the parameter', () => {
  const cases: [string, string][] = [
    ['no points', 'mode=car'],
    ['one point', `points[]=${A}`],
    ['26 points', Array.from({ length: 26 }, () => `points[]=${A}`).join('&')],
    ['a malformed point', `points[]=${A}&points[]=27.7,abc`],
    ['both spellings', `points[]=${A}&points=${B}`],
    ['an unknown mode', `points[]=${A}&points[]=${B}&mode=plane`],
    ['alternatives with three points', `points[]=${A}&points[]=${C}&points[]=${B}&alternatives=true`],
    ['a flag that is no boolean', `points[]=${A}&points[]=${B}&instructions=yes`],
    ['a repeated mode', `points[]=${A}&points[]=${B}&mode=car&mode=foot`],
    ['an unknown parameter', `points[]=${A}&points[]=${B}&vehicle=car`],
  ];
  for (const [what, query] of cases) {
    it(what, async () => {
      const r = await directions(query);
      expect(r.status, r.text).toBe(400);
      expect(r.body.data).toEqual([]);
      expect(r.body.message).toMatch(/^(points|mode|instructions|alternatives|vehicle)/);
    });
  }
});

describe('no route is a 404 envelope that says why', () => {
  it('a point far from every road', async () => {
    const r = await directions(`points[]=${A}&points[]=27.76,85.36&mode=car`);
    expect(r.status).toBe(404);
    expect(r.body.message).toMatch(/point 2 .* farther than 1 km/);
  });

  it('keys are checked first (401)', async () => {
    const r = await server.request(`/api/v1/directions?points[]=${A}&points[]=${B}`);
    expect(r.status).toBe(401);
  });
});

describe('a leg past the search bound of an index without hierarchies is a 400 that says how to lift it', () => {
  it('answers 400 naming the leg and the snapshot, where the contracted index answers 200', async () => {
    const plain = await loadPbf(CORE_PBF, { contract: 'never' });
    plain.router!.plainLimit = 50;
    const other = await startServer({ index: plain, tokens: [KEY] });
    try {
      const r = await other.request(`/api/v1/directions?points[]=${A}&points[]=${B}&mode=car&key=${KEY.key}`);
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/^Bad request: the route from point 1 to point 2 \(car\) .*snapshot/);
      expect((await directions(`points[]=${A}&points[]=${B}&mode=car`)).status).toBe(200);
    } finally {
      await other.close();
    }
  }, 120_000);
});
