/**
 * Bad files: truncated, corrupt, not a PBF, missing. Each load rejects with a PbfError
 * naming the file (broken copies of the fixture are written to the OS temp folder).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPbf, loadFile, nearby, PbfError } from '../src/index.js';
import { CORE } from './support/raw.js';
import { openPbf, readBlocks } from '../src/load/read.js';
import { PLACE_KEEP } from '../src/osm/place.js';

let dir: string;
let bytes: Uint8Array;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'nepal-places-pbf-'));
  bytes = new Uint8Array(readFileSync(CORE));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A frame of the file: where its header and its blob start, and the blob's length. */
interface Frame {
  at: number;
  type: string;
  blob: number;
  size: number;
}

/** Walks the frames (4-byte length, BlobHeader, Blob) of a PBF, reading just enough protobuf. */
function frames(b: Uint8Array): Frame[] {
  const out: Frame[] = [];
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let pos = 0;
  while (pos < b.length) {
    const len = view.getUint32(pos);
    let p = pos + 4;
    const end = p + len;
    let type = '';
    let size = 0;
    while (p < end) {
      const key = b[p++];
      const varint = () => {
        let v = 0;
        let s = 1;
        for (;;) {
          const c = b[p++];
          v += (c & 0x7f) * s;
          s *= 128;
          if (c < 0x80) return v;
        }
      };
      if (key === 0x0a) {
        const n = varint();
        type = new TextDecoder().decode(b.subarray(p, p + n));
        p += n;
      } else if (key === 0x18) size = varint();
      else if ((key & 7) === 2) {
        const n = varint();
        p += n;
      } else varint();
    }
    out.push({ at: pos, type, blob: end, size });
    pos = end + size;
  }
  return out;
}

function write(name: string, data: Uint8Array | string): string {
  const file = join(dir, name);
  writeFileSync(file, data);
  return file;
}

async function expectPbfError(file: string, problem?: RegExp): Promise<PbfError> {
  let err: unknown;
  try {
    await loadPbf(file);
  } catch (e) {
    err = e;
  }
  expect(err, `${file} should be rejected`).toBeInstanceOf(PbfError);
  const e = err as PbfError;
  expect(e.file).toBe(file);
  expect(e.message).toContain(file);
  expect(e.message.length).toBeGreaterThan(file.length + 5);
  if (problem) expect(e.message).toMatch(problem);
  return e;
}

describe('loading the fixture: frames as the format says, from a path or bytes, with progress', () => {
  it('has one OSMHeader then OSMData frames filling the file exactly', () => {
    const f = frames(bytes);
    expect(f[0].type).toBe('OSMHeader');
    expect(f.length).toBeGreaterThan(10);
    for (const x of f.slice(1)) expect(x.type).toBe('OSMData');
    const last = f[f.length - 1];
    expect(last.blob + last.size).toBe(bytes.length);
  });

  it('loads from bytes as from the file, on worker threads or not', async () => {
    const a = await loadPbf(CORE);
    const b = await loadPbf(bytes.slice());
    const c = await loadPbf(CORE, { workers: 0 });
    const d = await loadPbf(CORE, { workers: 2 });
    for (const x of [b, c, d]) {
      expect(x.size).toBe(a.size);
      expect(x.stats).toEqual(a.stats);
      const q = { type: 'eat', lat: 27.7083, lon: 85.3206, limit: 200, at: new Date('2026-01-17T06:15:00Z') };
      expect(nearby(x, q)).toEqual(nearby(a, q));
    }
  });

  it('reports progress in bytes, up to the file size', async () => {
    const seen: { bytesRead: number; bytesTotal: number }[] = [];
    await loadPbf(CORE, { onProgress: (p) => seen.push({ ...p }) });
    expect(seen.length).toBeGreaterThan(0);
    for (const p of seen) expect(p.bytesTotal).toBe(bytes.length);
    for (let i = 1; i < seen.length; i++) expect(seen[i].bytesRead).toBeGreaterThanOrEqual(seen[i - 1].bytesRead);
    expect(seen[seen.length - 1].bytesRead).toBe(bytes.length);
  });
});

describe('a truncated PBF rejects with a PbfError naming the file', () => {
  it('cut inside a blob (half the file)', async () => {
    await expectPbfError(write('half.osm.pbf', bytes.subarray(0, bytes.length >> 1)));
  });

  it('cut one byte short', async () => {
    await expectPbfError(write('short.osm.pbf', bytes.subarray(0, bytes.length - 1)));
  });

  it('cut inside the length prefix of a frame', async () => {
    const f = frames(bytes);
    await expectPbfError(write('prefix.osm.pbf', bytes.subarray(0, f[3].at + 2)));
  });

  it('cut inside a blob header', async () => {
    const f = frames(bytes);
    await expectPbfError(write('header.osm.pbf', bytes.subarray(0, f[3].at + 7)));
  });

  it('cut right after a blob header, before its blob', async () => {
    const f = frames(bytes);
    await expectPbfError(write('noblob.osm.pbf', bytes.subarray(0, f[3].blob)));
  });

  it('empty', async () => {
    await expectPbfError(write('empty.osm.pbf', new Uint8Array(0)));
  });

  it('with the header only (no data): loads nothing but does not fail — or fails cleanly', async () => {
    // Not a truncation the file can tell: a PBF of zero entities is valid. Either answer
    // is acceptable, but no other error type and no hang.
    const f = frames(bytes);
    const file = write('headeronly.osm.pbf', bytes.subarray(0, f[1].at));
    try {
      const index = await loadPbf(file);
      expect(index.size).toBe(0);
    } catch (e) {
      expect(e).toBeInstanceOf(PbfError);
    }
  });
});

describe('a file cut short while it is read rejects with a PbfError naming the file', () => {
  // a file is read blob by blob as it is decoded: one that shrinks after it is opened is found short then
  for (const workers of [0, 2]) {
    it(`cut to half after its frames were read, decoded on ${workers} threads`, async () => {
      const file = write(`shrinks-${workers}.osm.pbf`, bytes);
      const pbf = await openPbf(file);
      truncateSync(file, bytes.length >> 1);
      let err: unknown;
      try {
        await readBlocks(pbf, workers, PLACE_KEEP, () => {});
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(PbfError);
      expect((err as PbfError).message).toContain(file);
      expect((err as PbfError).message).toMatch(/the file ended \d+ bytes early/);
    });
  }
});

describe('a corrupt PBF rejects with a PbfError naming the file', () => {
  it('bytes flipped inside a compressed blob', async () => {
    const f = frames(bytes);
    const copy = bytes.slice();
    const mid = f[5].blob + (f[5].size >> 1);
    for (let i = 0; i < 16; i++) copy[mid + i] ^= 0xff;
    await expectPbfError(write('flipped.osm.pbf', copy));
  });

  it('bytes flipped in the last blob', async () => {
    const f = frames(bytes);
    const last = f[f.length - 1];
    const copy = bytes.slice();
    for (let i = 8; i < 24; i++) copy[last.blob + i] ^= 0x5a;
    await expectPbfError(write('flipped-last.osm.pbf', copy));
  });

  it('a blob size beyond the end of the file', async () => {
    const f = frames(bytes);
    const copy = bytes.slice();
    // the frame-length prefix says the header is longer than it is
    new DataView(copy.buffer).setUint32(f[2].at, 0x7fffffff);
    await expectPbfError(write('huge-header.osm.pbf', copy));
  });

  it('an unknown blob type is skipped, as the format asks of parsers', async () => {
    const f = frames(bytes);
    const copy = bytes.slice();
    // "OSMData" → "OSMDatb" in the third frame's header: a block of (at most 8000) nodes
    const at = copy.indexOf(0x61, f[2].at + 4 + 2 + 5);
    copy[at] = 0x62;
    const index = await loadPbf(write('unknown-type.osm.pbf', copy));
    expect(index.stats.nodes).toBeLessThan(148_164);
    expect(index.stats.nodes).toBeGreaterThanOrEqual(148_164 - 8000);
  });
});

describe('a file that is not a PBF rejects with a PbfError naming the file', () => {
  it('text', async () => {
    await expectPbfError(write('text.osm.pbf', 'this is not an OpenStreetMap PBF file\n'));
  });

  it('OSM XML', async () => {
    await expectPbfError(write('map.osm', '<?xml version="1.0"?>\n<osm version="0.6"><node id="1" lat="27.7" lon="85.3"/></osm>\n'));
  });

  it('random bytes', async () => {
    const junk = new Uint8Array(4096);
    let s = 12345;
    for (let i = 0; i < junk.length; i++) {
      s = (s * 1103515245 + 12345) >>> 0;
      junk[i] = s >>> 24;
    }
    await expectPbfError(write('junk.osm.pbf', junk));
  });

  it('a gzip file', async () => {
    const { gzipSync } = await import('node:zlib');
    await expectPbfError(write('zipped.osm.pbf.gz', gzipSync(bytes.subarray(0, 1000))));
  });
});

describe('a missing file rejects with a PbfError naming the file', () => {
  it('no such file', async () => {
    await expectPbfError(join(dir, 'does-not-exist.osm.pbf'));
  });

  it('a directory', async () => {
    await expectPbfError(dir);
  });
});

describe('a PbfError keeps the error underneath as cause, and its code', () => {
  it("a missing file: the system's ENOENT, from loadPbf and from loadFile", async () => {
    const none = join(dir, 'does-not-exist.osm.pbf');
    for (const e of [await expectPbfError(none), (await loadFile(none).catch((x: unknown) => x)) as PbfError]) {
      expect(e).toBeInstanceOf(PbfError);
      expect(e.code).toBe('ENOENT');
      expect(e.cause).toBeInstanceOf(Error);
      expect(e.cause).toMatchObject({ code: 'ENOENT', path: none });
    }
  });

  it('a directory: EISDIR', async () => {
    const e = await expectPbfError(dir);
    expect(e.code).toBe('EISDIR');
    expect(e.cause).toMatchObject({ code: 'EISDIR' });
  });

  it("a damaged zlib stream: zlib's code, on this thread and on decoder threads", async () => {
    const f = frames(bytes);
    const copy = bytes.slice();
    const mid = f[5].blob + (f[5].size >> 1);
    for (let i = 0; i < 16; i++) copy[mid + i] ^= 0xff;
    const file = write('flipped-code.osm.pbf', copy);
    for (const workers of [0, 2]) {
      const e = (await loadPbf(file, { workers }).catch((x: unknown) => x)) as PbfError;
      expect(e).toBeInstanceOf(PbfError);
      expect(e.code).toMatch(/^Z_(DATA|BUF)_ERROR$/);
      expect(e.cause).toBeInstanceOf(Error);
      expect((e.cause as Error).message).toContain(`blob at offset ${f[5].blob}`);
    }
  });

  it('a file that is not a PBF has no code: nothing underneath failed', async () => {
    const e = await expectPbfError(write('text2.osm.pbf', 'not a PBF at all, just some text\n'));
    expect(e.code).toBeUndefined();
  });
});
