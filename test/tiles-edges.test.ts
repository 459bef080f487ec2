/**
 * Tile math at tile edges, on a hand-made PBF whose points sit exactly on, and a
 * hair either side of, the edges of z14 tiles; and the command's answers to bad
 * input. Every expected coordinate is worked out by hand from the numbers below.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VectorTile, type VectorTileFeature } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { PMTiles } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PbfWriter } from '../scripts/pbf-writer.js';
import { buildTiles } from '../src/tiles/build.js';
import { PbfError } from '../src/errors.js';
import { FileSource } from '../src/map/file-source.js';
import { cli } from './support/cli.js';
import { CORE } from './support/raw.js';

const dir = mkdtempSync(join(tmpdir(), 'tiles-edges-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// z14 tiles are 360 / 2^14 = 0.02197265625° wide: the west edge of column 12064 is
// 12064 * 0.02197265625 - 180 = 85.078125°, a whole number of 1e-7°
const EDGE = 850_781_250;
const LAT = 277_000_000;
// rows: y = floor((1 - ln(tan φ + sec φ) / π) / 2 · 2^14); at 27.7°, ln(tan φ + sec φ)
// = ln(0.52497 + 1.12945) = 0.50347, so y = 6879.153: row 6879, 628.2 units down
const ROW = 6879;

let source: FileSource;
let archive: PMTiles;

beforeAll(async () => {
  const pbf = join(dir, 'edges.osm.pbf');
  const w = new PbfWriter(pbf, { sorted: true });
  w.node({
    id: 1,
    lat: LAT,
    lon: EDGE,
    tags: [
      ['amenity', 'cafe'],
      ['name', 'On the edge'],
    ],
  });
  w.node({
    id: 2,
    lat: LAT,
    lon: EDGE - 1,
    tags: [
      ['amenity', 'cafe'],
      ['name', 'A hair west'],
    ],
  });
  // a street across the edge, 0.01° (1864.1 units: 0.01 / 0.02197265625 · 4096) each side
  w.node({ id: 10, lat: LAT, lon: EDGE - 100_000 });
  w.node({ id: 11, lat: LAT, lon: EDGE + 100_000 });
  // a building across the edge: 0.0001° (18.6 units) west of it to 0.0001° east
  w.node({ id: 20, lat: LAT + 500, lon: EDGE - 1000 });
  w.node({ id: 21, lat: LAT + 500, lon: EDGE + 1000 });
  w.node({ id: 22, lat: LAT - 500, lon: EDGE + 1000 });
  w.node({ id: 23, lat: LAT - 500, lon: EDGE - 1000 });
  w.way({
    id: 100,
    refs: [10, 11],
    tags: [
      ['highway', 'residential'],
      ['name', 'Edge Road'],
    ],
  });
  w.way({ id: 101, refs: [20, 21, 22, 23, 20], tags: [['building', 'yes']] });
  await w.close();
  await buildTiles(pbf, join(dir, 'edges.pmtiles'), { workers: 0 });
  source = new FileSource(join(dir, 'edges.pmtiles'));
  archive = new PMTiles(source);
});
afterAll(async () => {
  await source?.close();
});

async function layer(x: number, name: string): Promise<VectorTileFeature[]> {
  const r = await archive.getZxy(14, x, ROW);
  if (!r) return [];
  const l = new VectorTile(new PbfReader(new Uint8Array(r.data))).layers[name];
  return l ? Array.from({ length: l.length }, (_, i) => l.feature(i)) : [];
}

describe('a point on a tile edge belongs to the tile east of it', () => {
  it('puts the point on the edge at x = 0 of column 12064, and not in 12063', async () => {
    const east = (await layer(12064, 'pois')).filter((f) => f.properties.placeId === 4);
    expect(east).toHaveLength(1);
    expect(east[0].loadGeometry()[0][0].x).toBe(0);
    expect((await layer(12063, 'pois')).filter((f) => f.properties.placeId === 4)).toHaveLength(0);
  });

  it('puts the point 1e-7° west of it in column 12063, at x = 4096 (4095.98 rounded)', async () => {
    const west = (await layer(12063, 'pois')).filter((f) => f.properties.placeId === 8);
    expect(west).toHaveLength(1);
    expect(west[0].loadGeometry()[0][0].x).toBe(4096);
    expect((await layer(12064, 'pois')).filter((f) => f.properties.placeId === 8)).toHaveLength(0);
  });

  it('puts both in row 6879 at the same y, 628 units down', async () => {
    const [a] = (await layer(12064, 'pois')).filter((f) => f.properties.placeId === 4);
    const [b] = (await layer(12063, 'pois')).filter((f) => f.properties.placeId === 8);
    const y = a.loadGeometry()[0][0].y;
    expect(y).toBe(b.loadGeometry()[0][0].y);
    expect(y).toBe(628);
  });
});

describe('lines and polygons across an edge are in both tiles, cut at the buffer', () => {
  it('cuts the street at 64 units beyond each tile: x to 4160 in 12063, from -64 in 12064', async () => {
    const west = (await layer(12063, 'roads')).filter((f) => f.properties.name === 'Edge Road');
    const east = (await layer(12064, 'roads')).filter((f) => f.properties.name === 'Edge Road');
    expect(west).toHaveLength(1);
    expect(east).toHaveLength(1);
    const wx = west[0].loadGeometry()[0].map((p) => p.x);
    const ex = east[0].loadGeometry()[0].map((p) => p.x);
    // the street starts at 4096 - 1864.1 in the west tile and ends at 1864.1 in the east one
    expect(Math.min(...wx)).toBe(2232);
    expect(Math.max(...wx)).toBe(4160);
    expect(Math.min(...ex)).toBe(-64);
    expect(Math.max(...ex)).toBe(1864);
  });

  it('keeps the small building whole in both tiles (it lies within the buffer): 18.6 units each side of the edge', async () => {
    const west = await layer(12063, 'buildings');
    const east = await layer(12064, 'buildings');
    expect(west).toHaveLength(1);
    expect(east).toHaveLength(1);
    const wx = west[0].loadGeometry()[0].map((p) => p.x);
    const ex = east[0].loadGeometry()[0].map((p) => p.x);
    expect([Math.min(...wx), Math.max(...wx)]).toEqual([4077, 4115]); // 4096 ∓ 18.64
    expect([Math.min(...ex), Math.max(...ex)]).toEqual([-19, 19]);
    // an MVT outer ring: positive area in tile coordinates (clockwise on screen)
    const ring = east[0].loadGeometry()[0];
    let area = 0;
    for (let i = 0; i < ring.length - 1; i++) area += ring[i].x * ring[i + 1].y - ring[i + 1].x * ring[i].y;
    expect(area).toBeGreaterThan(0);
  });
});

describe('a file not sorted by type is read whole before its features are made', () => {
  it('draws a street written before its nodes', async () => {
    const pbf = join(dir, 'unsorted.osm.pbf');
    const w = new PbfWriter(pbf, { blockSize: 1 });
    w.way({
      id: 5,
      refs: [1, 2],
      tags: [
        ['highway', 'primary'],
        ['name', 'Backwards Road'],
      ],
    });
    w.node({ id: 1, lat: LAT, lon: EDGE + 1000 });
    w.node({ id: 2, lat: LAT, lon: EDGE + 100_000 });
    await w.close();
    const out = join(dir, 'unsorted.pmtiles');
    await buildTiles(pbf, out, { workers: 0 });
    const src = new FileSource(out);
    const r = await new PMTiles(src).getZxy(14, 12064, ROW);
    const l = new VectorTile(new PbfReader(new Uint8Array(r!.data))).layers.roads;
    expect(l.length).toBe(1);
    expect(l.feature(0).properties).toMatchObject({ name: 'Backwards Road', kind: 'major_road' });
    // 1000e-7° east of the edge is 18.6 units; 100000e-7° is 1864.1
    expect(
      l
        .feature(0)
        .loadGeometry()[0]
        .map((p) => p.x),
    ).toEqual([19, 1864]);
    await src.close();
  });
});

describe('bad input is a clear error naming the file, and leaves nothing behind', () => {
  it('rejects a truncated PBF with a PbfError naming it', async () => {
    const bytes = readFileSync(CORE);
    const cut = join(dir, 'cut.osm.pbf');
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const out = join(dir, 'cut.pmtiles');
    const err = await buildTiles(cut, out).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PbfError);
    expect((err as PbfError).message).toContain(cut);
    expect((err as PbfError).message).toMatch(/truncated/);
    expect(existsSync(out)).toBe(false);
  });

  it('exits 1 on a file that is not a PBF, a missing file, or an output folder that does not exist; no file is left', async () => {
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'these are not map data\n');
    const before = readdirSync(dir).length;
    let r = await cli('tiles', text, '-o', join(dir, 'a.pmtiles'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${text}: not a valid PBF`);
    r = await cli('tiles', join(dir, 'missing.osm.pbf'), '-o', join(dir, 'b.pmtiles'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('missing.osm.pbf: no such file');
    r = await cli('tiles', CORE, '-o', join(dir, 'nowhere', 'c.pmtiles'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no such directory/);
    expect(readdirSync(dir).length).toBe(before);
  });

  it('exits 2 with the usage on bad arguments', async () => {
    for (const args of [
      ['tiles', CORE],
      ['tiles', '-o', 'x.pmtiles'],
      ['tiles', CORE, '-o', 'x.pmtiles', '--max-zoom', '15'],
      ['tiles', CORE, '-o', CORE],
    ]) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain('usage: nepal-places tiles');
    }
  });

  it('writes the archive and a summary on success', async () => {
    const out = join(dir, 'ok.pmtiles');
    const r = await cli('tiles', CORE, '-o', out, '--max-zoom', '12');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`wrote ${out}`);
    expect(r.stderr).toMatch(/tiles z12: \d+ tiles/);
    const a = new PMTiles(new FileSource(out));
    expect((await a.getHeader()).maxZoom).toBe(12);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('--no-nepali leaves out the shaped Nepali labels: no cluster table in the metadata, a smaller archive', async () => {
    const [withNe, without] = [join(dir, 'ne.pmtiles'), join(dir, 'en.pmtiles')];
    expect((await cli('tiles', CORE, '-o', withNe, '--max-zoom', '12')).code).toBe(0);
    expect((await cli('tiles', CORE, '-o', without, '--max-zoom', '12', '--no-nepali')).code).toBe(0);
    const meta = async (f: string) => (await new PMTiles(new FileSource(f)).getMetadata()) as Record<string, unknown>;
    expect(await meta(withNe)).toHaveProperty(['nepal-places:shaped']);
    expect(await meta(without)).not.toHaveProperty(['nepal-places:shaped']);
    expect(statSync(without).size).toBeLessThan(statSync(withNe).size);
  });
});
