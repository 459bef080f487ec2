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
  const s1 = Math.sin(dLat / 2),
    s2 = Math.sin(dLon / 2);
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

// Below this angle (radians, a segment of about 25 km) the series of sin and asin kept here
// are exact to double precision: the first term left out is under 1e-17 of the value.
const SMALL = 2e-3;

/**
 * Metres of each segment of a line given in whole 1e-5 degrees (an encoded polyline's
 * points), into `out`, and their sum: haversine with R = 6371.0088 km as @turf/distance,
 * to a few ulps. A route has thousands of short segments; for those the small-angle
 * series of sin and asin replace three of the four transcendental calls per segment,
 * which were most of the time of a long route's answer.
 */
export function lineMetres(lat5: Int32Array, lon5: Int32Array, out: Float64Array): number {
  const n = lat5.length;
  const rad = RAD / 1e5,
    r2 = 2 * EARTH_RADIUS_KM * 1000;
  let total = 0;
  let cos1 = n ? Math.cos(lat5[0] * rad) : 0;
  for (let i = 0; i + 1 < n; i++) {
    const cos2 = Math.cos(lat5[i + 1] * rad);
    const s1 = sinHalf((lat5[i + 1] - lat5[i]) * rad),
      s2 = sinHalf((lon5[i + 1] - lon5[i]) * rad);
    const h = s1 * s1 + s2 * s2 * cos1 * cos2;
    const x = Math.sqrt(h);
    const m = r2 * (x < SMALL ? x * (1 + (x * x) / 6 + (3 * x * x * x * x) / 40) : Math.atan2(x, Math.sqrt(1 - h)));
    out[i] = m;
    total += m;
    cos1 = cos2;
  }
  return total;
}

// sin(d / 2)
function sinHalf(d: number): number {
  const x = d / 2;
  if (Math.abs(x) >= SMALL) return Math.sin(x);
  const x2 = x * x;
  return x * (1 - (x2 / 6) * (1 - (x2 / 20) * (1 - x2 / 42)));
}
