/**
 * Which nodes on a road delay the traffic passing them: `highway=traffic_signals`, `stop`,
 * `give_way` and `crossing` (a crossing with `crossing=traffic_signals` is signals), for the
 * traffic one way along the road where `direction` or `traffic_signals:direction` says
 * `forward` or `backward`. What each costs a mode is src/route/turns.ts's table.
 */

/** A delaying node's kind. */
export type DelayKind = 'signals' | 'stop' | 'give_way' | 'crossing';

/** The delay of a node from its `highway`, `crossing` and direction tags, or undefined where it has none. */
export function delayOf(
  highway: string | undefined,
  crossing: string | undefined,
  direction: string | undefined,
): { kind: DelayKind; direction?: 'forward' | 'backward' } | undefined {
  let kind: DelayKind | undefined;
  if (highway === 'traffic_signals' || (highway === 'crossing' && crossing === 'traffic_signals')) kind = 'signals';
  else if (highway === 'stop') kind = 'stop';
  else if (highway === 'give_way') kind = 'give_way';
  else if (highway === 'crossing') kind = 'crossing';
  if (!kind) return undefined;
  return direction === 'forward' || direction === 'backward' ? { kind, direction } : { kind };
}
