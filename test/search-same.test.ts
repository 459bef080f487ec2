/**
 * One place mapped several times is listed once by search: a hand-made hospital with its
 * building, a building named in Devanagari, its bus stop and namesakes further off, where every
 * expected answer is worked out from the positions written; and the fixture's own duplicates.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPbf, search, type PlaceIndex } from '../src/index.js';
import { PbfWriter } from '../scripts/pbf-writer.js';
import { words } from '../src/search/words.js';
import { Listing } from '../src/search/same.js';
import { engine } from './support/fixture.js';
import { rawById } from './support/names.js';
import { readRaw, tag, type RawData } from './support/raw.js';
import { samePlaceIn } from './support/same.js';

// 1e-7 degrees: at 27.7° N, 1e-5° of latitude is 1.11 m, of longitude 0.98 m
const LAT = 277_000_000,
  LON = 853_000_000;
const north = (m: number) => Math.round((m / 1.1132) * 100); // metres north, in 1e-7°
const east = (m: number) => Math.round((m / 0.98566) * 100); // metres east at 27.7°, in 1e-7°

/** Node ids of the hand-made file. */
const HOSPITAL = 1, // amenity=hospital, City Hospital, at the origin
  STOP = 2, // highway=bus_stop, City Hospital Bus Stop, 60 m east
  FAR_HOSPITAL = 3, // amenity=hospital, City Hospital, 2 km north: a namesake
  FAR_STOP = 4, // highway=bus_stop, City Hospital, 500 m north: another stop
  CAFE = 5; // amenity=cafe, Hospital Cafe, 10 m west: another name
/** Way ids: the hospital's building 30 m north (a 20 m square), a building named in Devanagari 40 m south. */
const BUILDING = 10,
  DEVA_BUILDING = 11;

async function write(): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'nepal-places-same-')), 'same.osm.pbf');
  const w = new PbfWriter(file, { sorted: true });
  const at = (n: number, e: number) => ({ lat: LAT + north(n), lon: LON + east(e) });
  w.node({
    id: HOSPITAL,
    ...at(0, 0),
    tags: [
      ['amenity', 'hospital'],
      ['name', 'City Hospital'],
    ],
  });
  w.node({
    id: STOP,
    ...at(0, 60),
    tags: [
      ['highway', 'bus_stop'],
      ['name', 'City Hospital Bus Stop'],
    ],
  });
  w.node({
    id: FAR_HOSPITAL,
    ...at(2000, 0),
    tags: [
      ['amenity', 'hospital'],
      ['name', 'City Hospital'],
    ],
  });
  w.node({
    id: FAR_STOP,
    ...at(500, 0),
    tags: [
      ['highway', 'bus_stop'],
      ['name', 'City Hospital'],
    ],
  });
  w.node({
    id: CAFE,
    ...at(0, -10),
    tags: [
      ['amenity', 'cafe'],
      ['name', 'Hospital Cafe'],
    ],
  });
  // the buildings' corners: squares of 20 m centred 30 m north and 40 m south
  const square = (first: number, n: number) => {
    const ids = [first, first + 1, first + 2, first + 3];
    [
      [n - 10, -10],
      [n - 10, 10],
      [n + 10, 10],
      [n + 10, -10],
    ].forEach(([a, b], i) => w.node({ id: ids[i], ...at(a, b) }));
    return [...ids, first];
  };
  const a = square(100, 30),
    b = square(200, -40);
  w.way({
    id: BUILDING,
    refs: a,
    tags: [
      ['building', 'hospital'],
      ['name', 'City Hospital'],
    ],
  });
  w.way({
    id: DEVA_BUILDING,
    refs: b,
    tags: [
      ['building', 'yes'],
      ['name', 'सिटी हस्पिटल'],
    ],
  });
  await w.close();
  return file;
}

let made: PlaceIndex;
beforeAll(async () => {
  made = await loadPbf(await write());
}, 60_000);

const node = (id: number) => id * 4,
  way = (id: number) => id * 4 + 1;

describe('a hospital node, its building and the bus stop named after it are one place, listed as the hospital', () => {
  it('every record is a row of the index', () => {
    for (const id of [node(HOSPITAL), node(STOP), node(FAR_HOSPITAL), node(FAR_STOP), node(CAFE), way(BUILDING), way(DEVA_BUILDING)])
      expect(made.lookup.row(id), String(id)).toBeGreaterThanOrEqual(0);
  });

  it('`city hospital`: the hospital once (not its building, the Devanagari building or the stop 60 m off), the namesakes 500 m and 2 km off, the cafe', () => {
    const found = search(made, { q: 'city hospital', limit: 20 });
    expect(found.map((s) => s.placeId).sort((x, y) => x - y)).toEqual(
      [node(HOSPITAL), node(FAR_HOSPITAL), node(FAR_STOP)].sort((x, y) => x - y),
    );
    // the cafe has no word `city`: not an answer at all
    expect(found[0].type).toBe('hospital');
  });

  it('`city hospital bus stop`: the stop alone answers every word, and is listed (the hospital does not answer `bus stop`)', () => {
    const found = search(made, { q: 'city hospital bus stop', limit: 20 }).map((s) => s.placeId);
    expect(found).toEqual([node(STOP)]);
  });

  it('the place is listed where its first record came, as its most useful one: a place of its type, a building, then a stop', () => {
    const row = (id: number) => made.lookup.row(id);
    const list = new Listing(made.table);
    expect(list.add(row(way(BUILDING)))).toBe(true);
    expect(list.add(row(node(FAR_HOSPITAL)))).toBe(true);
    expect(list.add(row(node(STOP)))).toBe(false);
    expect(list.add(row(node(HOSPITAL)))).toBe(false);
    expect(list.add(row(way(DEVA_BUILDING)))).toBe(false);
    expect(list.rows).toEqual([row(node(HOSPITAL)), row(node(FAR_HOSPITAL))]);
    expect(list.first).toEqual([row(way(BUILDING)), row(node(FAR_HOSPITAL))]);
  });

  it('a type filter lists the place as its record of that type (the stop, for transport)', () => {
    const stops = search(made, { q: 'city hospital', type: 'transport', limit: 20 }).map((s) => s.placeId);
    expect(stops.sort((x, y) => x - y)).toEqual([node(STOP), node(FAR_STOP)]);
  });

  it('in Devanagari: the building named सिटी हस्पिटल is found by sound and listed as the hospital', () => {
    const found = search(made, { q: 'सिटी हस्पिटल', limit: 20 }).map((s) => s.placeId);
    expect(found).toContain(node(HOSPITAL));
    expect(found).not.toContain(way(DEVA_BUILDING));
    expect(found).not.toContain(way(BUILDING));
  });

  it('other names 10 m off stay: `hospital` lists the cafe too', () => {
    const found = search(made, { q: 'hospital', limit: 20 }).map((s) => s.placeId);
    expect(found).toContain(node(CAFE));
    expect(found).toContain(node(HOSPITAL));
    expect(found).not.toContain(way(BUILDING));
  });
});

describe("the fixture's places mapped several times", () => {
  let index: PlaceIndex;
  let raw: RawData;
  let same: (a: number, b: number) => boolean;
  beforeAll(async () => {
    [index, raw] = await Promise.all([engine(), readRaw()]);
    same = samePlaceIn(index, raw);
  }, 60_000);

  it('Bir Hospital (the hospital, its building, the stop named after it) is listed once, as the hospital', () => {
    // hand-checked: relation 10953874 (amenity=hospital), way 186144935 (building), node 31232256 (public_transport=stop_position)
    const records = [10953874 * 4 + 2, 186144935 * 4 + 1, 31232256 * 4];
    for (const id of records) expect(index.lookup.row(id)).toBeGreaterThanOrEqual(0);
    expect(same(records[0], records[1]) && same(records[0], records[2])).toBe(true);
    const found = search(index, { q: 'bir hospital', limit: 50 }).filter((s) => records.includes(s.placeId));
    expect(found.map((s) => [s.placeId, s.type])).toEqual([[records[0], 'hospital']]);
  });

  it('every pair of records the rule makes one place: searched by its name, one of its records is listed, and no two that are one place', () => {
    // the named rows, by their name's words, then pairs within each name: the groups
    const byName = new Map<string, number[]>();
    const ids: number[] = [];
    for (const o of raw.nodes) ids.push(o.id * 4);
    for (const o of raw.ways) ids.push(o.id * 4 + 1);
    for (const o of raw.relations) ids.push(o.id * 4 + 2);
    for (const id of ids) {
      if (index.lookup.row(id) < 0) continue;
      const name = tag(rawById(raw, id)!.tags, 'name');
      // a street of many ways is listed once by another rule (its name and address)
      if (!name || (id % 4 === 1 && tag(rawById(raw, id)!.tags, 'highway') !== undefined)) continue;
      const k = words(name).join(' ');
      if (k) byName.set(k, [...(byName.get(k) ?? []), id]);
    }
    let groups = 0;
    for (const [name, members] of byName) {
      for (let i = 0; i < members.length; i++)
        for (let j = i + 1; j < members.length; j++) {
          if (!same(members[i], members[j])) continue;
          groups++;
          // the place's records: the pair, or a third record they are one place with
          const of = (id: number) => id === members[i] || id === members[j] || same(id, members[i]) || same(id, members[j]);
          const listed = search(index, { q: name, limit: 1000 }).filter((s) => of(s.placeId));
          expect(listed.length, `${name}: ${members[i]}, ${members[j]}`).toBeGreaterThan(0);
          // and no two listed are one place
          for (let x = 0; x < listed.length; x++)
            for (let y = x + 1; y < listed.length; y++)
              expect(same(listed[x].placeId, listed[y].placeId), `${name} listed twice`).toBe(false);
        }
    }
    // the fixture has over a hundred such pairs
    expect(groups).toBeGreaterThan(100);
  });
});
