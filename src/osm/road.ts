/**
 * What a road is: the `highway` values that are no road (for routing and for the map's
 * roads layer alike), and what a roundabout is.
 */
import type { Get } from './tags.js';

/**
 * `highway` values that are no road at all: roads not built or no longer there, and things
 * mapped as a highway that no one travels along (a bus stop, a street lamp, signals drawn as
 * a way). No mode routes on them and the roads layer draws none.
 */
export const NOT_ROADS: ReadonlySet<string> = new Set([
  'construction',
  'proposed',
  'planned',
  'abandoned',
  'razed',
  'demolished',
  'removed',
  'disused',
  'bus_stop',
  'elevator',
  'emergency_bay',
  'rest_area',
  'services',
  'street_lamp',
  'traffic_signals',
  'crossing',
]);

/** Whether a `highway` value is a road (some mode may travel along it). */
export function isRoad(highway: string | undefined): highway is string {
  return highway !== undefined && highway !== '' && !NOT_ROADS.has(highway);
}

/** Whether a way is part of a roundabout: `junction=roundabout` or `junction=circular`. */
export function isRoundabout(get: Get): boolean {
  const j = get('junction');
  return j === 'roundabout' || j === 'circular';
}
