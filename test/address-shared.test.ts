/**
 * Rows that share what their address is made of share the address, and only those: a hand-made
 * file of a street crossing a municipality's edge inside one district and province, another street
 * of the same name 3 km off, and cafes on both sides of the edge, some with `addr:*` tags. Every expected address is worked out by
 * hand from the positions written (the contract in `computeAddresses`): the street within 100 m,
 * the municipality, district and province around the point (their official names in English and
 * Nepali), `addr:city` only where no municipality is around it, `addr:*` values that give
 * themselves in both scripts by the part in the language's script, an `addr:street` value by the
 * names of the nearest street it names.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPbf, place, type PlaceIndex } from '../src/index.js';
import { PbfWriter } from '../scripts/pbf-writer.js';

// 1e-7 degrees: at 27.7° N, 1e-5° of latitude is 1.11 m, of longitude 0.98 m
const LAT = 277_000_000,
  LON = 853_000_000;
const north = (m: number) => Math.round((m / 1.1132) * 100);
const east = (m: number) => Math.round((m / 0.98566) * 100);

/** The cafes: node id, metres north and east of the origin, `addr:*` tags. */
const CAFES: [number, number, number, [string, string][]][] = [
  [1, 20, 50, []], // west, in the municipality
  [2, 20, 300, []], // east, outside it
  [3, -20, 100, []], // west again: what node 1 is made of
  [4, 20, 350, [['addr:city', 'Patan (पाटन)']]], // east, a city tagged
  [
    5,
    -20,
    250,
    [
      ['addr:housenumber', '7'],
      ['addr:city', 'Patan (पाटन)'],
    ],
  ], // east, a house number too
  [6, 20, 150, [['addr:city', 'Patan (पाटन)']]], // west: the municipality around it wins over the tag
  [7, 2980, 300, [['addr:street', 'Main Road']]], // by the second Main Road, 3 km north
  [8, 20, 300, [['addr:street', 'Main Road']]], // by the first
];

async function write(): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'nepal-places-shared-')), 'shared.osm.pbf');
  const w = new PbfWriter(file, { sorted: true });
  const at = (n: number, e: number) => ({ lat: LAT + north(n), lon: LON + east(e) });
  for (const [id, n, e, addr] of CAFES) {
    w.node({
      id,
      ...at(n, e),
      tags: [['amenity', 'cafe'], ['name', `Cafe ${id}`], ...addr],
    });
  }
  // the street along the origin's latitude, 0 to 400 m east
  w.node({ id: 100, ...at(0, 0) });
  w.node({ id: 101, ...at(0, 200) });
  w.node({ id: 102, ...at(0, 400) });
  // another street of that name 3 km north
  w.node({ id: 110, ...at(3000, 0) });
  w.node({ id: 111, ...at(3000, 400) });
  // the municipality: -100 to 200 m east, 100 m either side of the first street; the district and
  // province: -100 to 500 m east, 100 m south of the first street to 100 m north of the second
  const corners = (id: number, west: number, eastEdge: number, northEdge: number) => {
    w.node({ id, ...at(-100, west) });
    w.node({ id: id + 1, ...at(-100, eastEdge) });
    w.node({ id: id + 2, ...at(northEdge, eastEdge) });
    w.node({ id: id + 3, ...at(northEdge, west) });
  };
  corners(200, -100, 200, 100);
  corners(300, -100, 500, 3100);
  w.way({
    id: 10,
    refs: [100, 101, 102],
    tags: [
      ['highway', 'residential'],
      ['name', 'Main Road'],
      ['name:ne', 'मुख्य सडक'],
    ],
  });
  w.way({
    id: 11,
    refs: [110, 111],
    tags: [
      ['highway', 'residential'],
      ['name', 'Main Road'],
      ['name:ne', 'मेन रोड'],
    ],
  });
  w.way({ id: 20, refs: [200, 201, 202, 203, 200] });
  w.way({ id: 30, refs: [300, 301, 302, 303, 300] });
  const boundary = (id: number, way: number, level: number, names: [string, string][]) =>
    w.relation({
      id,
      members: [{ type: 'way', ref: way, role: 'outer' }],
      tags: [['type', 'boundary'], ['boundary', 'administrative'], ['admin_level', String(level)], ...names],
    });
  boundary(1, 20, 7, [
    ['name', 'Alpha'],
    ['name:ne', 'अल्फा'],
  ]);
  boundary(2, 30, 6, [['name', 'Kathmandu']]);
  boundary(3, 30, 4, [['name', 'Bagmati']]);
  await w.close();
  return file;
}

let index: PlaceIndex;
beforeAll(async () => {
  index = await loadPbf(await write(), { workers: 0 });
});

// a cafe's address as mapped, in English and in Nepali
const address = (id: number) =>
  [undefined, 'en', 'ne'].map((lang) => place(index, 4 * id, { lang: lang as 'en' | 'ne' | undefined })!.address);

const WEST = [
  'Main Road, Alpha, Kathmandu, Bagmati',
  'Main Road, Alpha, Kathmandu, Bagmati Province',
  'मुख्य सडक, अल्फा, काठमाडौं, बागमती प्रदेश',
];
const EAST = ['Main Road, Kathmandu, Bagmati', 'Main Road, Kathmandu, Bagmati Province', 'मुख्य सडक, काठमाडौं, बागमती प्रदेश'];

describe('rows without addr:* tags: the same street and areas, the same address', () => {
  it('two cafes on the street in the municipality', () => {
    expect(address(1)).toEqual(WEST);
    expect(address(3)).toEqual(WEST);
  });

  it('the same street across the municipality edge: another address', () => expect(address(2)).toEqual(EAST));
});

describe('rows with addr:* tags: their own values, each language its own script', () => {
  it('addr:city where no municipality is around: the city tagged, by its part in each script', () =>
    expect(address(4)).toEqual([
      'Main Road, Patan (पाटन), Kathmandu, Bagmati',
      'Main Road, Patan, Kathmandu, Bagmati Province',
      'मुख्य सडक, पाटन, काठमाडौं, बागमती प्रदेश',
    ]));

  it('the same city and a house number', () =>
    expect(address(5)).toEqual([
      '7, Main Road, Patan (पाटन), Kathmandu, Bagmati',
      '7, Main Road, Patan, Kathmandu, Bagmati Province',
      '7, मुख्य सडक, पाटन, काठमाडौं, बागमती प्रदेश',
    ]));

  it('addr:city inside a municipality: the municipality', () => expect(address(6)).toEqual(WEST));

  it('one addr:street value by two streets of that name: in Nepali, the name of the nearest one', () => {
    expect(address(7)).toEqual(['Main Road, Kathmandu, Bagmati', 'Main Road, Kathmandu, Bagmati Province', 'मेन रोड, काठमाडौं, बागमती प्रदेश']);
    expect(address(8)).toEqual(EAST);
  });
});
