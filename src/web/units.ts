/** How the app writes distances, durations and place names, and the radius circle's shape. */

/** `350 m`, `2.4 km`, `25 km`. */
export function distance(metres: number): string {
  if (metres < 950) return `${Math.max(1, Math.round(metres / 10) * 10)} m`;
  const km = metres / 1000;
  return `${km < 10 ? km.toFixed(1) : Math.round(km)} km`;
}

/** `45 s`, `31 min`, `2 h 05 min`. */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min`;
  return `${Math.floor(min / 60)} h ${String(min % 60).padStart(2, '0')} min`;
}

/**
 * A place's name as the map labels it, in English where OSM has `name:en` (the map cannot draw
 * Devanagari, so the list should match what it shows), else its name, else what it is (`cafe`).
 */
export function title(record: { name: string; type: string; tags?: readonly string[] }): string {
  const en = record.tags?.find((t) => t.startsWith('name:en|'))?.slice('name:en|'.length);
  return en || record.name || record.type.replace(/_/g, ' ');
}

/** What a place is, for a person: `bus_stop` → `Bus stop`. */
export function kind(type: string): string {
  const t = type.replace(/_/g, ' ').trim();
  return t.charAt(0).toUpperCase() + t.slice(1);
}

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
