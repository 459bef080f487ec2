/**
 * The access tags of a way or a node, read per mode as routers read them: a hierarchy of
 * keys from the most general to the most specific, each also in a `:forward` / `:backward`
 * form; the most specific key with a value we know decides.
 */
import type { Get } from './tags.js';

/** The modes access is read for (route modes). */
export type AccessMode = 'foot' | 'bike' | 'car';

/** Direction along a way's node order (`forward`) or against it (`backward`). */
export type Direction = 'forward' | 'backward';

/** Per mode, the access keys from the most general to the most specific. */
export const ACCESS_KEYS: Readonly<Record<AccessMode, readonly string[]>> = {
  foot: ['access', 'foot'],
  bike: ['access', 'vehicle', 'bicycle'],
  car: ['access', 'vehicle', 'motor_vehicle', 'motorcar'],
};

/** Values that let the mode in. */
export const OPEN_VALUES: ReadonlySet<string> = new Set(['yes', 'permissive', 'designated', 'official']);
/** Values that let the mode in only to reach or leave a place there, never through. */
export const DESTINATION_VALUES: ReadonlySet<string> = new Set(['destination', 'customers']);
/**
 * Values that keep the mode out: closed, private, or open only to a use or vehicle class no
 * route mode is (`use_sidepath`: a bike must take the cycleway beside the road).
 */
export const CLOSED_VALUES: ReadonlySet<string> = new Set([
  'no',
  'private',
  'agricultural',
  'forestry',
  'psv',
  'bus',
  'military',
  'emergency',
  'delivery',
  'use_sidepath',
]);

/** What access tags say of a mode: open, destination only, or closed. */
export type Access = 'open' | 'destination' | 'closed';

/** What decided a mode's access: the value's meaning and the key that said it. */
export interface AccessTag {
  access: Access;
  key: string;
}

/** The meaning of one access value, or undefined for a value we do not know (ignored, as if not set). */
export function accessValue(v: string | undefined): Access | undefined {
  if (v === undefined) return undefined;
  if (OPEN_VALUES.has(v)) return 'open';
  if (DESTINATION_VALUES.has(v)) return 'destination';
  if (CLOSED_VALUES.has(v)) return 'closed';
  return undefined;
}

/**
 * What the access tags say of `mode` (in direction `dir`, if given): of the mode's keys,
 * the most specific with a known value decides, and at each key its `:forward`/`:backward`
 * form before the plain one. Undefined where no key says anything (the road class decides).
 */
export function accessOf(get: Get, mode: AccessMode, dir?: Direction): AccessTag | undefined {
  const keys = ACCESS_KEYS[mode];
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i];
    if (dir) {
      const a = accessValue(get(`${key}:${dir}`));
      if (a) return { access: a, key };
    }
    const a = accessValue(get(key));
    if (a) return { access: a, key };
  }
  return undefined;
}
