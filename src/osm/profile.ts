/**
 * Which roads each travel mode may use, in which direction, and how fast: the
 * tag rules of routing, read once per way at load. The tag rules themselves (what a
 * road, access, a one-way and a barrier are) live in `src/osm/`; this composes them.
 */
import { isRoad } from './road.js';
import { accessOf, type Access, type Direction } from './access.js';
import { onewayOf } from './oneway.js';
import type { Get } from './tags.js';

/** Travel modes, in the order of their bits in `ACCESS`. */
export const MODES = ['foot', 'bike', 'car'] as const;

/** A travel mode. */
export type Mode = (typeof MODES)[number];

/** Access bits of an edge: forward (along the way's node order) and backward, per mode. */
export const FOOT_FWD = 1,
  FOOT_BWD = 2,
  BIKE_FWD = 4,
  BIKE_BWD = 8,
  CAR_FWD = 16,
  CAR_BWD = 32;

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
  motorway: 90,
  motorway_link: 45,
  trunk: 85,
  trunk_link: 40,
  primary: 65,
  primary_link: 30,
  secondary: 55,
  secondary_link: 25,
  tertiary: 40,
  tertiary_link: 20,
  unclassified: 25,
  residential: 25,
  road: 20,
  service: 15,
  living_street: 10,
  track: 10,
};

// foot may use any road but these, unless `foot` itself opens them
const NO_FOOT = new Set(['motorway', 'motorway_link']);
// bikes may use these only where `bicycle` opens them
const BIKE_IF_ALLOWED = new Set(['footway', 'pedestrian', 'steps', 'path']);
// the key of each mode's own access tag: the one key that may open a class the mode may not use by default
const OWN_KEY: Readonly<Record<Mode, string>> = { foot: 'foot', bike: 'bicycle', car: 'motorcar' };

/** What a way's tags give routing. */
export interface RoadRules {
  /** Access bits (0: not routable). */
  access: number;
  /** km/h by car (0 where cars may not go). */
  carKmh: number;
  /** Per mode (bit `1 << m`): the mode may use the way only to reach or leave a place on it (`destination`, `customers`). */
  destination: number;
}

/**
 * The access bits, car speed and destination-only modes of a way from its tags (`get(key)` →
 * value or undefined). Rules (the README's profile tables):
 * - a road: a `highway` value not in `NOT_ROADS` (src/osm/road.ts);
 * - each mode's default by class: foot every road but motorways; bike as foot minus
 *   footway/pedestrian/steps/path; car the classes of `CAR_KMH`;
 * - then the access tags, per direction (src/osm/access.ts): the most specific key with a
 *   known value decides; a closing value shuts the mode out, an opening one lets it in (on a
 *   class closed to it by default only the mode's own key, `foot` or `bicycle`, opens it);
 *   `destination`/`customers` let it in, marked destination-only;
 * - one-ways per mode (src/osm/oneway.ts); `oneway=reversible|alternating` closes the way to vehicles.
 */
export function roadRules(get: Get): RoadRules {
  const hw = get('highway');
  if (!isRoad(hw)) return { access: 0, carKmh: 0, destination: 0 };
  const base = CAR_KMH[hw];
  const byClass: Record<Mode, boolean> = {
    foot: !NO_FOOT.has(hw),
    bike: !NO_FOOT.has(hw) && !BIKE_IF_ALLOWED.has(hw),
    car: base !== undefined,
  };
  let bits = 0,
    destination = 0;
  MODES.forEach((mode, m) => {
    // cars need a speed: no tag opens a class without one
    if (mode === 'car' && base === undefined) return;
    const dir = onewayOf(get, mode);
    if (dir === null) return;
    const fwd = forwardBit(m);
    if (dir >= 0) {
      const a = modeAccess(get, mode, byClass[mode], 'forward');
      if (a !== 'closed') bits |= fwd;
      if (a === 'destination') destination |= 1 << m;
    }
    if (dir <= 0) {
      const a = modeAccess(get, mode, byClass[mode], 'backward');
      if (a !== 'closed') bits |= fwd << 1;
      if (a === 'destination') destination |= 1 << m;
    }
  });
  let carKmh = 0;
  if (bits & (CAR_FWD | CAR_BWD)) {
    const cap = maxspeed(get('maxspeed'));
    carKmh = cap !== undefined && cap > 0 && cap < base ? cap : base;
  }
  return { access: bits, carKmh, destination };
}

// A mode's access one way along a way: its class default, then what the access tags say.
function modeAccess(get: Get, mode: Mode, byClass: boolean, dir: Direction): Access {
  const a = accessOf(get, mode, dir);
  if (!a) return byClass ? 'open' : 'closed';
  if (a.access === 'closed' || byClass) return a.access;
  return a.key === OWN_KEY[mode] ? a.access : 'closed';
}

/** A `maxspeed` value in km/h (`50`, `50 km/h`, `30 mph`), or undefined when it is no number (`signals`, `none`). */
export function maxspeed(v: string | undefined): number | undefined {
  if (!v) return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(km\/h|kmh|kph|mph)?\s*$/i.exec(v);
  if (!m) return undefined;
  const n = Number(m[1]);
  return m[2]?.toLowerCase() === 'mph' ? n * 1.609344 : n;
}
