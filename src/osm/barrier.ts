/**
 * Barriers and access tags on nodes: whether a mode may pass a node of a road.
 */
import { accessOf } from './access.js';
import type { ModeRules } from './profiles.js';
import type { Get } from './tags.js';

/**
 * Whether a mode may pass a road node with these tags: the node's access tags for the mode
 * decide where they say something (`yes`/`destination`…: passes, `no`/`private`…: blocked;
 * the same keys and values as on ways), else its `barrier`: the profile's `barriers` stop the
 * mode, any other value (gates, an unknown value) lets it pass rather than cut the network on
 * a typo.
 */
export function nodePasses(get: Get, rules: ModeRules): boolean {
  const a = accessOf(get, rules);
  if (a) return a.access !== 'closed';
  const b = get('barrier');
  return b === undefined || !rules.barriers.has(b);
}

/** Every key `nodePasses` may read under these modes' rules: `barrier` and the access keys. A node with none of them passes every mode. */
export function nodeRuleKeys(modes: readonly ModeRules[]): Set<string> {
  const keys = new Set(['barrier']);
  for (const r of modes) for (const k of r.accessKeys) keys.add(k);
  return keys;
}
