/**
 * The tiles archive the server reads: what it gives back, and the clear error naming the file
 * for every archive it cannot serve (at `TileArchive.open`, and so at `serve --tiles`).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTile, TileArchive, TileArchiveError } from '../src/map/archive.js';
import { CORE_PBF } from './support/http-fixture.js';
import { TEST_INFO, TEST_LAYERS, testTiles, tileOf, writeTestArchive } from './support/map-archive.js';
import { encodeMvt } from './support/mvt.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'map-archive-'));
const good = join(dir, 'good.pmtiles');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => writeTestArchive(good));

/** A copy of the good archive with `patch` applied to its bytes. */
function variant(name: string, patch: (bytes: Buffer) => Buffer | void): string {
  const path = join(dir, name);
  const bytes = readFileSync(good);
  writeFileSync(path, patch(bytes) ?? bytes);
  return path;
}

async function openError(path: string): Promise<TileArchiveError> {
  const err = await TileArchive.open(path).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TileArchiveError);
  expect((err as TileArchiveError).file).toBe(path);
  expect((err as Error).message.startsWith(`${path}: `)).toBe(true);
  return err as TileArchiveError;
}

describe('TileArchive: a PMTiles v3 archive of MVT tiles', () => {
  it('reads the header and the vector layers of its metadata', async () => {
    const a = await TileArchive.open(good);
    try {
      expect(a.header).toMatchObject({
        specVersion: 3,
        minZoom: TEST_INFO.minZoom,
        maxZoom: TEST_INFO.maxZoom,
        tileType: 1,
        tileCompression: 2,
      });
      expect(a.header.centerLon).toBeCloseTo(TEST_INFO.center[0], 6);
      expect(a.vectorLayers).toEqual(TEST_LAYERS);
      expect(a.metadata.name).toBe('thamel-test');
    } finally {
      await a.close();
    }
  });

  it('gives every tile as stored, gzip; none where there is none', async () => {
    const a = await TileArchive.open(good);
    try {
      for (const t of testTiles()) {
        const tile = await a.tile(t.z, t.x, t.y);
        expect(Buffer.from(gunzipSync(tile!.data)).equals(Buffer.from(encodeMvt(t.layers)))).toBe(true);
      }
      const [x, y] = tileOf(85.3123, 27.7154, 14);
      expect(await a.tile(14, x + 1, y)).toBeUndefined();
      expect(await a.tile(14, 0, 0)).toBeUndefined();
      expect(await a.tile(15, 2 * x, 2 * y)).toBeUndefined(); // past maxzoom
      await expect(a.tile(3, 8, 0)).rejects.toThrow(RangeError);
    } finally {
      await a.close();
    }
  });

  it('an archive of uncompressed tiles is served gzip all the same', async () => {
    const path = join(dir, 'plain.pmtiles');
    writeTestArchive(path, { compress: false });
    const a = await TileArchive.open(path);
    try {
      expect(a.header.tileCompression).toBe(1);
      const t = testTiles().at(-1)!;
      const tile = await a.tile(t.z, t.x, t.y);
      expect([...tile!.data.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
      expect(Buffer.from(gunzipSync(tile!.data)).equals(Buffer.from(encodeMvt(t.layers)))).toBe(true);
    } finally {
      await a.close();
    }
  });

  it('isTile: integers, z 0..26, x and y below 2^z', () => {
    expect(isTile(0, 0, 0)).toBe(true);
    expect(isTile(14, 16383, 16383)).toBe(true);
    expect(isTile(14, 16384, 0)).toBe(false);
    expect(isTile(27, 0, 0)).toBe(false);
    expect(isTile(1, -1, 0)).toBe(false);
    expect(isTile(1.5, 0, 0)).toBe(false);
  });
});

describe('TileArchive.open: an archive it cannot serve is a TileArchiveError naming the file and the problem', () => {
  it('a missing file, a directory, an empty file', async () => {
    expect((await openError(join(dir, 'nope.pmtiles'))).message).toMatch(/no such file/);
    const sub = join(dir, 'a-dir.pmtiles');
    mkdirSync(sub, { recursive: true });
    expect((await openError(sub)).message).toMatch(/is a directory/);
    const empty = join(dir, 'empty.pmtiles');
    writeFileSync(empty, '');
    expect((await openError(empty)).message).toMatch(/not a PMTiles archive/);
  });

  it('another kind of file (an OSM PBF)', async () => {
    const pbf = join(dir, 'kathmandu.pmtiles');
    copyFileSync(CORE_PBF, pbf);
    expect((await openError(pbf)).message).toMatch(/not a PMTiles archive/);
  });

  it('a truncated archive: its header, or its sections past the end of the file', async () => {
    expect((await openError(variant('head.pmtiles', (b) => b.subarray(0, 60)))).message).toMatch(/truncated PMTiles header/);
    const cut = join(dir, 'cut.pmtiles');
    copyFileSync(good, cut);
    truncateSync(cut, readFileSync(good).length - 10);
    expect((await openError(cut)).message).toMatch(/truncated: its (leaf directories|metadata) ends at byte \d+ of a \d+-byte file/);
  });

  it('another spec version, raster tiles, brotli tiles', async () => {
    // header bytes (PMTiles v3 spec): 7 version, 98 tile compression, 99 tile type
    expect((await openError(variant('v2.pmtiles', (b) => void (b[7] = 2)))).message).toMatch(/spec version 2; this server reads version 3/);
    expect((await openError(variant('png.pmtiles', (b) => void (b[99] = 2)))).message).toMatch(
      /holds Png tiles; this server serves vector \(MVT\) tiles/,
    );
    expect((await openError(variant('br.pmtiles', (b) => void (b[98] = 3)))).message).toMatch(/compressed with Brotli/);
  });

  it('a damaged root directory, and metadata without vector_layers', async () => {
    // the root directory starts right after the 127-byte header; its gzip stream garbled
    expect((await openError(variant('root.pmtiles', (b) => void b.fill(0x55, 127 + 10, 127 + 30)))).message).toMatch(
      /bad PMTiles header or root directory|unreadable|truncated/,
    );
    const path = join(dir, 'nolayers.pmtiles');
    writeTestArchive(path, { metadata: { name: 'x' } });
    expect((await openError(path)).message).toMatch(/its metadata lists no vector_layers/);
  });
});

describe('serve --tiles: a bad archive is one line on stderr and exit 1 (the data failed), before the data loads; bad usage exit 2', () => {
  function serve(args: string[]): Promise<{ code: number | null; stderr: string }> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve', '--port', '0', ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
  }

  it.each([
    [['--tiles', '/no/such/tiles.pmtiles'], /^nepal-places serve: \/no\/such\/tiles\.pmtiles: no such file\n$/, 1],
    [['--tiles', CORE_PBF], /kathmandu-core_2026-01-10\.osm\.pbf: not a PMTiles archive/, 1],
    [['--tiles', ''], /--tiles must name a file/, 2],
    [['--public-url', 'ftp://example.com'], /--public-url must be an http\(s\) URL/, 2],
    [['--public-url', 'https://example.com/?a=1'], /--public-url must be an http\(s\) URL without query/, 2],
  ] as const)('%j', async (args, message, exit) => {
    const { code, stderr } = await serve([...args]);
    expect(code).toBe(exit);
    expect(stderr).toMatch(message);
  });
});
