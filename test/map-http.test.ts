/**
 * The map over HTTP: styles, TileJSON, tiles, glyph ranges and sprites, served from a small
 * PMTiles archive of hand-made tiles and the assets `npm run assets` built.
 */
import { request as httpRequest } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { VectorTile } from '@mapbox/vector-tile';
import { expression, validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import opentype from 'opentype.js';
import { PbfReader } from 'pbf';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TileArchive } from '../src/map/archive.js';
import { fileAssets } from '../src/map/assets.js';
import { fetchReply, startServer, type TestServer } from './support/http-server.js';
import { coreIndex, token } from './support/http-fixture.js';
import { TEST_INFO, TEST_LAYERS, testTiles, tileOf, writeTestArchive } from './support/map-archive.js';
import { TIMESTAMP_PATTERN } from '../src/http/openapi.js';

const require = createRequire(import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'map-http-'));
const archivePath = join(dir, 'thamel.pmtiles');
const KEY = token('a').key;
const ORIGIN_KEY = token('b').key;
const SMALL_KEY = token('c').key;
const tokens = [
  token('a'),
  token('b', { allowedOrigins: ['https://ok.example'] }),
  token('c', { quota: { requests: 2, windowSeconds: 3600 } }),
];

let tiles: TileArchive;
let server: TestServer;
let bare: TestServer; // no tiles
let proxied: TestServer; // behind a proxy: --public-url

beforeAll(async () => {
  writeTestArchive(archivePath);
  tiles = await TileArchive.open(archivePath);
  const index = await coreIndex();
  server = await startServer({ index, tokens, map: { tiles, assets: fileAssets() } });
  bare = await startServer({ index, tokens });
  proxied = await startServer({ index, tokens, map: { tiles, assets: fileAssets(), publicUrl: 'https://maps.example.com/np/' } });
});

afterAll(async () => {
  await Promise.all([server?.close(), bare?.close(), proxied?.close()]);
  await tiles?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string, key = KEY, init?: RequestInit) => server.request(`${path}${path.includes('?') ? '&' : '?'}key=${key}`, init);

function expectEnvelope(reply: { status: number; body: any }, status: number, message: RegExp) {
  expect(reply.status).toBe(status);
  expect(reply.body).toMatchObject({ status, data: [] });
  expect(reply.body.timestamp).toMatch(new RegExp(TIMESTAMP_PATTERN));
  expect(reply.body.message).toMatch(message);
}

/** The fontstacks a style's layers can ask for, as MapLibre puts them in the glyph URL (names joined by commas). */
function fontstacks(style: any): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown) => {
    if (Array.isArray(v)) {
      if (v.length && v.every((s) => typeof s === 'string') && v.some((s) => /Noto|Sans/.test(s))) out.add(v.join(','));
      else v.forEach(walk);
    } else if (v && typeof v === 'object') {
      for (const [k, w] of Object.entries(v)) walk(k === 'text-font' && Array.isArray(w) && w.every((s) => typeof s === 'string') ? w : w);
    }
  };
  for (const layer of style.layers) if (layer.layout?.['text-font']) walk(layer.layout['text-font']);
  for (const layer of style.layers) if (layer.layout?.['text-field']) walk(layer.layout['text-field']);
  return out;
}

/** MapLibre's sprite URLs: `.json`/`.png` (and `@2x`) appended to the path, the query kept. */
function spriteUrls(sprite: string): string[] {
  return ['', '@2x'].flatMap((ratio) =>
    ['.json', '.png'].map((ext) => {
      const u = new URL(sprite);
      u.pathname += `${ratio}${ext}`;
      return u.toString();
    }),
  );
}

describe('GET /styles/{name}: a MapLibre style of the data, valid per the style spec', () => {
  for (const name of ['breeze', 'dark']) {
    it(`${name}: raw style JSON (no envelope) that validates, its layers from @protomaps/basemaps`, async () => {
      const r = await get(`/api/v1/styles/${name}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      const style = r.body;
      expect(style.timestamp).toBeUndefined();
      expect(style.version).toBe(8);
      expect(style.name).toBe(name);
      expect(validateStyleMin(style)).toEqual([]);
      expect(style.layers.length).toBeGreaterThan(50);
      const sourceLayers = new Set(style.layers.map((l: any) => l['source-layer']).filter(Boolean));
      for (const id of ['earth', 'water', 'landuse', 'roads', 'buildings', 'pois', 'places', 'boundaries'])
        expect(sourceLayers).toContain(id);
      // opens on the archive's centre
      expect(style.center).toEqual([TEST_INFO.center[0], TEST_INFO.center[1]]);
      expect(style.zoom).toBe(TEST_INFO.center[2]);
    });
  }

  it('breeze and dark differ in colours, not in layers', async () => {
    const [a, b] = await Promise.all([get('/api/v1/styles/breeze'), get('/api/v1/styles/dark')]);
    expect(a.body.layers.map((l: any) => l.id)).toEqual(b.body.layers.map((l: any) => l.id));
    const bg = (s: any) => s.layers.find((l: any) => l.type === 'background').paint['background-color'];
    expect(bg(a.body)).not.toBe(bg(b.body));
  });

  it('labels read name:en, then name (MapLibre cannot shape Devanagari)', async () => {
    const style = (await get('/api/v1/styles/breeze')).body;
    const pois = style.layers.find((l: any) => l.id === 'pois');
    // Evaluate the label of a feature with both names, and of one with only `name`.
    const label = expression.createExpression(pois.layout['text-field'], { type: 'formatted' } as any);
    expect(label.result).toBe('success');
    const evaluate = (properties: Record<string, string>) => {
      const v = (label as any).value.evaluate({ zoom: 16 }, { type: 1, properties, geometry: [] });
      return typeof v === 'string' ? v : v.sections.map((s: any) => s.text).join('');
    };
    expect(evaluate({ name: 'ठमेल', 'name:en': 'Thamel' })).toBe('Thamel');
    expect(evaluate({ name: 'Thamel Chowk' })).toBe('Thamel Chowk');
  });

  it('its sources, glyphs and sprite point back at this server, absolute, carrying the key', async () => {
    const style = (await get('/api/v1/styles/breeze')).body;
    const urls = [...Object.values(style.sources).map((s: any) => s.url), style.glyphs, style.sprite];
    expect(urls).toHaveLength(3);
    for (const u of urls) {
      expect(u.startsWith(`${server.origin}/api/v1/`)).toBe(true);
      expect(new URL(u.replace('{fontstack}', 'x').replace('{range}', '0-255')).searchParams.get('key')).toBe(KEY);
    }
    for (const layer of style.layers) if (layer.source) expect(Object.keys(style.sources)).toContain(layer.source);
    expect(Object.values(style.sources).every((s: any) => /OpenStreetMap contributors/.test(s.attribution))).toBe(true);
  });

  it('with a public URL (behind a proxy), the URLs start with it instead of the request origin', async () => {
    const style = (await proxied.request(`/api/v1/styles/dark?key=${KEY}`)).body;
    expect(style.glyphs).toBe(`https://maps.example.com/np/api/v1/fonts/{fontstack}/{range}.pbf?key=${KEY}`);
    expect(style.sprite).toBe(`https://maps.example.com/np/api/v1/sprites/dark?key=${KEY}`);
    const tileJson = (await proxied.request(`/api/v1/tiles.json?key=${KEY}`)).body;
    expect(tileJson.tiles).toEqual([`https://maps.example.com/np/api/v1/tiles/{z}/{x}/{y}.mvt?key=${KEY}`]);
  });

  it('an unknown style is a 404 envelope naming the styles there are', async () => {
    expectEnvelope(await get('/api/v1/styles/toner'), 404, /no style "toner"; styles: breeze, dark/);
  });

  it('without --tiles, styles, TileJSON and tiles are 404 envelopes naming the flag', async () => {
    for (const path of ['/api/v1/styles/breeze', '/api/v1/tiles.json', '/api/v1/tiles/0/0/0.mvt']) {
      expectEnvelope(await bare.request(`${path}?key=${KEY}`), 404, /--tiles FILE\.pmtiles/);
    }
  });
});

describe('every URL in a served style resolves (200) with the same key', () => {
  for (const name of ['breeze', 'dark']) {
    it(name, async () => {
      const style = (await get(`/api/v1/styles/${name}`)).body;
      const checked: string[] = [];
      const ok = async (url: string, type: RegExp) => {
        const r = await fetchReply(url);
        expect(r.status, url).toBe(200);
        expect(r.headers.get('content-type'), url).toMatch(type);
        checked.push(url);
        return r;
      };
      // the source's TileJSON, and a tile through its template
      const tileJson = (await ok(Object.values<any>(style.sources)[0].url, /^application\/json/)).body;
      const [x, y] = tileOf(85.3123, 27.7154, 14);
      await ok(tileJson.tiles[0].replace('{z}', '14').replace('{x}', x).replace('{y}', y), /vnd\.mapbox-vector-tile/);
      // the first range of every fontstack the layers use (Devanagari's included: it is served from Noto Sans)
      const stacks = fontstacks(style);
      expect([...stacks].sort()).toEqual(['Noto Sans Devanagari Regular v1', 'Noto Sans Italic', 'Noto Sans Medium', 'Noto Sans Regular']);
      for (const stack of stacks) {
        await ok(style.glyphs.replace('{fontstack}', encodeURIComponent(stack)).replace('{range}', '0-255'), /protobuf/);
      }
      // the sprite at 1x and 2x
      for (const url of spriteUrls(style.sprite)) await ok(url, url.includes('.png') ? /^image\/png/ : /^application\/json/);
      expect(checked).toHaveLength(2 + 4 + 4);
    });
  }
});

describe('GET /tiles.json: TileJSON 3.0 of the archive', () => {
  it('lists the tile URL, the vector layers and the header', async () => {
    const r = await get('/api/v1/tiles.json');
    expect(r.status).toBe(200);
    const t = r.body;
    expect(t.tilejson).toBe('3.0.0');
    expect(t.tiles).toEqual([`${server.origin}/api/v1/tiles/{z}/{x}/{y}.mvt?key=${KEY}`]);
    expect(t.vector_layers).toEqual(TEST_LAYERS);
    expect(t.minzoom).toBe(TEST_INFO.minZoom);
    expect(t.maxzoom).toBe(TEST_INFO.maxZoom);
    t.bounds.forEach((v: number, i: number) => expect(v).toBeCloseTo(TEST_INFO.bounds[i]!, 6));
    t.center.forEach((v: number, i: number) => expect(v).toBeCloseTo(TEST_INFO.center[i]!, 6));
    expect(t.attribution).toMatch(/© OpenStreetMap contributors/);
  });
});

// A GET that returns the body bytes as sent (fetch would inflate them).
function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe("GET /tiles/{z}/{x}/{y}.mvt: the archive's tiles, gzip, with ETag and Cache-Control", () => {
  const [x14, y14] = tileOf(85.3123, 27.7154, 14);
  const url = () => `${server.origin}/api/v1/tiles/14/${x14}/${y14}.mvt?key=${KEY}`;

  it('sends the stored tile gzip-compressed, and it decodes to the features written', async () => {
    const r = await rawGet(url(), { 'Accept-Encoding': 'gzip' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(r.headers['content-type']).toBe('application/vnd.mapbox-vector-tile');
    expect([...r.body.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    const tile = new VectorTile(new PbfReader(gunzipSync(r.body)));
    expect(Object.keys(tile.layers).sort()).toEqual(['pois', 'roads']);
    const written = testTiles().find((t) => t.z === 14)!.layers;
    const road = tile.layers.roads!.feature(0);
    expect(road.properties).toMatchObject({ kind: 'major_road', 'name:en': 'Thamel Marg', name: 'ठमेल मार्ग' });
    expect(road.loadGeometry()[0]!.map((p) => [p.x, p.y])).toEqual(written.roads![0]!.coords);
    const cafe = tile.layers.pois!.feature(0);
    expect(cafe.properties.placeId).toBe(17751388356);
    // Thamel is about 2/3 across and 1/3 down its z14 tile
    const [cx, cy] = written.pois![0]!.coords[0]!;
    expect(cafe.loadGeometry()[0]![0]).toMatchObject({ x: cx, y: cy });
    expect(cx / 4096).toBeCloseTo(0.66, 2);
    expect(cy / 4096).toBeCloseTo(0.36, 2);
  });

  it('every tile written comes back, and a tile of another zoom is another tile', async () => {
    for (const t of testTiles()) {
      const r = await rawGet(`${server.origin}/api/v1/tiles/${t.z}/${t.x}/${t.y}.mvt?key=${KEY}`);
      expect(r.status).toBe(200);
      const tile = new VectorTile(new PbfReader(gunzipSync(r.body)));
      expect(Object.keys(tile.layers).sort()).toEqual(Object.keys(t.layers).sort());
    }
  });

  it('a client that does not take gzip gets the same tile uncompressed', async () => {
    const [gz, plain] = await Promise.all([rawGet(url(), { 'Accept-Encoding': 'gzip' }), rawGet(url(), { 'Accept-Encoding': 'identity' })]);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(gunzipSync(gz.body))).toBe(true);
    expect(plain.headers.vary).toMatch(/Accept-Encoding/);
  });

  it('has a strong ETag and Cache-Control, and answers 304 to If-None-Match', async () => {
    const first = await rawGet(url());
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.headers['cache-control']).toMatch(/max-age=\d+/);
    const again = await rawGet(url(), { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    // another tile has another tag, and a stale tag gets the tile
    const other = await rawGet(`${server.origin}/api/v1/tiles/13/${tileOf(85.3123, 27.7154, 13).join('/')}.mvt?key=${KEY}`);
    expect(other.headers.etag).not.toBe(etag);
    expect((await rawGet(url(), { 'If-None-Match': '"stale"' })).status).toBe(200);
    expect((await rawGet(url(), { 'If-None-Match': `"stale", W/${etag}` })).status).toBe(304);
  });

  it('a tile outside the data is 204 with no body', async () => {
    for (const path of ['14/0/0', `14/${x14 + 1}/${y14}`, '5/3/3']) {
      const r = await rawGet(`${server.origin}/api/v1/tiles/${path}.mvt?key=${KEY}`);
      expect(r.status, path).toBe(204);
      expect(r.body.length).toBe(0);
      expect(r.headers['cache-control']).toMatch(/max-age/);
    }
  });
});

describe("tile coordinates: one rule for z, x and y, and the message says the archive's zooms", () => {
  const [x14, y14] = tileOf(85.3123, 27.7154, 14);
  const zooms = new RegExp(`z must be an integer from ${TEST_INFO.minZoom} to ${TEST_INFO.maxZoom}, the zooms of this server's tiles`);

  it("a z outside the archive's zooms is a 400 naming them, whether or not PMTiles could address it", async () => {
    for (const z of [TEST_INFO.maxZoom + 1, 26, 27, 123456789]) {
      expectEnvelope(await get(`/api/v1/tiles/${z}/0/0.mvt`), 400, zooms);
    }
    expectEnvelope(await get(`/api/v1/tiles/15/${x14 * 2}/${y14 * 2}.mvt`), 400, /overzoom z14 tiles beyond/);
  });

  it('x and y out of range, or not decimal digits, are the same 400 however long they are', async () => {
    const last = 2 ** 14 - 1;
    for (const [path, coord] of [
      [`14/${last + 1}/${y14}`, 'x'],
      [`14/${x14}/${last + 1}`, 'y'],
      [`14/123456789/${y14}`, 'x'],
      [`14/${x14}/123456789`, 'y'],
      [`14/1234567890123/${y14}`, 'x'],
      [`14/${x14}/1234567890123`, 'y'],
      [`14/-1/${y14}`, 'x'],
      [`14/${x14}/-1`, 'y'],
      [`14/1.5/${y14}`, 'x'],
      [`14/${x14}/1.5`, 'y'],
      [`14/${x14}/`, 'y'],
      [`14/${x14}/1e3`, 'y'],
    ] as const) {
      expectEnvelope(
        await get(`/api/v1/tiles/${path}.mvt`),
        400,
        new RegExp(`^Bad tile .*: ${coord} must be an integer from 0 to ${last} \\(2\\^z − 1\\) at z14$`),
      );
    }
    expectEnvelope(await get('/api/v1/tiles/2/4/0.mvt'), 400, /^Bad tile "2\/4\/0": x must be an integer from 0 to 3 /);
    expectEnvelope(await get('/api/v1/tiles/a/0/0.mvt'), 400, zooms);
  });

  it('leading zeros name the same tile', async () => {
    const r = await rawGet(`${server.origin}/api/v1/tiles/014/0${x14}/00${y14}.mvt?key=${KEY}`);
    expect(r.status).toBe(200);
  });

  it('another extension is a 404', async () => {
    expectEnvelope(await get('/api/v1/tiles/1/0/0.png'), 404, /"0.png" is not a tile/);
    expectEnvelope(await get('/api/v1/tiles/1/0/123456789.png'), 404, /is not a tile/);
  });
});

/** Reads a glyph PBF with pbf, field by field as glyphs.proto numbers them. */
function readGlyphs(bytes: Uint8Array) {
  const stacks: { name: string; range: string; glyphs: any[] }[] = [];
  new PbfReader(bytes).readFields((tag, _, pbf) => {
    if (tag !== 1) return;
    stacks.push(
      pbf.readMessage(
        (t, s: any, p) => {
          if (t === 1) s.name = p.readString();
          else if (t === 2) s.range = p.readString();
          else if (t === 3) {
            s.glyphs.push(
              p.readMessage((u, g: any, q) => {
                if (u === 1) g.id = q.readVarint();
                else if (u === 2) g.bitmap = q.readBytes();
                else if (u === 3) g.width = q.readVarint();
                else if (u === 4) g.height = q.readVarint();
                else if (u === 5) g.left = q.readSVarint();
                else if (u === 6) g.top = q.readSVarint();
                else if (u === 7) g.advance = q.readVarint();
              }, {}),
            );
          }
        },
        { name: '', range: '', glyphs: [] as any[] },
      ),
    );
  }, null);
  return stacks;
}

async function glyphRange(fontstack: string, range: string) {
  const r = await fetch(`${server.origin}/api/v1/fonts/${encodeURIComponent(fontstack)}/${range}.pbf?key=${KEY}`);
  return { status: r.status, headers: r.headers, bytes: new Uint8Array(await r.arrayBuffer()) };
}

describe('GET /fonts/{fontstack}/{start}-{end}.pbf: SDF glyph ranges', () => {
  it('a range of Noto Sans Regular: one fontstack, 24 px SDF glyphs with a 3 px buffer', async () => {
    const r = await glyphRange('Noto Sans Regular', '0-255');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/x-protobuf');
    const [stack, ...more] = readGlyphs(r.bytes);
    expect(more).toEqual([]);
    expect(stack!.name).toBe('Noto Sans Regular');
    expect(stack!.range).toBe('0-255');
    const ids = stack!.glyphs.map((g) => g.id);
    // printable ASCII and Latin-1 all there, in order, in range
    for (let c = 0x20; c <= 0x7e; c++) expect(ids).toContain(c);
    for (const c of 'àéñöü'.split('')) expect(ids).toContain(c.codePointAt(0));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(ids.every((id) => id >= 0 && id <= 255)).toBe(true);
    for (const g of stack!.glyphs) {
      if (g.width === 0) expect(g.bitmap).toBeUndefined();
      else expect(g.bitmap.length).toBe((g.width + 6) * (g.height + 6));
    }
  });

  it("glyph metrics match the font's own outlines at 24 px (read apart with opentype.js)", async () => {
    const [stack] = readGlyphs((await glyphRange('Noto Sans Regular', '0-255')).bytes);
    const buf = readFileSync(require.resolve('@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff'));
    const font = opentype.parse(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer);
    const px = 24 / font.unitsPerEm;
    const ascender = Math.ceil(font.ascender * px); // FreeType's rounding of the size's ascender
    let checked = 0;
    for (const g of stack!.glyphs) {
      const index = font.tables.cmap.glyphIndexMap[g.id];
      if (index === undefined) continue;
      const glyph = font.glyphs.get(index) as any;
      expect(g.advance).toBe(Math.round(glyph.advanceWidth * px));
      if (g.width === 0) continue;
      // the outline's exact box in px, y up; the bitmap covers it, one pixel of slack for curves' control points
      const box = glyph.getBoundingBox();
      const [x1, x2, y1, y2] = [box.x1 * px, box.x2 * px, box.y1 * px, box.y2 * px];
      expect(g.left).toBe(Math.floor(x1));
      expect(g.left + g.width).toBeGreaterThanOrEqual(Math.ceil(x2));
      expect(g.left + g.width).toBeLessThanOrEqual(Math.ceil(x2) + 1);
      const top = g.top + ascender; // rows above the baseline
      expect(top).toBeGreaterThanOrEqual(Math.ceil(y2));
      expect(top).toBeLessThanOrEqual(Math.ceil(y2) + 1);
      expect(top - g.height).toBeLessThanOrEqual(Math.floor(y1));
      expect(top - g.height).toBeGreaterThanOrEqual(Math.floor(y1) - 1);
      checked++;
    }
    expect(checked).toBeGreaterThan(180);
    // hand-checked: Noto Sans 'H' spans x 97..643 and y 0..714 of 1000 units: 2.3..15.4 px wide, 17.1 px tall
    expect(stack!.glyphs.find((g) => g.id === 72)).toMatchObject({ left: 2, width: 14, height: 18, top: 18 - 26, advance: 18 });
  });

  it("a glyph's bitmap is a real distance field: 191 on the outline, higher inside, falling off outside", async () => {
    const [stack] = readGlyphs((await glyphRange('Noto Sans Regular', '0-255')).bytes);
    const l = stack!.glyphs.find((g) => g.id === 'l'.codePointAt(0))!;
    const W = l.width + 6;
    const mid = Math.floor((l.height + 6) / 2) * W;
    const row = [...l.bitmap.subarray(mid, mid + W)] as number[];
    // across the stem (about 2.2 px wide): rising to a peak inside (> 191), falling off on both sides
    const peak = row.indexOf(Math.max(...row));
    expect(row[peak]).toBeGreaterThan(191);
    for (let i = 1; i <= peak; i++) expect(row[i]!).toBeGreaterThanOrEqual(row[i - 1]!);
    for (let i = peak + 1; i < W; i++) expect(row[i]!).toBeLessThanOrEqual(row[i - 1]!);
    // inked pixels (>= 191) about as wide as the stem: 2 or 3
    expect(row.filter((v) => v >= 191).length).toBeGreaterThanOrEqual(2);
    expect(row.filter((v) => v >= 191).length).toBeLessThanOrEqual(3);
    // the buffer's outer pixel is about 3 px off the outline: 255 * (1 - 0.25 - 3/8) = 96, give or take a pixel (32)
    expect(row[0]!).toBeGreaterThan(60);
    expect(row[0]!).toBeLessThan(130);
    // one byte step per pixel outside: 255 / 8 = 32
    expect(row[1]! - row[0]!).toBeGreaterThan(24);
    expect(row[1]! - row[0]!).toBeLessThan(40);
    // a space has no bitmap but an advance
    const space = stack!.glyphs.find((g) => g.id === 32)!;
    expect(space).toMatchObject({ width: 0, height: 0 });
    expect(space.advance).toBe(Math.round((260 * 24) / 1000)); // Noto Sans space: 260 units of 1000
  });

  it('Medium is bolder than Regular, Italic leans', async () => {
    const ink = (g: any) => g.bitmap.reduce((s: number, v: number) => s + (v >= 191 ? 1 : 0), 0);
    const get = async (font: string) =>
      readGlyphs((await glyphRange(font, '0-255')).bytes)[0]!.glyphs.find((g) => g.id === 'H'.codePointAt(0));
    const [regular, medium, italic] = await Promise.all([get('Noto Sans Regular'), get('Noto Sans Medium'), get('Noto Sans Italic')]);
    expect(ink(medium)).toBeGreaterThan(ink(regular) * 1.1);
    expect(italic.width).toBeGreaterThan(regular.width);
  });

  it('every fontstack is served: a stack we lack from its closest face, a list by its first known name', async () => {
    const name = async (stack: string) => readGlyphs((await glyphRange(stack, '0-255')).bytes)[0]!.name;
    expect(await name('Noto Sans Devanagari Regular v1')).toBe('Noto Sans Regular');
    expect(await name('Arial Unicode MS Regular,Noto Sans Medium')).toBe('Noto Sans Medium');
    expect(await name('Open Sans Italic')).toBe('Noto Sans Italic');
    expect(await name('Open Sans Bold')).toBe('Noto Sans Medium');
  });

  it('a range the font has no glyph in is an empty fontstack (MapLibre then draws nothing), not an error', async () => {
    const r = await glyphRange('Noto Sans Regular', '2304-2559'); // Devanagari
    expect(r.status).toBe(200);
    const [stack] = readGlyphs(r.bytes);
    expect(stack).toMatchObject({ name: 'Noto Sans Regular', range: '2304-2559', glyphs: [] });
    // Latin Extended Additional is there: IAST's ḍ ṭ ṇ ṣ and Vietnamese's ạ
    const ext = readGlyphs((await glyphRange('Noto Sans Regular', '7680-7935')).bytes)[0]!;
    for (const c of [0x1e0d, 0x1e6d, 0x1e47, 0x1e63, 0x1ea1]) expect(ext.glyphs.map((g) => g.id)).toContain(c);
  });

  it('has an ETag and answers 304 to If-None-Match', async () => {
    const a = await glyphRange('Noto Sans Regular', '0-255');
    const etag = a.headers.get('etag')!;
    expect(a.headers.get('cache-control')).toMatch(/max-age/);
    const b = await get(`/api/v1/fonts/Noto%20Sans%20Regular/0-255.pbf`, KEY, { headers: { 'If-None-Match': etag } });
    expect(b.status).toBe(304);
  });

  it('a range that is not a 256-code-point block is a 404 envelope', async () => {
    for (const range of ['0-254', '1-256', '65536-65791', 'a-b']) {
      expectEnvelope(await get(`/api/v1/fonts/Noto%20Sans%20Regular/${range}.pbf`), 404, /is not a glyph range/);
    }
  });
});

describe('GET /sprites/{name}[@2x].{json,png}: the icons the styles use', () => {
  async function sheet(name: string, ratio: '' | '@2x') {
    const [j, p] = await Promise.all([
      get(`/api/v1/sprites/${name}${ratio}.json`),
      fetch(`${server.origin}/api/v1/sprites/${name}${ratio}.png?key=${KEY}`),
    ]);
    expect(j.status).toBe(200);
    expect(p.status).toBe(200);
    expect(p.headers.get('content-type')).toBe('image/png');
    return {
      index: j.body as Record<string, { x: number; y: number; width: number; height: number; pixelRatio: number }>,
      png: PNG.sync.read(Buffer.from(await p.arrayBuffer())),
    };
  }

  /** The image names a style's icon-image expressions give for the features its layers filter for. */
  function iconNames(style: any): Set<string> {
    const names = new Set<string>();
    let kinds = new Set<string>();
    const collect = (v: unknown) => {
      if (Array.isArray(v)) {
        if (v[0] === 'literal' && Array.isArray(v[1])) v[1].forEach((k: unknown) => typeof k === 'string' && kinds.add(k));
        v.forEach(collect);
      }
    };
    for (const layer of style.layers) {
      const image = layer.layout?.['icon-image'];
      if (image === undefined) continue;
      // the kinds this layer draws, from its own filter
      kinds = new Set(['']);
      collect(layer.filter);
      const e = expression.createExpression(image, { type: 'resolvedImage' } as any);
      expect(e.result).toBe('success');
      for (const zoom of [5, 10, 14, 18]) {
        for (const kind of kinds) {
          for (const extra of [{}, { capital: 'yes' }, { network: 'US:I' }, { network: 'NL:S-road' }]) {
            for (const shield_text of ['1', '12', '123', '1234', '12345']) {
              const v = (e as any).value.evaluate({ zoom }, { type: 1, properties: { kind, shield_text, ...extra }, geometry: [] });
              const name = typeof v === 'string' ? v : v?.name;
              if (name) names.add(name);
            }
          }
        }
      }
    }
    return names;
  }

  for (const name of ['breeze', 'dark']) {
    it(`${name}: every icon the style can ask for is in the sheet, at 1x and 2x`, async () => {
      const style = (await get(`/api/v1/styles/${name}`)).body;
      const wanted = iconNames(style);
      for (const icon of ['arrow', 'townspot', 'capital', 'restaurant', 'cafe', 'school', 'train_station', 'generic_shield-3char'])
        expect(wanted).toContain(icon);
      const [one, two] = await Promise.all([sheet(name, ''), sheet(name, '@2x')]);
      for (const icon of wanted) {
        expect(one.index[icon], icon).toBeDefined();
        expect(two.index[icon], icon).toBeDefined();
      }
      for (const [{ index, png }, ratio] of [
        [one, 1],
        [two, 2],
      ] as const) {
        for (const [icon, r] of Object.entries(index)) {
          expect(r.pixelRatio).toBe(ratio);
          expect(r.x + r.width).toBeLessThanOrEqual(png.width);
          expect(r.y + r.height).toBeLessThanOrEqual(png.height);
          // drawn: some pixels of the icon are opaque
          let opaque = 0;
          for (let y = r.y; y < r.y + r.height; y++)
            for (let x = r.x; x < r.x + r.width; x++) if (png.data[(y * png.width + x) * 4 + 3]! > 200) opaque++;
          expect(opaque, `${icon} @${ratio}x`).toBeGreaterThan(r.width * r.height * 0.05);
        }
        expect(Object.keys(index).sort()).toEqual(Object.keys(one.index).sort());
      }
      for (const icon of Object.keys(one.index)) {
        expect(two.index[icon]!.width).toBe(2 * one.index[icon]!.width);
        expect(two.index[icon]!.height).toBe(2 * one.index[icon]!.height);
      }
    });
  }

  it('an unknown sprite is a 404 envelope', async () => {
    expectEnvelope(await get('/api/v1/sprites/toner.json'), 404, /no sprite "toner.json"; sprites: breeze/);
    expectEnvelope(await get('/api/v1/sprites/breeze@3x.png'), 404, /no sprite/);
  });
});

describe('key rules as on every endpoint: 401, 403, 429 envelopes', () => {
  const paths = () => [
    '/api/v1/styles/breeze',
    '/api/v1/tiles.json',
    `/api/v1/tiles/14/${tileOf(85.3123, 27.7154, 14).join('/')}.mvt`,
    '/api/v1/fonts/Noto%20Sans%20Regular/0-255.pbf',
    '/api/v1/sprites/breeze@2x.png',
  ];

  it('no key, or an unknown one, is 401 — before a 404 of a name', async () => {
    for (const path of [...paths(), '/api/v1/styles/nope']) {
      const r = await server.request(path);
      expectEnvelope(r, 401, /key/);
      expectEnvelope(await server.request(`${path}?key=${'z'.repeat(24)}`), 401, /key/);
    }
  });

  it('a key used from an origin it does not allow is 403; from its own origin, 200 with CORS headers', async () => {
    for (const path of paths()) {
      expectEnvelope(await get(path, ORIGIN_KEY, { headers: { Origin: 'https://evil.example' } }), 403, /Origin/);
      const ok = await get(path, ORIGIN_KEY, { headers: { Origin: 'https://ok.example' } });
      expect(ok.status, path).toBe(200);
      expect(ok.headers.get('access-control-allow-origin')).toBe('https://ok.example');
    }
  });

  it('every map request counts against the quota; past it, 429 with Retry-After', async () => {
    expect((await get('/api/v1/tiles.json', SMALL_KEY)).status).toBe(200);
    const second = await get('/api/v1/fonts/Noto%20Sans%20Regular/0-255.pbf', SMALL_KEY);
    expect(second.status).toBe(200);
    expect(second.headers.get('ratelimit-remaining')).toBe('0');
    const third = await get('/api/v1/styles/breeze', SMALL_KEY);
    expectEnvelope(third, 429, /quota of 2 requests/);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('the key never reaches the access log', async () => {
    await get('/api/v1/styles/breeze');
    const lines = server.lines.filter((l) => l.includes('/styles/breeze'));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of server.lines) expect(line).not.toContain(KEY);
  });

  it('other methods are 405 envelopes', async () => {
    expectEnvelope(await get('/api/v1/styles/breeze', KEY, { method: 'POST' }), 405, /allowed: GET, HEAD/);
    expectEnvelope(await get('/api/v1/tiles/0/0/0.mvt', KEY, { method: 'DELETE' }), 405, /allowed: GET, HEAD/);
  });
});

describe('the OpenAPI document describes the map routes', () => {
  it('each path with its media type and its refusals', async () => {
    const doc = (await server.request('/api/v1/openapi.json')).body;
    const expected: Record<string, string> = {
      '/styles/{name}': 'application/json',
      '/tiles.json': 'application/json',
      '/tiles/{z}/{x}/{y}.mvt': 'application/vnd.mapbox-vector-tile',
      '/fonts/{fontstack}/{range}.pbf': 'application/x-protobuf',
      '/sprites/{sprite}': 'image/png',
    };
    for (const [path, type] of Object.entries(expected)) {
      const get = doc.paths[path]?.get;
      expect(get, path).toBeDefined();
      expect(Object.keys(get.responses[200].content)).toContain(type);
      for (const status of ['401', '403', '429']) expect(Object.keys(get.responses)).toContain(status);
    }
    expect(doc.paths['/tiles/{z}/{x}/{y}.mvt'].get.responses[204]).toBeDefined();
  });
});
