/**
 * Routing (issue 11): contraction-hierarchy preprocessing time and size, and per-route
 * latency of the CH against a bidirectional and a plain Dijkstra over the same graph in the
 * same run, for random pairs at least 50 km apart, car and foot. The graph is the fixture's
 * roads tiled across Nepal as bench:data tiles them (bench/route-graph.ts); `measure()`
 * takes any `Arcs` with coordinates and a pair picker, so the engine's own road graph can be
 * measured the same way once it exists.
 *
 * Run alone: `node --expose-gc --import tsx bench/route.ts [--copies N] [--mode car|foot] [--grid N]`
 * (`--copies 400`: a ~1M-node foot graph; `--grid N`: only the synthetic N-node lattice of
 * bench/road-graph.ts instead).
 */
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import type { Arcs } from '../src/route/csr.js';
import { contract, type Hierarchy } from '../src/route/ch.js';
import { BiDijkstra, Dijkstra } from '../src/route/dijkstra.js';
import type { Path } from '../src/route/ends.js';
import { random } from '../test/support/random.js';
import { nepalGraph, type Mode } from './route-graph.js';
import { distance, roadGraph, type RoadGraph } from './road-graph.js';
import { timeEach, type Timing } from './timing.js';
import { printChecks, printTable, num, ratio, type Check } from './table.js';
import { progress } from './progress.js';
import { engineRouting, type EngineRouting } from './route-engine.js';

/** Picks `count` (source, target) node pairs: `[s0, t0, s1, t1, …]`. */
export type PairPicker = (count: number) => Uint32Array;

/** What one graph's measurement found. */
export interface RouteRow {
  graph: string;
  nodes: number;
  arcs: number;
  /** CH preprocessing: wall and CPU seconds (the CPU time is this process's, less disturbed by a busy machine). */
  contractSeconds: number;
  contractCpuSeconds: number;
  /** Edges of the hierarchy (kept arcs plus shortcuts). */
  chEdges: number;
  /** Bytes of the hierarchy's arrays, and of the arcs, per node. */
  chBytesPerNode: number;
  arcBytesPerNode: number;
  pairs: number;
  /** Mean straight-line distance of the pairs, km. */
  meanKm: number;
  ch: Timing;
  /**
   * CPU time of one CH route (user + system, µs; each pair 3 times): what a route costs, without
   * the time the process waits for a core on a busy machine.
   */
  chCpu: { p50: number; p99: number; mean: number };
  /** CH alternatives (up to 2 besides the best), and the share of pairs that got at least one. */
  alternatives: Timing;
  withAlternatives: number;
  bidirectional: Timing;
  dijkstra: Timing;
  /** Pairs whose three costs differed (must be 0). */
  disagreements: number;
}

/** Random pairs of nodes at least `minKm` apart (straight line) that `route` joins; seeded. */
export function farPairs(g: RoadGraph, minKm: number, route: (s: number, t: number) => Path | null, seed = 1): PairPicker {
  return (count) => {
    const rnd = random(seed);
    const out: number[] = [];
    for (let tries = 0; out.length < 2 * count && tries < count * 1000; tries++) {
      const s = Math.floor(rnd() * g.arcs.n),
        t = Math.floor(rnd() * g.arcs.n);
      if (distance(g.lat[s], g.lon[s], g.lat[t], g.lon[t]) < minKm * 1000 || !route(s, t)) continue;
      out.push(s, t);
    }
    return Uint32Array.from(out);
  };
}

/**
 * Contracts `g`, then times routes between the picked pairs with the CH, a bidirectional
 * and a plain Dijkstra (fewer pairs for the slow ones), and checks their costs agree.
 */
export function measure(name: string, g: RoadGraph, pick: (h: Hierarchy) => PairPicker, count = 200): RouteRow {
  progress(`routing ${name}: contracting ${g.arcs.n} nodes`);
  global.gc?.();
  const t0 = performance.now(),
    cpu0 = process.cpuUsage();
  const h = contract(g.arcs);
  const contractSeconds = (performance.now() - t0) / 1000,
    contractCpuSeconds = process.cpuUsage(cpu0).user / 1e6;
  const chBytes = Object.values(h.data()).reduce((s, a) => s + a.byteLength, 0);
  const bi = new BiDijkstra(g.arcs),
    plain = new Dijkstra(g.arcs);
  const flat = pick(h)(count);
  const pairs = Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i], 0, flat[2 * i + 1], 0]);
  progress(`routing ${name}: ${pairs.length} pairs, checking costs`);
  let disagreements = 0,
    km = 0;
  pairs.forEach(([s, , t], i) => {
    km += distance(g.lat[s], g.lon[s], g.lat[t], g.lon[t]) / 1000;
    const c = h.route([s, 0], [t, 0])?.cost;
    // the slow searches on a sample: the plain one costs ~100 ms a route at this scale
    if (i % 10 === 0 && (bi.route([s, 0], [t, 0])?.cost !== c || plain.route([s, 0], [t, 0])?.cost !== c)) disagreements++;
  });
  progress(`routing ${name}: timing`);
  const route = (r: { route(s: number[], t: number[]): Path | null }) => (q: number[]) => r.route([q[0], q[1]], [q[2], q[3]])?.arcs ?? [];
  const fast = timeEach(
    pairs,
    {
      ch: route(h),
      alternatives: (q) => h.alternatives([q[0], q[1]], [q[2], q[3]]),
    },
    { time: 1000, iterations: pairs.length, warmupTime: 200 },
  );
  const cpu: number[] = [];
  for (let rep = 0; rep < 3; rep++) {
    for (const q of pairs) {
      const c = process.cpuUsage();
      h.route([q[0], q[1]], [q[2], q[3]]);
      const d = process.cpuUsage(c);
      cpu.push(d.user + d.system);
    }
  }
  cpu.sort((a, b) => a - b);
  const at = (p: number) => cpu[Math.min(cpu.length - 1, Math.floor(p * cpu.length))] ?? NaN;
  const chCpu = { p50: at(0.5), p99: at(0.99), mean: cpu.reduce((a, b) => a + b, 0) / Math.max(1, cpu.length) };
  const withAlternatives = pairs.filter((q) => h.alternatives([q[0], q[1]], [q[2], q[3]]).length > 1).length / Math.max(1, pairs.length);
  const slow = timeEach(pairs, { bidirectional: route(bi), dijkstra: route(plain) }, { time: 1500, iterations: 20, warmupTime: 100 });
  return {
    graph: name,
    nodes: g.arcs.n,
    arcs: g.arcs.from.length,
    contractSeconds,
    contractCpuSeconds,
    chEdges: h.size.edges,
    chBytesPerNode: chBytes / g.arcs.n,
    arcBytesPerNode: arcBytes(g.arcs) / g.arcs.n,
    pairs: pairs.length,
    meanKm: pairs.length ? km / pairs.length : 0,
    ch: fast.ch,
    chCpu,
    alternatives: fast.alternatives,
    withAlternatives,
    bidirectional: slow.bidirectional,
    dijkstra: slow.dijkstra,
    disagreements,
  };
}

function arcBytes(a: Arcs): number {
  return a.from.byteLength + a.to.byteLength + a.weight.byteLength;
}

/** Prints the section's tables and returns the targets, checked. */
export function report(rows: RouteRow[]): Check[] {
  printTable(
    'Routing: preprocessing',
    ['graph', 'nodes', 'arcs', 'contract s', 'CPU s', 'CH edges', 'CH B/node', 'arcs B/node'],
    rows.map((r) => [r.graph, r.nodes, r.arcs, r.contractSeconds, r.contractCpuSeconds, r.chEdges, r.chBytesPerNode, r.arcBytesPerNode]),
  );
  printTable(
    'Routing: one route, random pairs ≥ 50 km apart (µs)',
    [
      'graph',
      'pairs',
      'mean km',
      'CH p50',
      'CH p99',
      'CPU p50',
      'CPU p99',
      'alt p50',
      'with alt',
      'bidir p50',
      'Dijkstra p50',
      'bidir / CH',
      'Dijkstra / CH',
      'cost mismatches',
    ],
    rows.map((r) => [
      r.graph,
      r.pairs,
      r.meanKm,
      r.ch.p50,
      r.ch.p99,
      r.chCpu.p50,
      r.chCpu.p99,
      r.alternatives.p50,
      `${Math.round(100 * r.withAlternatives)}%`,
      r.bidirectional.p50,
      r.dijkstra.p50,
      ratio(r.bidirectional.p50 / r.ch.p50),
      ratio(r.dijkstra.p50 / r.ch.p50),
      r.disagreements,
    ]),
    [
      "CPU: a CH route's CPU time (user + system), without the time the process waits for a core on a busy machine;",
      'alt: CH alternatives (count 2, maxShare 0.7, maxStretch 1.4), "with alt" the pairs that got one;',
      "ratios of medians (a busy machine's scheduler pauses inflate means and p99s); the CH route includes unpacking to",
      'original arcs; bidirectional Dijkstra is what a PBF-loaded index routes with',
    ],
  );
  const checks: Check[] = [];
  for (const r of rows) {
    checks.push({ target: `${r.graph}: route p50 ≤ 1 ms`, value: `${num(r.ch.p50 / 1000)} ms`, pass: r.ch.p50 <= 1000 });
    checks.push({ target: `${r.graph}: route p99 ≤ 5 ms`, value: `${num(r.ch.p99 / 1000)} ms`, pass: r.ch.p99 <= 5000 });
    checks.push({
      target: `${r.graph}: ≥ 100x a plain Dijkstra (p50)`,
      value: ratio(r.dijkstra.p50 / r.ch.p50) ?? '-',
      pass: r.dijkstra.p50 / r.ch.p50 >= 100,
    });
    checks.push({
      target: `${r.graph}: CH = Dijkstra on every checked pair`,
      value: `${r.disagreements} mismatches`,
      pass: r.disagreements === 0,
    });
  }
  printChecks('Routing targets', checks);
  return checks;
}

/**
 * The section: the engine's own road graph at Nepal scale (bench/route-engine.ts) when
 * bench:data has written it, then the search core alone, car and foot, over the tiled
 * fixture roads (100 tiles, as bench/data/nepal.osm.pbf).
 */
export async function run(
  copies = 100,
  modes: Mode[] = ['car', 'foot'],
): Promise<{ rows: RouteRow[]; checks: Check[]; engine?: EngineRouting }> {
  const engine = await engineRouting();
  const rows: RouteRow[] = [];
  for (const mode of modes) {
    progress(`routing: building the ${mode} graph of ${copies} tiles`);
    const g = await nepalGraph(mode, copies);
    const pick = (h: Hierarchy) => farPairs(g, 50, (s, t) => h.route([s, 0], [t, 0]));
    rows.push(measure(`${mode}, ${copies} tiles`, g, pick));
  }
  return { rows, checks: [...(engine?.checks ?? []), ...report(rows)], engine: engine?.result };
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const mode = arg('--mode'),
    grid = arg('--grid');
  const main = grid
    ? async () => {
        const g = roadGraph(Number(grid));
        report([measure(`lattice ${grid}`, g, (h) => farPairs(g, 50, (s, t) => h.route([s, 0], [t, 0])))]);
      }
    : () => run(Number(arg('--copies') ?? 100), mode ? [mode as Mode] : undefined);
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
