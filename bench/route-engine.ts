/**
 * Routing on the engine's own road graph at Nepal scale (bench/data/nepal.osm.pbf): the PBF load
 * with and without the road graph, contraction per mode, the snapshot's routing bytes, and
 * `route()` on a snapshot-loaded index for random point pairs ≥ 50 km apart, against a plain
 * Dijkstra over the same mode graph in the same run.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PlaceIndex } from '../src/index.js';
import * as srcCh from '../src/route/ch.js';
import * as srcDijkstra from '../src/route/dijkstra.js';
import { engine } from './engine.js';
import { random } from '../test/support/random.js';
import { distance } from './road-graph.js';
import { timeEach, type Timing } from './timing.js';
import { printChecks, printTable, num, ratio, mb, type Check } from './table.js';
import { progress } from './progress.js';

/** The Nepal-scale file `npm run bench:data` writes. */
export const NEPAL = fileURLToPath(new URL('data/nepal.osm.pbf', import.meta.url));

/** What the section measured. */
export interface EngineRouting {
  loadWithout: number;
  loadWith: number;
  roadNodes: number;
  roadEdges: number;
  contractSeconds: number[];
  snapshotBytes: number;
  routingBytes: number;
  modes: {
    mode: string;
    pairs: number;
    meanKm: number;
    route: Timing;
    cpu: { p50: number; p99: number };
    searchCpu: number;
    dijkstra: Timing;
    dijkstraCpu: number;
  }[];
}

const MODES = ['car', 'foot'] as const;

// The engine as users run it (dist/, see engine.ts), its search modules from the same build.
const built = existsSync(new URL('../dist/route/ch.js', import.meta.url));
const { loadPbf, buildSnapshot, fromSnapshot, route } = await engine();
const { contract } = built ? ((await import(new URL('../dist/route/ch.js', import.meta.url).href)) as typeof srcCh) : srcCh;
const { Dijkstra } = built
  ? ((await import(new URL('../dist/route/dijkstra.js', import.meta.url).href)) as typeof srcDijkstra)
  : srcDijkstra;

async function timedLoad(roads: boolean): Promise<{ index: PlaceIndex; seconds: number }> {
  global.gc?.();
  const t = performance.now();
  const index = await loadPbf(NEPAL, { roads });
  return { index, seconds: (performance.now() - t) / 1000 };
}

/** Runs the measurements; undefined when the Nepal-scale data is missing. */
export async function engineRouting(count = 200): Promise<{ result: EngineRouting; checks: Check[] } | undefined> {
  if (!existsSync(NEPAL)) return undefined;
  progress('routing: loading the Nepal-scale PBF without and with the road graph');
  const loadWithout = (await timedLoad(false)).seconds;
  const { index, seconds: loadWith } = await timedLoad(true);
  const router = index.router!;
  const contractSeconds = router.modes.map((mg, m) => {
    progress(`routing: contracting mode ${m} (${mg.arcs.n} nodes)`);
    const t = performance.now();
    router.hierarchies[m] = contract(mg.arcs);
    return (performance.now() - t) / 1000;
  });
  const bytes = buildSnapshot(index);
  const dirBytes = new DataView(bytes.buffer, bytes.byteOffset).getUint32(24, true);
  const dir = JSON.parse(new TextDecoder().decode(bytes.subarray(28, 28 + dirBytes))) as { sections: { name: string; bytes: number }[] };
  const routingBytes = dir.sections.filter((s) => /^(edge|road|restrictions|ch\d)/.test(s.name)).reduce((n, s) => n + s.bytes, 0);
  const restored = fromSnapshot(bytes);
  const g = restored.router!.graph;
  const modes = MODES.map((mode) => {
    const m = mode === 'car' ? 2 : 0;
    progress(`routing: ${mode} pairs ≥ 50 km apart`);
    const rnd = random(7 + m);
    const n = g.nodeLon.length;
    const pairs: { points: [number, number][]; s: number; t: number }[] = [];
    let km = 0;
    for (let tries = 0; pairs.length < count && tries < count * 50; tries++) {
      const s = Math.floor(rnd() * n),
        t = Math.floor(rnd() * n);
      const d = distance(g.nodeLat[s] / 1e7, g.nodeLon[s] / 1e7, g.nodeLat[t] / 1e7, g.nodeLon[t] / 1e7) / 1000;
      if (d < 50) continue;
      const points: [number, number][] = [
        [g.nodeLat[s] / 1e7, g.nodeLon[s] / 1e7],
        [g.nodeLat[t] / 1e7, g.nodeLon[t] / 1e7],
      ];
      try {
        route(restored, { points, mode });
      } catch {
        continue;
      }
      pairs.push({ points, s, t });
      km += d;
    }
    const fast = timeEach(
      pairs,
      { route: (p) => route(restored, { points: p.points, mode }) },
      { time: 2000, iterations: pairs.length, warmupTime: 200 },
    );
    // CPU time per call beside the wall clock: on a busy machine a process waits for a core
    const cpuOf = (f: () => void) => {
      const c = process.cpuUsage();
      f();
      const d = process.cpuUsage(c);
      return d.user + d.system;
    };
    const cpus: number[] = [];
    for (let rep = 0; rep < 3; rep++) for (const p of pairs) cpus.push(cpuOf(() => route(restored, { points: p.points, mode })));
    cpus.sort((a, b) => a - b);
    const at = (q: number) => cpus[Math.min(cpus.length - 1, Math.floor(q * cpus.length))] ?? NaN;
    // the hierarchy's search alone (unpacked to original arcs), between the same junctions the Dijkstra joins
    const ch = restored.router!.search(m);
    for (const p of pairs) ch.route([p.s, 0], [p.t, 0]); // warm: its first calls make its scratch and compile
    const scpu = pairs.map((p) => cpuOf(() => ch.route([p.s, 0], [p.t, 0]))).sort((a, b) => a - b);
    const plain = new Dijkstra(restored.router!.modes[m].arcs);
    const slow = timeEach(
      pairs.slice(0, 20),
      { dijkstra: (p) => plain.route([p.s, 0], [p.t, 0])?.arcs ?? [] },
      { time: 1500, iterations: 10, warmupTime: 50 },
    );
    const dcpu = pairs
      .slice(0, 10)
      .map((p) => cpuOf(() => plain.route([p.s, 0], [p.t, 0])))
      .sort((a, b) => a - b);
    return {
      mode,
      pairs: pairs.length,
      meanKm: km / Math.max(1, pairs.length),
      route: fast.route,
      cpu: { p50: at(0.5), p99: at(0.99) },
      searchCpu: scpu[scpu.length >> 1] ?? NaN,
      dijkstra: slow.dijkstra,
      dijkstraCpu: dcpu[dcpu.length >> 1] ?? NaN,
    };
  });
  const result: EngineRouting = {
    loadWithout,
    loadWith,
    roadNodes: g.nodeLon.length,
    roadEdges: g.edgeFrom.length,
    contractSeconds,
    snapshotBytes: bytes.length,
    routingBytes,
    modes,
  };
  return { result, checks: report(result) };
}

function report(r: EngineRouting): Check[] {
  printTable(
    'Routing, the engine at Nepal scale: load and preprocessing',
    ['what', 'value'],
    [
      ['PBF load without the road graph, s', num(r.loadWithout)],
      ['PBF load with it, s', num(r.loadWith)],
      ['ratio', ratio(r.loadWith / r.loadWithout)],
      ['road junctions / edges', `${r.roadNodes} / ${r.roadEdges}`],
      ['contraction foot / bike / car, s', r.contractSeconds.map(num).join(' / ')],
      ['snapshot, of it routing (graph + hierarchies)', `${mb(r.snapshotBytes)}, ${mb(r.routingBytes)}`],
      ['routing bytes per road junction', num(r.routingBytes / r.roadNodes)],
    ],
  );
  printTable(
    'Routing, the engine at Nepal scale: route() on a snapshot, pairs ≥ 50 km apart (µs)',
    [
      'mode',
      'pairs',
      'mean km',
      'p50',
      'p99',
      'CPU p50',
      'CPU p99',
      'CH search CPU p50',
      'plain Dijkstra p50',
      'its CPU p50',
      'Dijkstra / CH search',
      'Dijkstra / route()',
    ],
    r.modes.map((x) => [
      x.mode,
      x.pairs,
      x.meanKm,
      x.route.p50,
      x.route.p99,
      x.cpu.p50,
      x.cpu.p99,
      x.searchCpu,
      x.dijkstra.p50,
      x.dijkstraCpu,
      ratio(x.dijkstraCpu / x.searchCpu),
      ratio(x.dijkstraCpu / x.cpu.p50),
    ]),
    [
      "route(): snapping, the hierarchy's search, unpacking, the polyline and its length; CH search: the search with its unpacking to",
      'original arcs between two junctions, as the Dijkstra searches between them (same mode graph, same pairs);',
      'CPU: user + system time of each call (3 rounds), without the waits for a core that a busy machine adds to the wall clock',
    ],
  );
  const checks: Check[] = [
    {
      target: 'PBF load with the road graph within +25% of without',
      value: ratio(r.loadWith / r.loadWithout) ?? '-',
      pass: r.loadWith <= 1.25 * r.loadWithout,
    },
  ];
  // judged by CPU time: wall p50 and p99 are printed above; on a quiet machine they agree
  for (const x of r.modes) {
    checks.push({
      target: `route() ${x.mode} p50 ≤ 1 ms (CPU)`,
      value: `${num(x.cpu.p50 / 1000)} ms (wall ${num(x.route.p50 / 1000)})`,
      pass: x.cpu.p50 <= 1000,
    });
    checks.push({
      target: `route() ${x.mode} p99 ≤ 5 ms (CPU)`,
      value: `${num(x.cpu.p99 / 1000)} ms (wall ${num(x.route.p99 / 1000)})`,
      pass: x.cpu.p99 <= 5000,
    });
    // the speed-up technique against the plain search it replaces, the same job on the same graph;
    // route()'s own output (polyline, length) costs both alike and is in the table beside it
    checks.push({
      target: `${x.mode}: the hierarchy's search ≥ 100x a plain Dijkstra (CPU p50)`,
      value: ratio(x.dijkstraCpu / x.searchCpu) ?? '-',
      pass: x.dijkstraCpu >= 100 * x.searchCpu,
    });
  }
  printChecks('Routing targets (engine)', checks);
  return checks;
}
