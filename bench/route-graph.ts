// A Nepal-scale road graph for the routing bench without the engine's loader: the real
// Kathmandu fixture's roads (read with osm-read), split at junctions, tiled across Nepal
// exactly as `npm run bench:data` tiles them (same offsets, same joining trunk roads
// between the same tile pairs), so its size and shape are those of bench/data/nepal.osm.pbf's
// road network. Until the engine builds its own graph, this is what bench/route.ts routes on.

import { readOsm } from '../scripts/read-osm.js';
import { joinPairs, tileOffsets } from '../scripts/nepal-data.js';
import { distance, type RoadGraph } from './road-graph.js';

export type Mode = 'car' | 'foot';

// km/h by class, for the car graph (issue 11's table); foot walks at 5 km/h everywhere
const CAR_KMH: Record<string, number> = {
  motorway: 90,
  motorway_link: 90,
  trunk: 85,
  trunk_link: 85,
  primary: 65,
  primary_link: 65,
  secondary: 55,
  secondary_link: 55,
  tertiary: 40,
  tertiary_link: 40,
  unclassified: 25,
  residential: 25,
  service: 15,
  living_street: 10,
  road: 25,
  track: 10,
};
const NO_FOOT = new Set(['motorway', 'motorway_link', 'construction', 'proposed']);
const FOOT_KMH = 5;
const JOIN_KMH = { car: 85, foot: FOOT_KMH };

/** One tile's graph: nodes (fixture coordinates, 1e-7°) and arcs. */
interface Tile {
  lat: Int32Array;
  lon: Int32Array;
  from: number[];
  to: number[];
  weight: number[];
  /** Nodes joins may end at: in the largest network of two-way arcs. */
  ends: number[];
}

const FIXTURE = new URL('../fixtures/kathmandu-core_2026-01-10.osm.pbf', import.meta.url).pathname;

/** Reads the fixture's roads for `mode` into one tile: junctions (and way ends) become nodes. */
async function tile(mode: Mode): Promise<{ tile: Tile; bbox: { minLat: number; minLon: number; maxLat: number; maxLon: number } }> {
  const osm = await readOsm(FIXTURE);
  const pos = new Map<number, [number, number]>();
  let minLat = Infinity,
    minLon = Infinity,
    maxLat = -Infinity,
    maxLon = -Infinity;
  for (const n of osm.nodes) {
    pos.set(n.id, [n.lat, n.lon]);
    minLat = Math.min(minLat, n.lat);
    maxLat = Math.max(maxLat, n.lat);
    minLon = Math.min(minLon, n.lon);
    maxLon = Math.max(maxLon, n.lon);
  }
  const ways: { refs: number[]; kmh: number; dir: 0 | 1 | -1 }[] = [];
  for (const w of osm.ways) {
    const tag = (k: string) => w.tags?.find(([key]) => key === k)?.[1];
    const hw = tag('highway');
    if (!hw) continue;
    const access = tag('access');
    let kmh: number,
      dir: 0 | 1 | -1 = 0;
    if (mode === 'foot') {
      if (NO_FOOT.has(hw) || tag('foot') === 'no') continue;
      if ((access === 'no' || access === 'private') && !['yes', 'designated', 'permissive'].includes(tag('foot') ?? '')) continue;
      kmh = FOOT_KMH;
    } else {
      if (!(hw in CAR_KMH)) continue;
      const motor = tag('motorcar') ?? tag('motor_vehicle') ?? access;
      if (motor === 'no' || motor === 'private') continue;
      kmh = CAR_KMH[hw];
      const ow = tag('oneway');
      if (ow === '-1') dir = -1;
      else if (ow === 'yes' || ow === '1' || ow === 'true' || tag('junction') === 'roundabout' || (hw === 'motorway' && ow !== 'no'))
        dir = 1;
    }
    // a cut extract misses nodes: keep the runs of present ones, as the engine does
    let run: number[] = [];
    for (const r of [...w.refs, NaN]) {
      if (pos.has(r)) run.push(r);
      else {
        if (run.length > 1) ways.push({ refs: run, kmh, dir });
        run = [];
      }
    }
  }
  // a node is a graph node where ways meet or end
  const uses = new Map<number, number>();
  for (const w of ways) {
    w.refs.forEach((r, i) => uses.set(r, (uses.get(r) ?? 0) + (i === 0 || i === w.refs.length - 1 ? 2 : 1)));
  }
  const index = new Map<number, number>();
  const lat: number[] = [],
    lon: number[] = [];
  const id = (r: number) => {
    let i = index.get(r);
    if (i === undefined) {
      i = lat.length;
      index.set(r, i);
      lat.push(pos.get(r)![0]);
      lon.push(pos.get(r)![1]);
    }
    return i;
  };
  const t: Tile = { lat: new Int32Array(0), lon: new Int32Array(0), from: [], to: [], weight: [], ends: [] };
  const parent: number[] = [];
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const w of ways) {
    let a = id(w.refs[0]),
      metres = 0;
    for (let i = 1; i < w.refs.length; i++) {
      const p = pos.get(w.refs[i - 1])!,
        q = pos.get(w.refs[i])!;
      metres += distance(p[0] / 1e7, p[1] / 1e7, q[0] / 1e7, q[1] / 1e7);
      if (i < w.refs.length - 1 && uses.get(w.refs[i])! < 2) continue;
      const b = id(w.refs[i]);
      const ms = Math.round((metres / (w.kmh / 3.6)) * 1000);
      if (w.dir >= 0) {
        t.from.push(a);
        t.to.push(b);
        t.weight.push(ms);
      }
      if (w.dir <= 0) {
        t.from.push(b);
        t.to.push(a);
        t.weight.push(ms);
      }
      while (parent.length < lat.length) parent.push(parent.length);
      if (w.dir === 0) parent[find(a)] = find(b);
      a = b;
      metres = 0;
    }
  }
  while (parent.length < lat.length) parent.push(parent.length);
  t.lat = Int32Array.from(lat);
  t.lon = Int32Array.from(lon);
  const size = new Map<number, number>();
  for (let i = 0; i < lat.length; i++) size.set(find(i), (size.get(find(i)) ?? 0) + 1);
  let root = 0;
  for (const [r, k] of size) if (k > (size.get(root) ?? 0)) root = r;
  for (let i = 0; i < lat.length; i++) if (find(i) === root) t.ends.push(i);
  return { tile: t, bbox: { minLat, minLon, maxLat, maxLon } };
}

/**
 * The fixture's `mode` graph tiled `copies` times across Nepal and joined by two-way trunk
 * arcs between the tile pairs bench:data joins, each from the tile's end node farthest
 * toward the other tile (like the generated file's roads; there a way with a node every km).
 */
export async function nepalGraph(mode: Mode, copies = 100): Promise<RoadGraph> {
  const { tile: t, bbox } = await tile(mode);
  const tiles = tileOffsets(bbox, copies);
  const m = t.lat.length;
  const n = m * copies;
  const lat = new Float64Array(n),
    lon = new Float64Array(n);
  const from: number[] = [],
    to: number[] = [],
    weight: number[] = [];
  tiles.forEach(([dLat, dLon], k) => {
    for (let i = 0; i < m; i++) {
      lat[k * m + i] = (t.lat[i] + dLat) / 1e7;
      lon[k * m + i] = (t.lon[i] + dLon) / 1e7;
    }
    for (let i = 0; i < t.from.length; i++) {
      from.push(k * m + t.from[i]);
      to.push(k * m + t.to[i]);
      weight.push(t.weight[i]);
    }
  });
  const cLat = (bbox.minLat + bbox.maxLat) / 2,
    cLon = (bbox.minLon + bbox.maxLon) / 2;
  const centres = tiles.map(([dLat, dLon]) => [(cLon + dLon) / 1e7, (cLat + dLat) / 1e7] as [number, number]);
  const c = Math.cos(((cLat / 1e7) * Math.PI) / 180);
  const toward = (x: number, y: number) => {
    let best = -1,
      score = -Infinity;
    for (const i of t.ends) {
      const s = (t.lon[i] - cLon) * c * x + (t.lat[i] - cLat) * y;
      if (s > score) {
        score = s;
        best = i;
      }
    }
    return best;
  };
  for (const [a, b] of joinPairs(centres)) {
    const x = (centres[b][0] - centres[a][0]) * c,
      y = centres[b][1] - centres[a][1];
    const u = a * m + toward(x, y),
      v = b * m + toward(-x, -y);
    const ms = Math.round((distance(lat[u], lon[u], lat[v], lon[v]) / (JOIN_KMH[mode] / 3.6)) * 1000);
    from.push(u, v);
    to.push(v, u);
    weight.push(ms, ms);
  }
  return { arcs: { n, from: Uint32Array.from(from), to: Uint32Array.from(to), weight: Uint32Array.from(weight) }, lat, lon };
}
