/**
 * Routing profiles as data, the motorbike mode, speeds by area, and the ways people walk that are
 * no highway (docs/routing.md, "Profiles" and "Speed model"). Each rule on a hand-made network of
 * straight ways between grid points (test/support/roads.ts): the expected route is the grid
 * points it passes and its time the lengths (haversine, by @turf/distance) over the speeds the
 * rule gives, worked out here from the documented numbers.
 */
import polyline from '@mapbox/polyline';
import distance from '@turf/distance';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildSnapshot,
  checkProfiles,
  DEFAULT_PROFILES,
  fromSnapshot,
  loadPbf,
  ProfileError,
  route,
  RouteError,
  type PlaceIndex,
} from '../src/index.js';
import { gridMetres, gridOf, latLon, type P } from './support/roads.js';
import { writeNet } from './support/grid-net.js';
import { engine } from './support/fixture.js';

/** The grid points a route passes, and the route. */
function go(index: PlaceIndex, mode: string, a: P, b: P) {
  const [r] = route(index, { points: [latLon(a), latLon(b)], mode: mode as 'car', instructions: true });
  return { pts: polyline.decode(r.encodedPolyline, 5).map(gridOf), r };
}

/** Milliseconds of `metres` at `kmh`. */
const ms = (metres: number, kmh: number) => (metres * 3600) / kmh;
const len = (pts: P[]) => pts.slice(1).reduce((s, p, i) => s + gridMetres(pts[i], p), 0);

describe('profiles are data: a document checked with errors naming the field, defaults for the modes it leaves out', () => {
  it('the shipped document checks, and every mode is in it', () => {
    const doc = checkProfiles(DEFAULT_PROFILES);
    expect(Object.keys(doc).sort()).toEqual(['bike', 'builtUp', 'car', 'foot', 'motorbike', 'version']);
  });
  it.each([
    [{ version: 2 }, 'version'],
    [{ version: 1, car: { ...DEFAULT_PROFILES.car, speeds: { primary: -5 } } }, 'car.speeds.primary'],
    [{ version: 1, car: { ...DEFAULT_PROFILES.car, speeds: { primary: 'fast' } } }, 'car.speeds.primary'],
    [{ version: 1, bike: { ...DEFAULT_PROFILES.bike, push: 'yes' } }, 'bike.push'],
    [{ version: 1, foot: { ...DEFAULT_PROFILES.foot, colour: 'red' } }, 'foot'],
    [{ version: 1, lorry: DEFAULT_PROFILES.car }, 'profiles'],
    [{ version: 1, car: { ...DEFAULT_PROFILES.car, values: { open: ['yes'], destination: [], closed: ['yes'] } } }, 'car.values.closed'],
    [{ version: 1, builtUp: { cellMetres: 1, minBuildings: 10 } }, 'builtUp.cellMetres'],
    ['{"version":1}', 'profiles'],
  ] as [unknown, string][])('case %# → ProfileError naming %s', (doc, field) => {
    let err: unknown;
    try {
      checkProfiles(doc);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ProfileError);
    expect((err as ProfileError).field).toBe(field);
    expect((err as Error).message).toContain(field);
  });
  it('loadPbf({ profiles }) with a bad document rejects with ProfileError before reading the file', async () => {
    await expect(loadPbf('/no/such/file.osm.pbf', { profiles: { version: 1, car: {} } })).rejects.toBeInstanceOf(ProfileError);
  });

  const road: P[] = [
    [0, 0],
    [10, 0],
  ];
  let file: string;
  beforeAll(async () => {
    file = await writeNet([{ id: 1, pts: road, tags: 'highway=residential' }]);
  });
  it("a user's car speeds (a fleet's measured ones) give the time; the modes it leaves out keep the shipped profiles", async () => {
    const fleet = { version: 1, car: { ...DEFAULT_PROFILES.car, speeds: { ...DEFAULT_PROFILES.car.speeds, residential: 40 } } };
    const index = await loadPbf(file, { profiles: fleet });
    const m = gridMetres(road[0], road[1]);
    expect(go(index, 'car', road[0], road[1]).r.timeInMs).toBe(Math.round(ms(m, 40)));
    expect(go(index, 'foot', road[0], road[1]).r.timeInMs).toBe(Math.round(ms(m, 5)));
    // and the shipped one: 25 km/h outside built-up areas
    const shipped = await loadPbf(file);
    expect(go(shipped, 'car', road[0], road[1]).r.timeInMs).toBe(Math.round(ms(m, 25)));
  });
  it('the snapshot records the profiles it was built with', async () => {
    const fleet = { version: 1, car: { ...DEFAULT_PROFILES.car, speeds: { ...DEFAULT_PROFILES.car.speeds, residential: 40 } } };
    const index = await loadPbf(file, { profiles: fleet });
    const back = fromSnapshot(buildSnapshot(index));
    expect(back.router!.graph.profiles).toEqual(checkProfiles(fleet));
    expect(go(back, 'car', road[0], road[1]).r.timeInMs).toBe(go(index, 'car', road[0], road[1]).r.timeInMs);
  });
});

describe('motorbike: the car roads plus track, path and bridleway where motorcycle=yes; its own keys and one-ways', () => {
  // each case: the straight way A (x,0) → B (x+2,0) under test, and a residential detour by (x,2) (x+2,2)
  const cases: [string, { car: 'S' | 'D' | 'F'; motorbike: 'S' | 'D' | 'F' }][] = [
    ['highway=path', { car: 'D', motorbike: 'D' }],
    ['highway=path motorcycle=yes', { car: 'D', motorbike: 'S' }],
    ['highway=bridleway motorcycle=designated', { car: 'D', motorbike: 'S' }],
    ['highway=footway motorcycle=yes', { car: 'D', motorbike: 'D' }],
    ['highway=track', { car: 'S', motorbike: 'S' }],
    ['highway=residential motorcycle=no', { car: 'S', motorbike: 'D' }],
    ['highway=residential motorcar=no', { car: 'D', motorbike: 'S' }],
    ['highway=residential motor_vehicle=no motorcycle=yes', { car: 'D', motorbike: 'S' }],
    ['highway=residential oneway=yes oneway:motorcycle=no', { car: 'F', motorbike: 'S' }],
    ['highway=residential oneway=yes', { car: 'F', motorbike: 'F' }],
  ];
  let index: PlaceIndex;
  beforeAll(async () => {
    index = await loadPbf(
      await writeNet(
        cases.flatMap(([tags], i) => {
          const x = 10 * i;
          return [
            { id: 100 + 2 * i, pts: [[x, 0] as P, [x + 1, 0] as P, [x + 2, 0] as P], tags },
            { id: 101 + 2 * i, pts: [[x, 0] as P, [x, 2] as P, [x + 2, 2] as P, [x + 2, 0] as P], tags: 'highway=residential' },
          ];
        }),
      ),
    );
  });
  it.each(cases.map(([tags, want], i) => [tags, want, i] as const))('%s → %j', (_, want, i) => {
    const x = 10 * i;
    const A: P = [x, 0],
      B: P = [x + 2, 0];
    for (const mode of ['car', 'motorbike'] as const) {
      const ab = go(index, mode, A, B).pts.length === 3,
        ba = go(index, mode, B, A).pts.length === 3;
      const got = ab && ba ? 'S' : ab ? 'F' : ba ? 'R' : 'D';
      expect(got, mode).toBe(want[mode]);
    }
  });
  it('motorcycle is a synonym of motorbike', () => {
    const a = route(index, { points: [latLon([10, 0]), latLon([12, 0])], mode: 'motorcycle' });
    const b = route(index, { points: [latLon([10, 0]), latLon([12, 0])], mode: 'motorbike' });
    expect(a).toEqual(b);
  });
  it("the motorbike's own speed table: 25 km/h on a residential road outside built-up areas, a path opened to it at 10", () => {
    const m = gridMetres([10, 0], [12, 0]);
    expect(go(index, 'motorbike', [10, 0], [12, 0]).r.timeInMs).toBe(Math.round(ms(m, 10)));
    expect(go(index, 'motorbike', [60, 0], [62, 0]).r.timeInMs).toBe(Math.round(ms(m, 25)));
  });
});

describe('speeds by area: built-up areas (dense buildings) are slower; class speeds capped by maxspeed and national limits', () => {
  const town: P[] = [
    [0, 0],
    [10, 0],
  ];
  const highway: P[] = [
    [0, 10],
    [20, 10],
  ];
  let index: PlaceIndex;
  beforeAll(async () => {
    index = await loadPbf(
      await writeNet(
        [
          { id: 1, pts: town, tags: 'highway=primary' },
          { id: 2, pts: highway, tags: 'highway=trunk' },
          {
            id: 3,
            pts: [
              [0, 20],
              [20, 20],
            ],
            tags: 'highway=trunk maxspeed=60',
          },
        ],
        // 120 buildings at the town road's midpoint: its cell is built up (100 or more)
        { buildings: [{ at: [5, 0], count: 120 }] },
      ),
    );
  });
  it('a primary road among 120 buildings: the built-up 22 km/h by car, 26 by motorbike', () => {
    const m = gridMetres(town[0], town[1]);
    expect(go(index, 'car', town[0], town[1]).r.timeInMs).toBe(Math.round(ms(m, 22)));
    expect(go(index, 'motorbike', town[0], town[1]).r.timeInMs).toBe(Math.round(ms(m, 26)));
  });
  it("a trunk road between towns: the class's 85 km/h capped at Nepal's 80 for cars, 50 for motorbikes", () => {
    const m = gridMetres(highway[0], highway[1]);
    expect(go(index, 'car', highway[0], highway[1]).r.timeInMs).toBe(Math.round(ms(m, 80)));
    expect(go(index, 'motorbike', highway[0], highway[1]).r.timeInMs).toBe(Math.round(ms(m, 50)));
  });
  it('maxspeed=60 caps a car below the limit, and leaves a motorbike at its 50', () => {
    const m = gridMetres([0, 20], [20, 20]);
    expect(go(index, 'car', [0, 20], [20, 20]).r.timeInMs).toBe(Math.round(ms(m, 60)));
    expect(go(index, 'motorbike', [0, 20], [20, 20]).r.timeInMs).toBe(Math.round(ms(m, 50)));
  });
});

describe('a 2-6 km car trip across central Kathmandu averages 15-25 km/h door to door (real fixture)', () => {
  let index: PlaceIndex;
  beforeAll(async () => {
    index = await engine();
  });
  // pairs across the core fixture (Thamel, Asan, New Road, Durbar Marg, Putalisadak, Dillibazar)
  it.each([
    [27.7154, 85.3123, 27.709, 85.329],
    [27.702, 85.305, 27.715, 85.335],
    [27.714, 85.303, 27.701, 85.32],
    [27.71, 85.31, 27.705, 85.338],
    [27.703, 85.312, 27.715, 85.325],
  ])('%s,%s → %s,%s', (a, b, c, d) => {
    const kmh = (mode: 'car' | 'motorbike') => {
      const [r] = route(index, {
        points: [
          [a, b],
          [c, d],
        ],
        mode,
      });
      expect(r.distanceInMeters).toBeGreaterThan(2000);
      expect(r.distanceInMeters).toBeLessThan(6000);
      return r.distanceInMeters / 1000 / (r.timeInMs / 3_600_000);
    };
    const car = kmh('car');
    expect(car).toBeGreaterThanOrEqual(15);
    expect(car).toBeLessThanOrEqual(25);
    // a motorbike threads the same traffic a little faster (an estimate: docs/routing.md)
    expect(kmh('motorbike')).toBeGreaterThanOrEqual(car);
  });
});

describe('bikes pushed: where riding is not allowed but walking is, at walking speed', () => {
  let index: PlaceIndex;
  const foot: P[] = [
    [0, 0],
    [3, 0],
  ];
  const oneway: P[] = [
    [0, 10],
    [3, 10],
  ];
  beforeAll(async () => {
    index = await loadPbf(
      await writeNet([
        { id: 1, pts: foot, tags: 'highway=footway' },
        { id: 2, pts: oneway, tags: 'highway=residential oneway=yes' },
        {
          id: 3,
          pts: [
            [0, 20],
            [3, 20],
          ],
          tags: 'highway=footway bicycle=no',
        },
        {
          id: 4,
          pts: [
            [0, 30],
            [3, 30],
          ],
          tags: 'highway=residential bicycle=dismount',
        },
      ]),
    );
  });
  it('along a footway: walked at 5 km/h', () => {
    expect(go(index, 'bike', foot[0], foot[1]).r.timeInMs).toBe(Math.round(ms(len(foot), 5)));
  });
  it('a one-way: ridden along it at 15 km/h, walked against it at 5', () => {
    expect(go(index, 'bike', oneway[0], oneway[1]).r.timeInMs).toBe(Math.round(ms(len(oneway), 15)));
    expect(go(index, 'bike', oneway[1], oneway[0]).r.timeInMs).toBe(Math.round(ms(len(oneway), 5)));
  });
  it('bicycle=dismount: walked', () => {
    expect(go(index, 'bike', [0, 30], [3, 30]).r.timeInMs).toBe(Math.round(ms(gridMetres([0, 30], [3, 30]), 5)));
  });
  it('bicycle=no: not even pushed', () => {
    expect(() => go(index, 'bike', [0, 20], [3, 20])).toThrow(RouteError);
  });
});

describe('places people walk that are no highway: squares walked across, platforms, ferries', () => {
  let index: PlaceIndex;
  // a square 4 x 4 units, entered by footways at the middle of its west and east sides
  const square: P[] = [
    [10, 0],
    [10, 2],
    [10, 4],
    [14, 4],
    [14, 2],
    [14, 0],
    [10, 0],
  ];
  beforeAll(async () => {
    index = await loadPbf(
      await writeNet([
        { id: 1, pts: square, tags: 'highway=pedestrian area=yes' },
        {
          id: 2,
          pts: [
            [8, 2],
            [10, 2],
          ],
          tags: 'highway=footway',
        },
        {
          id: 3,
          pts: [
            [14, 2],
            [16, 2],
          ],
          tags: 'highway=footway',
        },
        // the same square without area=yes: walked round
        { id: 4, pts: square.map(([x, y]) => [x, y + 10] as P), tags: 'highway=pedestrian' },
        {
          id: 5,
          pts: [
            [8, 12],
            [10, 12],
          ],
          tags: 'highway=footway',
        },
        {
          id: 6,
          pts: [
            [14, 12],
            [16, 12],
          ],
          tags: 'highway=footway',
        },
        // a platform joining two footways
        {
          id: 7,
          pts: [
            [0, 30],
            [2, 30],
          ],
          tags: 'highway=footway',
        },
        {
          id: 8,
          pts: [
            [2, 30],
            [4, 30],
          ],
          tags: 'railway=platform',
        },
        {
          id: 9,
          pts: [
            [4, 30],
            [6, 30],
          ],
          tags: 'highway=footway',
        },
        // ferries across a river: 30 minutes by duration; one without (5 km/h); one closed to cars
        {
          id: 10,
          pts: [
            [0, 40],
            [2, 40],
          ],
          tags: 'highway=residential',
        },
        {
          id: 11,
          pts: [
            [2, 40],
            [6, 40],
          ],
          tags: 'route=ferry duration=00:30',
        },
        {
          id: 12,
          pts: [
            [6, 40],
            [8, 40],
          ],
          tags: 'highway=residential',
        },
        {
          id: 13,
          pts: [
            [0, 50],
            [2, 50],
          ],
          tags: 'highway=residential',
        },
        {
          id: 14,
          pts: [
            [2, 50],
            [6, 50],
          ],
          tags: 'route=ferry',
        },
        {
          id: 15,
          pts: [
            [6, 50],
            [8, 50],
          ],
          tags: 'highway=residential',
        },
        {
          id: 16,
          pts: [
            [0, 60],
            [2, 60],
          ],
          tags: 'highway=residential',
        },
        {
          id: 17,
          pts: [
            [2, 60],
            [6, 60],
          ],
          tags: 'route=ferry motor_vehicle=no',
        },
        {
          id: 18,
          pts: [
            [6, 60],
            [8, 60],
          ],
          tags: 'highway=residential',
        },
      ]),
    );
  });
  it('a square (highway=pedestrian area=yes) is walked straight across, from one entrance to the other', () => {
    const { pts, r } = go(index, 'foot', [8, 2], [16, 2]);
    expect(pts).toEqual([
      [8, 2],
      [10, 2],
      [14, 2],
      [16, 2],
    ]);
    const [la, lo] = latLon([8, 2]),
      [lb, lob] = latLon([16, 2]);
    expect(r.distanceInMeters).toBeCloseTo(distance([lo, la], [lob, lb], { units: 'kilometers' }) * 1000, 0);
  });
  it('without area=yes the same outline is a loop, walked round', () => {
    const { pts } = go(index, 'foot', [8, 12], [16, 12]);
    expect(pts.length).toBeGreaterThan(4);
  });
  it('a platform (railway=platform) is walked; no car may use it', () => {
    const { pts, r } = go(index, 'foot', [0, 30], [6, 30]);
    expect(pts).toEqual([
      [0, 30],
      [2, 30],
      [4, 30],
      [6, 30],
    ]);
    expect(r.timeInMs).toBe(Math.round(ms(gridMetres([0, 30], [6, 30]), 5)));
    expect(() => go(index, 'car', [0, 30], [6, 30])).toThrow(RouteError);
  });
  it('a ferry with duration=00:30 takes 30 minutes by every mode that boards', () => {
    const road = gridMetres([0, 40], [2, 40]);
    for (const [mode, kmh] of [
      ['foot', 5],
      ['bike', 15],
      ['car', 25],
      ['motorbike', 25],
    ] as const) {
      const { r } = go(index, mode, [0, 40], [8, 40]);
      expect(r.timeInMs, mode).toBe(Math.round(ms(road, kmh)) * 2 + 1_800_000);
    }
  });
  it('a ferry without duration: 5 km/h', () => {
    const { r } = go(index, 'car', [0, 50], [8, 50]);
    expect(r.timeInMs).toBe(Math.round(ms(gridMetres([0, 50], [2, 50]), 25)) * 2 + Math.round(ms(gridMetres([2, 50], [6, 50]), 5)));
  });
  it('a ferry closed to motor vehicles carries walkers only', () => {
    expect(() => go(index, 'car', [0, 60], [8, 60])).toThrow(RouteError);
    expect(go(index, 'foot', [0, 60], [8, 60]).pts.length).toBe(4);
  });
});
