/**
 * Barriers and access tags on nodes: whether a mode may pass a node of a road.
 */
import { accessOf, type AccessMode } from './access.js';
import type { Get } from './tags.js';

/** Barriers every mode passes unless the node's access tags close them (gates open to all by default). */
export const OPEN_BARRIERS: ReadonlySet<string> = new Set([
  'gate',
  'lift_gate',
  'swing_gate',
  'sliding_gate',
  'hampshire_gate',
  'entrance',
  'toll_booth',
  'border_control',
  'cattle_grid',
  'height_restrictor',
  'kerb',
  'sally_port',
  'no',
]);
/** Barriers that stop cars but let walkers and bikes by. */
export const NO_CAR_BARRIERS: ReadonlySet<string> = new Set([
  'bollard',
  'block',
  'cycle_barrier',
  'chain',
  'motorcycle_barrier',
  'jersey_barrier',
  'log',
]);
/** Barriers only a walker passes. */
export const FOOT_BARRIERS: ReadonlySet<string> = new Set(['kissing_gate', 'stile', 'turnstile', 'full-height_turnstile', 'step_over']);
/** Barriers no one passes. */
export const CLOSED_BARRIERS: ReadonlySet<string> = new Set([
  'wall',
  'fence',
  'hedge',
  'retaining_wall',
  'city_wall',
  'guard_rail',
  'ditch',
]);

/** What a barrier lets through by default, before the node's access tags. */
function barrierPasses(barrier: string | undefined, mode: AccessMode): boolean {
  if (barrier === undefined || OPEN_BARRIERS.has(barrier)) return true;
  if (CLOSED_BARRIERS.has(barrier)) return false;
  if (FOOT_BARRIERS.has(barrier)) return mode === 'foot';
  if (NO_CAR_BARRIERS.has(barrier)) return mode !== 'car';
  // an unknown barrier value: assume passable rather than cut the network on a typo
  return true;
}

/**
 * Whether `mode` may pass a road node with these tags: the node's access tags for the mode
 * decide where they say something (`yes`/`destination`…: passes, `no`/`private`…: blocked;
 * the same keys and values as on ways), else its `barrier`'s default.
 */
export function nodePasses(get: Get, mode: AccessMode): boolean {
  const a = accessOf(get, mode);
  if (a) return a.access !== 'closed';
  return barrierPasses(get('barrier'), mode);
}
