import { readFileSync, statSync } from 'node:fs';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { xxHash32 } from 'js-xxhash';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildSnapshot,
  fromSnapshot,
  loadSnapshot,
  loadFile,
  isSnapshot,
  nearby,
  place,
  search,
  reverse,
  SnapshotError,
  SNAPSHOT_VERSION,
  type PlaceIndex,
} from '../src/index.js';
import { placeId as rowId } from '../src/query/record.js';
import { flatbushData } from '../src/snapshot/flatbush.js';
import { engine } from './support/fixture.js';
import { CORE, TRANSIT } from './support/raw.js';
import { random } from './support/random.js';
import { directory, openWhole, reseal, withDirectory as withText } from './support/crafted.js';

// A fixed instant, so `isOpen` and the records' `open` compare equal whenever the test runs.
const AT = new Date('2026-01-10T06:30:00Z'); // 12:15 Nepal Time

/** What each operation answers, or the error it throws, as comparable data. */
function answer(fn: () => unknown): unknown {
  try {
    return fn();
  } catch (err) {
    return { error: (err as Error).name, message: (err as Error).message };
  }
}

/**
 * A few hundred mixed queries (nearby of every kind, place, search with prefixes and
 * typos, reverse) around the fixture's places, each as a function of an index.
 */
function mixedQueries(index: PlaceIndex, seed: number): { what: string; run: (i: PlaceIndex) => unknown }[] {
  const rnd = random(seed);
  const t = index.table;
  const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)];
  const types = Object.keys(index.typeCounts());
  const named: string[] = [];
  for (let r = 0; r < t.size; r++) if (t.name[r] !== 0) named.push(t.strings[t.name[r]]);
  // a point near a random row: near real places, not in empty fields
  const near = () => {
    const r = Math.floor(rnd() * t.size);
    return { lat: t.lat[r] / 1e7 + (rnd() - 0.5) * 0.01, lon: t.lon[r] / 1e7 + (rnd() - 0.5) * 0.01 };
  };
  const out: { what: string; run: (i: PlaceIndex) => unknown }[] = [];
  for (let k = 0; k < 120; k++) {
    const q = {
      ...near(),
      type: pick(types),
      radius: 1 + Math.floor(rnd() * 3),
      limit: 1 + Math.floor(rnd() * 25),
      sortBy: rnd() < 0.5,
      isOpen: rnd() < 0.3,
      at: AT,
    };
    out.push({ what: `nearby ${JSON.stringify(q)}`, run: (i) => nearby(i, q) });
  }
  for (let k = 0; k < 80; k++) {
    const r = Math.floor(rnd() * t.size);
    const id = rnd() < 0.9 ? rowId(t, r) : rowId(t, r) + 4 * 1e9; // some ids that are no row
    out.push({ what: `place ${id}`, run: (i) => place(i, id, { at: AT }) });
  }
  for (let k = 0; k < 80; k++) {
    const name = pick(named);
    const words = name.split(/\s+/).filter(Boolean);
    const w = pick(words) ?? name;
    const roll = rnd();
    // whole names, prefixes of a word, and a word with one letter changed (a typo)
    const q =
      roll < 0.3
        ? name
        : roll < 0.6
          ? w.slice(0, 1 + Math.floor(rnd() * w.length))
          : w.length >= 5
            ? w.slice(0, 2) + 'x' + w.slice(3)
            : `${w} ${pick(named)}`;
    const geo = rnd() < 0.4 ? { ...near(), radius: 2 } : {};
    const type = rnd() < 0.2 ? { type: pick(types) } : {};
    const query = { q, limit: 1 + Math.floor(rnd() * 15), ...geo, ...type };
    out.push({ what: `search ${JSON.stringify(query)}`, run: (i) => search(i, query) });
  }
  for (let k = 0; k < 60; k++) {
    const q = { ...near(), radius: [0.05, 0.2, 0.5, 1][Math.floor(rnd() * 4)], limit: 1 + Math.floor(rnd() * 5), at: AT };
    out.push({ what: `reverse ${JSON.stringify(q)}`, run: (i) => reverse(i, q) });
  }
  // and some bad queries: the same errors too
  out.push({ what: 'nearby bad type', run: (i) => nearby(i, { lat: 27.7, lon: 85.3, type: 'no-such-type' }) });
  out.push({ what: 'nearby bad lat', run: (i) => nearby(i, { lat: 99, lon: 85.3, type: 'cafe' }) });
  out.push({ what: 'search empty', run: (i) => search(i, { q: '' }) });
  return out;
}

describe.each([
  ['core', CORE],
  ['transit', TRANSIT],
])('a snapshot answers every query as the PBF it was built from (%s fixture)', (_, file) => {
  let pbf: PlaceIndex;
  let snap: PlaceIndex;
  let bytes: Uint8Array;
  beforeAll(async () => {
    pbf = await engine(file);
    bytes = buildSnapshot(pbf);
    snap = fromSnapshot(bytes);
  }, 60_000);

  it('over a few hundred mixed queries: nearby, place, search, reverse', () => {
    const queries = mixedQueries(pbf, 20261121);
    expect(queries.length).toBeGreaterThanOrEqual(300);
    let answered = 0;
    for (const q of queries) {
      const a = answer(() => q.run(pbf));
      if (Array.isArray(a) ? a.length : a) answered++;
      expect(
        answer(() => q.run(snap)),
        q.what,
      ).toEqual(a);
    }
    // most queries find something: the comparison is of answers, not of empty lists
    expect(answered).toBeGreaterThan(queries.length / 2);
  });

  it('with the same size, stats, license and types', () => {
    expect(snap.size).toBe(pbf.size);
    expect(snap.stats).toEqual(pbf.stats);
    expect(snap.license).toBe(pbf.license);
    expect(snap.typeCounts()).toEqual(pbf.typeCounts());
  });

  it('and a snapshot of the restored index is the same bytes', () => {
    expect(Buffer.from(buildSnapshot(snap)).equals(Buffer.from(bytes))).toBe(true);
  });
});

describe("a snapshot's places are no larger than its PBF", () => {
  // Of an extract of real density (central Kathmandu, 1.3 MB). Not of the 68 kB transit
  // extract: there the indexes, which a PBF does not have, outweigh the data (its street
  // segments' R-tree alone is 61 kB). The road graph and its contraction hierarchies
  // (sections edge*, road*, restrictions, ch*) are routing's preprocessing, which the PBF
  // does not hold either: they are measured apart. The Nepal-scale figures are in `npm run bench`.
  it('core fixture', async () => {
    const bytes = buildSnapshot(await engine(CORE));
    const dirBytes = new DataView(bytes.buffer, bytes.byteOffset).getUint32(24, true);
    const dir = JSON.parse(new TextDecoder().decode(bytes.subarray(28, 28 + dirBytes))) as { sections: { name: string; bytes: number }[] };
    const routing = dir.sections.filter((s) => /^(edge|road|restrictions|ch\d)/.test(s.name));
    expect(routing.map((s) => s.name)).toContain('ch2slots');
    const routingBytes = routing.reduce((n, s) => n + s.bytes, 0);
    expect(bytes.length - routingBytes).toBeLessThanOrEqual(statSync(CORE).size);
  });
});

describe('fromSnapshot takes bytes as they come', () => {
  let bytes: Uint8Array;
  let expected: unknown;
  const q = { lat: 27.7154, lon: 85.3123, type: 'eat', radius: 2, limit: 20, at: AT };
  beforeAll(async () => {
    const index = await engine();
    bytes = buildSnapshot(index);
    expected = nearby(index, q);
  });

  it('an ArrayBuffer', () => {
    expect(nearby(fromSnapshot(bytes.slice().buffer), q)).toEqual(expected);
  });

  it('a Uint8Array at an odd offset of a larger buffer (copied once to align it)', () => {
    const big = new Uint8Array(bytes.length + 3);
    big.set(bytes, 3);
    expect(nearby(fromSnapshot(big.subarray(3)), q)).toEqual(expected);
  });

  it('a file, by loadSnapshot and by loadFile (told from a PBF by its magic, not its name)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'snap-'));
    try {
      const path = join(dir, 'kathmandu.osm.pbf'); // a misleading name
      writeFileSync(path, bytes);
      expect(nearby(await loadSnapshot(path), q)).toEqual(expected);
      expect(nearby(await loadFile(path), q)).toEqual(expected);
      expect(nearby(await loadFile(CORE), q)).toEqual(expected);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});

describe('the file format', () => {
  let bytes: Uint8Array;
  beforeAll(async () => {
    bytes = buildSnapshot(await engine());
  });

  it('starts with the magic, the version and the payload length', () => {
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x4e, 0x50, 0x4c, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(view.getUint32(8, true)).toBe(SNAPSHOT_VERSION);
    expect(view.getUint32(12, true)).toBe(bytes.length - 24);
    expect(isSnapshot(bytes)).toBe(true);
    expect(isSnapshot(readFileSync(CORE))).toBe(false);
  });

  it('checksums its directory, and each section in the directory, with xxHash32, as the reference implementation computes it', () => {
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    expect(view.getUint32(16, true)).toBe(xxHash32(bytes.subarray(24, 28 + view.getUint32(24, true)), 0));
    const { dir, start } = directory(bytes);
    expect(dir.sections.length).toBeGreaterThan(20);
    for (const s of dir.sections) expect(s.hash, s.name).toBe(xxHash32(bytes.subarray(start + s.offset, start + s.offset + s.bytes), 0));
  });

  it('lists its sections in a JSON directory, each within the file', () => {
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    const n = view.getUint32(24, true);
    const dir = JSON.parse(new TextDecoder().decode(bytes.subarray(28, 28 + n)));
    const start = (28 + n + 7) & ~7;
    const names = dir.sections.map((s: { name: string }) => s.name);
    expect(names).toEqual(expect.arrayContaining(['osmId', 'coords', 'strings.utf8', 'lookup', 'landmarkIds', 'streets.ids', 'typeIds']));
    for (const s of dir.sections) {
      expect(s.offset % 8).toBe(0);
      expect(start + s.offset + s.bytes).toBeLessThanOrEqual(bytes.length);
    }
  });

  it('deflates the sections whose encoded bytes repeat (codes, runs, counts of 1): each to 60% or less, and reads each back', async () => {
    const n = new DataView(bytes.buffer, bytes.byteOffset).getUint32(24, true);
    const dir = JSON.parse(new TextDecoder().decode(bytes.subarray(28, 28 + n))) as {
      sections: { name: string; bytes: number; inflated?: number }[];
    };
    const repeating = ['kind', 'geom', 'what', 'hours', 'tagStart', 'typeStart', 'shapeStart', 'shape', 'coordStart'];
    repeating.push('typeMatched', 'lookup', 'docRow', 'docOld', 'postingStart', 'postingTf');
    repeating.push('edgeAccess', 'edgeWay', 'edgeCoordStart', 'roadWayClass', 'roadWayFlags', 'roadNodeDelay');
    for (const name of repeating) {
      const s = dir.sections.find((x) => x.name === name);
      expect(s?.inflated, name).toBeGreaterThan(0);
      expect(s!.bytes, name).toBeLessThanOrEqual(0.6 * s!.inflated!);
    }
    // the road graph's arrays come back bit for bit (the place table's are compared by the queries above)
    const index = await engine();
    const g = index.router!.graph,
      back = fromSnapshot(bytes).router!.graph;
    const bits = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    for (const k of ['edgeAccess', 'edgeKmh', 'edgeMeters', 'edgeWay', 'coordStart', 'wayClass', 'wayFlags', 'nodeDelay'] as const)
      expect(bits(back[k]).equals(bits(g[k])), k).toBe(true);
  });

  it('stores the English address, the one as mapped in most rows, by where it differs: a fraction of the bytes, read back whole', async () => {
    const n = new DataView(bytes.buffer, bytes.byteOffset).getUint32(24, true);
    const dir = JSON.parse(new TextDecoder().decode(bytes.subarray(28, 28 + n))) as { sections: { name: string; bytes: number }[] };
    const size = (name: string) => dir.sections.find((x) => x.name === name)!.bytes;
    const t = (await engine()).table;
    let same = 0;
    for (let r = 0; r < t.size; r++) if (t.addressEn[r] === t.address[r]) same++;
    expect(same).toBeGreaterThan(0.9 * t.size);
    expect(size('addressEn')).toBeLessThan(0.2 * size('address'));
    const back = fromSnapshot(bytes).table;
    expect(Array.from(back.addressEn)).toEqual(Array.from(t.addressEn));
    expect(Array.from(back.address)).toEqual(Array.from(t.address));
  });

  it('stores spatial indexes by what cannot be computed again, and restores each byte for byte', async () => {
    const index = await engine();
    const back = fromSnapshot(bytes);
    expect([...back.types.keys()]).toEqual([...index.types.keys()]);
    for (const [name, tt] of index.types)
      expect(Buffer.from(back.types.get(name)!.tree.data).equals(Buffer.from(tt.tree.data)), name).toBe(true);
    expect(Buffer.from(back.landmarks.tree.data).equals(Buffer.from(index.landmarks.tree.data))).toBe(true);
    expect(Buffer.from(flatbushData(back.landmarks.boxes!)).equals(Buffer.from(flatbushData(index.landmarks.boxes!)))).toBe(true);
    expect(Buffer.from(flatbushData(back.streets.tree!)).equals(Buffer.from(flatbushData(index.streets.tree!)))).toBe(true);
    expect(Buffer.from(flatbushData(back.router!.snapper.tree!)).equals(Buffer.from(flatbushData(index.router!.snapper.tree!)))).toBe(true);
  });

  it("stores a Flatbush by its leaves' ids alone: each leaf's box is computed again from the table or the road graph", () => {
    const n = new DataView(bytes.buffer, bytes.byteOffset).getUint32(24, true);
    const dir = JSON.parse(new TextDecoder().decode(bytes.subarray(28, 28 + n))) as { sections: { name: string }[] };
    const names = dir.sections.map((x) => x.name);
    for (const tree of ['streets', 'landmarkBoxes', 'roadTree'])
      expect(names.filter((x) => x.startsWith(`${tree}.`))).toEqual([`${tree}.ids`]);
  });
});

/** The snapshot with its directory replaced by `edit(directory)`, sections moved after it, checksums made right. */
function withDirectory(bytes: Uint8Array, edit: (dir: any) => void): Uint8Array {
  const { dir } = directory(bytes);
  edit(dir);
  return reseal(withText(bytes, JSON.stringify(dir)));
}

/** The prototype of an index: a copy made on it keeps its parts' getters. */
const PlaceIndexProto = (index: PlaceIndex): object => Object.getPrototypeOf(index) as object;

function problemOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SnapshotError);
    expect((err as SnapshotError).message).toContain('snapshot.places');
    return (err as SnapshotError).problem;
  }
  return 'none';
}

describe('bad bytes throw SnapshotError saying which problem', () => {
  let bytes: Uint8Array;
  const read = (b: Uint8Array | ArrayBuffer) => () => openWhole(b, 'snapshot.places');
  beforeAll(async () => {
    bytes = buildSnapshot(await engine());
  });

  it('truncated: cut anywhere, even inside the magic', () => {
    for (const at of [1, 7, 8, 20, 24, 100, bytes.length >> 1, bytes.length - 1]) {
      expect(problemOf(read(bytes.slice(0, at))), `cut at ${at}`).toBe('truncated');
    }
  });

  it('corrupted: any changed byte of the payload, or bytes past its end', () => {
    const rnd = random(7);
    for (let k = 0; k < 40; k++) {
      const b = bytes.slice();
      const at = 24 + Math.floor(rnd() * (b.length - 24));
      b[at] ^= 1 << Math.floor(rnd() * 8);
      expect(problemOf(read(b)), `bit flipped at ${at}`).toBe('corrupted');
    }
    const longer = new Uint8Array(bytes.length + 5);
    longer.set(bytes);
    expect(problemOf(read(longer))).toBe('corrupted');
  });

  it.each([
    ['the previous format version', SNAPSHOT_VERSION - 1],
    ['a later one', SNAPSHOT_VERSION + 1],
  ])('wrong-version: %s, with a message saying to build it again', (_, version) => {
    const b = bytes.slice();
    new DataView(b.buffer).setUint32(8, version, true);
    expect(problemOf(read(b))).toBe('wrong-version');
    expect(() => read(b)()).toThrow(
      new RegExp(`version ${version}; this nepal-places reads version ${SNAPSHOT_VERSION}: build the snapshot again`),
    );
  });

  it('foreign: a PBF (with a hint to load it as one), text, zeros, nothing', () => {
    expect(problemOf(read(readFileSync(CORE)))).toBe('foreign');
    expect(() => read(readFileSync(CORE))()).toThrow(/OSM PBF/);
    expect(problemOf(read(new TextEncoder().encode('{"type":"FeatureCollection"}')))).toBe('foreign');
    expect(problemOf(read(new Uint8Array(4096)))).toBe('foreign');
    expect(problemOf(read(new Uint8Array(0)))).toBe('truncated');
    expect(problemOf(() => fromSnapshot('nepal.places' as unknown as Uint8Array, 'snapshot.places'))).toBe('foreign');
  });

  it('corrupted, not a crash: a file written wrong with a valid checksum', () => {
    const cases: [string, (d: any) => void][] = [
      [
        'more rows than the columns hold',
        (d) => {
          d.meta.rows += 1;
        },
      ],
      [
        'a section missing',
        (d) => {
          d.sections = d.sections.filter((s: any) => s.name !== 'coords');
        },
      ],
      [
        'a section past the end',
        (d) => {
          d.sections[0].offset = 1e9;
        },
      ],
      [
        'a section of another type',
        (d) => {
          d.sections.find((s: any) => s.name === 'lat').type = 'Float64Array';
        },
      ],
      [
        'a varint section of the wrong count',
        (d) => {
          d.sections.find((s: any) => s.name === 'name').count -= 1;
        },
      ],
      [
        'a type of too many items',
        (d) => {
          d.meta.types[0].items += 1;
        },
      ],
      [
        'no index fields',
        (d) => {
          d.meta = null;
        },
      ],
    ];
    expect(problemOf(read(withDirectory(bytes, () => {}))), 'the same directory, moved').toBe('none');
    for (const [what, edit] of cases) expect(problemOf(read(withDirectory(bytes, edit))), what).toBe('corrupted');
    // a directory that is not JSON
    const text = JSON.stringify(directory(bytes).dir);
    expect(problemOf(read(withText(bytes, '|' + text.slice(1))))).toBe('corrupted');
  });

  it('corrupted, not a silently wrong index: a string index past the string table', async () => {
    // an index whose table lost its last string, which a row still names
    const index = await engine();
    const strings = index.table.strings.slice(0, -1);
    const bad = buildSnapshot(
      Object.assign(Object.create(PlaceIndexProto(index)) as PlaceIndex, index, { table: { ...index.table, strings } }),
    );
    expect(problemOf(read(bad))).toBe('corrupted');
    expect(() => read(bad)()).toThrow(/below/);
  });
});

describe('a snapshot file on disk', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'snap-'));
  });
  afterAll(() => rmSync(dir, { recursive: true }));

  it('a missing file is named in the error', async () => {
    await expect(loadSnapshot(join(dir, 'none.places'))).rejects.toThrow(/none\.places.*no such file/);
    await expect(loadFile(join(dir, 'none.places'))).rejects.toThrow(/none\.places.*no such file/);
  });

  it("a file that cannot be read is unreadable (not foreign), with the system's code and error", async () => {
    const none = join(dir, 'none.places');
    const err = await loadSnapshot(none).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SnapshotError);
    expect(err).toMatchObject({ problem: 'unreadable', code: 'ENOENT', file: none });
    expect((err as Error).cause).toMatchObject({ code: 'ENOENT', syscall: 'open' });
    await expect(loadSnapshot(dir)).rejects.toMatchObject({ name: 'SnapshotError', problem: 'unreadable', code: 'EISDIR' });
  });

  it('a truncated file is named and called truncated', async () => {
    const path = join(dir, 'cut.places');
    const bytes = buildSnapshot(await engine());
    writeFileSync(path, bytes.subarray(0, 1000));
    await expect(loadFile(path)).rejects.toMatchObject({ name: 'SnapshotError', problem: 'truncated', file: path });
  });
});
