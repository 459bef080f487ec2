// The PBF writer, checked through an independent reader: osm-read (protobufjs) parses what
// we write, and its generated decoders check the file's frames and header.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSync, createWriteStream, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PbfWriter, encodeBlob, encodeFrame, type OsmNode, type OsmRelation, type OsmWay } from '../scripts/pbf-writer.js';
import { decodeBlock, decodeHeader, readFrames, readOsm, type OsmData } from '../scripts/read-osm.js';
import { loadPbf, nearby, type NearbyPlace, type PlaceIndex } from '../src/index.js';

const FIXTURE = new URL('../fixtures/kathmandu-core_2026-01-10.osm.pbf', import.meta.url).pathname;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pbf-writer-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes `data` to a fresh file and returns its path. */
async function write(name: string, data: Partial<OsmData>, options: ConstructorParameters<typeof PbfWriter>[1] = {}): Promise<string> {
  const path = join(dir, name);
  const w = new PbfWriter(path, options);
  for (const n of data.nodes ?? []) w.node(n);
  for (const x of data.ways ?? []) w.way(x);
  for (const r of data.relations ?? []) w.relation(r);
  await w.close();
  return path;
}

let fixtureData: Promise<OsmData> | undefined;
/** The fixture as osm-read reads it, read once. */
function fixture(): Promise<OsmData> {
  fixtureData ??= readOsm(FIXTURE);
  return fixtureData;
}

/** What osm-read gives back for an object written with optional tags. */
function withTags<T extends { tags?: unknown }>(o: T): T {
  return { ...o, tags: o.tags ?? [] };
}

// Hand-made, deliberately unsorted: ids above 2^32 and up to 2^50, negative ids and deltas,
// coordinates at the poles and the antimeridian, Devanagari and emoji, `|`, empty values.
const nodes: OsmNode[] = [
  {
    id: 2 ** 32 + 1,
    lat: 277172000,
    lon: 853240000,
    tags: [
      ['amenity', 'cafe'],
      ['name', 'Himalayan Java'],
      ['name:ne', 'हिमालयन जाभा'],
      ['note', 'a|b'],
      ['opening_hours', 'Mo-Su 07:00-21:00'],
    ],
  },
  { id: 2 ** 32 + 2, lat: -338688000, lon: -1512093000 },
  {
    id: 2 ** 40 + 7,
    lat: 900000000,
    lon: -1800000000,
    tags: [
      ['fixme', ''],
      ['name:new', 'येँ देय्'],
    ],
  },
  {
    id: 5,
    lat: -900000000,
    lon: 1800000000,
    tags: [
      ['summit', '🏔️'],
      ['ele', '8848.86'],
    ],
  },
  { id: -3, lat: 1, lon: -1, tags: [] },
  { id: 2 ** 50 + 3, lat: 0, lon: 0 },
];
const ways: OsmWay[] = [
  {
    id: 2 ** 33 + 9,
    refs: [2 ** 32 + 1, 2 ** 32 + 2, 2 ** 40 + 7, 2 ** 32 + 1],
    tags: [
      ['building', 'yes'],
      ['name', 'Ratna|Park'],
    ],
  },
  { id: 12, refs: [2 ** 50 + 3, 5, -3] },
  {
    id: 13,
    refs: [],
    tags: [
      ['highway', 'footway'],
      ['name:ne', 'बाटो'],
    ],
  },
];
const relations: OsmRelation[] = [
  {
    id: 2 ** 34 + 1,
    members: [
      { type: 'node', ref: 2 ** 32 + 1, role: 'label' },
      { type: 'way', ref: 2 ** 33 + 9, role: 'outer' },
      { type: 'way', ref: 12, role: 'inner' },
      { type: 'relation', ref: 2 ** 34 + 2, role: '' },
      { type: 'way', ref: 999, role: 'भित्र' },
    ],
    tags: [
      ['type', 'multipolygon'],
      ['amenity', 'school'],
      ['name', 'श्री विद्यालय | School'],
    ],
  },
  {
    id: 2 ** 34 + 2,
    members: [],
    tags: [
      ['type', 'route'],
      ['route', 'bus'],
    ],
  },
  {
    id: 7,
    members: [
      { type: 'relation', ref: 2 ** 34 + 1, role: 'subarea' },
      { type: 'node', ref: -3, role: '' },
    ],
  },
];

describe('round trip through osm-read', () => {
  let read: OsmData;
  beforeAll(async () => {
    read = await readOsm(await write('hand.osm.pbf', { nodes, ways, relations }));
  });

  it('keeps node ids above 2^32, negative ids, extreme and negative coordinates, and tags in order', () => {
    expect(read.nodes).toEqual(nodes.map(withTags));
  });

  it('keeps way refs in order, with negative deltas, and ways without tags or refs', () => {
    expect(read.ways).toEqual(ways.map(withTags));
  });

  it('keeps relation members of every type with their roles, including empty and Devanagari roles', () => {
    expect(read.relations).toEqual(relations.map(withTags));
  });

  it('splits nodes into blocks of 8000 and loses none across block boundaries', async () => {
    const n = 20_001;
    const many: OsmNode[] = Array.from({ length: n }, (_, i) => ({
      id: 2 ** 33 + i * 3,
      lat: 263600000 + i * 1999,
      lon: 801000000 - i * 7,
      tags: i % 1000 === 0 ? [['name', `नोड ${i}`]] : undefined,
    }));
    const path = await write('many.osm.pbf', { nodes: many }, { sorted: true });
    const frames = readFrames(readFileSync(path)).slice(1);
    expect(frames.map((f) => decodeBlock(f.data).groups.map((g) => g.dense))).toEqual([[8000], [8000], [4001]]);
    expect((await readOsm(path)).nodes).toEqual(many.map(withTags));
  });

  it('rewrites the Kathmandu fixture into a file osm-read reads identically', async () => {
    const original = await fixture();
    const path = await write('fixture-copy.osm.pbf', original, { sorted: true });
    const copy = await readOsm(path);
    expect([copy.nodes.length, copy.ways.length, copy.relations.length]).toEqual([148_164, 31_907, 146]);
    expect(copy).toEqual(original);
  });
});

describe("round trip through the engine's loadPbf", () => {
  const at = new Date('2026-01-10T10:00:00Z');
  // every place of every type, nearest first from the fixture's centre (it spans ~4 km)
  const places = (index: PlaceIndex): NearbyPlace[][] =>
    Object.entries(index.typeCounts()).map(([type, n]) => {
      const found = nearby(index, { type, lat: 27.7083, lon: 85.3205, radius: 20, limit: n, sortBy: true, at });
      expect(found.length).toBe(n);
      return found;
    });

  it('the rewritten fixture loads into the same places: ids, tags, geometry, centroids, scores', async () => {
    const path = await write('fixture-engine.osm.pbf', await fixture(), { sorted: true });
    const [original, copy] = [await loadPbf(FIXTURE), await loadPbf(path)];
    expect(original.size).toBeGreaterThan(5000);
    expect(copy.size).toBe(original.size);
    expect(copy.stats).toEqual(original.stats);
    expect(copy.typeCounts()).toEqual(original.typeCounts());
    expect(places(copy)).toEqual(places(original));
  });

  it('with every id shifted by 2^40, the same places come back with osmId + 2^40 and placeId + 4 * 2^40', async () => {
    const d = 2 ** 40;
    const f = await fixture();
    const path = await write(
      'fixture-shifted.osm.pbf',
      {
        nodes: f.nodes.map((n) => ({ ...n, id: n.id + d })),
        ways: f.ways.map((w) => ({ ...w, id: w.id + d, refs: w.refs.map((r) => r + d) })),
        relations: f.relations.map((r) => ({ ...r, id: r.id + d, members: r.members.map((m) => ({ ...m, ref: m.ref + d })) })),
      },
      { sorted: true },
    );
    const [original, shifted] = [await loadPbf(FIXTURE), await loadPbf(path)];
    const expected = places(original).map((list) => list.map((p) => ({ ...p, osmId: p.osmId + d, placeId: p.placeId + 4 * d })));
    expect(places(shifted)).toEqual(expected);
    expect(shifted.stats).toEqual(original.stats);
  });
});

describe('file layout', () => {
  it('starts with an OSMHeader block carrying features, bbox in nanodegrees, program, source and timestamp', async () => {
    const path = await write(
      'header.osm.pbf',
      { nodes: [nodes[0]] },
      {
        sorted: true,
        bbox: [801000000, 263600000, 882000000, 304500000],
        replicationTimestamp: 1768057274,
        writingProgram: 'test',
        source: 'hand-made',
      },
    );
    const [first] = readFrames(readFileSync(path));
    expect(first.type).toBe('OSMHeader');
    expect(decodeHeader(first.data)).toEqual({
      bbox: { left: 80100000000, right: 88200000000, top: 30450000000, bottom: 26360000000 },
      requiredFeatures: ['OsmSchema-V0.6', 'DenseNodes'],
      optionalFeatures: ['Sort.Type_then_ID'],
      writingProgram: 'test',
      source: 'hand-made',
      replicationTimestamp: 1768057274,
    });
  });

  it('announces Sort.Type_then_ID only when the writer is told the data is sorted', async () => {
    const path = await write('unsorted.osm.pbf', { nodes });
    const header = decodeHeader(readFrames(readFileSync(path))[0].data);
    expect(header.optionalFeatures).toEqual([]);
    expect(header.bbox).toBeNull();
    expect(header.writingProgram).toBe('nepal-places pbf-writer');
  });

  it('frames every blob with its true size, zlib-compressed with raw_size, to the last byte of the file', async () => {
    const bytes = readFileSync(await write('frames.osm.pbf', { nodes, ways, relations }));
    const frames = readFrames(bytes); // throws if a frame runs past the end; stops exactly at the end
    let sum = 0;
    for (const f of frames) {
      expect(f.datasize).toBe(f.blobSize);
      expect(f.compression).toBe('zlib');
      expect(f.rawSize).toBe(f.data.length);
      sum += f.blobSize;
    }
    // each frame is 4 bytes of length, the BlobHeader, the blob
    expect(bytes.length).toBeGreaterThan(sum + 4 * frames.length);
  });

  it('writes one kind per block, nodes as DenseNodes, granularity 100 and "" at string 0', async () => {
    const path = await write('kinds.osm.pbf', { nodes, ways, relations });
    const blocks = readFrames(readFileSync(path))
      .slice(1)
      .map((f) => decodeBlock(f.data));
    expect(blocks.map((b) => b.groups)).toEqual([
      [{ dense: nodes.length, nodes: 0, ways: 0, relations: 0 }],
      [{ dense: 0, nodes: 0, ways: ways.length, relations: 0 }],
      [{ dense: 0, nodes: 0, ways: 0, relations: relations.length }],
    ]);
    for (const b of blocks) {
      expect(b.granularity).toBe(100);
      expect(b.strings[0]).toBe('');
      expect(new Set(b.strings).size).toBe(b.strings.length);
    }
  });

  it('starts a new block when the kind changes back, as in an unsorted file', async () => {
    const path = await write('alternating.osm.pbf', {});
    const w = new PbfWriter(path);
    w.node(nodes[0]);
    w.way(ways[0]);
    w.node(nodes[1]);
    await w.close();
    const groups = readFrames(readFileSync(path))
      .slice(1)
      .map((f) => decodeBlock(f.data).groups[0]);
    expect(groups.map((g) => [g.dense, g.ways])).toEqual([
      [1, 0],
      [0, 1],
      [1, 0],
    ]);
    expect((await readOsm(path)).nodes.map((n) => n.id)).toEqual([nodes[0].id, nodes[1].id]);
  });

  it('honours a smaller blockSize and counts what it wrote', async () => {
    const path = join(dir, 'small-blocks.osm.pbf');
    const w = new PbfWriter(path, { blockSize: 2 });
    nodes.forEach((n) => w.node(n));
    ways.forEach((x) => w.way(x));
    await w.close();
    const frames = readFrames(readFileSync(path));
    expect(frames.length).toBe(1 + Math.ceil(nodes.length / 2) + Math.ceil(ways.length / 2));
    expect(w.counts).toEqual({ nodes: nodes.length, ways: ways.length, relations: 0 });
    expect(w.bytes).toBe(readFileSync(path).length);
  });
});

describe('sinks', () => {
  const fill = (w: PbfWriter) => {
    nodes.forEach((n) => w.node(n));
    ways.forEach((x) => w.way(x));
    relations.forEach((r) => w.relation(r));
  };

  it('writes the same bytes to a path, a file descriptor, a callback and a stream', async () => {
    const byPath = readFileSync(await write('sink-path.osm.pbf', { nodes, ways, relations }));

    const fdPath = join(dir, 'sink-fd.osm.pbf');
    const fd = openSync(fdPath, 'w');
    const wf = new PbfWriter(fd);
    fill(wf);
    await wf.close();
    closeSync(fd); // the caller's descriptor stays open until the caller closes it

    const chunks: Uint8Array[] = [];
    const wc = new PbfWriter((c) => chunks.push(c.slice()));
    fill(wc);
    await wc.close();

    const streamPath = join(dir, 'sink-stream.osm.pbf');
    const stream = createWriteStream(streamPath, { highWaterMark: 16 });
    const ws = new PbfWriter(stream);
    fill(ws);
    await ws.ready();
    await ws.close();
    await new Promise((resolve) => stream.end(resolve));

    expect(readFileSync(fdPath)).toEqual(byPath);
    expect(Buffer.concat(chunks)).toEqual(byPath);
    expect(readFileSync(streamPath)).toEqual(byPath);
  });

  it('passes a stream error on to close()', async () => {
    const stream = new Writable({ highWaterMark: 1, write: (_chunk, _enc, cb) => cb(new Error('disk full')) });
    const w = new PbfWriter(stream);
    await expect(w.close()).rejects.toThrow('disk full');
  });

  it('streams: memory holds one block, not the file (the callback sees each block as it fills)', async () => {
    const sizes: number[] = [];
    const w = new PbfWriter((c) => sizes.push(c.length), { blockSize: 100 });
    for (let i = 0; i < 1000; i++) w.node({ id: i, lat: i, lon: -i });
    // 10 blocks of 100 nodes: 9 are out before close, the last one waits for the 1001st node or close
    expect(sizes.length).toBe(1 + 9);
    await w.close();
    expect(sizes.length).toBe(1 + 10);
  });
});

describe('bad input', () => {
  const open = () => new PbfWriter(() => {});

  it.each([
    ['a fractional lat', { id: 1, lat: 277172000.5, lon: 0 }, /lat must be an integer/],
    ['lat past the pole', { id: 1, lat: 900000001, lon: 0 }, /lat must be/],
    ['lon past the antimeridian', { id: 1, lat: 0, lon: -1800000001 }, /lon must be/],
    ['a NaN lon', { id: 1, lat: 0, lon: NaN }, /lon must be/],
    ['an id of 2^51', { id: 2 ** 51, lat: 0, lon: 0 }, /id must be an integer below 2\^51/],
    ['a fractional id', { id: 1.5, lat: 0, lon: 0 }, /id must be an integer/],
    ['an empty tag key', { id: 1, lat: 0, lon: 0, tags: [['', 'x']] }, /empty tag key/],
  ])('rejects a node with %s (RangeError)', (_, node, message) => {
    expect(() => open().node(node as OsmNode)).toThrow(RangeError);
    expect(() => open().node(node as OsmNode)).toThrow(message);
  });

  it.each([
    [
      'tags that are not pairs of strings',
      () => open().node({ id: 1, lat: 0, lon: 0, tags: [['name', 5]] } as unknown as OsmNode),
      /pair of strings/,
    ],
    [
      'tags that are not an array',
      () => open().way({ id: 1, refs: [], tags: { name: 'x' } } as unknown as OsmWay),
      /tags must be an array/,
    ],
    ['refs that are not an array', () => open().way({ id: 1, refs: '1,2' } as unknown as OsmWay), /refs must be an array/],
    [
      'a member of unknown type',
      () => open().relation({ id: 1, members: [{ type: 'area', ref: 1, role: '' }] } as unknown as OsmRelation),
      /member type must be node, way or relation/,
    ],
    [
      'a member type inherited from Object',
      () => open().relation({ id: 1, members: [{ type: 'constructor', ref: 1, role: '' }] } as unknown as OsmRelation),
      /member type/,
    ],
    [
      'a role that is not a string',
      () => open().relation({ id: 1, members: [{ type: 'way', ref: 1 }] } as unknown as OsmRelation),
      /role must be a string/,
    ],
    ['a bad sink', () => new PbfWriter({} as never), /sink must be/],
  ])('rejects %s (TypeError)', (_, fn, message) => {
    expect(fn).toThrow(TypeError);
    expect(fn).toThrow(message);
  });

  it.each([
    ['a way ref beyond 2^51', () => open().way({ id: 1, refs: [1, -(2 ** 51)] }), /ref must be an integer/],
    [
      'a member ref that is not an integer',
      () => open().relation({ id: 1, members: [{ type: 'node', ref: NaN, role: '' }] }),
      /ref must be an integer/,
    ],
    ['a bbox in degrees', () => new PbfWriter(() => {}, { bbox: [80.1, 26.4, 88.2, 30.4] }), /bbox must be 4 integers/],
    ['a blockSize above 8000', () => new PbfWriter(() => {}, { blockSize: 8001 }), /blockSize/],
    ['a zlib level of 10', () => new PbfWriter(() => {}, { level: 10 }), /level/],
    ['a fractional replication timestamp', () => new PbfWriter(() => {}, { replicationTimestamp: 1.5 }), /replicationTimestamp/],
  ])('rejects %s (RangeError)', (_, fn, message) => {
    expect(fn).toThrow(RangeError);
    expect(fn).toThrow(message);
  });

  it('checks the options before it creates the file', () => {
    const path = join(dir, 'never.osm.pbf');
    expect(() => new PbfWriter(path, { replicationTimestamp: -1 })).toThrow(RangeError);
    expect(existsSync(path)).toBe(false);
  });

  it('when sorted, rejects a repeated or decreasing id and a kind written after a later kind', () => {
    const w = new PbfWriter(() => {}, { sorted: true });
    w.node({ id: 10, lat: 0, lon: 0 });
    expect(() => w.node({ id: 10, lat: 0, lon: 0 })).toThrow(/sorted: node 10 written after node 10/);
    expect(() => w.node({ id: 9, lat: 0, lon: 0 })).toThrow(RangeError);
    w.way({ id: 1, refs: [10] });
    expect(() => w.node({ id: 11, lat: 0, lon: 0 })).toThrow(/sorted: node 11 written after the ways/);
    w.relation({ id: 1, members: [] });
    expect(() => w.way({ id: 2, refs: [] })).toThrow(/after the relations/);
  });

  it('leaves no trace of a rejected object: the file equals one written without it', async () => {
    const clean = readFileSync(await write('clean.osm.pbf', { nodes: nodes.slice(0, 2), ways: ways.slice(0, 1) }, { sorted: true }));
    const path = join(dir, 'rejected.osm.pbf');
    const w = new PbfWriter(path, { sorted: true });
    w.node(nodes[0]);
    expect(() =>
      w.node({
        id: nodes[1].id,
        lat: 0,
        lon: 0,
        tags: [
          ['ok', 'x'],
          ['', 'x'],
        ],
      }),
    ).toThrow(RangeError);
    expect(() => w.node({ id: nodes[1].id, lat: 1e10, lon: 0 })).toThrow(RangeError);
    w.node(nodes[1]);
    expect(() => w.way({ id: ways[0].id, refs: [1, 0.5], tags: [['new', 'string']] })).toThrow(RangeError);
    w.way(ways[0]);
    await w.close();
    expect(readFileSync(path)).toEqual(clean);
  });

  it('refuses writes after close, and closing twice is harmless', async () => {
    const w = open();
    await w.close();
    await w.close();
    expect(() => w.node({ id: 1, lat: 0, lon: 0 })).toThrow(/already closed/);
    expect(() => w.raw(new Uint8Array(1))).toThrow(/already closed/);
  });
});

describe("deliberately broken files, for readers' tests", () => {
  it('compress: false writes raw blobs (field raw, no raw_size) that still decode', async () => {
    const path = await write('raw.osm.pbf', { nodes, ways }, { compress: false });
    const frames = readFrames(readFileSync(path));
    expect(frames.map((f) => [f.compression, f.rawSize])).toEqual([
      ['raw', 0],
      ['raw', 0],
      ['raw', 0],
    ]);
    expect(decodeHeader(frames[0].data).requiredFeatures).toEqual(['OsmSchema-V0.6', 'DenseNodes']);
    expect(decodeBlock(frames[1].data).groups[0].dense).toBe(nodes.length);
  });

  it('encodeBlob compresses a block with its raw_size', async () => {
    const block = readFrames(readFileSync(await write('one.osm.pbf', { nodes: [nodes[0]] }))).at(-1)!.data;
    const [f] = readFrames(encodeFrame('OSMData', encodeBlob(block)));
    expect([f.compression, f.rawSize]).toEqual(['zlib', block.length]);
    expect(Buffer.from(f.data)).toEqual(Buffer.from(block));
    const [r] = readFrames(encodeFrame('OSMData', encodeBlob(block, false)));
    expect([r.compression, r.rawSize]).toEqual(['raw', 0]);
    expect(Buffer.from(r.data)).toEqual(Buffer.from(block));
  });

  it('encodeFrame states a wrong datasize when asked, and raw() appends it after the open block', async () => {
    const block = readFrames(readFileSync(await write('one.osm.pbf', { nodes: [nodes[0]] }))).at(-1)!.data;
    const frame = encodeFrame('OSMData', encodeBlob(block), 1_000_000);
    const path = join(dir, 'lying.osm.pbf');
    const w = new PbfWriter(path);
    w.node(nodes[1]);
    w.raw(frame);
    await w.close();
    const bytes = readFileSync(path);
    expect(bytes.subarray(-frame.length)).toEqual(Buffer.from(frame));
    expect(() => readFrames(bytes)).toThrow(/runs past the end/);
    // the open block went out first, intact
    const ok = readFrames(bytes.subarray(0, bytes.length - frame.length));
    expect(ok.map((f) => f.type)).toEqual(['OSMHeader', 'OSMData']);
    expect(decodeBlock(ok[1].data).groups[0].dense).toBe(1);
  });

  it('raw() writes arbitrary bytes, e.g. a truncated frame', async () => {
    const path = join(dir, 'garbage.osm.pbf');
    const w = new PbfWriter(path);
    w.raw(new Uint8Array([0, 0, 0xff]));
    await w.close();
    const bytes = readFileSync(path);
    expect([...bytes.subarray(-3)]).toEqual([0, 0, 0xff]);
    expect(() => readFrames(bytes)).toThrow();
  });
});
