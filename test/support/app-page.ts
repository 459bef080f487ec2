/**
 * The web app's browser tests' common ground: `nepal-places serve` as a person starts it, headless
 * Chromium (Debian `chromium`, playwright-core, WebGL by SwiftShader), the page opened and waited
 * for, and the API asked by the test itself with the development key.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import turfDistance from '@turf/distance';
import { point } from '@turf/helpers';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
/** Where the screenshots go (never committed). */
export const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

/** A `nepal-places serve` child process and what it printed. */
export interface Server {
  child: ChildProcess;
  out: { stdout: string; stderr: string };
  origin: string;
  /** The development key it printed. */
  devKey: string;
}

/** `nepal-places serve ARGS` on a free port, once it says where its map is. */
export async function serveCli(args: string[]): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve', '--port', '0', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (d: Buffer) => (out.stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out.stderr += d.toString()));
  for (let i = 0; i < 1200; i++) {
    const m = /API v1 at (http:\/\/[\d.:]+)\/api\/v1/.exec(out.stdout);
    if (m && /try: curl|no web app|the map at/.test(out.stdout.slice(m.index))) {
      await new Promise((r) => setTimeout(r, 100)); // the rest of the banner
      return { child, out, origin: m[1]!, devKey: /development key .*: (\S+)/.exec(out.stdout)?.[1] ?? '' };
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`serve did not start:\n${out.stdout}\n${out.stderr}`);
}

/** Stops a server started by `serveCli`. */
export async function stop(server: Server | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null) return;
  server.child.kill('SIGTERM');
  await new Promise((r) => server.child.once('exit', r));
}

/** Headless Chromium with WebGL. */
export async function launch(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--enable-unsafe-swiftshader', '--use-angle=swiftshader', '--ignore-gpu-blocklist'],
    headless: true,
  });
}

/** The API asked by the test itself, with the development key: the envelope's data. */
export async function api<T = any>(server: Server, pathAndQuery: string): Promise<T[]> {
  const url = new URL(pathAndQuery, server.origin);
  url.searchParams.set('key', server.devKey);
  const res = await fetch(url);
  const body = (await res.json()) as any;
  if (res.status !== 200) throw new Error(`${url.pathname}: ${res.status} ${body.message}`);
  return body.data;
}

/** The URL the page asked, with the development key instead of the page's (`api()` adds it). */
export const sameQuery = (url: string) => {
  const u = new URL(url);
  u.searchParams.delete('key');
  return u.pathname + u.search;
};

/** Options of `openApp`. */
export interface OpenOptions {
  viewport?: { width: number; height: number };
  mobile?: boolean;
  /** `null`: the URL without a view, as a first visit; default: street level in the middle of the data. */
  hash?: null;
  /** The browser's languages (`navigator.language`), e.g. `ne-NP`; default Chromium's. */
  locale?: string;
  /** Before the page loads (e.g. `page.route` mocks). */
  before?: (page: Page) => Promise<void>;
}

/**
 * Opens the app and waits for the map's first `idle` (style, tiles, glyphs, sprite all in): at
 * street level in the middle of the data, or with `hash` null at the URL without one, as a
 * first visit does. Errors the page logs are collected in `errors`.
 */
export async function openApp(browser: Browser, server: Server, options: OpenOptions = {}): Promise<{ page: Page; errors: string[] }> {
  const { viewport = { width: 1280, height: 800 }, mobile = false, hash, locale, before } = options;
  const context: BrowserContextOptions = { viewport, isMobile: mobile, hasTouch: mobile, deviceScaleFactor: 1 };
  if (locale) context.locale = locale;
  const page = await (await browser.newContext(context)).newPage();
  page.setDefaultTimeout(15_000); // a step that does not happen fails with what was waited for
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await before?.(page);
  // the middle of the data (where the style opens), at street level
  if (hash === null) await page.goto(`${server.origin}/`);
  else {
    const style = (await (await fetch(`${server.origin}/api/v1/styles/breeze?key=${server.devKey}`)).json()) as {
      center: [number, number];
    };
    await page.goto(`${server.origin}/#16/${style.center[1]}/${style.center[0]}`);
  }
  await page.waitForFunction(() => (globalThis as any).nepalPlaces?.map, null, { timeout: 60_000 });
  await idle(page);
  return { page, errors };
}

/** Waits until the map has nothing left to load or draw. */
export async function idle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const map = (globalThis as any).nepalPlaces.map;
        const check = () => (map.loaded() && !map.isMoving() ? resolve() : map.once('idle', check));
        check();
      }),
  );
}

/** The map's centre as `[lon, lat]`. */
export const centre = (page: Page) => page.evaluate(() => (globalThis as any).nepalPlaces.map.getCenter().toArray() as [number, number]);

/** Metres between two `[lon, lat]` points (turf, independent of the app's haversine). */
export const metres = (a: [number, number], b: [number, number]) => turfDistance(point(a), point(b), { units: 'kilometers' }) * 1000;

/** How many features of the app's `layers` the map draws now. */
export const rendered = (page: Page, layers: string[]) =>
  page.evaluate((ids) => (globalThis as any).nepalPlaces.map.queryRenderedFeatures({ layers: ids }).length as number, layers);

/** A string's Devanagari digits as Western ones (`१.२` → `1.2`), to read numbers the page writes in Nepali. */
export const latinDigits = (s: string) => s.replace(/[०-९]/g, (d) => String(d.charCodeAt(0) - 0x966));
