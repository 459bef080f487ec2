/**
 * The quick start's two commands on the core fixture: `build IN -o OUT.places --tiles OUT.pmtiles`
 * writes the snapshot and the map in one run, and `serve --data OUT.places` finds the map beside
 * the data and serves its styles; with no map beside the data, it says so and the styles answer 404.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { besidePath } from '../src/cli/beside.js';
import { TileArchive } from '../src/map/archive.js';
import { formatBytes, formatCount } from '../src/cli/progress.js';
import { cli, type Run } from './support/cli.js';
import { CORE } from './support/raw.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

let dir: string;
let built: Run;
let places: string;
let map: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'np-build-tiles-'));
  places = join(dir, 'core.places');
  map = join(dir, 'core.pmtiles');
  built = await cli('build', CORE, '-o', places, '--tiles', map, '--workers', '0');
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `serve --port 0 ARGS` until its banner is out; then its stdout, stderr, API base and key. */
async function serve(...args: string[]): Promise<{ child: ChildProcess; stdout: string; stderr: string; api: string; key: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve', '--port', '0', '--no-app', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const got = { stdout: '', stderr: '' };
  child.stdout!.on('data', (d: Buffer) => (got.stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (got.stderr += d.toString()));
  let m: RegExpExecArray | null = null;
  for (let i = 0; i < 600 && !m && child.exitCode === null; i++) {
    await new Promise((r) => setTimeout(r, 100));
    m = /API v1 at (\S+) [^]*development key [^\n]*: (\S+)\n/.exec(got.stdout);
  }
  if (!m) {
    child.kill('SIGKILL');
    throw new Error(`serve did not start:\n${got.stdout}\n${got.stderr}`);
  }
  return { child, ...got, api: m[1]!, key: m[2]! };
}

async function stop(child: ChildProcess): Promise<void> {
  const exit = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exit;
}

describe('build --tiles writes the snapshot and the map in one run', () => {
  it('exits 0; both files written, nothing else left beside them', async () => {
    expect(built.code, built.stderr).toBe(0);
    expect((await readdir(dir)).sort()).toEqual(['core.places', 'core.pmtiles']);
  });

  it("the map is a PMTiles archive of the data's extent, z0–14, and the summary says what was written", async () => {
    const archive = await TileArchive.open(map);
    try {
      expect(archive.header.minZoom).toBe(0);
      expect(archive.header.maxZoom).toBe(14);
      // the fixture is central Kathmandu
      expect(archive.header.minLon).toBeGreaterThan(85.2);
      expect(archive.header.maxLon).toBeLessThan(85.4);
      expect(archive.header.minLat).toBeGreaterThan(27.6);
      expect(archive.header.maxLat).toBeLessThan(27.8);
    } finally {
      await archive.close();
    }
    const size = (await stat(map)).size;
    expect(built.stderr).toMatch(
      new RegExp(
        `\\n  map {7}${map.replace(/[.]/g, '\\.')}: [\\d,]+ tiles, ${formatCount(size)} bytes \\(${formatBytes(size).replace('.', '\\.')}\\)\\n`,
      ),
    );
    expect(built.stderr).toMatch(/^tiles z14: /m);
    expect(built.stderr).toMatch(/time {6}load .*, tiles [\d.]+ m?s, total /);
  });

  it('--json reports the archive and its time', async () => {
    const out = join(dir, 'json.places'),
      tiles = join(dir, 'json.pmtiles');
    const r = await cli('build', CORE, '-o', out, '--tiles', tiles, '--json', '--workers', '0');
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.tiles).toEqual({ output: tiles, tiles: expect.any(Number), size: (await stat(tiles)).size });
    expect(j.ms.tiles).toBeGreaterThan(0);
    await rm(out);
    await rm(tiles);
  });

  it.each([
    ['--tiles the input', ['--tiles', CORE], /--tiles must not be the input/],
    ['--tiles the snapshot', ['--tiles', join(tmpdir(), 'same.places')], /--tiles must not be the snapshot's file/],
    ['--tiles empty', ['--tiles', ''], /--tiles must name a file/],
  ])('%s is bad usage (exit 2)', async (_, extra, message) => {
    const r = await cli('build', CORE, '-o', join(tmpdir(), 'same.places'), ...extra);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('a --tiles folder that does not exist fails before any load (exit 1), nothing written', async () => {
    const out = join(dir, 'nope.places');
    const r = await cli('build', CORE, '-o', out, '--tiles', join(dir, 'no', 'such.pmtiles'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no such directory/);
    expect(r.stderr).not.toMatch(/^load /m);
    expect((await readdir(dir)).sort()).toEqual(['core.places', 'core.pmtiles']);
  });
});

describe('serve --data OUT.places finds OUT.pmtiles beside it', () => {
  it('the name beside: the extension replaced (.osm.pbf counts as one)', () => {
    expect(besidePath('/a/nepal.places')).toBe('/a/nepal.pmtiles');
    expect(besidePath('nepal-latest.osm.pbf')).toBe('nepal-latest.pmtiles');
    expect(besidePath('x/b.c/data')).toBe('x/b.c/data.pmtiles');
    expect(besidePath('.hidden')).toBe('.hidden.pmtiles');
  });

  it('serves the style of the archive found, and says where from', async () => {
    const s = await serve('--data', places);
    try {
      expect(s.stdout).toMatch(new RegExp(`map tiles z0–14 from \\S*core\\.pmtiles`));
      const r = await fetch(`${s.api}/styles/breeze?key=${s.key}`);
      expect(r.status).toBe(200);
      const style = (await r.json()) as { center: [number, number] };
      expect(style.center[0]).toBeCloseTo(85.3, 0);
    } finally {
      await stop(s.child);
    }
  });

  it('with nothing beside the data: says so, names the file it looked for, and the style answers 404', async () => {
    const alone = join(dir, 'alone.places');
    await copyFile(places, alone);
    const s = await serve('--data', alone);
    try {
      expect(s.stdout).toContain('no map tiles (no --tiles, no ');
      expect(s.stdout).toContain('alone.pmtiles');
      expect((await fetch(`${s.api}/styles/breeze?key=${s.key}`)).status).toBe(404);
    } finally {
      await stop(s.child);
      await rm(alone);
    }
  });

  it('an archive beside the data that cannot be served: a warning naming it, and no map (not a failure)', async () => {
    const data = join(dir, 'bad.places'),
      bad = join(dir, 'bad.pmtiles');
    await copyFile(places, data);
    await writeFile(bad, 'not an archive');
    const s = await serve('--data', data);
    try {
      expect(s.stderr).toMatch(/the tiles beside the data cannot be served, so there is no map: \S*bad\.pmtiles: /);
      expect((await fetch(`${s.api}/styles/breeze?key=${s.key}`)).status).toBe(404);
    } finally {
      await stop(s.child);
      await rm(data);
      await rm(bad);
    }
  });
});
