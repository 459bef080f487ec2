/** Earth radius of every distance, in km: the mean radius, as @turf/distance. */
export const EARTH_RADIUS_KM = 6371.0088;

const RAD = Math.PI / 180;
const E7 = 1e7;

/**
 * The haversine term `a` from a point (degrees; `cosLat` the cosine of its latitude)
 * to a point in 1e-7 degrees, with the operations of @turf/distance, so that
 * kilometres reported here match it to the last bits.
 */
export function haversineA(lon: number, lat: number, cosLat: number, x: number, y: number): number {
  const py = y / E7;
  const dLat = (py - lat) * RAD;
  const dLon = (x / E7 - lon) * RAD;
  const s1 = Math.sin(dLat / 2), s2 = Math.sin(dLon / 2);
  return s1 * s1 + s2 * s2 * cosLat * Math.cos(py * RAD);
}

/** Kilometres of a haversine term `a`. */
export function aToKm(a: number): number {
  return 2 * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a)) * EARTH_RADIUS_KM;
}

/** Haversine distance in km from a point (degrees) to a point in 1e-7 degrees. */
export function kmTo(lon: number, lat: number, x: number, y: number): number {
  return aToKm(haversineA(lon, lat, Math.cos(lat * RAD), x, y));
}
