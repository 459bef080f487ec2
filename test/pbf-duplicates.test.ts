/**
 * Duplicate ids in a PBF (merged extracts have them): the last version of each object in
 * file order is kept, as osmium does, and the earlier ones are counted in
 * `stats.duplicates` (shown by `build --json` and warned about by `build`). A file with
 * earlier versions of some objects loads exactly as the same file without them.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPbf, nearby, type PlaceIndex } from '../src/index.js';
import { PbfWriter, type OsmNode, type OsmRelation, type OsmWay } from '../scripts/pbf-writer.js';
import { readOsm, type OsmData } from '../scripts/read-osm.js';
import { cli } from './support/cli.js';
import { CORE } from './support/raw.js';
import { random } from './support/random.js';

const AT = new Date('2026-01-17T12:00:00+05:45');

/** Every place as its record (a query per type that returns them all), by placeId. */
function records(index: PlaceIndex): Map<number, string> {
  const out = new Map<number, string>();
  for (const type of Object.keys(index.typeCounts())) {
    for (const r of nearby(index, { type, lat: 27.708, lon: 85.32, radius: 50, limit: 100000, at: AT })) {
      const { score: _s, radialDistanceInKm: _d, type: _t, ...rest } = r;
      out.set(r.placeId, JSON.stringify(rest));
    }
  }
  return out;
}

/** The road graph as plain arrays, to compare. */
function roads(index: PlaceIndex): Record<string, number[]> {
  const g = index.router!.graph;
  return Object.fromEntries(
    ['nodeLon', 'nodeLat', 'edgeFrom', 'edgeTo', 'edgeAccess', 'edgeMeters', 'coords', 'wayId', 'restrictions'].map((k) => [
      k,
      Array.from((g as unknown as Record<string, ArrayLike<number>>)[k]),
    ]),
  );
}

/** An earlier version of an object: other tags, and for nodes another place, for ways fewer nodes. */
const OLD = {
  node: (n: OsmNode): OsmNode => ({
    ...n,
    lat: n.lat + 1234,
    lon: n.lon - 999,
    tags: [
      ['amenity', 'cafe'],
      ['name', `Old ${n.id}`],
    ],
  }),
  way: (w: OsmWay): OsmWay => ({
    ...w,
    refs: w.refs.slice(0, 2),
    tags: [
      ['highway', 'primary'],
      ['name', `Old ${w.id}`],
    ],
  }),
  relation: (r: OsmRelation): OsmRelation => ({
    ...r,
    members: r.members.slice(1),
    tags: [
      ['type', 'multipolygon'],
      ['amenity', 'school'],
      ['name', `Old ${r.id}`],
    ],
  }),
};

/**
 * Writes the data, with an earlier version of the objects `older` picks: just before the
 * object (ids then never decrease: a sorted file with repeats, some across blocks), or all
 * of a type's earlier versions first, in descending id order (an unsorted file); or, for nodes
 * alone, the earlier version in the node's place and the node itself after the ways (node ids
 * that ascend up to the ways, then repeat).
 */
async function write(path: string, data: OsmData, older: (id: number) => boolean, where: 'before' | 'first' | 'late'): Promise<number> {
  const w = new PbfWriter(path, { sorted: false, blockSize: 500 });
  let n = 0;
  if (where === 'late') {
    const late = data.nodes.filter((x) => older(x.id));
    for (const x of data.nodes) w.node(older(x.id) ? OLD.node(x) : x);
    for (const x of data.ways) w.way(x);
    for (const x of late) w.node(x);
    for (const x of data.relations) w.relation(x);
    await w.close();
    return late.length;
  }
  const put = <T extends { id: number }>(list: T[], old: (x: T) => T, add: (x: T) => void) => {
    const picked = list.filter((x) => older(x.id));
    n += picked.length;
    if (where === 'first') for (const x of [...picked].reverse()) add(old(x));
    for (const x of list) {
      if (where === 'before' && older(x.id)) add(old(x));
      add(x);
    }
  };
  put(data.nodes, OLD.node, (x) => w.node(x));
  put(data.ways, OLD.way, (x) => w.way(x));
  put(data.relations, OLD.relation, (x) => w.relation(x));
  await w.close();
  return n;
}

let dir: string;
let data: OsmData;
let clean: PlaceIndex;
let cleanFile: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nepal-places-dups-'));
  data = await readOsm(CORE);
  cleanFile = join(dir, 'clean.osm.pbf');
  await write(cleanFile, data, () => false, 'before');
  clean = await loadPbf(cleanFile, { workers: 0 });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each([
  ['before', 'just before each object (sorted, with repeats)'],
  ['first', 'first, in descending id order (unsorted)'],
  ['late', 'in place of nodes, whose last versions follow the ways'],
] as const)('earlier versions of objects written %s: the last version kept, the others counted', (where, _what) => {
  let file: string;
  let written: number;
  let index: PlaceIndex;

  beforeAll(async () => {
    const rnd = random(where === 'before' ? 61 : where === 'first' ? 62 : 63);
    // every tagged object, and one in ten of the others (plain nodes of roads and areas)
    const picked = new Set<number>();
    for (const list of [data.nodes, data.ways, data.relations]) {
      for (const x of list) if ((x.tags?.length && rnd() < 0.3) || rnd() < 0.1) picked.add(x.id);
    }
    file = join(dir, `${where}.osm.pbf`);
    written = await write(file, data, (id) => picked.has(id), where);
    index = await loadPbf(file, { workers: 0 });
  });

  it('the file has earlier versions of nodes, ways and relations', () => {
    expect(written).toBeGreaterThan(100);
  });

  it("stats.duplicates counts them; every other count is the file's without them", () => {
    expect(index.stats.duplicates).toBe(written);
    expect({ ...index.stats, duplicates: 0 }).toEqual({ ...clean.stats, duplicates: 0 });
    expect(clean.stats.duplicates).toBe(0);
  });

  it("every place, with its tags, name and position, is the last version's", () => {
    expect(records(index)).toEqual(records(clean));
    expect(index.size).toBe(clean.size);
  });

  it("the road graph is the last versions' (ways, their nodes and positions)", () => {
    expect(roads(index)).toEqual(roads(clean));
  });

  // a file found unsorted once some blocks' strings were let go is read again (`ingest`)
  it('its progress never goes back, and ends at the whole file', async () => {
    const seen: number[] = [];
    await loadPbf(file, { workers: 0, onProgress: (p) => seen.push(p.bytesRead) });
    expect(seen.filter((b, i) => i > 0 && b < seen[i - 1])).toEqual([]);
    expect(seen.at(-1)).toBe(statSync(file).size);
    expect(seen.length).toBeGreaterThan(5);
  });

  it('on decoder threads, the same', async () => {
    const threaded = await loadPbf(file, { workers: 2 });
    expect(threaded.stats).toEqual(index.stats);
    expect(records(threaded)).toEqual(records(clean));
  });
});

describe('build reports the duplicates', () => {
  it('build --json: stats.duplicates; without --json, a warning on stderr', { timeout: 120_000 }, async () => {
    const file = join(dir, 'one.osm.pbf');
    const n = data.nodes.find((x) => x.tags?.length)!;
    await write(file, data, (id) => id === n.id, 'before');
    const json = await cli('build', file, '-o', join(dir, 'one.places'), '--json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout).stats.duplicates).toBe(1);
    const plain = await cli('build', file, '-o', join(dir, 'two.places'));
    expect(plain.code).toBe(0);
    expect(plain.stderr).toMatch(/1 duplicate object .*last version/);
  });
});
