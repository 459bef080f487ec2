/**
 * Which travel modes a turn restriction relation binds, and how: the tag rules of
 * `type=restriction`, read as OSRM's profiles read them.
 * - each vehicle mode reads its most specific `restriction:<key>` (car: `motorcar`,
 *   `motor_vehicle`, `vehicle`; motorbike: `motorcycle`, `motor_vehicle`, `vehicle`; bike:
 *   `bicycle`, `vehicle`), else `restriction`; walkers are bound by none;
 * - `except=` listing one of a mode's keys (`;`-separated) frees that mode;
 * - `no_*` bans the turn, `only_*` makes it the only one; `*_on_red` (`no_right_turn_on_red`,
 *   `no_turn_on_red`) forbids a turn on a red light only, which a router without signal phases
 *   cannot honour better than by allowing the turn: it binds no one.
 */
import type { Get } from './tags.js';

/** Kinds of a restriction. */
export const NO = 0,
  ONLY = 1;

/** The keys a mode's restrictions are tagged with, most specific first (none: the mode ignores restrictions). */
export const RESTRICTION_KEYS: Readonly<Record<string, readonly string[]>> = {
  foot: [],
  bike: ['bicycle', 'vehicle'],
  car: ['motorcar', 'motor_vehicle', 'vehicle'],
  motorbike: ['motorcycle', 'motor_vehicle', 'vehicle'],
};

/** What a restriction relation's tags say for the modes `modes` (names): per mode `NO`, `ONLY` or undefined (not bound); `unknown` when a value is neither. */
export function restrictionRules(get: Get, modes: readonly string[]): { kinds: (number | undefined)[]; unknown: boolean } {
  const except = new Set((get('except') ?? '').split(';').map((v) => v.trim()));
  let unknown = false;
  const kinds = modes.map((mode) => {
    const keys = RESTRICTION_KEYS[mode] ?? RESTRICTION_KEYS.car;
    if (keys.length === 0 || keys.some((k) => except.has(k))) return undefined;
    let value: string | undefined;
    for (const k of keys) if ((value = get(`restriction:${k}`)) !== undefined) break;
    value ??= get('restriction');
    if (value === undefined || value.endsWith('_on_red')) return undefined;
    if (value.startsWith('no_')) return NO;
    if (value.startsWith('only_')) return ONLY;
    unknown = true;
    return undefined;
  });
  return { kinds, unknown };
}
