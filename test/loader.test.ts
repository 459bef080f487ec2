import { describe, it, expect, beforeAll } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPbf, nearby, type PlaceIndex } from '../src/index.js';
import { PbfWriter } from '../scripts/pbf-writer.js';
import { readOsm, type OsmData } from '../scripts/read-osm.js';

const FIXTURE = 'fixtures/kathmandu-core_2026-01-10.osm.pbf';
const AT = new Date('2026-01-17T12:00:00+05:45');

// every place as its record, from a query that returns them all
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

async function write(path: string, data: OsmData, order: ('nodes' | 'ways' | 'relations')[], reverse: boolean): Promise<void> {
  const w = new PbfWriter(path, { sorted: false, blockSize: 2000 });
  const flip = <T>(a: T[]) => (reverse ? [...a].reverse() : a);
  for (const kind of order) {
    if (kind === 'nodes') for (const n of flip(data.nodes)) w.node(n);
    if (kind === 'ways') for (const x of flip(data.ways)) w.way(x);
    if (kind === 'relations') for (const r of flip(data.relations)) w.relation(r);
  }
  await w.close();
}

describe('loader: the same places whatever the order of the file and the number of threads', () => {
  let sorted: Map<number, string>;
  let data: OsmData;
  const dir = mkdtempSync(join(tmpdir(), 'nepal-places-loader-'));

  beforeAll(async () => {
    sorted = records(await loadPbf(FIXTURE, { workers: 0 }));
    data = await readOsm(FIXTURE);
  });

  it('a file sorted by type and id, decoded on threads', async () => {
    expect(records(await loadPbf(FIXTURE, { workers: 2 }))).toEqual(sorted);
  });

  it('relations first, then ways, then nodes, each in descending id order', async () => {
    const path = join(dir, 'reversed.osm.pbf');
    await write(path, data, ['relations', 'ways', 'nodes'], true);
    const index = await loadPbf(path, { workers: 0 });
    expect(records(index)).toEqual(sorted);
    expect(index.stats.nodes).toBe(data.nodes.length);
  });

  it('sorted by type but with ids descending, on threads', async () => {
    const path = join(dir, 'descending.osm.pbf');
    await write(path, data, ['nodes', 'ways', 'relations'], true);
    expect(records(await loadPbf(path, { workers: 2 }))).toEqual(sorted);
  });
});

describe("loader: contract is 'auto', 'always' or 'never'", () => {
  it("'never' leaves every mode uncontracted, 'auto' contracts a city-sized graph, 'always' contracts", async () => {
    const [never, auto, always] = await Promise.all(
      (['never', 'auto', 'always'] as const).map((contract) => loadPbf(FIXTURE, { contract, workers: 0 })),
    );
    // the fixture is a city centre: fewer junctions than the size 'auto' contracts up to
    expect(auto.router!.graph.nodeLon.length).toBeLessThan(20_000);
    expect(never.router!.hierarchies.some(Boolean)).toBe(false);
    expect(auto.router!.contracted).toBe(true);
    expect(always.router!.contracted).toBe(true);
  });

  it('refuses a boolean or any other value with a TypeError naming the choices', async () => {
    for (const bad of [true, false, 'yes', 1]) {
      await expect(loadPbf(FIXTURE, { contract: bad as never })).rejects.toThrow(/contract must be 'auto', 'always' or 'never'/);
    }
  });
});
