/**
 * Nepal's district table, built from nepal-geojson at build time so that the package does not
 * depend on it at run time: the same districts, provinces and vertices, bit for bit, and so the
 * same district and province at any point as nepal-geojson read with turf.
 */
import { readFileSync } from 'node:fs';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { point, polygon } from '@turf/helpers';
import nepalGeojson from 'nepal-geojson';
import { describe, expect, it } from 'vitest';
import { geojsonDistricts } from '../scripts/districts.js';
import { nepalDistricts } from '../src/address/admin.js';
import { decodeDistricts, DISTRICTS_FILE, DistrictTableError, encodeDistricts, nepalDistrictTable } from '../src/address/districts.js';

const features = nepalGeojson.districts().features;

describe("the table holds nepal-geojson's districts exactly", () => {
  it('the built table: 77 districts, names, provinces and every coordinate as nepal-geojson has them', () => {
    const table = nepalDistrictTable();
    expect(table).toHaveLength(77);
    expect(table.map((d) => d.name)).toEqual(features.map((f) => f.properties.DISTRICT));
    expect(table.map((d) => d.province)).toEqual(features.map((f) => f.properties.PROVINCE));
    table.forEach((d, i) => {
      // Object.is on each number: -0 and 1e-7 differences would fail
      const want = features[i]!.geometry.coordinates.map((r) => r.flat());
      expect(d.rings.length).toBe(want.length);
      d.rings.forEach((r, k) => {
        expect(r.length).toBe(want[k]!.length);
        expect(r.every((v, j) => Object.is(v, want[k]![j]))).toBe(true);
      });
    });
  });

  it('is much smaller than the data it replaces', () => {
    const size = readFileSync(DISTRICTS_FILE).length;
    expect(size).toBeLessThan(JSON.stringify(features).length / 4);
  });

  it('an encoding round trip gives back the districts', () => {
    const districts = geojsonDistricts();
    expect(decodeDistricts(encodeDistricts(districts))).toEqual(districts);
  });
});

describe('district and province at a point: the same as nepal-geojson read with turf', () => {
  it("at 3,000 points over Nepal's box and one inside each district", async () => {
    const { districts, province } = await nepalDistricts();
    const polygons = features.map((f) => polygon(f.geometry.coordinates));
    const provinces = [
      'Koshi Province',
      'Madhesh Province',
      'Bagmati Province',
      'Gandaki Province',
      'Lumbini Province',
      'Karnali Province',
      'Sudurpashchim Province',
    ];
    // a fixed pseudo-random sequence (LCG): the same points on every run
    let seed = 12345;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const points: [number, number][] = [];
    for (let i = 0; i < 3000; i++) points.push([80 + 8.3 * rnd(), 26.3 + 4.2 * rnd()]);
    // the first vertex of each district nudged towards the district's vertex mean: near its edge, mostly inside
    for (const f of features) {
      const r = f.geometry.coordinates[0]!;
      const mx = r.reduce((s, p) => s + p[0]!, 0) / r.length,
        my = r.reduce((s, p) => s + p[1]!, 0) / r.length;
      points.push([r[0]![0]! + (mx - r[0]![0]!) * 0.01, r[0]![1]! + (my - r[0]![1]!) * 0.01]);
    }
    let inside = 0;
    for (const [lon, lat] of points) {
      const want = polygons.findIndex((p) => booleanPointInPolygon(point([lon, lat]), p));
      const got = districts.at(lon, lat);
      if (want < 0) {
        expect(got, `${lon},${lat}`).toEqual([]);
        continue;
      }
      inside++;
      const f = features[want]!;
      expect(got, `${lon},${lat}`).toEqual([want]);
      expect(districts.areas[want]!.name.toUpperCase()).toBe(f.properties.DISTRICT.replace(/_/g, ' '));
      expect(province[got[0]!]).toBe(provinces[f.properties.PROVINCE - 1]);
    }
    expect(inside).toBeGreaterThan(1000);
  });
});

describe('a table that is not one is refused with a DistrictTableError', () => {
  const good = encodeDistricts(geojsonDistricts().slice(0, 3));
  it.each([
    ['other bytes', new TextEncoder().encode('{"type":"FeatureCollection"}'), /not a district table/],
    ['another format', Uint8Array.from([...good.subarray(0, 4), 9, ...good.subarray(5)]), /format 9/],
    ['cut in its header', good.subarray(0, 20), /cut short in its header/],
    ['cut in its coordinates', good.subarray(0, good.length - 7), /cut short or padded/],
    ['padded', Uint8Array.from([...good, 1, 2]), /cut short or padded/],
  ])('%s', (_, bytes, message) => {
    expect(() => decodeDistricts(bytes, 'x.bin')).toThrow(DistrictTableError);
    expect(() => decodeDistricts(bytes, 'x.bin')).toThrow(message);
  });
});
