/**
 * Which roads each travel mode may use, in which direction, and how fast: the tag rules of
 * routing, read once per way at load from the profiles (src/osm/profiles.ts, a JSON document
 * of data). The tag rules themselves (what a road, access, a one-way and a barrier are) live
 * in `src/osm/`; this composes them.
 */
import { isRoad } from './road.js';
import { accessOf, type Access, type Direction } from './access.js';
import { onewayOf } from './oneway.js';
import type { ModeRules, Profiles } from './profiles.js';
import type { Get } from './tags.js';

export { MODES, MODE_SYNONYMS, type Mode } from './modes.js';

/** Access bits of an edge: forward (along the way's node order) and backward, per mode. */
export const FOOT_FWD = 1,
  FOOT_BWD = 2,
  BIKE_FWD = 4,
  BIKE_BWD = 8,
  CAR_FWD = 16,
  CAR_BWD = 32,
  MOTO_FWD = 64,
  MOTO_BWD = 128;

/** The forward bit of mode `m` (its backward bit is twice it). */
export function forwardBit(m: number): number {
  return 1 << (2 * m);
}

/** Classes of ways that are no `highway`: a ferry route (`route=ferry`) and a platform (`railway=platform`, `public_transport=platform`). */
export const FERRY = 'ferry',
  PLATFORM = 'platform';

/** What a way's tags give routing. */
export interface RoadRules {
  /** Access bits (0: not routable). */
  access: number;
  /** Per mode (bit `1 << m`): the mode may use the way only to reach or leave a place on it (`destination`, `customers`). */
  destination: number;
  /** A bike is walked (pushed, at walking speed) along the way (1) and against it (2). */
  push: number;
  /** The class speeds are looked up by: the `highway` value, `ferry` or `platform`. */
  kind: string;
  /** Per mode, km/h outside and inside built-up areas (0 where the mode may not use the way). */
  kmh: number[];
  builtUpKmh: number[];
  /** A ferry's `duration`, seconds (its speed is then its length over it), else undefined. */
  seconds: number | undefined;
  /** Walked across, not only round, where it is a closed way: `area=yes`, or a platform. */
  area: boolean;
  /** km/h by car outside built-up areas (0 where cars may not go). */
  carKmh: number;
}

const NONE: RoadRules = {
  access: 0,
  destination: 0,
  push: 0,
  kind: '',
  kmh: [],
  builtUpKmh: [],
  seconds: undefined,
  area: false,
  carKmh: 0,
};

/** The class of a way for routing: its `highway` value if a road, `ferry`, `platform`, or undefined. */
export function wayKind(get: Get): string | undefined {
  const hw = get('highway');
  if (hw !== undefined) return isRoad(hw) ? hw : undefined;
  if (get('route') === 'ferry') return FERRY;
  if (get('railway') === 'platform' || get('public_transport') === 'platform') return PLATFORM;
  return undefined;
}

/**
 * The access bits, speeds, destination-only modes and pushed directions of a way from its tags
 * (`get(key)` → value or undefined), by `profiles`. Rules (docs/routing.md, "Profiles"):
 * - a road: a `highway` value not in `NOT_ROADS` (src/osm/road.ts), a ferry, or a platform;
 * - each mode's default by class: the classes its `speeds` gives above 0 (`*`: any other
 *   `highway` value); `ifAllowed` classes only where the mode's own key (the last access key)
 *   opens them;
 * - then the access tags, per direction (src/osm/access.ts): the most specific key with a
 *   known value decides; a closing value shuts the mode out, an opening one lets it in;
 *   `destination`/`customers` let it in, marked destination-only;
 * - one-ways per mode (src/osm/oneway.ts); `oneway=reversible|alternating` closes the way to vehicles;
 * - a profile with `push` (bike) walks where it may not ride but a walker may go: a class it
 *   does not ride, `bicycle=dismount`, against a one-way;
 * - speeds: the class speed, inside built-up areas the `builtUpSpeeds` one, capped by a
 *   `maxspeed` and the profile's national `limits`.
 */
export function roadRules(get: Get, profiles: Profiles): RoadRules {
  const kind = wayKind(get);
  if (kind === undefined) return NONE;
  const special = kind === FERRY || kind === PLATFORM;
  let bits = 0,
    destination = 0,
    push = 0;
  const kmh: number[] = [],
    builtUpKmh: number[] = [];
  const cap = maxspeed(get('maxspeed'));
  const rules = profiles.modes;
  // per mode and direction, what a walker may do there (a bike pushed goes where a walker does)
  const foot = rules[0];
  const footDir = onewayOf(get, foot);
  const footClass = classSpeed(foot, kind, special);
  const footGoes = (dir: Direction) =>
    footDir !== null && (dir === 'forward' ? footDir >= 0 : footDir <= 0) && modeAccess(get, foot, footClass, dir).access !== 'closed';
  rules.forEach((r, m) => {
    const byClass = classSpeed(r, kind, special);
    const allowed = r.ifAllowed.get(kind);
    let speed = 0;
    const dir = onewayOf(get, r);
    const fwd = forwardBit(m);
    for (const d of ['forward', 'backward'] as const) {
      const along = d === 'forward' ? dir !== null && dir >= 0 : dir !== null && dir <= 0;
      const a = byClass > 0 || allowed !== undefined ? modeAccess(get, r, byClass, d) : { access: 'closed' as Access, why: 'class' };
      const bit = d === 'forward' ? fwd : fwd << 1;
      if (along && a.access !== 'closed') {
        bits |= bit;
        if (a.access === 'destination') destination |= 1 << m;
        speed = byClass > 0 ? byClass : allowed!;
      } else if (r.push && !(a.access === 'closed' && a.why === 'tag') && footGoes(d)) {
        // walked where riding is not allowed but walking is (not where a tag closes the way to bikes)
        bits |= bit;
        push |= d === 'forward' ? 1 : 2;
        if (modeAccess(get, foot, footClass, d).access === 'destination') destination |= 1 << m;
      }
    }
    if (!(bits & (fwd * 3))) {
      kmh.push(0);
      builtUpKmh.push(0);
      return;
    }
    // a way only pushed along: the walking speed
    if (speed === 0) speed = footClass || foot.ifAllowed.get(kind) || 0;
    if (kind === FERRY) {
      kmh.push(speed);
      builtUpKmh.push(speed);
      return;
    }
    const limit = (v: number, l: number | null) => Math.min(v, r.maxspeed && cap !== undefined && cap > 0 ? cap : Infinity, l ?? Infinity);
    kmh.push(limit(speed, r.limits.rural));
    builtUpKmh.push(limit(r.builtUpSpeeds.get(kind) ?? speed, r.limits.builtUp));
  });
  const area = kind === PLATFORM ? get('area') !== 'no' : get('area') === 'yes';
  return {
    access: bits,
    destination,
    push,
    kind,
    kmh,
    builtUpKmh,
    seconds: kind === FERRY ? duration(get('duration')) : undefined,
    area,
    carKmh: kmh[2] ?? 0,
  };
}

/**
 * Every key `roadRules` may read under `profiles`: the class keys, `maxspeed`, `area`,
 * `duration`, `junction`, `cycleway`, each mode's access keys (and their `:forward` /
 * `:backward` forms) and one-way keys. Ways alike in these tags get the same rules, so a
 * caller may compute them once per distinct set.
 */
export function roadRuleKeys(profiles: Profiles): Set<string> {
  const keys = new Set(['highway', 'route', 'railway', 'public_transport', 'maxspeed', 'area', 'duration', 'junction', 'cycleway']);
  for (const r of profiles.modes) {
    for (const k of r.accessKeys) for (const key of [k, `${k}:forward`, `${k}:backward`]) keys.add(key);
    for (const k of r.oneway.keys) keys.add(k);
  }
  return keys;
}

// The km/h a mode uses a class at by default (0: it does not); `*` stands for any other highway value.
function classSpeed(r: ModeRules, kind: string, special: boolean): number {
  return r.speeds.get(kind) ?? (special ? 0 : (r.speeds.get('*') ?? 0));
}

// A mode's access one way along a way: its class default, then what the access tags say; and
// why it is closed ('class': the class, or a key that may not open it; 'tag': a closing value).
function modeAccess(get: Get, r: ModeRules, byClass: number, dir: Direction): { access: Access; why: 'class' | 'tag' } {
  const a = accessOf(get, r, dir);
  if (!a) return { access: byClass > 0 ? 'open' : 'closed', why: 'class' };
  // `dismount`: closed to riding, open to walking it
  if (a.access === 'closed') return { access: 'closed', why: a.value === 'dismount' ? 'class' : 'tag' };
  if (byClass > 0 || a.key === r.accessKeys[r.accessKeys.length - 1]) return { access: a.access, why: 'tag' };
  return { access: 'closed', why: 'class' };
}

/** A `maxspeed` value in km/h (`50`, `50 km/h`, `30 mph`), or undefined when it is no number (`signals`, `none`). */
export function maxspeed(v: string | undefined): number | undefined {
  if (!v) return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(km\/h|kmh|kph|mph)?\s*$/i.exec(v);
  if (!m) return undefined;
  const n = Number(m[1]);
  return m[2]?.toLowerCase() === 'mph' ? n * 1.609344 : n;
}

/**
 * A `duration` in seconds: `HH:MM`, `HH:MM:SS`, a number of minutes, or ISO 8601 (`PT1H30M`);
 * undefined for anything else or for no time at all.
 */
export function duration(v: string | undefined): number | undefined {
  if (!v) return undefined;
  let s: number | undefined;
  const clock = /^\s*(\d+):([0-5]?\d)(?::([0-5]?\d))?\s*$/.exec(v);
  if (clock) s = Number(clock[1]) * 3600 + Number(clock[2]) * 60 + Number(clock[3] ?? 0);
  else if (/^\s*\d+(\.\d+)?\s*$/.test(v)) s = Number(v) * 60;
  else {
    const iso = /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(v.trim());
    if (iso && v.trim() !== 'P' && !v.trim().endsWith('T'))
      s = Number(iso[1] ?? 0) * 86400 + Number(iso[2] ?? 0) * 3600 + Number(iso[3] ?? 0) * 60 + Number(iso[4] ?? 0);
  }
  return s !== undefined && s > 0 && Number.isFinite(s) ? s : undefined;
}
