/**
 * nepal-places/core in a real browser: test/browser/page.ts, bundled by esbuild for the
 * browser, fetches a snapshot of the core fixture from a local server, runs a nearby
 * query in headless Chromium (Debian `chromium`, driven by playwright-core) and shows the
 * records; they must equal nearby() in Node on the same snapshot and on the PBF-loaded
 * index. The browser runs in New York time, and the instants include New York's
 * daylight-saving gap and a cached window across its transition, so Nepal Time has to be
 * evaluated without the host zone (and without `process`, which a browser lacks).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { loadPbf, buildSnapshot, fromSnapshot, nearby, InvalidQueryError } from '../src/index.js';
import type { NearbyPlace, NearbyQuery, PlaceIndex } from '../src/index.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/kathmandu-core_2026-01-10.osm.pbf', import.meta.url));
const PAGE_DIR = new URL('./browser/', import.meta.url);
/** CI installs Debian's chromium here (.ci/run); a missing one fails the suite, it does not skip. */
const CHROMIUM = '/usr/bin/chromium';
const BROWSER_ZONE = 'America/New_York';

const THAMEL = { lat: 27.7154, lon: 85.3123 };
const CENTER = { lat: 27.7083, lon: 85.3206 };
const npt = (wall: string) => new Date(`${wall}:00+05:45`);
const SUNDAY_EVENING = npt('2026-01-18T19:30');
// New York skips 02:00-03:00 on 2026-03-08: this Nepal wall time has no New York local Date
const NY_GAP = npt('2026-03-08T02:30');
// 16 days before that transition: a 24/7 schedule's 30-day window crosses it
const BEFORE_NY_CHANGE = npt('2026-02-20T12:00');

let pbfIndex: PlaceIndex;
let snapIndex: PlaceIndex;
let snapshotBytes: Uint8Array;
let server: Server;
let origin: string;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  pbfIndex = await loadPbf(FIXTURE);
  const snapshot = buildSnapshot(pbfIndex);
  snapshotBytes = snapshot;
  snapIndex = fromSnapshot(snapshot.slice());

  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('page.ts', PAGE_DIR))],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const files: Record<string, { type: string; body: string | Uint8Array }> = {
    '/': { type: 'text/html; charset=utf-8', body: readFileSync(new URL('index.html', PAGE_DIR), 'utf8') },
    '/page.js': { type: 'text/javascript; charset=utf-8', body: bundle.outputFiles[0]!.text },
    '/fixture.places': { type: 'application/octet-stream', body: snapshot },
  };
  server = createServer((req, res) => {
    const f = files[new URL(req.url ?? '/', 'http://x').pathname];
    if (!f) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': f.type, 'cache-control': 'no-store' }).end(f.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    headless: true,
  });
  context = await browser.newContext({ timezoneId: BROWSER_ZONE });
}, 120_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
});

interface Shown {
  state: string;
  text: string;
  error?: string;
  timeZone?: string;
  process?: string;
  /** Milliseconds `fromSnapshot` took in the page. */
  openMs: number;
  json: string;
  rows: { placeId: number; km: number; name: string }[];
}

/** Opens the page for a query and reads what it shows once its status is final. */
async function inBrowser(q: NearbyQuery | Record<string, unknown>): Promise<Shown> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined) continue;
    params.set(k, v instanceof Date ? v.toISOString() : typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
  }
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(`${origin}/?${params}`);
    await page.waitForSelector('#status[data-state]', { timeout: 30_000 }).catch((e: Error) => {
      throw new Error(`${e.message}; page errors: ${errors.join('; ') || 'none'}`);
    });
    const status = page.locator('#status');
    const attr = async (name: string) => (await status.getAttribute(name)) ?? undefined;
    return {
      state: (await attr('data-state'))!,
      text: (await status.textContent()) ?? '',
      error: await attr('data-error'),
      timeZone: await attr('data-time-zone'),
      process: await attr('data-process'),
      openMs: Number(await attr('data-open-ms')),
      json: (await page.locator('#json').textContent()) ?? '',
      rows: await page.locator('#places tbody tr').evaluateAll((trs) =>
        trs.map((tr) => ({
          placeId: Number(tr.getAttribute('data-place-id')),
          km: Number(tr.getAttribute('data-km')),
          name: tr.firstElementChild?.textContent ?? '',
        })),
      ),
    };
  } finally {
    await page.close();
  }
}

/** The records as they come through JSON (what the page shows). */
const asJson = (r: NearbyPlace[]) => JSON.parse(JSON.stringify(r)) as NearbyPlace[];

// Chromium's V8 and Node 20's compute Math.sin/cos/atan2 differently in the last bit (a
// third of atan2's results), so a distance, and the score made from it, can differ by an
// ulp; every other field must be equal.
const ULPS = 1e-12;

function expectSameRecords(got: NearbyPlace[], want: NearbyPlace[]): void {
  const exact = (r: NearbyPlace) => ({ ...r, score: 0, radialDistanceInKm: 0 });
  expect(got.map(exact)).toEqual(want.map(exact));
  got.forEach((r, i) => {
    expect(r.radialDistanceInKm).toBeCloseTo(want[i]!.radialDistanceInKm, 12);
    expect(Math.abs(r.score - want[i]!.score)).toBeLessThanOrEqual(ULPS * want[i]!.score);
  });
}

const QUERIES: [string, NearbyQuery, string?][] = [
  ['restaurants nearest first around Thamel', { type: 'restaurant', ...THAMEL, radius: 1, limit: 20, sortBy: true, at: SUNDAY_EVENING }],
  [
    'the merged type eat, open on a Sunday evening, by score',
    { type: 'eat', ...THAMEL, radius: 2, limit: 25, isOpen: true, at: SUNDAY_EVENING },
  ],
  [
    'night life open in the hour New York skips', // "Mo-Su 15:00-03:00" is open at 02:30
    { type: 'night_life', ...CENTER, radius: 5, limit: 50, isOpen: true, at: NY_GAP },
    'London Pub',
  ],
  [
    "eat open while a 24/7 window crosses New York's change",
    { type: 'eat', ...CENTER, radius: 5, limit: 100, isOpen: true, at: BEFORE_NY_CHANGE },
    'Pizza King',
  ],
];

describe('nearby in headless Chromium on a fetched snapshot', () => {
  it(`runs in ${BROWSER_ZONE}, without Node's process`, async () => {
    const shown = await inBrowser({ type: 'cafe', ...THAMEL, limit: 1 });
    expect(shown.state, shown.text).toBe('done');
    expect(shown.timeZone).toBe(BROWSER_ZONE);
    expect(shown.process).toBe('undefined');
  });

  it('opens the snapshot from an ArrayBuffer, and reports how long that took beside Node', async () => {
    const shown = await inBrowser({ type: 'cafe', ...THAMEL, limit: 1 });
    expect(shown.state, shown.text).toBe('done');
    expect(shown.openMs).toBeGreaterThan(0);
    const node: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      fromSnapshot(snapshotBytes.slice().buffer);
      node.push(performance.now() - t0);
    }
    // a report, not a timing assertion: the page's one cold open against Node's best of three
    console.log(
      `fromSnapshot of the ${(snapshotBytes.length / 1e6).toFixed(2)} MB fixture snapshot: Chromium ${shown.openMs.toFixed(1)} ms (cold), Node ${Math.min(...node).toFixed(1)} ms`,
    );
  });

  it.each(QUERIES)('%s: the same places, names and distances as in Node', async (_, q, mustShow) => {
    const want = asJson(nearby(snapIndex, q));
    expect(want.length, 'the query finds places').toBeGreaterThan(0);
    expect(asJson(nearby(pbfIndex, q)), 'the snapshot answers as the PBF does').toEqual(want);
    if (mustShow)
      expect(
        want.map((r) => r.name),
        'the case this query is for',
      ).toContain(mustShow);

    const shown = await inBrowser(q);
    expect(shown.state, shown.text).toBe('done');
    expect(shown.text).toBe(`${want.length} places`);
    expect(shown.rows.map(({ placeId, name }) => ({ placeId, name }))).toEqual(want.map(({ placeId, name }) => ({ placeId, name })));
    shown.rows.forEach((r, i) => expect(r.km).toBeCloseTo(want[i]!.radialDistanceInKm, 12));
    expectSameRecords(JSON.parse(shown.json) as NearbyPlace[], want);
  });

  it('shows the InvalidQueryError of a bad query', async () => {
    const q = { type: 'cafe', lat: 200, lon: THAMEL.lon };
    let want: unknown;
    try {
      nearby(snapIndex, q);
    } catch (e) {
      want = e;
    }
    expect(want).toBeInstanceOf(InvalidQueryError);
    const shown = await inBrowser(q);
    expect(shown.state).toBe('error');
    expect(shown.error).toBe('InvalidQueryError');
    expect(shown.text).toBe((want as Error).message);
    expect(shown.rows).toEqual([]);
  });
});
