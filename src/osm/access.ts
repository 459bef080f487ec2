/**
 * The access tags of a way or a node, read per mode as routers read them: a hierarchy of
 * keys from the most general to the most specific, each also in a `:forward` / `:backward`
 * form; the most specific key with a value we know decides. The keys and values are the
 * profile's (src/osm/profiles.ts).
 */
import type { Access, ModeRules } from './profiles.js';
import type { Get } from './tags.js';

/** Direction along a way's node order (`forward`) or against it (`backward`). */
export type Direction = 'forward' | 'backward';

export type { Access } from './profiles.js';

/** What decided a mode's access: the value's meaning, the key that said it, and the value. */
export interface AccessTag {
  access: Access;
  key: string;
  value: string;
}

/**
 * What the access tags say of a mode (in direction `dir`, if given): of the profile's keys,
 * the most specific with a value the profile knows decides, and at each key its
 * `:forward`/`:backward` form before the plain one. Undefined where no key says anything (the
 * road class decides). A value the profile does not list is ignored, as if not set.
 */
export function accessOf(get: Get, rules: ModeRules, dir?: Direction): AccessTag | undefined {
  const keys = rules.accessKeys;
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i];
    if (dir) {
      const v = get(`${key}:${dir}`);
      const a = v === undefined ? undefined : rules.values.get(v);
      if (a) return { access: a, key, value: v! };
    }
    const v = get(key);
    const a = v === undefined ? undefined : rules.values.get(v);
    if (a) return { access: a, key, value: v! };
  }
  return undefined;
}
