/**
 * `nepal-places nearby`: prints the JSON array of nearby() for its flags; a bad command
 * line prints one line on stderr and exits 2.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { nearby } from '../src/index.js';
import type { NearbyPlace, PlaceIndex } from '../src/index.js';
import { engine } from './support/fixture.js';
import { TRANSIT } from './support/raw.js';
import { cli, type Run } from './support/cli.js';

const FIELDS = ['placeId', 'osmId', 'license', 'name', 'address', 'type', 'centroid', 'tags', 'geometry', 'score', 'radialDistanceInKm', 'open'].sort();


let index: PlaceIndex;

beforeAll(async () => {
  index = await engine();
});

describe('nearby prints the JSON array of NearbyPlace', () => {
  it('the issue\'s example: --type cafe --lat 27.7172 --lon 85.3240', async () => {
    const r = await cli('nearby', '--type', 'cafe', '--lat', '27.7172', '--lon', '85.3240');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const got = JSON.parse(r.stdout) as NearbyPlace[];
    expect(Array.isArray(got)).toBe(true);
    expect(got.length).toBe(5);
    for (const p of got) {
      expect(Object.keys(p).sort()).toEqual(FIELDS);
      expect(p.type).toBe('cafe');
    }
    // the same places as the library, in the same order (open may differ: `at` is "now")
    const want = nearby(index, { type: 'cafe', lat: 27.7172, lon: 85.324 });
    const strip = (xs: NearbyPlace[]) => xs.map(({ open: _open, ...rest }) => rest);
    expect(strip(got)).toEqual(strip(want));
  });

  it('every flag: --radius --limit --sort-by --is-open --at', async () => {
    const at = '2026-01-18T19:30:00+05:45';
    const r = await cli('nearby', '--type', 'eat', '--lat', '27.7154', '--lon', '85.3123', '--radius', '2', '--limit', '7', '--sort-by', '--is-open', '--at', at);
    expect(r.code).toBe(0);
    const got = JSON.parse(r.stdout) as NearbyPlace[];
    expect(got).toEqual(nearby(index, { type: 'eat', lat: 27.7154, lon: 85.3123, radius: 2, limit: 7, sortBy: true, isOpen: true, at: new Date(at) }));
    expect(got.length).toBe(7);
    for (const p of got) expect(p.open).toBe(true);
  });

  it('--pbf reads another file', async () => {
    const r = await cli('nearby', '--type', 'bus_stop', '--lat', '27.7172', '--lon', '85.3240', '--limit', '3', '--sort-by', '--pbf', TRANSIT);
    expect(r.code).toBe(0);
    const got = JSON.parse(r.stdout) as NearbyPlace[];
    expect(got.length).toBe(3);
    for (const p of got) expect(p.type).toBe('bus_stop');
    const transit = await engine(TRANSIT);
    const want = nearby(transit, { type: 'bus_stop', lat: 27.7172, lon: 85.324, limit: 3, sortBy: true });
    expect(got.map((p) => p.placeId)).toEqual(want.map((p) => p.placeId));
  });

  it('an unknown type prints []', async () => {
    const r = await cli('nearby', '--type', 'no_such_type', '--lat', '27.7172', '--lon', '85.3240');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });
});

describe('bad arguments: one line on stderr, nothing on stdout, exit code 2', () => {
  const cases: [string, string[]][] = [
    ['missing --lat', ['--type', 'cafe', '--lon', '85.3240']],
    ['--lat abc', ['--type', 'cafe', '--lat', 'abc', '--lon', '85.3240']],
    ['--lat 91', ['--type', 'cafe', '--lat', '91', '--lon', '85.3240']],
    ['an unknown flag', ['--type', 'cafe', '--lat', '27.7172', '--lon', '85.3240', '--colour', 'red']],
    ['--radius 1.5', ['--type', 'cafe', '--lat', '27.7172', '--lon', '85.3240', '--radius', '1.5']],
    ['--limit x', ['--type', 'cafe', '--lat', '27.7172', '--lon', '85.3240', '--limit', 'x']],
    ['--at not-a-date', ['--type', 'cafe', '--lat', '27.7172', '--lon', '85.3240', '--at', 'not-a-date']],
  ];
  // each run costs a Node start-up: run them a few at a time up front
  const runs = new Map<string, Run>();
  beforeAll(async () => {
    const queue = [...cases];
    await Promise.all([0, 1, 2].map(async () => {
      for (let c = queue.shift(); c; c = queue.shift()) runs.set(c[0], await cli('nearby', ...c[1]));
    }));
  });

  for (const [name] of cases) {
    it(name, () => {
      const r = runs.get(name)!;
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.endsWith('\n')).toBe(true);
      expect(r.stderr.trimEnd().split('\n'), r.stderr).toHaveLength(1);
      expect(r.stderr.trim().length).toBeGreaterThan(10);
    });
  }

  it('an unknown command', async () => {
    const r = await cli('nearbyy', '--type', 'cafe');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('a --pbf that does not exist: one line naming the file, non-zero exit', async () => {
    const r = await cli('nearby', '--type', 'cafe', '--lat', '27.7172', '--lon', '85.3240', '--pbf', '/nonexistent/x.osm.pbf');
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('/nonexistent/x.osm.pbf');
  });
});
