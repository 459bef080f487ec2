/**
 * Bike routes are the shortest legal ride at 15 km/h (issue 11, §2): on both real fixtures the
 * engine's ride matches a plain Dijkstra run here over osm-read's ways with the bike rules
 * written again from the issue (test/support/roads-raw.ts: `bikeOk`, `bikeOneway`).
 */
import polyline from '@mapbox/polyline';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PlaceIndex } from '../src/index.js';
import type { Route } from '../src/query/route.js';
import { RouteError } from '../src/errors.js';
import { loadPbf } from '../src/index.js';
import { REFERENCE_PROFILES } from './support/profiles.js';
import { CORE, TRANSIT, readRaw, type RawData } from './support/raw.js';
import { nodePairs, routeBetween } from './support/route-pairs.js';
import { bikeGraph, bikeOk, bikeOneway, blockedNodes, dijkstra, edgeCounter, junctions, offGraph, RawGraph } from './support/roads-raw.js';
import { TurnSearch, turnRules } from './support/turns-raw.js';

/** Cycling at 15 km/h: 240 ms a metre. */
const MS_PER_M = 240;
/** Whole-ms rounding per edge: at most 0.5 / 240 m. */
const ROUNDING_M = 0.0021;

describe.each([
  ['core', CORE, 61],
  ['transit', TRANSIT, 62],
])('bike routes are the shortest legal ride (%s fixture)', (_, file, seed) => {
  let raw: RawData, index: PlaceIndex, g: RawGraph;
  let edges: ReturnType<typeof edgeCounter>;
  const pairs: [number, number][] = [];
  let oneway: Set<number>;
  beforeAll(async () => {
    [raw, index] = await Promise.all([readRaw(file), loadPbf(file, { profiles: REFERENCE_PROFILES })]);
    g = bikeGraph(raw);
    edges = edgeCounter(raw);
    oneway = new Set(raw.ways.filter((w) => bikeOk(w.tags) && bikeOneway(w.tags) !== 0).flatMap((w) => w.refs));
    // nodes a bike may not pass left out (a point there snaps beside them)
    const blocked = blockedNodes(raw, 'bike');
    const js = junctions(raw, g)
      .filter((v) => !blocked.has(v))
      .sort((a, b) => a - b);
    pairs.push(...nodePairs(js, seed));
  });
  const ride = (s: number, t: number): Route | RouteError => routeBetween(index, raw, 'bike', s, t);

  it('between junctions of two-way bike roads: the time is the shortest legal ride at 15 km/h; no ride where there is none', () => {
    const bad: string[] = [];
    let joined = 0;
    const list = pairs.filter(([s, t]) => !oneway.has(s) && !oneway.has(t));
    expect(list.length).toBeGreaterThan(50);
    // the ride in ms, with the bike's turn costs and restrictions (src/route/turns.ts's table), searched by the
    // independent edge-based Dijkstra of test/support/turns-raw.ts
    const msGraph = new RawGraph();
    for (let a = 0; a < g.from.length; a++)
      msGraph.arc(
        msGraph.node(g.ids[g.from[a]]),
        msGraph.node(g.ids[g.to[a]]),
        g.way[a],
        (g.cost[a] - g.penalty[a]) * MS_PER_M,
        g.len[a],
        g.penalty[a] * MS_PER_M,
      );
    const turns = new TurnSearch(msGraph.finish(), raw, 'bike', turnRules(raw, 'bike').rules);
    for (const [s, t] of list) {
      const best = turns.path(s, t);
      const r = ride(s, t);
      if (best.cost === Infinity) {
        if (!(r instanceof RouteError && r.problem === 'no-route'))
          bad.push(`${s} → ${t}: no legal ride, got ${r instanceof RouteError ? r.problem : r.timeInMs}`);
        continue;
      }
      joined++;
      if (r instanceof RouteError) bad.push(`${s} → ${t}: ${r.problem}, expected ${best.travel} ms`);
      else if (Math.abs(r.timeInMs - best.travel) > 1 + edges(best)) bad.push(`${s} → ${t}: ${r.timeInMs} ms, expected ${best.travel} ms`);
    }
    expect(bad).toEqual([]);
    expect(joined).toBeGreaterThan(list.length / 3);
  });

  it('from or to any junction, no ride is shorter than the shortest legal one, and every stretch is a bike road ridden a way bikes may go', () => {
    const off = offGraph(raw, g);
    const bad: string[] = [];
    for (const [s, t] of pairs) {
      const best = dijkstra(g, s)(t);
      const r = ride(s, t);
      if (r instanceof RouteError) continue;
      if (r.timeInMs / MS_PER_M < best.metres - ROUNDING_M * edges(best))
        bad.push(`${s} → ${t}: ${r.timeInMs / MS_PER_M} m, shorter than ${best.metres} m`);
      for (const [a, b] of off(polyline.decode(r.encodedPolyline, 5))) bad.push(`${s} → ${t}: ${a} → ${b}`);
    }
    expect(bad).toEqual([]);
  });
});
