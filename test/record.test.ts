/**
 * The NearbyPlace record, field by field, for every place of the core fixture, against the
 * raw tags read by osm-read.
 */
import { addressBook } from './support/address.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPbf, nearby } from '../src/index.js';
import type { NearbyPlace, PlaceIndex } from '../src/index.js';
import { ALL, CENTER, allRecords, engine, expected } from './support/fixture.js';
import type { ExpectedPlace } from './support/places.js';
import { CORE, readRaw, tag } from './support/raw.js';
import { npt } from './support/hours.js';

const FIELDS = [
  'placeId',
  'osmId',
  'license',
  'name',
  'address',
  'type',
  'centroid',
  'tags',
  'geometry',
  'score',
  'radialDistanceInKm',
  'open',
];
const LICENSE = '© OpenStreetMap contributors, ODbL 1.0';
const AT = npt('2026-01-17T12:00');

let index: PlaceIndex;
let places: ExpectedPlace[];
let byId: Map<number, ExpectedPlace>;
let records: Map<number, NearbyPlace>;

beforeAll(async () => {
  index = await engine();
  const e = await expected();
  places = e.places;
  byId = e.byId;
  records = allRecords(index, places);
});

/** Places the API can return (those with a type a query can name). */
function reachable(): ExpectedPlace[] {
  return places.filter((p) => p.types.length > 0);
}

describe('a record has exactly the 12 fields of NearbyPlace, with their JSON types', () => {
  it('for every place of the fixture', () => {
    expect(records.size).toBe(reachable().length);
    for (const r of records.values()) {
      expect(Object.keys(r).sort()).toEqual([...FIELDS].sort());
      expect(Object.keys(r.centroid).sort()).toEqual(['lat', 'lon']);
      expect(Object.keys(r.geometry).sort()).toEqual(['coordinates', 'type']);
      expect(typeof r.placeId).toBe('number');
      expect(typeof r.osmId).toBe('number');
      expect(typeof r.name).toBe('string');
      expect(typeof r.address).toBe('string');
      expect(typeof r.type).toBe('string');
      expect(typeof r.score).toBe('number');
      expect(Number.isFinite(r.score) && r.score > 0).toBe(true);
      expect(typeof r.radialDistanceInKm).toBe('number');
      expect(typeof r.open).toBe('boolean');
      expect(Array.isArray(r.tags)).toBe(true);
    }
  });

  it('survives JSON unchanged (no undefined, NaN, class instances or extra prototype fields)', () => {
    const some = nearby(index, { type: 'eat', ...CENTER, limit: 50, at: AT });
    expect(JSON.parse(JSON.stringify(some))).toEqual(some);
  });
});

describe('placeId = osmId * 4 + kind (0 node, 1 way, 2 relation), osmId exact', () => {
  it('for every place', () => {
    for (const p of reachable()) {
      const r = records.get(p.placeId);
      expect(r, `place ${p.placeId}`).toBeDefined();
      expect(r!.osmId).toBe(p.osmId);
      expect(r!.placeId).toBe(p.osmId * 4 + p.kind);
      expect(Number.isSafeInteger(r!.placeId)).toBe(true);
    }
  });

  it('keeps node ids above 2^32 exact', () => {
    const big = reachable().filter((p) => p.osmId > 2 ** 32);
    expect(big.length).toBeGreaterThan(100);
    for (const p of big) expect(records.get(p.placeId)!.osmId).toBe(p.osmId);
    // the largest node id of the file (13,444,892,401, per the data README) if it is a place
    const top = Math.max(...big.map((p) => p.osmId));
    expect(top).toBeLessThanOrEqual(13_444_892_401);
  });

  it('tells a node, a way and a relation apart in the low bits', () => {
    const kinds = new Set([...records.values()].map((r) => r.placeId - r.osmId * 4));
    expect(kinds).toEqual(new Set([0, 1, 2]));
  });

  it('is the same on a second, independent load', async () => {
    const again = await loadPbf(CORE);
    const a = nearby(index, { type: 'school', ...CENTER, limit: ALL, at: AT });
    const b = nearby(again, { type: 'school', ...CENTER, limit: ALL, at: AT });
    expect(b).toEqual(a);
    expect(again.size).toBe(index.size);
  });
});

describe('name: name, else name:en, else name:ne, else ""', () => {
  it('for every place', () => {
    const wrong = reachable()
      .filter((p) => records.get(p.placeId)!.name !== p.name)
      .map((p) => `${p.placeId}: ${records.get(p.placeId)!.name} vs ${p.name}`);
    expect(wrong).toEqual([]);
  });

  it('is the tag value as written (three names of the fixture end with a space)', () => {
    const spaced = reachable().filter((p) => p.name !== p.name.trim());
    expect(spaced.length).toBeGreaterThan(0);
    const wrong = spaced
      .filter((p) => records.get(p.placeId)!.name !== p.name)
      .map((p) => `${p.placeId}: ${JSON.stringify(records.get(p.placeId)!.name)} vs ${JSON.stringify(p.name)}`);
    expect(wrong).toEqual([]);
  });

  it('falls back to name:en (593 places of the fixture have only name:en)', () => {
    const onlyEn = reachable().filter((p) => tag(p.rawTags, 'name') === undefined && tag(p.rawTags, 'name:en') !== undefined);
    expect(onlyEn.length).toBeGreaterThan(500);
    for (const p of onlyEn) expect(records.get(p.placeId)!.name).toBe(tag(p.rawTags, 'name:en'));
  });

  it('is "" for an unnamed place, never null', () => {
    const unnamed = reachable().filter((p) => !p.rawTags.some(([k]) => k === 'name' || k === 'name:en' || k === 'name:ne'));
    expect(unnamed.length).toBeGreaterThan(100);
    for (const p of unnamed) expect(records.get(p.placeId)!.name).toBe('');
  });

  it('an unnamed toilet is still an answer', () => {
    const toilets = nearby(index, { type: 'toilets', ...CENTER, limit: ALL, at: AT });
    expect(toilets.some((r) => r.name === '')).toBe(true);
  });
});

describe('address: addr:* house and street, else the nearest street within 100 m; locality; municipality, district, province', () => {
  it('for every place, as computed from the raw data with turf and nepal-geojson', async () => {
    const book = addressBook(await readRaw(CORE));
    let checked = 0;
    const wrong: string[] = [];
    for (const p of reachable()) {
      const r = records.get(p.placeId)!;
      const exp = book(r.centroid.lon, r.centroid.lat, p.rawTags);
      if (exp.address === undefined) continue; // two streets or localities within a metre of each other
      checked++;
      if (r.address !== exp.address) wrong.push(`${p.placeId}: ${r.address} vs ${exp.address}`);
    }
    expect(checked).toBeGreaterThan(reachable().length * 0.95);
    expect(wrong).toEqual([]);
  });

  it('hand-checked cases', () => {
    // node 1875597196: housename, housenumber, street and city from its tags; district and province from nepal-geojson
    const a = records.get(7502388784)!.address;
    expect(a.startsWith('Sanchaya kosh Bhawan, 219, Tridevi Marg, ')).toBe(true);
    expect(a.endsWith(', Kathmandu, Bagmati Province')).toBe(true);
    for (const r of records.values()) {
      expect(r.address, `${r.placeId}`).toMatch(/, Bagmati Province$/);
    }
  });
});

describe('license: "© OpenStreetMap contributors, ODbL 1.0" unless given at load', () => {
  it('by default', () => {
    expect(index.license).toBe(LICENSE);
    for (const r of records.values()) expect(r.license).toBe(LICENSE);
  });

  it('as given', async () => {
    const other = await loadPbf(CORE, { license: 'test licence' });
    expect(other.license).toBe('test licence');
    const got = nearby(other, { type: 'cafe', ...CENTER, limit: 3, at: AT });
    expect(got.length).toBe(3);
    for (const r of got) expect(r.license).toBe('test licence');
  });
});

describe('tags: every tag as "key|value" in file order', () => {
  it('for every place', () => {
    const wrong = reachable()
      .filter((p) => JSON.stringify(records.get(p.placeId)!.tags) !== JSON.stringify(p.tags))
      .map((p) => p.placeId);
    expect(wrong).toEqual([]);
  });

  it('keeps a value that contains "|" whole after the first "|"', () => {
    // node 9530396597 has name=|Seni Electronics
    const p = byId.get(9530396597 * 4)!;
    expect(tag(p.rawTags, 'name')).toBe('|Seni Electronics');
    const r = records.get(p.placeId)!;
    expect(r.tags).toContain('name||Seni Electronics');
    const split = r.tags.map((t) => [t.slice(0, t.indexOf('|')), t.slice(t.indexOf('|') + 1)]);
    expect(split).toEqual(p.rawTags);
    expect(r.name).toBe('|Seni Electronics');
  });

  it('keeps Devanagari and other scripts byte for byte', () => {
    const ne = reachable().filter((p) => /[\u0900-\u097F]/.test(p.tags.join('')));
    expect(ne.length).toBeGreaterThan(50);
    for (const p of ne) expect(records.get(p.placeId)!.tags).toEqual(p.tags);
  });
});

describe('type: the asked type, or the member of a merged type that matched', () => {
  it('for a plain type', () => {
    for (const r of nearby(index, { type: 'pharmacy', ...CENTER, limit: ALL, at: AT })) expect(r.type).toBe('pharmacy');
  });

  it('for a merged type: the first own type that is a member', () => {
    const got = nearby(index, { type: 'shopping', ...CENTER, limit: ALL, at: AT });
    expect(got.length).toBeGreaterThan(20);
    const members = ['jewelry', 'sports', 'gift', 'mall', 'department_store', 'hardware', 'kitchen', 'furniture'];
    for (const r of got) expect(r.type).toBe(byId.get(r.placeId)!.types.find((t) => members.includes(t)));
  });
});
