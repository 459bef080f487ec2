/**
 * Which roads each travel mode may use, in which direction, and how fast: the
 * tag rules of routing, read once per way at load.
 */

/** Travel modes, in the order of their bits in `ACCESS`. */
export const MODES = ['foot', 'bike', 'car'] as const;

/** A travel mode. */
export type Mode = (typeof MODES)[number];

/** Access bits of an edge: forward (along the way's node order) and backward, per mode. */
export const FOOT_FWD = 1, FOOT_BWD = 2, BIKE_FWD = 4, BIKE_BWD = 8, CAR_FWD = 16, CAR_BWD = 32;

/** The forward bit of mode `m` (its backward bit is twice it). */
export function forwardBit(m: number): number {
  return 1 << (2 * m);
}

/** Walking speed, km/h: foot routes are the shortest walking distance. */
export const FOOT_KMH = 5;
/** Cycling speed, km/h. */
export const BIKE_KMH = 15;

/**
 * Car speeds by `highway` class, km/h, before a `maxspeed` cap: typical free-flow
 * speeds on Nepal's roads, where a "primary" highway is often a two-lane road.
 */
export const CAR_KMH: Readonly<Record<string, number>> = {
  motorway: 90, motorway_link: 45,
  trunk: 85, trunk_link: 40,
  primary: 65, primary_link: 30,
  secondary: 55, secondary_link: 25,
  tertiary: 40, tertiary_link: 20,
  unclassified: 25, residential: 25, road: 20,
  service: 15, living_street: 10, track: 10,
};

// no mode goes here
const NOT_ROADS = new Set(['construction', 'proposed', 'planned', 'abandoned', 'razed', 'disused', 'bus_stop',
  'elevator', 'emergency_bay', 'rest_area', 'services', 'street_lamp', 'traffic_signals', 'crossing']);
// foot may use any other highway but these
const NO_FOOT = new Set(['motorway', 'motorway_link']);
// bikes may use these only where `bicycle` allows it
const BIKE_IF_ALLOWED = new Set(['footway', 'pedestrian', 'steps', 'path']);

const YES = new Set(['yes', 'designated', 'permissive']);
const NO = new Set(['no', 'private']);
// values of motorcar / motor_vehicle that shut ordinary cars out too
const NO_CAR = new Set(['no', 'private', 'agricultural', 'forestry']);

/** What a way's tags give routing: access bits (0: not routable) and the car speed. */
export interface RoadRules {
  access: number;
  /** km/h by car (0 where cars may not go). */
  carKmh: number;
}

/**
 * The access bits and car speed of a way from its tags (`get(key)` → value or
 * undefined). Rules (the README's table):
 * - foot: every highway but motorways (and non-roads); not `foot=no`, nor
 *   `access=no|private` unless `foot=yes|designated|permissive`; both directions.
 * - bike: as foot, minus footway/pedestrian/steps/path unless `bicycle` allows;
 *   not `bicycle=no`; one-ways obeyed unless `oneway:bicycle=no` or `cycleway=opposite*`.
 * - car: the classes of `CAR_KMH`; not where `access`, `motor_vehicle` or
 *   `motorcar` is `no`/`private`, unless a more specific key says `yes`/`destination`;
 *   one-ways from `oneway`, `junction=roundabout` and `highway=motorway`.
 */
export function roadRules(get: (key: string) => string | undefined): RoadRules {
  const hw = get('highway');
  if (!hw || NOT_ROADS.has(hw)) return { access: 0, carKmh: 0 };
  const access = get('access');
  const closed = access !== undefined && NO.has(access);
  const foot = get('foot');
  const bicycle = get('bicycle');
  let bits = 0;

  const footOk = !NO_FOOT.has(hw) && foot !== 'no' && (!closed || (foot !== undefined && YES.has(foot)));
  if (footOk) bits |= FOOT_FWD | FOOT_BWD;

  const bikeClass = !NO_FOOT.has(hw) && (!BIKE_IF_ALLOWED.has(hw) || (bicycle !== undefined && YES.has(bicycle)));
  const bikeOk = bikeClass && bicycle !== 'no' && (!closed || (bicycle !== undefined && YES.has(bicycle)));
  const dir = oneway(get, hw);
  if (bikeOk) {
    const cycleway = get('cycleway') ?? '';
    const contra = get('oneway:bicycle') === 'no' || cycleway.startsWith('opposite');
    bits |= dir === 0 || contra ? BIKE_FWD | BIKE_BWD : dir > 0 ? BIKE_FWD : BIKE_BWD;
  }

  let carKmh = 0;
  const base = CAR_KMH[hw];
  if (base !== undefined && carAllowed(get, closed)) {
    bits |= dir === 0 ? CAR_FWD | CAR_BWD : dir > 0 ? CAR_FWD : CAR_BWD;
    const cap = maxspeed(get('maxspeed'));
    carKmh = cap !== undefined && cap > 0 && cap < base ? cap : base;
  }
  return { access: bits, carKmh };
}

// The most specific of motorcar, motor_vehicle, access that is set decides.
function carAllowed(get: (key: string) => string | undefined, closed: boolean): boolean {
  for (const key of ['motorcar', 'motor_vehicle']) {
    const v = get(key);
    if (v === undefined) continue;
    if (NO_CAR.has(v)) return false;
    if (v === 'destination' || YES.has(v)) return true;
  }
  return !closed;
}

/** 1: one-way along the node order, -1: against it, 0: both ways. */
export function oneway(get: (key: string) => string | undefined, hw: string): number {
  const v = get('oneway');
  if (v === 'yes' || v === '1' || v === 'true') return 1;
  if (v === '-1' || v === 'reverse') return -1;
  if (v === 'no' || v === '0' || v === 'false') return 0;
  if (get('junction') === 'roundabout' || hw === 'motorway') return 1;
  return 0;
}

/** A `maxspeed` value in km/h (`50`, `50 km/h`, `30 mph`), or undefined when it is no number (`signals`, `none`). */
export function maxspeed(v: string | undefined): number | undefined {
  if (!v) return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(km\/h|kmh|kph|mph)?\s*$/i.exec(v);
  if (!m) return undefined;
  const n = Number(m[1]);
  return m[2]?.toLowerCase() === 'mph' ? n * 1.609344 : n;
}
