/**
 * Every route answers identically from the PBF and from its snapshot (issue 11, §4): a
 * PBF-loaded index routes with a bidirectional Dijkstra, a snapshot with the contraction
 * hierarchies `buildSnapshot` made, so several hundred seeded queries (every mode, with and
 * without instructions, alternatives, via points, and some that fail) must give deep-equal
 * routes or identical errors on both; and a snapshot of the restored index is the same bytes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot, fromSnapshot, loadPbf, type PlaceIndex } from '../src/index.js';
import { route, type Route, type RouteQuery } from '../src/query/route.js';
import { CORE, TRANSIT, readRaw, type RawData } from './support/raw.js';
import { random } from './support/random.js';
import { footGraph, junctions } from './support/roads-raw.js';
import { CASES, latLon, writeRoads, type P } from './support/roads.js';

const MODES = ['foot', 'bike', 'car'] as const;

/** A route query's answer as comparable data: the routes, or the error's name and fields. */
function answer(index: PlaceIndex, q: RouteQuery): unknown {
  try {
    return route(index, q);
  } catch (err) {
    const e = err as Error & { param?: string; problem?: string; point?: number };
    return { error: e.name, message: e.message, param: e.param, problem: e.problem, point: e.point };
  }
}

/** Seeded queries around the junctions of a file's roads. */
async function queries(file: string, seed: number, count: number): Promise<RouteQuery[]> {
  const raw = await readRaw(file);
  const ids = junctions(raw, footGraph(raw)).sort((a, b) => a - b);
  const rnd = random(seed);
  const point = (): [number, number] => {
    const n = raw.node.get(ids[Math.floor(rnd() * ids.length)])!;
    const roll = rnd();
    // on a junction, near one (mid-edge), or some way off (may be too far from a road)
    return roll < 0.3
      ? [n.lat, n.lon]
      : roll < 0.95
        ? [n.lat + (rnd() - 0.5) * 0.001, n.lon + (rnd() - 0.5) * 0.001]
        : [n.lat + (rnd() - 0.5) * 0.03, n.lon + (rnd() - 0.5) * 0.03];
  };
  const out: RouteQuery[] = [];
  for (let k = 0; k < count; k++) {
    const roll = rnd();
    const mode = MODES[Math.floor(rnd() * 3)];
    const instructions = rnd() < 0.5;
    if (roll < 0.2) out.push({ points: [point(), point()], mode, instructions, alternatives: true });
    else if (roll < 0.35) out.push({ points: Array.from({ length: 3 + Math.floor(rnd() * 3) }, point), mode, instructions });
    else if (roll < 0.98) out.push({ points: [point(), point()], mode, instructions });
    else out.push({ points: [point(), [91, 85]], mode }); // bad input: the same InvalidQueryError
  }
  return out;
}

/**
 * A file's PBF index and its snapshot, with `qs` answered by the PBF index as loaded (a city's
 * graph is contracted at load), and by one loaded with `contract: 'never'` (bidirectional Dijkstra).
 */
async function pbfAndSnapshot(file: string, qs: RouteQuery[]) {
  const index = await loadPbf(file);
  expect(index.router!.contracted).toBe(true);
  const fromPbf = qs.map((q) => answer(index, q));
  const plainIndex = await loadPbf(file, { contract: 'never' });
  expect(plainIndex.router!.contracted).toBe(false);
  const fromDijkstra = qs.map((q) => (q.alternatives ? undefined : answer(plainIndex, q)));
  const bytes = buildSnapshot(index);
  const restored = fromSnapshot(bytes);
  expect(restored.router!.contracted).toBe(true);
  return { index, fromPbf, fromDijkstra, bytes, restored };
}

/** Asserts that two lists of answers to `qs` are the same, listing the queries that differ. */
function expectSame(qs: RouteQuery[], a: unknown[], b: unknown[]): void {
  const differ = qs
    .map((q, i) => [q, i] as const)
    .filter(([, i]) => JSON.stringify(a[i]) !== JSON.stringify(b[i]))
    .map(([q, i]) => `${JSON.stringify(q)}: ${JSON.stringify(a[i]).slice(0, 160)} ≠ ${JSON.stringify(b[i]).slice(0, 160)}`);
  expect(differ).toEqual([]);
  expect(b).toEqual(a);
}

describe.each([
  ['core', CORE, 51, 300],
  ['transit', TRANSIT, 52, 200],
])('a snapshot routes exactly as the PBF it was built from (%s fixture)', (_, file, seed, count) => {
  let qs: RouteQuery[], plain: RouteQuery[], alts: RouteQuery[];
  let s: Awaited<ReturnType<typeof pbfAndSnapshot>>;
  const pick = (list: RouteQuery[]) => list.map((q) => s.fromPbf[qs.indexOf(q)]);
  beforeAll(async () => {
    qs = await queries(file, seed, count);
    plain = qs.filter((q) => !q.alternatives);
    alts = qs.filter((q) => q.alternatives);
    s = await pbfAndSnapshot(file, qs);
  });

  it('the seeded mix has routes of every kind, and errors', () => {
    const routes = s.fromPbf.filter(Array.isArray) as unknown[][];
    expect(routes.length).toBeGreaterThan(count / 2);
    expect(routes.some((r) => r.length > 1)).toBe(true);
    expect(plain.some((q) => q.points.length > 2)).toBe(true);
    expect(s.fromPbf.some((a) => !Array.isArray(a) && (a as { problem?: string }).problem === 'too-far')).toBe(true);
    expect(s.fromPbf.some((a) => !Array.isArray(a) && (a as { error: string }).error === 'InvalidQueryError')).toBe(true);
  });

  it('routes without alternatives (every mode, instructions, via points, errors): the PBF index and its snapshot agree exactly', () => {
    expectSame(
      plain,
      pick(plain),
      plain.map((q) => answer(s.restored, q)),
    );
    // and the PBF index still answers the same after buildSnapshot read it
    expectSame(
      plain,
      pick(plain),
      plain.map((q) => answer(s.index, q)),
    );
  });

  it('an uncontracted index (bidirectional Dijkstra) finds routes of the same time and length', () => {
    const times = (list: unknown[]) =>
      list.map((a) => (Array.isArray(a) ? a.map((r: Route) => [r.timeInMs, Math.round(r.distanceInMeters)]) : a));
    const idx = plain.map((q) => qs.indexOf(q));
    expect(times(idx.map((i) => s.fromDijkstra[i]))).toEqual(times(idx.map((i) => s.fromPbf[i])));
  });

  it('alternatives: the PBF index as loaded and its snapshot agree exactly', () => {
    expectSame(
      alts,
      pick(alts),
      alts.map((q) => answer(s.restored, q)),
    );
  });

  it('a snapshot of the restored index is the same bytes', () => {
    expect(Buffer.from(buildSnapshot(s.restored)).equals(Buffer.from(s.bytes))).toBe(true);
  });
});

describe('a snapshot keeps one-ways, roundabouts and turn restrictions (hand-made network)', () => {
  let raw: RawData;
  let s: Awaited<ReturnType<typeof pbfAndSnapshot>>;
  const qs: RouteQuery[] = [];
  const pt = (id: number): [number, number] => [raw.node.get(id)!.lat, raw.node.get(id)!.lon];
  beforeAll(async () => {
    const file = await writeRoads();
    raw = await readRaw(file);
    const ids = [...new Set(raw.ways.flatMap((w) => w.refs))].filter((id) => raw.node.has(id)).sort((a, b) => a - b);
    const rnd = random(53);
    for (const a of ids) {
      for (const b of ids) {
        // pairs within a case (the same 20-unit patch), and a sample of pairs across (no route)
        const near = Math.abs(raw.node.get(a)!.lon - raw.node.get(b)!.lon) < 0.01;
        if (a === b || (!near && rnd() > 0.01)) continue;
        for (const mode of MODES) qs.push({ points: [pt(a), pt(b)], mode, instructions: true });
      }
    }
    s = await pbfAndSnapshot(file, qs);
  });

  it('every pair of junctions in each case, every mode: the same time, weight and errors', () => {
    expect(qs.length).toBeGreaterThan(300);
    expect(s.fromPbf.some((a) => !Array.isArray(a) && (a as { problem?: string }).problem === 'no-route')).toBe(true);
    // the grid has equally fast routes (round a square either way): compare what ties share
    const cost = (a: unknown) => (Array.isArray(a) ? (a as Route[]).map((r) => [r.timeInMs, r.routeWeight]) : a);
    expectSame(
      qs,
      s.fromPbf.map(cost),
      qs.map((q) => cost(answer(s.restored, q))),
    );
  });

  it('the hand-checked routes (one way only, each) are identical, instructions and all', () => {
    const { oneway, roundabout, noLeft, onlyStraight, private: gate, fastPrimary, slowPrimary } = CASES;
    const drives: [P, P][] = [
      [oneway.B, oneway.A],
      [oneway.A, oneway.B],
      [roundabout.W, roundabout.S],
      [roundabout.W, roundabout.N],
      [noLeft.P, noLeft.M],
      [noLeft.M, noLeft.P],
      [onlyStraight.W, onlyStraight.N],
      [onlyStraight.W, onlyStraight.E],
      [gate.A0, gate.A1],
      [fastPrimary.S, fastPrimary.T],
      [slowPrimary.S, slowPrimary.T],
    ];
    const hand = drives.map(([a, b]) => ({ points: [latLon(a), latLon(b)], mode: 'car', instructions: true }) as RouteQuery);
    expectSame(
      hand,
      hand.map((q) => answer(s.restored, q)),
      hand.map((q) => answer(s.index, q)),
    );
    expectSame(
      hand,
      hand.map((q) => s.fromPbf[qs.findIndex((x) => JSON.stringify(x) === JSON.stringify(q))]),
      hand.map((q) => answer(s.restored, q)),
    );
  });

  // Where two routes take the same whole ms, the PBF's and the snapshot's hierarchies (the same
  // contraction) break the tie alike: a bike from (21, 1) to (20, 0) round the contraflow square
  // may go west then south or south then west (both 50,315 ms).
  it('equally fast routes are broken alike from the PBF and the snapshot', () => {
    const q: RouteQuery = { points: [latLon([21, 1]), latLon([20, 0])], mode: 'bike', instructions: true };
    const [pbf] = s.fromPbf[qs.findIndex((x) => JSON.stringify(x) === JSON.stringify(q))] as Route[];
    const [snap] = route(s.restored, q);
    expect(snap.timeInMs).toBe(pbf.timeInMs);
    expect(snap.encodedPolyline).toBe(pbf.encodedPolyline);
  });

  it('a snapshot of the restored index is the same bytes', () => {
    expect(Buffer.from(buildSnapshot(s.restored)).equals(Buffer.from(s.bytes))).toBe(true);
  });
});
