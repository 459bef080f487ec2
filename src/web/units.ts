/** The radius circle's shape and the great-circle distance (the words for distances and durations are in i18n.ts). */

/** Earth's mean radius in km, as the engine's haversine uses it. */
const R = 6371.0088;

/**
 * A circle of `km` around `lat`, `lon` as a GeoJSON polygon ring of `n` points, each at the
 * great-circle distance `km` from the centre (the destination formula on the sphere), so that
 * the drawn radius is the distance `nearby` measures.
 */
export function circle(lat: number, lon: number, km: number, n = 96): [number, number][] {
  const d = km / R;
  const φ1 = (lat * Math.PI) / 180;
  const λ1 = (lon * Math.PI) / 180;
  const ring: [number, number][] = [];
  for (let i = 0; i <= n; i++) {
    const θ = ((i % n) / n) * 2 * Math.PI;
    const φ2 = Math.asin(Math.sin(φ1) * Math.cos(d) + Math.cos(φ1) * Math.sin(d) * Math.cos(θ));
    const λ2 = λ1 + Math.atan2(Math.sin(θ) * Math.sin(d) * Math.cos(φ1), Math.cos(d) - Math.sin(φ1) * Math.sin(φ2));
    ring.push([(λ2 * 180) / Math.PI, (φ2 * 180) / Math.PI]);
  }
  return ring;
}

/** Great-circle distance in km (haversine). */
export function haversine(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(a)));
}
