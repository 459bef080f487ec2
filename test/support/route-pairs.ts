/** Seeded pairs of raw nodes, and the engine's route between two of them, for the fixture route tests. */
import type { PlaceIndex } from '../../src/index.js';
import { route, type Route } from '../../src/query/route.js';
import { RouteError } from '../../src/errors.js';
import type { Mode } from '../../src/osm/profile.js';
import type { RawData } from './raw.js';
import { random } from './random.js';

/** `count` seeded draws of two nodes of `nodes` (sorted ids), the distinct ones kept. */
export function nodePairs(nodes: readonly number[], seed: number, count = 150): [number, number][] {
  const rnd = random(seed);
  const pairs: [number, number][] = [];
  for (let i = 0; i < count; i++) {
    const s = nodes[Math.floor(rnd() * nodes.length)]!,
      t = nodes[Math.floor(rnd() * nodes.length)]!;
    if (s !== t) pairs.push([s, t]);
  }
  return pairs;
}

/** A raw node's `[lat, lon]`, as the file stores it. */
export function latLonOf(raw: RawData, id: number): [number, number] {
  const n = raw.node.get(id)!;
  return [n.lat, n.lon];
}

/** The engine's best route from node s to node t by `mode`, or the RouteError it throws. */
export function routeBetween(index: PlaceIndex, raw: RawData, mode: Mode, s: number, t: number): Route | RouteError {
  try {
    return route(index, { points: [latLonOf(raw, s), latLonOf(raw, t)], mode })[0]!;
  } catch (e) {
    if (e instanceof RouteError) return e;
    throw e;
  }
}
