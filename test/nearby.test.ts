/**
 * nearby() on the core fixture against answers computed from the raw file (osm-read, our
 * centroids, @turf/distance): which places, how many, in which order, at which distance.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import distance from '@turf/distance';
import { nearby, MERGED_TYPES } from '../src/index.js';
import type { NearbyPlace, PlaceIndex } from '../src/index.js';
import { ALL, CENTER, engine, expected } from './support/fixture.js';
import { candidates, centroidOfPlace, EDGE_KM, matchedType, type Candidate } from './support/answer.js';
import { MERGED } from './support/merged.js';
import { openAt, npt } from './support/hours.js';
import { tag } from './support/raw.js';
import { prominence } from './support/score.js';
import type { ExpectedPlace } from './support/places.js';

let index: PlaceIndex;
let places: ExpectedPlace[];
let byId: Map<number, ExpectedPlace>;

beforeAll(async () => {
  index = await engine();
  const e = await expected();
  places = e.places;
  byId = e.byId;
});

const POINTS = {
  thamel: { lat: 27.7154, lon: 85.3123 },
  asan: { lat: 27.7075, lon: 85.3106 },
  durbarMarg: { lat: 27.711, lon: 85.318 },
  putalisadak: { lat: 27.704, lon: 85.323 },
  // the issue's example point, just north of the fixture
  issue: { lat: 27.7172, lon: 85.324 },
};
type PointName = keyof typeof POINTS;

const AT = npt('2026-01-18T19:30'); // a Sunday evening in Kathmandu

/** The places of `want` that are surely inside / possibly inside (our centroid may differ by a hair). */
function split(want: Candidate[], radius: number) {
  return {
    sure: new Set(want.filter((c) => c.km <= radius - EDGE_KM).map((c) => c.place.placeId)),
    maybe: new Set(want.map((c) => c.place.placeId)),
  };
}

function expectSameSet(got: NearbyPlace[], q: { type: string; lat: number; lon: number; radius: number }) {
  const want = candidates(places, { ...q, radius: q.radius + EDGE_KM });
  const { sure, maybe } = split(want, q.radius);
  const ids = got.map((r) => r.placeId);
  expect(new Set(ids).size, 'each place once').toBe(ids.length);
  for (const id of sure) expect(ids, `place ${id} is within ${q.radius} km`).toContain(id);
  for (const id of ids) expect(maybe.has(id), `place ${id} is not a ${q.type} within ${q.radius} km`).toBe(true);
  for (const r of got) expect(r.radialDistanceInKm).toBeLessThanOrEqual(q.radius);
  return { want, sure };
}

describe('a type returns every place of that type whose centroid is within the radius', () => {
  const cases: [string, PointName, number, number][] = [
    // type, point, radius, how many the raw data has there at least (checks the case is not empty)
    ['cafe', 'thamel', 1, 20],
    ['cafe', 'durbarMarg', 2, 20],
    ['school', 'asan', 1, 5],
    ['school', 'putalisadak', 2, 10],
    ['toilets', 'asan', 2, 5],
    ['restaurant', 'thamel', 1, 50],
    ['restaurant', 'issue', 10, 100],
    ['pharmacy', 'putalisadak', 1, 5],
    ['bank', 'asan', 1, 10],
    ['place_of_worship', 'asan', 1, 10],
    ['hotel', 'thamel', 2, 20],
    ['atm', 'durbarMarg', 1, 5],
    ['college', 'putalisadak', 2, 3],
  ];
  for (const [type, point, radius, atLeast] of cases) {
    it(`${type} within ${radius} km of ${point}`, () => {
      const q = { type, ...POINTS[point], radius };
      const got = nearby(index, { ...q, limit: ALL, at: AT });
      const { sure } = expectSameSet(got, q);
      expect(sure.size).toBeGreaterThanOrEqual(atLeast);
      for (const r of got) expect(r.type).toBe(type);
    });
  }

  it('counts every school of the fixture from its centre with the default radius', () => {
    const got = nearby(index, { type: 'school', ...CENTER, limit: ALL, at: AT });
    const want = places.filter((p) => p.types.includes('school'));
    expect(got.map((r) => r.placeId).sort((a, b) => a - b)).toEqual(want.map((p) => p.placeId).sort((a, b) => a - b));
    // 45 nodes + 126 ways + 4 relations carry amenity=school; the ways with fewer than 2 nodes
    // in the extract have no geometry and are no places
    expect(got.length).toBe(want.length);
    expect(want.length).toBeGreaterThan(170);
  });

  it('matches a type given as one part of a;b', () => {
    // node 6031741382 is amenity=toilets;bank
    const p = byId.get(6031741382 * 4)!;
    expect(p.types).toEqual(['toilets', 'bank']);
    const c = centroidOfPlace(p);
    for (const type of ['toilets', 'bank']) {
      const got = nearby(index, { type, lat: c.lat, lon: c.lon, radius: 1, limit: ALL, sortBy: true, at: AT });
      const r = got.find((x) => x.placeId === p.placeId);
      expect(r?.type).toBe(type);
    }
  });

  it('trims and lower-cases the asked type', () => {
    const q = { ...POINTS.thamel, radius: 1, limit: ALL, at: AT };
    expect(nearby(index, { ...q, type: '  CaFe ' })).toEqual(nearby(index, { ...q, type: 'cafe' }));
    expect(nearby(index, { ...q, type: '\tEAT ' })).toEqual(nearby(index, { ...q, type: 'eat' }));
  });

  it('finds amenity=parking places by their parking=* value', () => {
    const got = nearby(index, { type: 'surface', ...CENTER, radius: 10, limit: ALL, at: AT });
    const want = places.filter((p) => tag(p.rawTags, 'amenity') === 'parking' && tag(p.rawTags, 'parking') === 'surface');
    expect(want.length).toBeGreaterThan(20);
    expect(got.map((r) => r.placeId).sort()).toEqual(want.map((p) => p.placeId).sort());
    // parking=* on a place that is not amenity=parking gives no type
    const notParking = places.filter((p) => tag(p.rawTags, 'parking') !== undefined && tag(p.rawTags, 'amenity') !== 'parking');
    for (const p of notParking) expect(got.map((r) => r.placeId)).not.toContain(p.placeId);
  });

  it('does not treat yes/no as types', () => {
    // no place has them as a type, so nearby refuses them as unknown types
    expect(() => nearby(index, { type: 'yes', ...CENTER, radius: 10, limit: ALL, at: AT })).toThrow(/^type: unknown type "yes"/);
    expect(() => nearby(index, { type: 'no', ...CENTER, radius: 10, limit: ALL, at: AT })).toThrow(/^type: unknown type "no"/);
  });

  it('counts highway=* on nodes only', () => {
    // 57 crossing nodes in the raw data; highway on ways never makes a place
    const got = nearby(index, { type: 'crossing', ...CENTER, radius: 10, limit: ALL, at: AT });
    expect(got.length).toBe(places.filter((p) => p.types.includes('crossing')).length);
    expect(got.length).toBe(57);
    // highway=residential is on ways only in the fixture: no place has that type
    expect(() => nearby(index, { type: 'residential', ...CENTER, radius: 10, limit: ALL, at: AT })).toThrow(
      /^type: unknown type "residential"/,
    );
  });
});

describe('a merged type returns each place having any member type once, typed by the member that matched', () => {
  it('the engine exports the merged-type table of the issue', () => {
    expect(MERGED_TYPES).toEqual(MERGED);
  });

  it('eat is the union of cafe, restaurant and bakery', () => {
    const q = { ...POINTS.thamel, radius: 1, limit: ALL, at: AT };
    const eat = nearby(index, { ...q, type: 'eat' });
    const union = new Map<number, string>();
    for (const t of ['cafe', 'restaurant', 'bakery']) {
      for (const r of nearby(index, { ...q, type: t })) if (!union.has(r.placeId)) union.set(r.placeId, t);
    }
    expect(eat.length).toBe(union.size);
    expect(new Set(eat.map((r) => r.placeId))).toEqual(new Set(union.keys()));
    for (const r of eat) expect(r.type).toBe(matchedType(byId.get(r.placeId)!, 'eat'));
    expect(new Set(eat.map((r) => r.type))).toEqual(new Set(['cafe', 'restaurant', 'bakery']));
  });

  for (const name of Object.keys(MERGED)) {
    it(`${name} over the whole fixture`, () => {
      const got = nearby(index, { type: name, ...CENTER, radius: 10, limit: ALL, at: AT });
      const want = candidates(places, { type: name, ...CENTER, radius: 10 });
      expect(got.map((r) => r.placeId).sort((a, b) => a - b)).toEqual(want.map((c) => c.place.placeId).sort((a, b) => a - b));
      const types = new Map(want.map((c) => [c.place.placeId, c.type]));
      for (const r of got) expect(r.type, `place ${r.placeId}`).toBe(types.get(r.placeId));
    });
  }

  it('a place with two member types appears once, typed by the first in tag order', () => {
    // way 85650618 (Garden of Dreams) is leisure=park + tourism=attraction
    const p = byId.get(85650618 * 4 + 1)!;
    expect(p.types).toEqual(['park', 'attraction']);
    for (const name of ['tourism', 'children']) {
      const got = nearby(index, { type: name, ...CENTER, radius: 10, limit: ALL, at: AT }).filter((r) => r.placeId === p.placeId);
      expect(got.length).toBe(1);
      expect(got[0].type).toBe('park');
    }
    // amenity=parking + parking=underground: one record, type parking (the amenity tag comes first)
    const u = places.filter((x) => x.types.includes('underground'));
    expect(u.length).toBeGreaterThan(3);
    const got = nearby(index, { type: 'parking', ...CENTER, radius: 10, limit: ALL, at: AT });
    for (const x of u) {
      const recs = got.filter((r) => r.placeId === x.placeId);
      expect(recs.length).toBe(1);
      expect(recs[0].type).toBe(x.types.find((t) => MERGED.parking.includes(t)));
    }
  });

  it('a member type returns that type only', () => {
    const got = nearby(index, { type: 'bakery', ...CENTER, radius: 10, limit: ALL, at: AT });
    expect(got.length).toBe(places.filter((p) => p.types.includes('bakery')).length);
    for (const r of got) expect(r.type).toBe('bakery');
    // 'underground' alone: the underground car parks, typed underground
    const u = nearby(index, { type: 'underground', ...CENTER, radius: 10, limit: ALL, at: AT });
    expect(u.length).toBe(places.filter((p) => p.types.includes('underground')).length);
    for (const r of u) expect(r.type).toBe('underground');
  });
});

/** Relative score gap that a centimetre of centroid rounding can explain. */
const NEAR = 2e-5;

/** Relative closeness of two scores. */
function close(a: number, b: number, rel = 1e-6): boolean {
  return Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b));
}

describe('without sortBy: the limit highest scores, score descending, ties by placeId', () => {
  const cases: [string, PointName, number, number][] = [
    ['restaurant', 'thamel', 2, 20],
    ['eat', 'durbarMarg', 10, 30],
    ['school', 'putalisadak', 10, 25],
    ['hotel', 'asan', 3, 10],
  ];
  for (const [type, point, radius, limit] of cases) {
    it(`${type} within ${radius} km of ${point}, limit ${limit}`, () => {
      const q = { type, ...POINTS[point], radius, at: AT };
      const got = nearby(index, { ...q, limit });
      expect(got.length).toBe(limit);
      for (let i = 1; i < got.length; i++) {
        const a = got[i - 1];
        const b = got[i];
        expect(a.score > b.score || (a.score === b.score && a.placeId < b.placeId), `${a.placeId} before ${b.placeId}`).toBe(true);
      }
      const want = candidates(places, q).sort((a, b) => b.score - a.score || a.place.placeId - b.place.placeId);
      for (let i = 0; i < limit; i++) {
        const mine = byId.get(got[i].placeId)!;
        const c = want.find((x) => x.place === mine);
        expect(c, `place ${got[i].placeId} is a ${type} within ${radius} km`).toBeDefined();
        // the engine's distance is to its centroid rounded to 1e-7° (checked below), ours is not
        const score = prominence(mine) / (1 + got[i].radialDistanceInKm);
        expect(close(got[i].score, score, 1e-9), `score of ${got[i].placeId}: ${got[i].score} vs ${score}`).toBe(true);
        // the same place as ours at this rank, or one whose score ties with it within a centimetre's decay
        expect(got[i].placeId === want[i].place.placeId || close(c!.score, want[i].score, NEAR), `rank ${i}`).toBe(true);
      }
    });
  }

  it('scores a hand-checked place', () => {
    // node 4412627492: name:en only, no wikidata/website/phone/opening_hours → prominence 1 + 1
    const p = byId.get(4412627492 * 4)!;
    const rawKeys = p.rawTags.map(([k]) => k);
    expect(rawKeys).not.toContain('opening_hours');
    expect(rawKeys.some((k) => ['wikidata', 'wikipedia', 'website', 'contact:website', 'url', 'phone', 'contact:phone'].includes(k))).toBe(
      false,
    );
    const c = centroidOfPlace(p);
    // 1.11195 km due south: haversine along a meridian is R · Δφ
    const got = nearby(index, { type: p.types[0], lat: c.lat - 0.01, lon: c.lon, radius: 2, limit: ALL, at: AT }).find(
      (r) => r.placeId === p.placeId,
    )!;
    const d = (6371.0088 * 0.01 * Math.PI) / 180;
    expect(got.radialDistanceInKm).toBeCloseTo(d, 9);
    expect(got.score).toBeCloseTo(2 / (1 + d), 9);
  });

  it('scores a building by its area: log10(1 + m²/100) / 2, at most 2', () => {
    // relation 10953874, Bir Hospital: name, no wikidata, website, phone or hours
    const p = byId.get(10953874 * 4 + 2)!;
    const c = centroidOfPlace(p);
    const r = nearby(index, { type: 'hospital', lat: c.lat, lon: c.lon, radius: 1, limit: ALL, sortBy: true, at: AT }).find(
      (x) => x.placeId === p.placeId,
    )!;
    const has = (k: string) => tag(p.rawTags, k) !== undefined;
    const base =
      2 +
      (has('wikidata') || has('wikipedia') ? 1 : 0) +
      (has('website') || has('contact:website') || has('url') ? 0.5 : 0) +
      (has('phone') || has('contact:phone') ? 0.5 : 0) +
      (has('opening_hours') ? 0.5 : 0);
    const prominence = r.score * (1 + r.radialDistanceInKm);
    const areaTerm = prominence - base;
    expect(areaTerm).toBeGreaterThan(0.5);
    expect(areaTerm).toBeLessThanOrEqual(2);
  });
});

describe('with sortBy: the limit nearest, distance ascending, ties by placeId', () => {
  const cases: [string, PointName, number, number][] = [
    ['cafe', 'thamel', 1, 15],
    ['eat', 'asan', 10, 40],
    ['school', 'issue', 10, 30],
    ['toilets', 'putalisadak', 5, 10],
  ];
  for (const [type, point, radius, limit] of cases) {
    it(`${type} within ${radius} km of ${point}, limit ${limit}`, () => {
      const q = { type, ...POINTS[point], radius, at: AT };
      const got = nearby(index, { ...q, limit, sortBy: true });
      expect(got.length).toBe(limit);
      for (let i = 1; i < got.length; i++) {
        const a = got[i - 1];
        const b = got[i];
        expect(
          a.radialDistanceInKm < b.radialDistanceInKm || (a.radialDistanceInKm === b.radialDistanceInKm && a.placeId < b.placeId),
        ).toBe(true);
      }
      const want = candidates(places, q).sort((a, b) => a.km - b.km || a.place.placeId - b.place.placeId);
      for (let i = 0; i < limit; i++) {
        // same place at each rank unless our distances tie within centroid precision (1 cm)
        expect(got[i].placeId === want[i].place.placeId || Math.abs(got[i].radialDistanceInKm - want[i].km) < 2e-5, `rank ${i}`).toBe(true);
      }
    });
  }

  // Four nodes named Black Mountain, shop=outdoor, share one position (27.7158968, 85.3099374).
  const TWINS = [13261142501, 13261159001, 13261168301, 13261168303];

  it('breaks distance ties by placeId, also where the limit cuts through a tie', () => {
    const twins = places.filter((p) => p.kind === 0 && TWINS.includes(p.osmId));
    expect(twins.length).toBe(4);
    const at = { lat: 27.7158968, lon: 85.3099374 };
    const all = nearby(index, { type: 'outdoor', ...at, radius: 1, limit: ALL, sortBy: true, at: AT });
    expect(all.slice(0, 4).map((r) => r.placeId)).toEqual(TWINS.map((id) => id * 4));
    for (const r of all.slice(0, 4)) expect(r.radialDistanceInKm).toBe(0);
    const two = nearby(index, { type: 'outdoor', ...at, radius: 1, limit: 2, sortBy: true, at: AT });
    expect(two.map((r) => r.placeId)).toEqual([TWINS[0] * 4, TWINS[1] * 4]);
  });

  it('breaks score ties by placeId', () => {
    const at = { lat: 27.7158968, lon: 85.3099374 };
    const all = nearby(index, { type: 'outdoor', ...at, radius: 1, limit: ALL, at: AT });
    const twins = all.filter((r) => TWINS.includes(r.osmId));
    expect(twins.length).toBe(4);
    expect(new Set(twins.map((r) => r.score)).size).toBe(1);
    expect(twins.map((r) => r.placeId)).toEqual(TWINS.map((id) => id * 4));
    const first = all.findIndex((r) => r.placeId === TWINS[0] * 4);
    expect(all.slice(first, first + 4).map((r) => r.placeId)).toEqual(TWINS.map((id) => id * 4));
  });

  it('gives the same answer on every call', () => {
    const q = { type: 'restaurant', ...POINTS.thamel, radius: 2, limit: 50, at: AT };
    expect(nearby(index, { ...q, sortBy: true })).toEqual(nearby(index, { ...q, sortBy: true }));
    expect(nearby(index, q)).toEqual(nearby(index, q));
  });
});

describe('radialDistanceInKm is the haversine distance to the centroid, R = 6371.0088 km', () => {
  it('equals @turf/distance to the record centroid and to our centroid', () => {
    for (const [name, pt] of Object.entries(POINTS)) {
      for (const type of ['eat', 'school', 'bank']) {
        const got = nearby(index, { type, ...pt, radius: 10, limit: ALL, at: AT });
        expect(got.length, `${type} near ${name}`).toBeGreaterThan(0);
        for (const r of got) {
          const d = distance([pt.lon, pt.lat], [r.centroid.lon, r.centroid.lat]);
          expect(Math.abs(r.radialDistanceInKm - d), `${r.placeId}`).toBeLessThanOrEqual(1e-12 * Math.max(1, d));
          const ours = distance([pt.lon, pt.lat], [centroidOfPlace(byId.get(r.placeId)!).lon, centroidOfPlace(byId.get(r.placeId)!).lat]);
          // our centroid and the engine's agree within 1e-6° (lines) → ~0.1 m
          expect(Math.abs(r.radialDistanceInKm - ours)).toBeLessThan(2e-4);
        }
      }
    }
  });

  it('is 0 at the place itself and R·Δφ along a meridian', () => {
    const p = places.find((x) => x.kind === 0 && x.types[0] === 'cafe')!;
    const [lon, lat] = p.geometry.coordinates as [number, number];
    const here = nearby(index, { type: 'cafe', lat, lon, radius: 1, limit: 1, sortBy: true, at: AT });
    expect(here[0].radialDistanceInKm).toBe(0);
    expect(here[0].centroid).toEqual({ lat, lon });
    const north = nearby(index, { type: 'cafe', lat: lat + 0.05, lon, radius: 10, limit: ALL, sortBy: true, at: AT }).find(
      (r) => r.placeId === p.placeId,
    )!;
    expect(north.radialDistanceInKm).toBeCloseTo((6371.0088 * 0.05 * Math.PI) / 180, 9);
  });

  it('keeps a place at distance <= radius and drops it just beyond', () => {
    const p = places.find((x) => x.kind === 0 && x.types[0] === 'pharmacy')!;
    const [lon, lat] = p.geometry.coordinates as [number, number];
    // 1 km is 0.0089932° of latitude at R = 6371.0088; stay 1 cm inside, then 1 cm outside
    const deg = (km: number) => (km / 6371.0088) * (180 / Math.PI);
    const inside = nearby(index, { type: 'pharmacy', lat: lat + deg(1 - 1e-5), lon, radius: 1, limit: ALL, at: AT });
    const outside = nearby(index, { type: 'pharmacy', lat: lat + deg(1 + 1e-5), lon, radius: 1, limit: ALL, at: AT });
    expect(inside.map((r) => r.placeId)).toContain(p.placeId);
    expect(outside.map((r) => r.placeId)).not.toContain(p.placeId);
  });
});

describe('isOpen: only places open at `at`, the limit applied after the filter', () => {
  // late on a Sunday: the best-scored places (those with opening_hours score higher) are mostly closed
  const q = { type: 'eat', ...POINTS.thamel, radius: 2, at: npt('2026-01-18T22:45') };

  it('returns `limit` open places where the unfiltered top has closed ones', () => {
    const top = nearby(index, { ...q, limit: 5 });
    expect(
      top.some((r) => !r.open),
      'premise: some of the unfiltered top 5 are closed',
    ).toBe(true);
    const got = nearby(index, { ...q, limit: 5, isOpen: true });
    expect(got.length).toBe(5);
    for (const r of got) expect(r.open).toBe(true);
    const want = candidates(places, { ...q, isOpen: true }).sort((a, b) => b.score - a.score || a.place.placeId - b.place.placeId);
    expect(want.length).toBeGreaterThan(5);
    for (let i = 0; i < 5; i++) {
      expect(got[i].placeId === want[i].place.placeId || close(got[i].score, want[i].score, NEAR), `rank ${i}`).toBe(true);
    }
  });

  it('filters exactly the places whose hours say open, sorted or not', () => {
    for (const sortBy of [false, true]) {
      const got = nearby(index, { ...q, limit: ALL, isOpen: true, sortBy });
      const want = candidates(places, { ...q, isOpen: true });
      expect(new Set(got.map((r) => r.placeId))).toEqual(new Set(want.map((c) => c.place.placeId)));
    }
  });

  it('reports `open` on every record without filtering when isOpen is not set', () => {
    const got = nearby(index, { ...q, limit: ALL });
    const open = got.filter((r) => r.open);
    expect(open.length).toBeGreaterThan(0);
    expect(open.length).toBeLessThan(got.length);
    for (const r of got) expect(r.open, `${r.placeId}`).toBe(openAt(tag(byId.get(r.placeId)!.rawTags, 'opening_hours'), q.at));
    expect(nearby(index, { ...q, limit: ALL, isOpen: false })).toEqual(got);
  });
});

describe('defaults: radius 10 km, limit 5', () => {
  it('equals the explicit query', () => {
    const q = { type: 'restaurant', ...POINTS.issue, at: AT };
    const got = nearby(index, q);
    expect(got.length).toBe(5);
    expect(got).toEqual(nearby(index, { ...q, radius: 10, limit: 5 }));
  });

  it('reaches 10 km and no further', () => {
    // 9.5 km north of the fixture's centre nothing is in 9 km, something is in 10 km
    const lat = CENTER.lat + (9.5 / 6371.0088) * (180 / Math.PI);
    const q = { type: 'restaurant', lat, lon: CENTER.lon, at: AT };
    const ten = expectSameSet(nearby(index, { ...q, limit: ALL }), { ...q, radius: 10 });
    const nine = expectSameSet(nearby(index, { ...q, radius: 9, limit: ALL }), { ...q, radius: 9 });
    expect(ten.sure.size).toBeGreaterThan(nine.sure.size);
    expect(nine.sure.size).toBeGreaterThan(0);
  });
});

describe('random queries agree with the raw computation (seeded, bounded)', () => {
  const TYPES = [
    'cafe',
    'restaurant',
    'school',
    'bank',
    'pharmacy',
    'hotel',
    'toilets',
    'atm',
    'clothes',
    'eat',
    'shopping',
    'tourism',
    'parking',
    'clinic',
    'night_life',
    'travel_agency',
  ];
  const INSTANTS = ['2026-01-17T01:30', '2026-01-17T12:00', '2026-01-18T19:30', '2026-01-16T09:15'].map(npt);

  it('200 queries: same places, same order, up to near ties', () => {
    let seed = 20260110;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    let checked = 0;
    for (let n = 0; n < 200; n++) {
      const q = {
        type: TYPES[Math.floor(rnd() * TYPES.length)],
        lat: 27.69 + rnd() * 0.035,
        lon: 85.29 + rnd() * 0.06,
        radius: 1 + Math.floor(rnd() * 6),
        limit: 1 + Math.floor(rnd() * 40),
        sortBy: rnd() < 0.5,
        isOpen: rnd() < 0.3,
        at: INSTANTS[Math.floor(rnd() * INSTANTS.length)],
      };
      const wide = candidates(places, { ...q, radius: q.radius + EDGE_KM });
      // a place within a metre of the circle may fall either way: leave such queries out
      if (wide.some((c) => Math.abs(c.km - q.radius) <= EDGE_KM)) continue;
      checked++;
      const want = wide.sort(
        q.sortBy
          ? (a, b) => a.km - b.km || a.place.placeId - b.place.placeId
          : (a, b) => b.score - a.score || a.place.placeId - b.place.placeId,
      );
      const got = nearby(index, q);
      const what = JSON.stringify(q);
      expect(got.length, what).toBe(Math.min(q.limit, want.length));
      got.forEach((r, i) => {
        const same = r.placeId === want[i].place.placeId;
        const tie = q.sortBy ? Math.abs(r.radialDistanceInKm - want[i].km) < 2e-5 : close(r.score, want[i].score, NEAR);
        expect(same || tie, `${what} rank ${i}: ${r.placeId} vs ${want[i].place.placeId}`).toBe(true);
        if (q.isOpen) expect(r.open).toBe(true);
      });
    }
    expect(checked).toBeGreaterThan(150);
  });
});
