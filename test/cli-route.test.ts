/** `nepal-places route`: route() on the command line, as JSON or GeoJSON, with the one exit-code rule. */
import { describe, it, expect, beforeAll } from 'vitest';
import polyline from '@mapbox/polyline';
import { loadPbf, type PlaceIndex } from '../src/index.js';
import { route } from '../src/query/route.js';
import { cli } from './support/cli.js';
import { CORE_PBF } from './support/http-fixture.js';

const FROM = '27.7154,85.3123',
  VIA = '27.7060,85.3100',
  TO = '27.7090,85.3290';
let index: PlaceIndex;
beforeAll(async () => {
  index = await loadPbf(CORE_PBF);
}, 60_000);

describe('prints route() as JSON', () => {
  it('--from --via --to --mode car --instructions: the points in that order', async () => {
    const r = await cli('route', '--from', FROM, '--via', VIA, '--to', TO, '--mode', 'car', '--instructions');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(route(index, { points: [FROM, VIA, TO], mode: 'car', instructions: true }));
  }, 60_000);

  it("--geojson: one LineString per route, [lon, lat], the polyline's vertices", async () => {
    const r = await cli('route', '--from', FROM, '--to', TO, '--alternatives', '--geojson');
    expect(r.code, r.stderr).toBe(0);
    const fc = JSON.parse(r.stdout);
    const routes = route(index, { points: [FROM, TO], alternatives: true });
    expect(fc.type).toBe('FeatureCollection');
    expect(fc.features).toHaveLength(routes.length);
    fc.features.forEach((f: any, i: number) => {
      expect(f.geometry.type).toBe('LineString');
      expect(f.geometry.coordinates).toEqual(polyline.decode(routes[i]!.encodedPolyline, 5).map(([lat, lon]) => [lon, lat]));
      expect(f.properties.distanceInMeters).toBe(routes[i]!.distanceInMeters);
    });
  }, 60_000);
});

describe('exit codes: 2 bad usage, 1 no route', () => {
  it('a missing --to is usage (2)', async () => {
    const r = await cli('route', '--from', FROM);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--to is required/);
  });
  it('an unknown mode is a bad query (2), naming the parameter', async () => {
    const r = await cli('route', '--from', FROM, '--to', TO, '--mode', 'plane');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/mode: must be one of foot, bike, car/);
  });
  it('a point far from every road exits 1 naming it', async () => {
    const r = await cli('route', '--from', FROM, '--to', '27.76,85.36', '--mode', 'car');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/point 2 \(27\.76,85\.36\) is farther than 1 km/);
  }, 60_000);
});
