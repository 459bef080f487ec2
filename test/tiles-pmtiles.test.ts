/**
 * The PMTiles writer, read back with the `pmtiles` package's reader: every tile comes
 * back byte for byte, absent tiles are absent, the header says what was written, and
 * identical tiles, runs and leaf directories are stored as the format says.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PMTiles, zxyToTileId } from 'pmtiles';
import { afterAll, describe, expect, it } from 'vitest';
import { FileSource } from '../src/map/file-source.js';
import { HEADER_BYTES, PmtilesWriter, ROOT_BYTES } from '../src/tiles/pmtiles.js';
import { random } from './support/random.js';

const dir = mkdtempSync(join(tmpdir(), 'pmtiles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// tiles of random bytes, so stored uncompressed (the reader would gunzip gzip-flagged tiles)
const info = {
  minZoom: 0,
  maxZoom: 10,
  bounds: [80.05, 26.34, 88.2, 30.45] as [number, number, number, number],
  center: [85.324, 27.7172, 12] as [number, number, number],
  tileCompression: 1,
};

// Hilbert index of (x, y) in a 2^z grid, the textbook xy2d, written apart from the
// `pmtiles` package the writer orders tiles with
function hilbert(z: number, x: number, y: number): number {
  const n = 2 ** z;
  let d = 0;
  for (let s = n / 2; s >= 1; s /= 2) {
    const rx = (x & s) > 0 ? 1 : 0;
    const ry = (y & s) > 0 ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) {
        x = s - 1 - x;
        y = s - 1 - y;
      }
      [x, y] = [y, x];
    }
  }
  return (4 ** z - 1) / 3 + d; // the tiles of all lower zooms come first
}

type Tile = { z: number; x: number; y: number; bytes: Uint8Array };

// writes `tiles` (sorted here by the independent Hilbert id) and opens the archive
async function roundTrip(name: string, tiles: Tile[]) {
  const sorted = [...tiles].sort((a, b) => hilbert(a.z, a.x, a.y) - hilbert(b.z, b.x, b.y));
  const path = join(dir, name);
  const w = new PmtilesWriter(path);
  for (const t of sorted) w.add(t.z, t.x, t.y, t.bytes);
  const stats = w.finish(info, { name, vector_layers: [{ id: 'roads', fields: {} }] });
  const source = new FileSource(path);
  return { path, stats, source, archive: new PMTiles(source) };
}

function randomTiles(rand: () => number, count: number, zooms: number[], size = 40): Tile[] {
  const seen = new Set<string>();
  const out: Tile[] = [];
  while (out.length < count) {
    const z = zooms[Math.floor(rand() * zooms.length)];
    const x = Math.floor(rand() * 2 ** z);
    const y = Math.floor(rand() * 2 ** z);
    if (seen.has(`${z}/${x}/${y}`)) continue;
    seen.add(`${z}/${x}/${y}`);
    const bytes = new Uint8Array(1 + Math.floor(rand() * size));
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(rand() * 256);
    out.push({ z, x, y, bytes });
  }
  return out;
}

describe('tile ids follow the Hilbert curve, zoom by zoom', () => {
  it('matches hand-checked ids of the first zooms', () => {
    expect(zxyToTileId(0, 0, 0)).toBe(0);
    // z1 is visited (0,0) (0,1) (1,1) (1,0)
    expect([zxyToTileId(1, 0, 0), zxyToTileId(1, 0, 1), zxyToTileId(1, 1, 1), zxyToTileId(1, 1, 0)]).toEqual([1, 2, 3, 4]);
    expect(zxyToTileId(2, 0, 0)).toBe(5);
  });

  it('agrees with an independent xy2d at the grid corners and edges up to z14', () => {
    const rand = random(7);
    for (let z = 0; z <= 14; z++) {
      const m = 2 ** z - 1;
      const cases = [
        [0, 0],
        [m, 0],
        [0, m],
        [m, m],
        [Math.floor(rand() * (m + 1)), Math.floor(rand() * (m + 1))],
      ];
      for (const [x, y] of cases) expect(zxyToTileId(z, x, y), `${z}/${x}/${y}`).toBe(hilbert(z, x, y));
    }
  });
});

describe('a written archive reads back through the pmtiles reader', () => {
  it('returns every tile byte for byte and nothing for absent ones', async () => {
    const tiles = randomTiles(random(1), 300, [0, 3, 5, 7, 9]);
    const { archive, source, stats } = await roundTrip('small.pmtiles', tiles);
    for (const t of tiles) {
      const got = await archive.getZxy(t.z, t.x, t.y);
      expect(got, `${t.z}/${t.x}/${t.y}`).toBeDefined();
      expect(new Uint8Array(got!.data)).toEqual(t.bytes);
    }
    const present = new Set(tiles.map((t) => `${t.z}/${t.x}/${t.y}`));
    const rand = random(2);
    let absent = 0;
    while (absent < 50) {
      const z = 9,
        x = Math.floor(rand() * 512),
        y = Math.floor(rand() * 512);
      if (present.has(`${z}/${x}/${y}`)) continue;
      absent++;
      expect(await archive.getZxy(z, x, y)).toBeUndefined();
    }
    expect(stats).toMatchObject({ addressed: 300, entries: 300, contents: 300, leaves: 0 });
    await source.close();
  });

  it('writes the header: zooms, bounds, centre, counts, gzip and MVT, clustered', async () => {
    const tiles = randomTiles(random(3), 20, [4]);
    const { archive, source, path } = await roundTrip('header.pmtiles', tiles);
    const h = await archive.getHeader();
    expect(h).toMatchObject({
      specVersion: 3,
      minZoom: 0,
      maxZoom: 10,
      centerZoom: 12,
      clustered: true,
      internalCompression: 2,
      tileCompression: 1,
      tileType: 1,
      numAddressedTiles: 20,
      numTileEntries: 20,
      numTileContents: 20,
      rootDirectoryOffset: HEADER_BYTES,
      tileDataOffset: ROOT_BYTES,
    });
    expect(h.minLon).toBeCloseTo(80.05, 7);
    expect(h.minLat).toBeCloseTo(26.34, 7);
    expect(h.maxLon).toBeCloseTo(88.2, 7);
    expect(h.maxLat).toBeCloseTo(30.45, 7);
    expect(h.centerLon).toBeCloseTo(85.324, 7);
    expect(h.centerLat).toBeCloseTo(27.7172, 7);
    expect(h.rootDirectoryLength).toBeLessThanOrEqual(ROOT_BYTES - HEADER_BYTES);
    expect(await archive.getMetadata()).toEqual({ name: 'header.pmtiles', vector_layers: [{ id: 'roads', fields: {} }] });
    // the file ends with the last section
    expect(statSync(path).size).toBe(
      Math.max(h.jsonMetadataOffset + h.jsonMetadataLength, h.leafDirectoryOffset + (h.leafDirectoryLength ?? 0)),
    );
    // the bytes of the tile data are the tiles, in id order, each once
    const raw = readFileSync(path);
    const data = raw.subarray(h.tileDataOffset, h.tileDataOffset + h.tileDataLength!);
    const sorted = [...tiles].sort((a, b) => hilbert(a.z, a.x, a.y) - hilbert(b.z, b.x, b.y));
    expect(Buffer.concat(sorted.map((t) => t.bytes))).toEqual(Buffer.from(data));
    await source.close();
  });
});

describe('identical tiles are stored once, consecutive ones as one run', () => {
  it('folds a run of one content and shares it with a later tile', async () => {
    const same = new Uint8Array([1, 2, 3, 4, 5, 6]);
    const tiles: Tile[] = [];
    // a whole z3 row-agnostic block: every z3 tile the same, then one z4 tile the same again
    for (let x = 0; x < 8; x++) for (let y = 0; y < 8; y++) tiles.push({ z: 3, x, y, bytes: same });
    tiles.push({ z: 4, x: 5, y: 5, bytes: same });
    tiles.push({ z: 4, x: 6, y: 6, bytes: new Uint8Array([9]) });
    const { archive, source, stats, path } = await roundTrip('dedup.pmtiles', tiles);
    expect(stats.addressed).toBe(66);
    expect(stats.contents).toBe(2);
    expect(stats.entries).toBe(3); // the 64 z3 tiles are consecutive ids: one run
    for (const t of tiles) expect(new Uint8Array((await archive.getZxy(t.z, t.x, t.y))!.data)).toEqual(t.bytes);
    const h = await archive.getHeader();
    expect(h.tileDataLength).toBe(7);
    expect(statSync(path).size).toBeLessThan(ROOT_BYTES + 200);
    await source.close();
  });
});

describe('a directory too big for the first 16 KiB goes into leaves', () => {
  it('finds every tile of 60,000 through the leaves', async () => {
    const tiles = randomTiles(random(5), 60_000, [10], 8);
    const { archive, source, stats } = await roundTrip('leaves.pmtiles', tiles);
    expect(stats.leaves).toBeGreaterThan(1);
    const h = await archive.getHeader();
    expect(h.leafDirectoryLength).toBeGreaterThan(0);
    expect(h.rootDirectoryLength).toBeLessThanOrEqual(ROOT_BYTES - HEADER_BYTES);
    // the root holds leaf pointers only: it decodes to far fewer entries than tiles
    const rootRaw = gunzipSync(readFileSync(source.path).subarray(h.rootDirectoryOffset, h.rootDirectoryOffset + h.rootDirectoryLength));
    expect(rootRaw[0]).toBe(stats.leaves); // a varint below 128: the entry count
    const rand = random(6);
    for (let i = 0; i < 2000; i++) {
      const t = tiles[Math.floor(rand() * tiles.length)];
      expect(new Uint8Array((await archive.getZxy(t.z, t.x, t.y))!.data)).toEqual(t.bytes);
    }
    await source.close();
  });
});

describe('the writer refuses what would make a broken archive', () => {
  it('throws on a tile out of id order', () => {
    const w = new PmtilesWriter(join(dir, 'order.pmtiles'));
    w.add(2, 1, 1, new Uint8Array([1]));
    expect(() => w.add(1, 0, 0, new Uint8Array([2]))).toThrow(/ascending tile id/);
    expect(() => w.add(2, 1, 1, new Uint8Array([2]))).toThrow(/ascending tile id/);
    w.close();
  });
});
