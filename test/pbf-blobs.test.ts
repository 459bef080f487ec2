/**
 * Blobs a loader must not trust: zlib bombs (a blob that inflates far past what it
 * claims, or past the format's 32 MiB) and blobs of unknown type (skipped as the
 * format asks, but counted, and refused by a strict load). Files are hand-made with
 * scripts/pbf-writer.ts plus frames written here byte by byte.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { PbfWriter, encodeFrame, zlibBlob, zlibBomb } from '../scripts/pbf-writer.js';
import { loadPbf, PbfError, buildSnapshot, fromSnapshot } from '../src/index.js';
import { CORE } from './support/raw.js';
import { damagedFixture } from './support/damaged.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MiB = 1024 * 1024;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'nepal-places-blobs-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A small valid PBF: a header and one block of two cafés (node ids 1 and 2). */
async function cafes(): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  const w = new PbfWriter((c) => chunks.push(c.slice()), { sorted: true });
  w.node({
    id: 1,
    lat: 277_000_000,
    lon: 853_000_000,
    tags: [
      ['amenity', 'cafe'],
      ['name', 'One'],
    ],
  });
  w.node({
    id: 2,
    lat: 277_001_000,
    lon: 853_001_000,
    tags: [
      ['amenity', 'cafe'],
      ['name', 'Two'],
    ],
  });
  await w.close();
  return chunks;
}

/** A zlib bomb of `padding` zero bytes (scripts/pbf-writer.ts). */
const bomb = (padding: number) => zlibBomb(padding);

function file(name: string, parts: Uint8Array[]): string {
  const path = join(dir, name);
  writeFileSync(path, Buffer.concat(parts));
  return path;
}

async function rejection(p: Promise<unknown>): Promise<PbfError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PbfError);
  return err as PbfError;
}

describe('a blob may not inflate past the 32 MiB the format allows, whatever it claims', () => {
  it('a well-formed block of 33 MiB without raw_size is refused, on this thread and on decoder threads', async () => {
    const { zlib, size } = await bomb(33 * MiB);
    expect(zlib.length).toBeLessThan(MiB / 4);
    const path = file('no-raw-size.osm.pbf', [...(await cafes()), encodeFrame('OSMData', zlibBlob(zlib))]);
    for (const workers of [0, 2]) {
      const e = await rejection(loadPbf(path, { workers }));
      expect(e.file).toBe(path);
      expect(e.message).toMatch(/blob at offset \d+: blob inflates to more than the format's 32 MiB/);
      expect(e.code).toBe('ERR_BUFFER_TOO_LARGE');
    }
    // the same block at 31 MiB is legal, and loads (as the two cafés and nothing else)
    const small = await bomb(31 * MiB);
    const ok = file('legal.osm.pbf', [...(await cafes()), encodeFrame('OSMData', zlibBlob(small.zlib, small.size))]);
    expect((await loadPbf(ok, { workers: 0 })).size).toBe(2);
    expect(size).toBeGreaterThan(33 * MiB);
  });

  it('a raw_size above 32 MiB is refused before inflating', async () => {
    const { zlib } = await bomb(8);
    const path = file('claims.osm.pbf', [...(await cafes()), encodeFrame('OSMData', zlibBlob(zlib, 32 * MiB + 1))]);
    const e = await rejection(loadPbf(path, { workers: 0 }));
    expect(e.message).toContain(`claims ${32 * MiB + 1} bytes uncompressed, more than the format's 32 MiB`);
  });

  it('a raw_size that lies low stops the inflating at raw_size', async () => {
    const { zlib } = await bomb(4 * MiB);
    const path = file('lies.osm.pbf', [...(await cafes()), encodeFrame('OSMData', zlibBlob(zlib, 1000))]);
    const e = await rejection(loadPbf(path, { workers: 0 }));
    expect(e.message).toContain('blob inflates to more than the 1000 bytes its header says');
  });

  it('bombs of 512 MiB, lying or not, on two threads, never cost their size in memory', async () => {
    // A child process of its own, so that its peak RSS is these loads' alone. Three
    // bombs: no raw_size, a raw_size of 1000, and the true size (refused outright).
    const { zlib, size } = await bomb(512 * MiB);
    const head = await cafes();
    const paths = [
      file('bomb-a.osm.pbf', [...head, encodeFrame('OSMData', zlibBlob(zlib)), encodeFrame('OSMData', zlibBlob(zlib))]),
      file('bomb-b.osm.pbf', [...head, encodeFrame('OSMData', zlibBlob(zlib, 1000)), encodeFrame('OSMData', zlibBlob(zlib, 1000))]),
      file('bomb-c.osm.pbf', [...head, encodeFrame('OSMData', zlibBlob(zlib, size)), encodeFrame('OSMData', zlibBlob(zlib, size))]),
    ];
    const script = `
      import { loadPbf } from './src/index.ts';
      const out = [];
      for (const path of ${JSON.stringify(paths)}) {
        for (const workers of [0, 2]) {
          out.push(await loadPbf(path, { workers }).then((i) => 'loaded ' + i.size, (e) => e.name + ': ' + e.message));
        }
      }
      console.log(JSON.stringify({ out, maxRss: process.resourceUsage().maxRSS * 1024 }));`;
    const got = await new Promise<{ out: string[]; maxRss: number }>((resolve, reject) => {
      execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT }, (err, stdout, stderr) => {
        if (err) reject(new Error(`${err.message}\n${stderr}`));
        else resolve(JSON.parse(stdout.trim().split('\n').pop()!));
      });
    });
    expect(got.out).toHaveLength(6);
    for (const line of got.out) expect(line).toMatch(/^PbfError: .*blob at offset \d+: blob (inflates to more than|claims)/);
    // a child that loads nothing measures about 100 MB here; two threads may each hold 32 MiB
    expect(got.maxRss).toBeLessThan(400 * MiB);
  });
});

describe('blobs of unknown type are skipped, counted in stats, and refused by strict loading', () => {
  it('the fixture has none', async () => {
    const index = await loadPbf(CORE);
    expect(index.stats.skippedBlobs).toBe(0);
    expect(fromSnapshot(buildSnapshot(index)).stats.skippedBlobs).toBe(0);
  });

  it('one damaged type string: loaded without it, counted, and the count survives a snapshot', async () => {
    const { bytes } = damagedFixture();
    const whole = await loadPbf(CORE);
    const index = await loadPbf(bytes);
    expect(index.stats.skippedBlobs).toBe(1);
    expect(index.stats.nodes).toBeLessThan(whole.stats.nodes);
    expect(fromSnapshot(buildSnapshot(index)).stats.skippedBlobs).toBe(1);
  });

  it('strict: true refuses the file, naming the blob, its type and offset; on threads too', async () => {
    const { bytes, offset } = damagedFixture();
    const path = file('damaged.osm.pbf', [bytes]);
    for (const workers of [0, 2]) {
      const e = await rejection(loadPbf(path, { strict: true, workers }));
      expect(e.file).toBe(path);
      expect(e.message).toContain(`1 blob of unknown type ("OSMDatb" at offset ${offset})`);
      expect(e.message).toContain('strict');
    }
    // strict loading of a sound file is the same load
    const strict = await loadPbf(CORE, { strict: true });
    expect(strict.stats).toEqual((await loadPbf(CORE)).stats);
  });

  it('a blob of a type written on purpose (the format allows them) counts too', async () => {
    const extra = encodeFrame('ExtraMeta', zlibBlob(deflateSync(new Uint8Array(10)), 10));
    const path = file('extra.osm.pbf', [...(await cafes()), extra, extra]);
    const index = await loadPbf(path);
    expect(index.size).toBe(2);
    expect(index.stats.skippedBlobs).toBe(2);
    const e = await rejection(loadPbf(path, { strict: true }));
    expect(e.message).toMatch(/2 blobs of unknown type \("ExtraMeta" at offset \d+, "ExtraMeta" at offset \d+\)/);
  });
});
