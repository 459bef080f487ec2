import { EARTH_RADIUS_KM } from '../index/around.js';

const RAD = Math.PI / 180;
const E7 = 1e7;

/**
 * Haversine distance in km from a point (degrees) to a point in 1e-7 degrees, with
 * exactly the operations of `around` (and so of @turf/distance): a place found by a
 * walk and the same place found otherwise report the same kilometres.
 */
export function kmTo(lon: number, lat: number, x: number, y: number): number {
  const py = y / E7;
  const dLat = (py - lat) * RAD;
  const dLon = (x / E7 - lon) * RAD;
  const s1 = Math.sin(dLat / 2), s2 = Math.sin(dLon / 2);
  const a = s1 * s1 + s2 * s2 * Math.cos(lat * RAD) * Math.cos(py * RAD);
  return 2 * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a)) * EARTH_RADIUS_KM;
}
