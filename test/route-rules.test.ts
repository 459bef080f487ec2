/**
 * The tag rules of routing (issue 11, §2), one way's tags at a time: which modes may use a
 * way, in which directions, and a car's speed. `roadRules` (src/osm/profile.ts) against the
 * rules written again from the issue (test/support/roads-raw.ts) on every highway way of both
 * fixtures, and against hand-written cases for the tags the fixtures lack.
 */
import { describe, expect, it } from 'vitest';
import { BIKE_BWD, BIKE_FWD, CAR_BWD, CAR_FWD, FOOT_BWD, FOOT_FWD, roadRules } from '../src/osm/profile.js';
import { DEFAULTS } from '../src/osm/profiles.js';
import { CORE, TRANSIT, readRaw, tag, type RawTag } from './support/raw.js';
import { bikeOk, bikeOneway, carKmh, carOk, carOneway, footOk } from './support/roads-raw.js';

type Dir = 'both' | 'fwd' | 'bwd' | 'none';

/** What roadRules gives a tag list: per mode the directions (a bike's where it is ridden, not pushed), and the car km/h outside built-up areas. */
function rules(tags: RawTag[]): { foot: Dir; bike: Dir; car: Dir; kmh: number } {
  const r = roadRules((k) => tag(tags, k), DEFAULTS);
  const bits = r.access & ~((r.push & 1 ? BIKE_FWD : 0) | (r.push & 2 ? BIKE_BWD : 0));
  const dir = (f: number, b: number): Dir => (bits & f ? (bits & b ? 'both' : 'fwd') : bits & b ? 'bwd' : 'none');
  return { foot: dir(FOOT_FWD, FOOT_BWD), bike: dir(BIKE_FWD, BIKE_BWD), car: dir(CAR_FWD, CAR_BWD), kmh: r.carKmh };
}

/** The same from the rules. */
function spec(tags: RawTag[]): { foot: Dir; bike: Dir; car: Dir; kmh: number } {
  const dir = (ok: boolean, d: number): Dir => (!ok ? 'none' : d === 0 ? 'both' : d > 0 ? 'fwd' : 'bwd');
  return {
    foot: footOk(tags) ? 'both' : 'none',
    bike: dir(bikeOk(tags), bikeOneway(tags)),
    car: dir(carOk(tags), carOneway(tags)),
    kmh: carOk(tags) ? carKmh(tags) : 0,
  };
}

const t = (s: string): RawTag[] => s.split(' ').map((kv) => kv.split('=') as RawTag);

describe.each([
  ['core', CORE],
  ['transit', TRANSIT],
])("every highway way of the %s fixture gets the issue's rules", (_, file) => {
  it('foot, bike and car access and directions, and the car speed', async () => {
    const raw = await readRaw(file);
    const bad: string[] = [];
    let ways = 0;
    for (const w of raw.ways) {
      if (!tag(w.tags, 'highway')) continue;
      ways++;
      const a = rules(w.tags),
        b = spec(w.tags);
      if (JSON.stringify(a) !== JSON.stringify(b))
        bad.push(`way ${w.id} ${JSON.stringify(w.tags)}: ${JSON.stringify(a)} ≠ ${JSON.stringify(b)}`);
    }
    expect(ways).toBeGreaterThan(100);
    expect(bad).toEqual([]);
  });
});

describe('foot: every highway but motorways, construction and proposed; not foot=no; access=no|private only with foot=yes|designated|permissive', () => {
  it.each([
    ['highway=residential', 'both'],
    ['highway=footway', 'both'],
    ['highway=steps', 'both'],
    ['highway=path', 'both'],
    ['highway=trunk oneway=yes', 'both'],
    ['highway=primary junction=roundabout', 'both'],
    ['highway=motorway', 'none'],
    ['highway=motorway_link', 'none'],
    ['highway=construction', 'none'],
    ['highway=proposed', 'none'],
    ['highway=residential foot=no', 'none'],
    ['highway=service access=private', 'none'],
    ['highway=service access=no', 'none'],
    ['highway=service access=private foot=yes', 'both'],
    ['highway=service access=no foot=designated', 'both'],
    ['highway=service access=private foot=permissive', 'both'],
    ['highway=service access=customers', 'both'],
  ] as [string, Dir][])('%s → %s', (tags, expected) => {
    expect(rules(t(tags)).foot).toBe(expected);
  });

  // Fixed defect (found by this test): the list of non-roads (now src/osm/road.ts's NOT_ROADS) shut foot out of highway=platform and
  // highway=corridor too, which the issue's rule keeps ("every highway except motorway,
  // motorway_link, construction, proposed") and which are built for walking.
  it.each([['highway=platform'], ['highway=corridor']])('%s → both (walkable ways the issue does not exclude)', (tags) => {
    expect(rules(t(tags)).foot).toBe('both');
  });
});

describe('bike: as foot without footway/pedestrian/steps/path unless bicycle allows; never bicycle=no; one-ways unless oneway:bicycle=no or cycleway=opposite*', () => {
  it.each([
    ['highway=residential', 'both'],
    ['highway=cycleway', 'both'],
    ['highway=footway', 'none'],
    ['highway=pedestrian', 'none'],
    ['highway=steps', 'none'],
    ['highway=path', 'none'],
    ['highway=footway bicycle=yes', 'both'],
    ['highway=path bicycle=designated', 'both'],
    ['highway=pedestrian bicycle=permissive', 'both'],
    ['highway=residential bicycle=no', 'none'],
    ['highway=motorway', 'none'],
    ['highway=residential oneway=yes', 'fwd'],
    ['highway=residential oneway=-1', 'bwd'],
    ['highway=primary junction=roundabout', 'fwd'],
    ['highway=residential oneway=yes oneway:bicycle=no', 'both'],
    ['highway=residential oneway=yes cycleway=opposite_lane', 'both'],
    ['highway=residential oneway=yes cycleway=opposite', 'both'],
    ['highway=residential oneway=yes cycleway=lane', 'fwd'],
    ['highway=service access=private', 'none'],
    ['highway=service access=private bicycle=yes', 'both'],
  ] as [string, Dir][])('%s → %s', (tags, expected) => {
    expect(rules(t(tags)).bike).toBe(expected);
  });
});

describe('car: the road classes, access by the most specific key, one-ways, speed by class capped by maxspeed', () => {
  it.each([
    ['highway=motorway', 'fwd'],
    ['highway=motorway oneway=no', 'both'],
    ['highway=trunk_link', 'both'],
    ['highway=road', 'both'],
    ['highway=track', 'both'],
    ['highway=living_street', 'both'],
    ['highway=footway', 'none'],
    ['highway=path', 'none'],
    ['highway=cycleway', 'none'],
    ['highway=pedestrian', 'none'],
    ['highway=steps', 'none'],
    ['highway=residential oneway=yes', 'fwd'],
    ['highway=residential oneway=1', 'fwd'],
    ['highway=residential oneway=true', 'fwd'],
    ['highway=residential oneway=-1', 'bwd'],
    ['highway=residential oneway=no', 'both'],
    ['highway=tertiary junction=roundabout', 'fwd'],
    ['highway=tertiary junction=roundabout oneway=no', 'both'],
    ['highway=service access=no', 'none'],
    ['highway=service access=private', 'none'],
    ['highway=service motor_vehicle=no', 'none'],
    ['highway=service motorcar=private', 'none'],
    ['highway=service access=private motorcar=yes', 'both'],
    ['highway=service access=private motor_vehicle=destination', 'both'],
    ['highway=service motor_vehicle=no motorcar=yes', 'both'],
    ['highway=service access=yes motorcar=no', 'none'],
    ['highway=service access=customers', 'both'],
  ] as [string, Dir][])('%s → %s', (tags, expected) => {
    expect(rules(t(tags)).car).toBe(expected);
  });

  it.each([
    // the class speeds above Nepal's national limit for cars, 80 km/h, are capped by it
    ['highway=motorway', 80],
    ['highway=trunk', 80],
    ['highway=primary', 65],
    ['highway=secondary', 55],
    ['highway=tertiary', 40],
    ['highway=unclassified', 25],
    ['highway=residential', 25],
    ['highway=service', 15],
    ['highway=living_street', 10],
    ['highway=track', 10],
    ['highway=primary maxspeed=50', 50],
    ['highway=primary maxspeed=50~km/h', 50],
    ['highway=primary maxspeed=30~mph', 30 * 1.609344],
    ['highway=residential maxspeed=80', 25],
    ['highway=primary maxspeed=signals', 65],
    ['highway=primary maxspeed=none', 65],
    ['highway=footway', 0],
  ] as [string, number][])('%s → %s km/h', (tags, kmh) => {
    // "50~km/h": a space in the value, written so that the table splits on spaces
    expect(rules(t(tags).map(([k, v]) => [k, v.replace('~', ' ')] as RawTag)).kmh).toBeCloseTo(kmh, 9);
  });
});

describe('destination-only: the modes whose deciding access value is destination or customers, in a direction they may go', () => {
  const modes = (s: string): string[] => {
    const d = roadRules((k) => tag(t(s), k), DEFAULTS).destination;
    return ['foot', 'bike', 'car'].filter((_, m) => d & (1 << m));
  };
  it.each([
    ['highway=service access=destination', ['foot', 'bike', 'car']],
    ['highway=service access=customers', ['foot', 'bike', 'car']],
    ['highway=service motor_vehicle=destination', ['car']],
    ['highway=service access=destination foot=yes', ['bike', 'car']],
    ['highway=service access=destination motorcar=no', ['foot', 'bike']],
    // a bike is pushed where a walker may go: destination-only as the walker is
    ['highway=footway access=customers', ['foot', 'bike']],
    ['highway=footway bicycle=no access=customers', ['foot']],
    ['highway=service motorcar:backward=destination', ['car']],
    ['highway=service oneway=yes motorcar:backward=destination', []],
    ['highway=service access=delivery', []],
    ['highway=service', []],
  ] as [string, string[]][])('%s → %j', (tags, expected) => {
    expect(modes(tags)).toEqual(expected);
  });
});
