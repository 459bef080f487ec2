/**
 * One-way roads per mode: `oneway` for vehicles, its mode-specific forms, the one-ways a
 * road's kind implies, and contraflow cycle lanes. The keys are the profile's.
 */
import { isRoundabout } from './road.js';
import type { ModeRules } from './profiles.js';
import type { Get } from './tags.js';

/** 1: one-way along the node order, -1: against it, 0: both ways, null: not routable (reversible, alternating). */
export type Oneway = 1 | -1 | 0 | null;

/** One `oneway` value: undefined for a value we do not know (as if not set). */
export function onewayValue(v: string | undefined): Oneway | undefined {
  switch (v) {
    case 'yes':
    case '1':
    case 'true':
      return 1;
    case '-1':
    case 'reverse':
      return -1;
    case 'no':
    case '0':
    case 'false':
      return 0;
    // the direction changes by the hour or by the signals: no static route can rely on it
    case 'reversible':
    case 'alternating':
      return null;
    default:
      return undefined;
  }
}

/**
 * The one-way of vehicles in general (`oneway`, else implied by a roundabout or a motorway):
 * what the map draws as a one-way.
 */
export function vehicleOneway(get: Get): Oneway {
  return onewayValue(get('oneway')) ?? implied(get);
}

/**
 * The one-way of a mode on a way: the most specific of the profile's one-way keys with a known
 * value, else (`implied`) the one-way a roundabout or motorway implies. With `contraflow`, a
 * mode rides both ways where a contraflow lane (`cycleway=opposite*`) is mapped.
 */
export function onewayOf(get: Get, rules: ModeRules): Oneway {
  const { keys, implied: byKind, contraflow } = rules.oneway;
  const opposite = contraflow && (get('cycleway') ?? '').startsWith('opposite');
  for (const key of keys) {
    const v = onewayValue(get(key));
    if (v === undefined) continue;
    if (opposite && key === 'oneway' && v !== null) return 0;
    return v;
  }
  if (opposite || !byKind) return 0;
  return implied(get);
}

function implied(get: Get): Oneway {
  return isRoundabout(get) || get('highway') === 'motorway' ? 1 : 0;
}
