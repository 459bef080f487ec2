/**
 * TileJSON's `vector_layers[].fields`: each layer's property names and types, as the tiles
 * really carry them (every feature of the Kathmandu fixture's tiles, decoded), for archives that
 * list them and for archives whose metadata left them empty.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTiles } from '../src/tiles/build.js';
import { TileArchive } from '../src/map/archive.js';
import { LAYER_FIELDS } from '../src/tiles/schema.js';
import { coreIndex, token } from './support/http-fixture.js';
import { startServer, type TestServer } from './support/http-server.js';
import { TEST_LAYERS, writeTestArchive } from './support/map-archive.js';
import { CORE } from './support/raw.js';

const dir = mkdtempSync(join(tmpdir(), 'map-tilejson-'));
const KEY = token('a').key;
const built = join(dir, 'ktm.pmtiles');
const older = join(dir, 'older.pmtiles'); // metadata with `fields: {}`, as archives built before
const own = join(dir, 'own.pmtiles'); // metadata with its own fields
let archives: TileArchive[] = [];
let servers: TestServer[] = [];

beforeAll(async () => {
  await buildTiles(CORE, built, { workers: 0 });
  writeTestArchive(older, { metadata: { name: 'older', vector_layers: TEST_LAYERS.map((l) => ({ ...l, fields: {} })) } });
  writeTestArchive(own);
  const index = await coreIndex();
  archives = await Promise.all([built, older, own].map((p) => TileArchive.open(p)));
  servers = await Promise.all(archives.map((tiles) => startServer({ index, tokens: [token('a')], map: { tiles } })));
}, 120_000);
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await Promise.all(archives.map((a) => a.close()));
  rmSync(dir, { recursive: true, force: true });
});

const tileJson = async (server: TestServer) => {
  const r = await server.request(`/api/v1/tiles.json?key=${KEY}`);
  expect(r.status).toBe(200);
  return r.body as { vector_layers: { id: string; fields: Record<string, string> }[] };
};

// The MVT value types as TileJSON names them.
const typeOf = (v: unknown) =>
  typeof v === 'string' ? 'String' : typeof v === 'number' ? 'Number' : typeof v === 'boolean' ? 'Boolean' : typeof v;

describe('the fields of the built tiles: every property of every feature is listed, with its type', () => {
  it('holds for every tile of the Kathmandu fixture, z0 to z14', async () => {
    const { vector_layers: layers } = await tileJson(servers[0]!);
    const fields = new Map(layers.map((l) => [l.id, l.fields]));
    const seen = new Map<string, Set<string>>();
    const archive = archives[0]!;
    const { minLon, minLat, maxLon, maxLat, minZoom, maxZoom } = archive.header;
    let features = 0;
    for (let z = minZoom; z <= maxZoom; z++) {
      const n = 2 ** z;
      const x0 = Math.floor(((minLon + 180) / 360) * n),
        x1 = Math.floor(((maxLon + 180) / 360) * n);
      const row = (lat: number) => Math.floor(((1 - Math.asinh(Math.tan((lat * Math.PI) / 180)) / Math.PI) / 2) * n);
      for (let x = x0; x <= x1; x++) {
        for (let y = row(maxLat); y <= row(minLat); y++) {
          const tile = await archive.tile(z, x, y);
          if (!tile) continue;
          const vt = new VectorTile(new PbfReader(gunzipSync(tile.data)));
          for (const [id, layer] of Object.entries(vt.layers)) {
            const listed = fields.get(id);
            expect(listed, `layer ${id}`).toBeDefined();
            for (let i = 0; i < layer.length; i++) {
              features++;
              for (const [key, value] of Object.entries(layer.feature(i).properties)) {
                expect(listed![key], `${id}.${key} at ${z}/${x}/${y}`).toBe(typeOf(value));
                if (!seen.has(id)) seen.set(id, new Set());
                seen.get(id)!.add(key);
              }
            }
          }
        }
      }
    }
    expect(features).toBeGreaterThan(10_000);
    // the fixture exercises the schema broadly: every layer it has, with most of its fields
    for (const [id, keys] of seen) expect(keys.size, id).toBeGreaterThan(0);
    expect([...seen.keys()].sort()).toEqual(expect.arrayContaining(['earth', 'roads', 'buildings', 'pois', 'places', 'water', 'landuse']));
    expect([...seen.get('roads')!]).toEqual(expect.arrayContaining(['kind', 'kind_detail', 'min_zoom', 'name', 'name:en']));
  }, 120_000);

  it('the archive itself lists them in its metadata (for clients that read the PMTiles file directly)', () => {
    for (const layer of archives[0]!.vectorLayers) expect(layer.fields).toEqual(LAYER_FIELDS[layer.id as keyof typeof LAYER_FIELDS]);
  });
});

describe("TileJSON over HTTP: each layer's fields", () => {
  it('an archive whose metadata lists no fields gets those of the schema for its Protomaps layers', async () => {
    const { vector_layers: layers } = await tileJson(servers[1]!);
    expect(layers.map((l) => l.id)).toEqual(TEST_LAYERS.map((l) => l.id));
    for (const l of layers) {
      expect(Object.keys(l.fields).length, l.id).toBeGreaterThan(0);
      expect(l.fields).toEqual(LAYER_FIELDS[l.id as keyof typeof LAYER_FIELDS]);
    }
    const byId = Object.fromEntries(layers.map((l) => [l.id, l.fields]));
    expect(byId.roads).toMatchObject({ kind: 'String', 'name:en': 'String', min_zoom: 'Number', is_bridge: 'Boolean' });
    expect(byId.pois).toMatchObject({ placeId: 'Number', name: 'String' });
  });

  it("an archive's own fields are served as it lists them", async () => {
    expect((await tileJson(servers[2]!)).vector_layers).toEqual(TEST_LAYERS);
  });
});
