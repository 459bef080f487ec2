/**
 * `GET /api/v1/styles/{name}?lang=`: the Nepali style over HTTP, and the glyphs of the archive's
 * shaped clusters in the fontstack it names (the server draws them from the archive's table).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateStyleMin } from '@maplibre/maplibre-gl-style-spec';
import { PbfReader } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PbfWriter } from '../scripts/pbf-writer.js';
import { buildTiles } from '../src/tiles/build.js';
import { TileArchive } from '../src/map/archive.js';
import { fileAssets, withShapedGlyphs } from '../src/map/assets.js';
import { DEVANAGARI_STACK } from '../src/map/glyphs.js';
import { SHAPED_KEY, type ShapedTable } from '../src/map/shape.js';
import { mapStyle } from '../src/map/style.js';
import { coreIndex, token } from './support/http-fixture.js';
import { startServer, type TestServer } from './support/http-server.js';

const KEY = token('s').key;
let dir: string;
let tiles: TileArchive;
let api: TestServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'map-style-lang-'));
  const pbf = join(dir, 'ne.osm.pbf');
  const w = new PbfWriter(pbf, { sorted: true });
  w.node({
    id: 1,
    lon: 853_000_000,
    lat: 277_000_000,
    tags: [
      ['place', 'neighbourhood'],
      ['name', 'ठमेल'],
    ],
  });
  w.node({
    id: 2,
    lon: 853_100_000,
    lat: 277_000_000,
    tags: [
      ['amenity', 'cafe'],
      ['name', 'Himalayan Java'],
      ['name:ne', 'हिमालयन जाभा'],
    ],
  });
  await w.close();
  await buildTiles(pbf, join(dir, 'ne.pmtiles'), { workers: 0 });
  tiles = await TileArchive.open(join(dir, 'ne.pmtiles'));
  api = await startServer({
    index: await coreIndex(),
    tokens: [token('s')],
    map: { tiles, assets: (await withShapedGlyphs(fileAssets(), tiles.metadata)).assets },
  });
}, 60_000);

afterAll(async () => {
  await api?.close();
  await tiles?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The glyph ids (code points) of a glyph range PBF. */
function glyphIds(pbf: Uint8Array): number[] {
  const ids: number[] = [];
  new PbfReader(pbf).readFields((tag, _, r) => {
    if (tag !== 1) return;
    r.readMessage((t, __, s) => {
      if (t === 3)
        s.readMessage((g, ___, q) => {
          if (g === 1) ids.push(q.readVarint());
        }, undefined);
    }, undefined);
  }, undefined);
  return ids;
}

describe('GET /styles/{name}?lang=', () => {
  it('lang=ne is the Nepali style: valid, its labels the shaped names in the Devanagari stack', async () => {
    const r = await api.request(`/api/v1/styles/breeze?lang=ne&key=${KEY}`);
    expect(r.status).toBe(200);
    expect(validateStyleMin(r.body)).toEqual([]);
    expect(r.body.layers).toEqual(mapStyle('breeze', { base: `${api.origin}/api/v1`, key: KEY }, { lang: 'ne' }).layers);
    expect(r.text).toContain('"pgf:name:ne"');
    expect(r.text).toContain(DEVANAGARI_STACK);
  });

  it('no lang, or lang=en, is the English style as before', async () => {
    const plain = await api.request(`/api/v1/styles/dark?key=${KEY}`);
    const en = await api.request(`/api/v1/styles/dark?lang=en&key=${KEY}`);
    expect(plain.status).toBe(200);
    expect(en.body).toEqual(plain.body);
    expect(plain.text).not.toContain('pgf:name:ne');
  });

  it('another lang is a 400 envelope naming the languages', async () => {
    const r = await api.request(`/api/v1/styles/breeze?lang=fr&key=${KEY}`);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('Bad lang "fr": labels are in en (the default) or ne');
  });
});

describe('the glyphs of the shaped clusters', () => {
  it("the Devanagari stack's first Private Use Area range holds exactly the archive's clusters; Latin is served beside them", async () => {
    const table = tiles.metadata[SHAPED_KEY] as ShapedTable;
    expect(table.clusters.length).toBeGreaterThan(3);
    const stack = encodeURIComponent(DEVANAGARI_STACK);
    const pua = await fetch(`${api.origin}/api/v1/fonts/${stack}/57344-57599.pbf?key=${KEY}`);
    expect(pua.status).toBe(200);
    expect(glyphIds(new Uint8Array(await pua.arrayBuffer()))).toEqual(table.clusters.map((_, i) => 0xe000 + i));
    const latin = await fetch(`${api.origin}/api/v1/fonts/${stack}/0-255.pbf?key=${KEY}`);
    expect(glyphIds(new Uint8Array(await latin.arrayBuffer()))).toContain(0x61);
  });
});
