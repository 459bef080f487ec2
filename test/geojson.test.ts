/**
 * toFeatureCollection: the records of nearby, place and reverse as GeoJSON, checked against
 * osm-read's raw tags and coordinates and an independent GeoJSON validator.
 */
import { check } from '@placemarkio/check-geojson';
import { beforeAll, describe, expect, it } from 'vitest';
import { InvalidQueryError, nearby, place, reverse, toFeatureCollection, type NearbyPlace, type PlaceIndex } from '../src/index.js';
import * as core from '../src/core.js';
import { toWire } from '../src/http/envelope.js';
import { centroidOf, centroidTolerance } from './support/centroid.js';
import { CENTER, allRecords, engine, expected } from './support/fixture.js';
import { npt } from './support/hours.js';
import type { ExpectedPlace } from './support/places.js';

const AT = npt('2026-01-17T12:00');

let index: PlaceIndex;
let byId: Map<number, ExpectedPlace>;
let records: NearbyPlace[];

beforeAll(async () => {
  index = await engine();
  const e = await expected();
  byId = e.byId;
  records = [...allRecords(index, e.places, AT).values()];
});

describe('one Feature per record, in order, id = placeId, valid GeoJSON', () => {
  it('for every place of the fixture, both geometry options', () => {
    for (const geometry of ['full', 'centroid'] as const) {
      const fc = toFeatureCollection(records, { geometry });
      expect(fc.type).toBe('FeatureCollection');
      expect(fc.features.map((f) => f.id)).toEqual(records.map((r) => r.placeId));
      expect(fc.features.every((f) => f.type === 'Feature')).toBe(true);
      // the validator parses text, as a map client would
      expect(() => check(JSON.stringify(fc))).not.toThrow();
    }
  });

  it('no records: an empty collection', () => {
    expect(toFeatureCollection([])).toEqual({ type: 'FeatureCollection', features: [] });
  });

  it('is exported by nepal-places/core as well as nepal-places', () => {
    expect(core.toFeatureCollection).toBe(toFeatureCollection);
  });
});

describe("geometry 'full' (the default): the record's own shape, from the raw object", () => {
  it('Point, LineString, Polygon and MultiPolygon, with coordinates [lon, lat]', () => {
    const fc = toFeatureCollection(records);
    const kinds = new Set<string>();
    for (const f of fc.features) {
      const r = records.find((x) => x.placeId === f.id)!;
      expect(f.geometry).toEqual(r.geometry);
      kinds.add(f.geometry.type);
      const raw = byId.get(f.id)!;
      expect(f.geometry.type).toBe(raw.geometry.type);
      // a node's point is the raw node's [lon, lat], not swapped
      if (raw.geometry.type === 'Point') expect(f.geometry.coordinates).toEqual(raw.geometry.coordinates);
    }
    expect([...kinds].sort()).toEqual(['LineString', 'MultiPolygon', 'Point', 'Polygon']);
  });

  it('keeps the centroid as a property, since the shape does not carry it', () => {
    for (const f of toFeatureCollection(records).features) {
      const c = centroidOf(byId.get(f.id)!.geometry);
      const tol = centroidTolerance(byId.get(f.id)!.geometry);
      expect(Math.abs(f.properties.centroid!.lat - c.lat)).toBeLessThanOrEqual(tol);
      expect(Math.abs(f.properties.centroid!.lon - c.lon)).toBeLessThanOrEqual(tol);
    }
  });
});

describe("geometry 'centroid': a Point at the centroid, [lon, lat]", () => {
  it('for every place, at the centroid computed independently from the raw shape', () => {
    for (const f of toFeatureCollection(records, { geometry: 'centroid' }).features) {
      expect(f.geometry.type).toBe('Point');
      const [lon, lat] = f.geometry.coordinates as [number, number];
      const g = byId.get(f.id)!.geometry;
      const c = centroidOf(g);
      const tol = centroidTolerance(g);
      expect(Math.abs(lon - c.lon)).toBeLessThanOrEqual(tol);
      expect(Math.abs(lat - c.lat)).toBeLessThanOrEqual(tol);
      expect('centroid' in f.properties).toBe(false);
    }
  });
});

describe("properties: the record's other fields, tags as an object", () => {
  it('tags are the raw object tags read by osm-read, in file order', () => {
    for (const f of toFeatureCollection(records).features) {
      const raw = byId.get(f.id)!.rawTags;
      expect(Object.entries(f.properties.tags)).toEqual(raw);
    }
  });

  it("every other field is the record's, unchanged, and geometry is not among them", () => {
    for (const geometry of ['full', 'centroid'] as const) {
      const fc = toFeatureCollection(records, { geometry });
      fc.features.forEach((f, i) => {
        const r = records[i]!;
        const drop = geometry === 'full' ? ['geometry', 'tags'] : ['geometry', 'centroid', 'tags'];
        const want = Object.fromEntries(Object.entries(r).filter(([k]) => !drop.includes(k)));
        const { tags, ...rest } = f.properties;
        expect(rest).toEqual(want);
        expect(Object.keys(tags).length).toBe(r.tags.length);
      });
    }
  });

  it('a value holding "|" stays whole, and a __proto__ key stays a tag', () => {
    const r = { ...records[0]!, tags: ['name|A|B', '__proto__|x', 'ref|'] };
    const { tags } = toFeatureCollection([r]).features[0]!.properties;
    expect(Object.keys(tags)).toEqual(['name', '__proto__', 'ref']);
    expect(tags.name).toBe('A|B');
    expect(Object.getOwnPropertyDescriptor(tags, '__proto__')?.value).toBe('x');
    expect(tags.ref).toBe('');
    expect(Object.getPrototypeOf(tags)).toBe(Object.prototype);
  });

  it('leaves the records untouched', () => {
    const some = nearby(index, { type: 'eat', ...CENTER, limit: 20, at: AT });
    const before = structuredClone(some);
    toFeatureCollection(some);
    toFeatureCollection(some, { geometry: 'centroid' });
    expect(some).toEqual(before);
  });
});

describe('records of place and reverse, and records as the API writes them', () => {
  it('place(): its fields (score "NaN", no osmId) become the properties', () => {
    const id = records.find((r) => r.geometry.type === 'Polygon')!.placeId;
    const p = place(index, id, { at: AT })!;
    const f = toFeatureCollection([p]).features[0]!;
    expect(f.id).toBe(id);
    expect(f.geometry).toEqual(p.geometry);
    expect(f.properties.score).toBe('NaN');
    expect('osmId' in f.properties).toBe(false);
    expect(f.properties.tags).toEqual(Object.fromEntries(byId.get(id)!.rawTags));
  });

  it('reverse(): radialDistanceInKm is kept', () => {
    const found = reverse(index, { ...CENTER, radius: 1, limit: 3, at: AT });
    expect(found.length).toBeGreaterThan(0);
    const fc = toFeatureCollection(found, { geometry: 'centroid' });
    expect(fc.features.map((f) => f.properties.radialDistanceInKm)).toEqual(found.map((r) => r.radialDistanceInKm));
  });

  it('wire records (a NaN score written as "NaN") convert too', () => {
    const wire = records.slice(0, 3).map((r) => toWire({ ...r, score: NaN }));
    const fc = toFeatureCollection(wire);
    expect(fc.features.map((f) => f.properties.score)).toEqual(['NaN', 'NaN', 'NaN']);
  });
});

describe('bad input: InvalidQueryError naming the argument', () => {
  it.each([
    [null, 'records'],
    [{ length: 1 }, 'records'],
    ['abc', 'records'],
    [[null], 'records'],
    [[{ placeId: 1 }], 'records'],
  ])('records %j', (bad, param) => {
    const err = (() => {
      try {
        toFeatureCollection(bad as never);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(InvalidQueryError);
    expect((err as InvalidQueryError).param).toBe(param);
  });

  it.each(['point', 'Full', '', 42])('geometry %j', (bad) => {
    expect(() => toFeatureCollection(records, { geometry: bad as never })).toThrow(InvalidQueryError);
    expect(() => toFeatureCollection(records, { geometry: bad as never })).toThrow(/geometry: must be 'full' or 'centroid'/);
  });
});
