/**
 * The contract on a tiny hand-made PBF (test/support/handmade.ts): shapes the real fixture
 * lacks, with every expected value worked out by hand from the grid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { loadPbf, nearby, types } from '../src/index.js';
import type { NearbyPlace, PlaceIndex } from '../src/index.js';
import { BIG_ID, TAGGED, gridPos, writeHandmade } from './support/handmade.js';
import { readRaw, type RawData } from './support/raw.js';
import { npt } from './support/hours.js';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { point, polygon } from '@turf/helpers';
import nepalGeojson from 'nepal-geojson';

// the middle of the grid: everything is within 5 km
const MID = { lat: 27.702, lon: 85.35 };
const AT = npt('2026-01-22T12:00'); // a Thursday

let index: PlaceIndex;
let raw: RawData;
let file: string;

beforeAll(async () => {
  file = await writeHandmade();
  raw = await readRaw(file);
  index = await loadPbf(file);
});

afterAll(() => {
  rmSync(dirname(file), { recursive: true, force: true });
});

function all(type: string, at = AT): NearbyPlace[] {
  return nearby(index, { type, ...MID, limit: 1000, at });
}

function one(type: string, osmId: number, kind: number, at = AT): NearbyPlace {
  const r = all(type, at).find((x) => x.placeId === osmId * 4 + kind);
  if (!r) throw new Error(`no ${type} with placeId ${osmId * 4 + kind}`);
  return r;
}

describe('the hand-made file reads back through osm-read as written', () => {
  it('tagged nodes, with their tags in the order written', () => {
    for (const [id, x, y, tags] of TAGGED) {
      const n = raw.node.get(id)!;
      expect([n.lon, n.lat]).toEqual(gridPos(x, y));
      expect(n.tags).toEqual(tags);
    }
    expect([raw.nodes.length, raw.ways.length, raw.relations.length]).toEqual([61, 17, 6]);
  });
});

describe('stats: what was read, built, partial and skipped', () => {
  it('counts', () => {
    expect(index.stats).toEqual({
      nodes: 61,
      ways: 17,
      relations: 6,
      // 9 tagged nodes (one of them historic=yes, a place without a type)
      points: 9,
      // way 11 (area=no), way 13 (a fence), way 16 (open, a node missing)
      lineStrings: 3,
      // ways 10, 12 (area=yes on a highway), 14 (railway=platform)
      polygons: 3,
      // relations 20, 21, 22, 25
      multiPolygons: 4,
      // way 16, relation 22 (a member missing), relation 25 (a chain dropped)
      partial: 3,
      // way 15 (one node left) and relation 23 (no closed ring)
      skippedWays: 1,
      skippedRelations: 1,
      schedules: 3,
      badSchedules: 0,
      // every blob is OSMHeader or OSMData
      skippedBlobs: 0,
      // the roads: way 12 (highway=pedestrian) and the railway platform (walked), closed rings
      // whose first node is their only junction, one edge round each loop (17, highway=bus_stop,
      // is no road); no restrictions
      roadNodes: 2,
      roadEdges: 2,
      restrictions: 0,
      skippedRestrictions: 0,
      // no id repeats
      duplicates: 0,
    });
    expect(index.size).toBe(19);
  });
});

describe('tags in file order, not sorted; values keep their "|"', () => {
  it('node 1', () => {
    expect(one('cafe', 1, 0).tags).toEqual([
      'shop|bakery',
      'name|Zed',
      'amenity|cafe',
      'addr:street| Main ',
      'addr:housenumber|12',
      'addr:city|Main',
      'note|a|b|c',
    ]);
  });
});

describe('type of a merged type: the first member in tag order', () => {
  it('shop=bakery before amenity=cafe → eat answers bakery', () => {
    expect(one('eat', 1, 0).type).toBe('bakery');
    expect(all('eat').filter((r) => r.osmId === 1)).toHaveLength(1);
  });

  it('amenity=parking + parking=multi-storey', () => {
    expect(one('parking', 7, 0).type).toBe('parking');
    expect(one('multi-storey', 7, 0).type).toBe('multi-storey');
  });

  it('a place whose only value is yes has no type', () => {
    // no type of the data: nearby refuses them as unknown, and types() does not list them
    for (const type of ['yes', 'historic']) expect(() => all(type)).toThrow(/^type: unknown type/);
    expect(types(index).map((t) => t.type)).not.toContain('yes');
  });

  it('highway on a way makes no place; not a multipolygon makes no place', () => {
    expect(() => all('bus_stop')).toThrow(/^type: unknown type "bus_stop"/); // on a way only: no place has the type
    expect(
      all('school')
        .map((r) => r.osmId)
        .sort((a, b) => a - b),
    ).toEqual([10, 11, 16, 20, 21, 22, 25]);
  });
});

describe('address: in the contract order, trimmed, repeats dropped', () => {
  it('housenumber 12, street " Main ", city "Main" (a repeat), then the district and province around the node', () => {
    const r = one('cafe', 1, 0);
    // the grid lies east of Kathmandu: nepal-geojson, read here with turf, says which district
    const here = point([r.centroid.lon, r.centroid.lat]);
    const d = nepalGeojson.districts().features.find((f) => booleanPointInPolygon(here, polygon(f.geometry.coordinates)))!;
    expect(d.properties.DISTRICT).toBe('BHAKTAPUR');
    expect(d.properties.PROVINCE).toBe(3);
    expect(r.address).toBe('12, Main, Bhaktapur, Bagmati Province');
  });
});

describe('name falls back to name:en, then name:ne', () => {
  it('name:ne alone', () => expect(one('toilets', 2, 0).name).toBe('शौचालय'));
  it('name:en before name:ne', () => expect(one('toilets', 3, 0).name).toBe('Toilet'));
});

describe('placeId and osmId stay exact above 2^50', () => {
  it(`node ${BIG_ID}`, () => {
    const r = all('cafe').find((x) => x.name === 'Big')!;
    expect(r.osmId).toBe(BIG_ID);
    expect(r.placeId).toBe(2 ** 52 + 12);
    expect(Number.isSafeInteger(r.placeId)).toBe(true);
  });
});

describe('opening hours with explicit off days', () => {
  const cases: [number, string, boolean][] = [
    [4, '2026-01-21T12:00', false], // Mo-Su 08:00-20:00; We off — a Wednesday
    [4, '2026-01-22T12:00', true],
    [4, '2026-01-20T19:59', true],
    [4, '2026-01-20T20:00', false],
    [5, '2026-01-24T10:00', false], // Mo-Fr 09:00-17:00; Sa,Su off — a Saturday
    [5, '2026-01-23T10:00', true],
    [6, '2026-01-23T12:00', false], // 24/7; Fr off — a Friday
    [6, '2026-01-24T00:30', true],
    [6, '2026-01-22T23:00', true],
  ];
  for (const [id, wall, want] of cases) {
    it(`node ${id} at ${wall} NPT → ${want ? 'open' : 'closed'}`, () => {
      expect(one('cafe', id, 0, npt(wall)).open).toBe(want);
    });
  }
});

describe('geometry and centroid, by hand', () => {
  it("a clockwise way comes out counter-clockwise; centroid the square's middle", () => {
    const r = one('school', 10, 1);
    expect(r.geometry).toEqual({
      type: 'Polygon',
      coordinates: [[gridPos(20, 0), gridPos(21, 0), gridPos(21, 1), gridPos(20, 1), gridPos(20, 0)]],
    });
    expect(r.centroid).toEqual({ lon: 85.3205, lat: 27.7005 });
  });

  it('a closed way with area=no is a LineString, centroid by length', () => {
    const r = one('school', 11, 1);
    expect(r.geometry).toEqual({
      type: 'LineString',
      coordinates: [gridPos(30, 0), gridPos(31, 0), gridPos(31, 1), gridPos(30, 1), gridPos(30, 0)],
    });
    expect(r.centroid).toEqual({ lon: 85.3305, lat: 27.7005 });
  });

  it('area=yes makes a highway an area; a fence stays a line; a railway platform is an area', () => {
    expect(one('marketplace', 12, 1).geometry.type).toBe('Polygon');
    expect(one('park', 13, 1).geometry.type).toBe('LineString');
    expect(one('platform', 14, 1).geometry.type).toBe('Polygon');
  });

  it('an open way missing a node: the present nodes, midpoints weighted by local length', () => {
    const r = one('school', 16, 1);
    expect(r.geometry).toEqual({ type: 'LineString', coordinates: [gridPos(40, 0), gridPos(42, 0), gridPos(42, 1)] });
    // segments: 2 units east (length 2k, k = cos 27.7°), then 1 unit north (length 1)
    const k = Math.cos((27.7005 * Math.PI) / 180);
    const x = (41 * 2 * k + 42) / (2 * k + 1);
    const y = 0.5 / (2 * k + 1);
    expect(Math.abs(r.centroid.lon - (85.3 + x / 1000))).toBeLessThanOrEqual(0.6e-7);
    expect(Math.abs(r.centroid.lat - (27.7 + y / 1000))).toBeLessThanOrEqual(0.6e-7);
  });

  it('a multipolygon joined from two outer pieces with a hole: (16·2 − 1·1.5) / 15', () => {
    const r = one('school', 20, 2);
    expect(r.geometry.type).toBe('MultiPolygon');
    const polys = r.geometry.coordinates as [number, number][][][];
    expect(polys.length).toBe(1);
    expect(polys[0].length).toBe(2);
    const sorted = (ring: [number, number][]) =>
      ring
        .slice(0, -1)
        .map((p) => p.join())
        .sort();
    expect(sorted(polys[0][0])).toEqual([gridPos(0, 0), gridPos(4, 0), gridPos(4, 4), gridPos(0, 4)].map((p) => p.join()).sort());
    expect(sorted(polys[0][1])).toEqual([gridPos(1, 1), gridPos(2, 1), gridPos(2, 2), gridPos(1, 2)].map((p) => p.join()).sort());
    // 2.0333… units = 0.0020333…°, rounded to 1e-7
    expect(r.centroid).toEqual({ lon: 85.3020333, lat: 27.7020333 });
  });

  it('a multipolygon with two outers: area-weighted ((10.5·1 + 13·4) / 5, (0.5·1 + 1·4) / 5)', () => {
    const r = one('school', 21, 2);
    expect((r.geometry.coordinates as unknown[]).length).toBe(2);
    expect(r.centroid).toEqual({ lon: 85.3125, lat: 27.7009 });
  });

  it('a multipolygon with a piece that closes nothing: the ring alone', () => {
    const r = one('school', 25, 2);
    expect((r.geometry.coordinates as unknown[]).length).toBe(1);
    expect(r.centroid).toEqual({ lon: 85.3955, lat: 27.7005 });
  });

  it('a multipolygon missing a member: built from the rest', () => {
    const r = one('school', 22, 2);
    expect(r.geometry.type).toBe('MultiPolygon');
    expect(r.centroid).toEqual({ lon: 85.3805, lat: 27.7005 });
  });
});
