/**
 * nearby() with `by: 'time'`: the places reachable within `minutes`, each with its trip, equal to
 * ranking every candidate by its own route() time; "open when you arrive" on a hand-made street
 * with hand-made opening hours around the arrival instant; bad input naming the parameter.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPbf, nearby, type NearbyPlace, type PlaceIndex } from '../src/index.js';
import { route } from '../src/query/route.js';
import { MAX_MINUTES } from '../src/query/isochrone.js';
import { InvalidQueryError, RouteError } from '../src/errors.js';
import { PbfWriter } from '../scripts/pbf-writer.js';
import { engine, CENTER, ALL } from './support/fixture.js';

type Mode = 'foot' | 'car';

/** Every place of `type` in the fixture, with its prominence (score × (1 + km) of a distance query). */
function everyPlace(index: PlaceIndex, type: string): (NearbyPlace & { prom: number })[] {
  return nearby(index, { type, ...CENTER, radius: 20, limit: ALL }).map((r) => ({ ...r, prom: r.score * (1 + r.radialDistanceInKm) }));
}

describe('nearby by travel time equals ranking each candidate by its own route() time', () => {
  let index: PlaceIndex;
  beforeAll(async () => {
    index = await engine();
  });

  it.each<[Mode, string, number]>([
    ['car', 'eat', 4],
    ['foot', 'eat', 12],
    ['car', 'school', 6],
  ])('%s, %s, %i minutes: the same places, order and times (sortBy: travel time)', (mode, type, minutes) => {
    const T = minutes * 60_000;
    const expected: { id: number; ms: number; m: number }[] = [];
    for (const p of everyPlace(index, type)) {
      try {
        const [r] = route(index, {
          points: [
            [CENTER.lat, CENTER.lon],
            [p.centroid.lat, p.centroid.lon],
          ],
          mode,
        });
        if (r.timeInMs <= T) expected.push({ id: p.placeId, ms: r.timeInMs, m: r.distanceInMeters });
      } catch (err) {
        if (!(err instanceof RouteError)) throw err; // too far from a road, or no road joins: not reachable
      }
    }
    expected.sort((a, b) => a.ms - b.ms || a.id - b.id);
    const got = nearby(index, { type, ...CENTER, by: 'time', mode, minutes, sortBy: true, limit: ALL });
    expect(got.map((r) => [r.placeId, r.travelTimeInMs])).toEqual(expected.map((e) => [e.id, e.ms]));
    expect(expected.length).toBeGreaterThan(5);
    // distances: route()'s is its polyline's, rounded to 1e-5° a vertex (see test/matrix.test.ts)
    got.forEach((r, k) => expect(Math.abs(r.travelDistanceInMeters! - expected[k].m)).toBeLessThan(5 + 0.01 * expected[k].m));
    // fewer than all of them: the bound matters
    expect(expected.length).toBeLessThan(everyPlace(index, type).length);
  });

  it('by score: prominence / (1 + minutes / 5), best first, the limit applied after ranking', () => {
    const prom = new Map(everyPlace(index, 'eat').map((p) => [p.placeId, p.prom]));
    const all = nearby(index, { type: 'eat', ...CENTER, by: 'time', mode: 'foot', minutes: 10, limit: ALL });
    const expected = all
      .map((r) => ({ id: r.placeId, s: prom.get(r.placeId)! / (1 + r.travelTimeInMs! / 60_000 / 5) }))
      .sort((a, b) => b.s - a.s || a.id - b.id);
    expect(all.map((r) => r.placeId)).toEqual(expected.map((e) => e.id));
    all.forEach((r, k) => expect(r.score).toBeCloseTo(expected[k].s, 9));
    const top3 = nearby(index, { type: 'eat', ...CENTER, by: 'time', mode: 'foot', minutes: 10, limit: 3 });
    expect(top3.map((r) => r.placeId)).toEqual(expected.slice(0, 3).map((e) => e.id));
    // the straight-line distance is kept beside the trip
    for (const r of top3) expect(r.radialDistanceInKm).toBeGreaterThanOrEqual(0);
  });
});

/**
 * A hand-made street: one residential way running east from (27.7, 85.3), a node every 0.001°
 * of longitude (98.5 m), and two pharmacies on it, both open 10:00-20:00: `near` 2 nodes along
 * (197 m: 2.4 minutes on foot at 5 km/h), `far` 12 nodes along (1,182 m: 14.2 minutes).
 */
async function street(): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'nepal-places-street-')), 'street.osm.pbf');
  const w = new PbfWriter(file, { sorted: true });
  const lat = 277_000_000,
    lon = (i: number) => 853_000_000 + i * 10_000;
  for (let i = 0; i <= 20; i++) w.node({ id: 100 + i, lat, lon: lon(i) });
  const pharmacy = (id: number, i: number, name: string) =>
    w.node({
      id,
      lat,
      lon: lon(i),
      tags: [
        ['amenity', 'pharmacy'],
        ['name', name],
        ['opening_hours', 'Mo-Su 10:00-20:00'],
      ],
    });
  pharmacy(500, 2, 'Near');
  pharmacy(501, 12, 'Far');
  w.way({ id: 900, refs: Array.from({ length: 21 }, (_, i) => 100 + i), tags: [['highway', 'residential']] });
  await w.close();
  return file;
}

describe('open when you arrive: a place counts when it is open at `at` plus its travel time', () => {
  let index: PlaceIndex;
  const q = { type: 'pharmacy', lat: 27.7, lon: 85.3, by: 'time', mode: 'foot', minutes: 20, isOpen: true, sortBy: true } as const;
  const names = (at: string) => nearby(index, { ...q, at: new Date(at) }).map((r) => r.name);
  beforeAll(async () => {
    index = await loadPbf(await street(), { workers: 0 });
  });

  it('both reachable: 2.4 and 14.2 minutes on foot', () => {
    const all = nearby(index, { ...q, isOpen: false, at: new Date('2026-11-26T12:00:00+05:45') });
    expect(all.map((r) => r.name)).toEqual(['Near', 'Far']);
    expect(all[0].travelTimeInMs! / 60_000).toBeCloseTo((2 * 98.5) / (5000 / 60), 1);
    expect(all[1].travelTimeInMs! / 60_000).toBeCloseTo((12 * 98.5) / (5000 / 60), 1);
  });

  it('at 19:50 both are open now, but the far one closes before one gets there', () => {
    expect(
      nearby(index, { type: 'pharmacy', lat: 27.7, lon: 85.3, radius: 5, isOpen: true, at: new Date('2026-11-26T19:50:00+05:45') }),
    ).toHaveLength(2);
    expect(names('2026-11-26T19:50:00+05:45')).toEqual(['Near']);
    // ten minutes earlier one reaches it at 19:54
    expect(names('2026-11-26T19:40:00+05:45')).toEqual(['Near', 'Far']);
  });

  it('at 09:50 both are closed now, but the far one has opened by the time one gets there', () => {
    expect(names('2026-11-26T09:50:00+05:45')).toEqual(['Far']);
    // at 09:57:00 the near one opens on arrival (09:59:22 is still before 10:00): only later
    expect(names('2026-11-26T09:57:00+05:45')).toEqual(['Far']);
    expect(names('2026-11-26T09:58:00+05:45')).toEqual(['Near', 'Far']);
  });

  it('`open` in the record is the state on arrival', () => {
    const r = nearby(index, { ...q, isOpen: false, at: new Date('2026-11-26T19:50:00+05:45') });
    expect(r.map((x) => [x.name, x.open])).toEqual([
      ['Near', true],
      ['Far', false],
    ]);
  });
});

describe('bad input is an error naming the parameter', () => {
  let index: PlaceIndex;
  beforeAll(async () => {
    index = await engine();
  });
  const param = (query: object) => {
    try {
      nearby(index, { type: 'eat', ...CENTER, ...query } as never);
    } catch (e) {
      if (e instanceof InvalidQueryError) return e.param;
      if (e instanceof RouteError) return `RouteError ${e.problem}`;
      throw e;
    }
    return 'no error';
  };

  it('by, mode and minutes', () => {
    expect(param({ by: 'speed' })).toBe('by');
    expect(param({ by: 'time', mode: 'plane' })).toBe('mode');
    expect(param({ by: 'time', minutes: 0 })).toBe('minutes');
    expect(param({ by: 'time', mode: 'car', minutes: MAX_MINUTES.car + 1 })).toBe('minutes');
    expect(param({ by: 'time', minutes: [5, 10] })).toBe('minutes');
    expect(param({ by: 'time', minutes: 2.5 })).toBe('minutes');
  });

  it('mode or minutes without by: "time", radius with it', () => {
    expect(param({ mode: 'car' })).toBe('mode');
    expect(param({ minutes: 5 })).toBe('minutes');
    expect(param({ by: 'time', radius: 5 })).toBe('radius');
  });

  it('a point farther than 1 km from any road of the mode: RouteError too-far', () => {
    expect(param({ by: 'time', mode: 'car', lat: 27.74, lon: 85.36 })).toBe('RouteError too-far');
  });

  it('defaults: foot, 15 minutes; by "distance" is the plain nearby', () => {
    const a = nearby(index, { type: 'eat', ...CENTER, by: 'time', limit: ALL });
    const b = nearby(index, { type: 'eat', ...CENTER, by: 'time', mode: 'foot', minutes: 15, limit: ALL });
    expect(a).toEqual(b);
    expect(nearby(index, { type: 'eat', ...CENTER, by: 'distance' })).toEqual(nearby(index, { type: 'eat', ...CENTER }));
  });
});
