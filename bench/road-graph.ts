import type { Arcs } from '../src/route/csr.js';
import { random } from '../test/support/random.js';

/** A generated road network: arcs plus the nodes' positions (degrees). */
export interface RoadGraph {
  arcs: Arcs;
  lat: Float64Array;
  lon: Float64Array;
}

/**
 * A grid-like road network of about `n` nodes over a Nepal-sized box (~800 × 200 km):
 * jittered lattice junctions, ~15% of streets missing, every 8th line a faster road,
 * every 32nd a highway, ~5% of streets one-way. Weights are travel times in ms from the
 * straight-line length at each class's speed. Seeded: the same graph for the same (n, seed).
 */
export function roadGraph(n: number, seed = 1): RoadGraph {
  const rnd = random(seed);
  const w = Math.max(2, Math.round(Math.sqrt(n * 4)));
  const h = Math.max(2, Math.round(n / w));
  const size = w * h;
  const lat = new Float64Array(size),
    lon = new Float64Array(size);
  const dx = 8 / w,
    dy = 2 / h; // degrees per step: 8° of longitude, 2° of latitude
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      lat[y * w + x] = 26.5 + (y + (rnd() - 0.5) * 0.6) * dy;
      lon[y * w + x] = 80.2 + (x + (rnd() - 0.5) * 0.6) * dx;
    }
  }
  const from: number[] = [],
    to: number[] = [],
    weight: number[] = [];
  const street = (a: number, b: number, line: number) => {
    const major = line % 32 === 0 ? 3 : line % 8 === 0 ? 2 : 1;
    if (major === 1 && rnd() < 0.15) return;
    const kmh = major === 3 ? 85 : major === 2 ? 55 : 15 + rnd() * 25;
    const ms = Math.round((distance(lat[a], lon[a], lat[b], lon[b]) / (kmh / 3.6)) * 1000);
    const oneway = major === 1 && rnd() < 0.05;
    from.push(a);
    to.push(b);
    weight.push(ms);
    if (!oneway) {
      from.push(b);
      to.push(a);
      weight.push(ms);
    }
  };
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const v = y * w + x;
      if (x + 1 < w) street(v, v + 1, y);
      if (y + 1 < h) street(v, v + w, x);
    }
  }
  return { arcs: { n: size, from: Uint32Array.from(from), to: Uint32Array.from(to), weight: Uint32Array.from(weight) }, lat, lon };
}

/** Great-circle distance in metres (haversine, R = 6371.0088 km). */
export function distance(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.min(1, Math.sqrt(a)));
}
