/** Kilometres per degree of latitude (and of longitude at the equator), R = 6371.0088 km. */
export const KM_PER_DEGREE = (6371.0088 * Math.PI) / 180;

/**
 * Distance in km from a point to a segment, all in degrees, on a local
 * equirectangular projection at the point (`k` = cos of its latitude): exact to
 * well under a metre at the few hundred metres it is used for (nearest street,
 * reverse geocoding). @turf/point-to-line-distance answers the same on GeoJSON
 * objects; a million address lookups at load cannot allocate one per segment.
 */
export function segmentKm(lon: number, lat: number, k: number, ax: number, ay: number, bx: number, by: number): number {
  const x1 = (ax - lon) * k,
    y1 = ay - lat,
    x2 = (bx - lon) * k,
    y2 = by - lat;
  const dx = x2 - x1,
    dy = y2 - y1;
  const len2 = dx * dx + dy * dy;
  let t = len2 > 0 ? -(x1 * dx + y1 * dy) / len2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return Math.hypot(x1 + t * dx, y1 + t * dy) * KM_PER_DEGREE;
}

/** The box `[minLon, minLat, maxLon, maxLat]` around a point that holds every point within `km` of it. */
export function boxAround(lon: number, lat: number, km: number): [number, number, number, number] {
  const dLat = km / KM_PER_DEGREE;
  const dLon = dLat / Math.max(1e-9, Math.cos((Math.min(89.9, Math.abs(lat) + dLat) * Math.PI) / 180));
  return [lon - dLon, lat - dLat, lon + dLon, lat + dLat];
}
