// `npm run bench`: the performance sections of issue 3, one table each, baselines and
// ratios from this same run, the issue's targets checked as PASS/FAIL; everything also
// written to bench/results/latest.json.
//
//   1. Load       engine vs osm-read vs osmium, per file, in fresh processes
//   2. nearby()   query classes vs geokdbush and a linear scan, fixture and Nepal-scale
//   3. Scaling    one query at 10k, 100k, 1M places and Nepal-scale
//   4. Memory     bytes per place, counted and as heap delta
//   5. HTTP       bench/http.ts's run(), when that file exists
//   6. Search     bench/search.ts's run(): search, place and reverse on the fixture
//   7. Snapshots  each file's snapshot: size, and load time against its PBF's
//   8. Throughput bench/throughput.ts's run(): one serve process, Redis, 2 workers, against a
//                 bare node:http server answering the same bytes
//   9. Slowest    bench/slowest.ts's run(): the slowest legal request per endpoint found
//                 by searching the parameter space at Nepal scale, against 50 ms
//  10. Routing    bench/route.ts's run(): CH preprocessing, routes vs (bidirectional) Dijkstra
//  11. Tiles      `nepal-places tiles` against tilemaker, and tile serving from the archive
//  12. Reliability bench/reliability.ts's run(): the adversarial run against serve as deployed
//                 (fuzz, quota race, page key, burst, Redis stalled, PBF and tile bombs, reloads,
//                 pipes and devices, SIGTERM under keep-alive, kill -9 of a worker)
//
// Every index is loaded in a child process (bench/load-child.ts) under a memory and
// time watchdog; a big file is loaded once, and its child runs sections 2–4 on it.
// Without the generated files (`npm run bench:data`) only the fixture parts run.

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { machine, printMachine } from './machine.js';
import { FIXTURE, GENERATED, MAKE_DATA, generated, type Dataset } from './datasets.js';
import { baselineLoads, loadSection, osmiumVersion, ourRow, timeOurLoads, type LoadRow } from './load.js';
import { nearbySection, type ClassFailure, type NearbyRow } from './nearby.js';
import { scalingSection, type ScalingRow } from './scaling.js';
import { memorySection, type MemoryRow } from './memory.js';
import { snapshotSection } from './snapshot.js';
import { tilesSection } from './tiles.js';
import { runChild, MAX_RSS } from './child.js';
import { CLASS_NAMES } from './queries.js';
import { progress } from './progress.js';
import { printChecks, type Check } from './table.js';
import type { ChildLine, ChildResult } from './load-child.js';

const RESULTS = fileURLToPath(new URL('results/latest.json', import.meta.url));
const HTTP = fileURLToPath(new URL('http.ts', import.meta.url));
const SEARCH = fileURLToPath(new URL('search.ts', import.meta.url));
const THROUGHPUT = fileURLToPath(new URL('throughput.ts', import.meta.url));
const SLOWEST = fileURLToPath(new URL('slowest.ts', import.meta.url));
const ROUTE = fileURLToPath(new URL('route.ts', import.meta.url));
const RELIABILITY = fileURLToPath(new URL('reliability.ts', import.meta.url));
/** Limits of a file's child: its whole run, and the silence of one step (the load, one query class). */
const CHILD_TIMEOUT = 240_000;
const CHILD_STALL = 90_000;

/** What one file's child measured. */
interface Measured {
  load?: ChildResult;
  nearby: NearbyRow[];
  scaling: ScalingRow[];
  memory: MemoryRow[];
  /** Query classes that did not finish, with why. */
  failures: ClassFailure[];
  /** The child failing outside a query class (its load, say). */
  error?: string;
}

async function main(): Promise<void> {
  const started = performance.now();
  const m = machine();
  printMachine(m);

  const files = new Map<string, Dataset>();
  const missing: string[] = [];
  for (const name of GENERATED) {
    const d = generated(name);
    if (typeof d === 'string') missing.push(d);
    else files.set(name, d);
  }
  if (missing.length) {
    console.log(`\nNepal-scale data missing, running the fixture-only parts:\n  ${missing.join('\n  ')}\nMake it with:\n  ${MAKE_DATA}`);
  }
  const osmium = osmiumVersion();
  const errors: string[] = [];
  const loads: LoadRow[] = [];
  const all: Measured = { nearby: [], scaling: [], memory: [], failures: [] };
  const measure = async (d: Dataset, parts: string[]): Promise<LoadRow | undefined> => {
    const got = await inChild(d, parts);
    all.nearby.push(...got.nearby);
    all.scaling.push(...got.scaling);
    all.memory.push(...got.memory);
    all.failures.push(...got.failures);
    if (got.error) errors.push(`${d.name}: ${got.error}`);
    return got.load && ourRow(d, got.load);
  };

  // the fixture loads in a blink: time three fresh loads, then measure on a fourth
  const fixtureLoad = await timeOurLoads(FIXTURE, 3).catch((err: Error) => {
    errors.push(`fixture: ${err.message}`);
    return undefined;
  });
  if (fixtureLoad) loads.push(fixtureLoad);
  loads.push(...(await baselineLoads(FIXTURE, fixtureLoad, 3, true, osmium !== null, errors)));
  await measure(FIXTURE, ['memory', 'nearby']);

  // a big file loads once: its child reports the load, then runs its sections
  const plan: [string, string[], boolean | number][] = [
    ['nepal', ['memory', 'scaling', 'nearby'], 8], // osm-read on every 8th blob: the whole file would take ~45 s
    ['places-10k', ['memory', 'scaling'], false],
    ['places-100k', ['memory', 'scaling'], false],
    ['places-1m', ['memory', 'scaling'], true],
  ];
  for (const [name, parts, osmRead] of plan) {
    const d = files.get(name);
    if (!d) continue;
    const ours = await measure(d, parts);
    if (osmRead === false) continue;
    if (ours) loads.push(ours);
    loads.push(...(await baselineLoads(d, ours, 1, osmRead, osmium !== null, errors)));
  }

  const checks: Check[] = [
    ...loadSection(
      loads,
      osmium,
      errors.filter((e) => / (osm-read|osmium) failed/.test(e)),
    ),
  ];
  const attempted = files.has('nepal') ? ['fixture', 'nepal'] : ['fixture'];
  checks.push(...nearbySection(all.nearby, all.failures, attempted));
  const scaling = all.scaling.length ? scalingSection(all.scaling) : [];
  if (!all.scaling.length) console.log(`\n## 3. Scaling\n\n  skipped: needs the generated files, made by ${MAKE_DATA}`);
  if (all.memory.length) memorySection(all.memory);

  // 5 and 6: other modules' sections; a failure is reported, not fatal
  const http = await section('5. HTTP', HTTP, errors);
  const searchResults = await section('6. Search, place and reverse', SEARCH, errors);
  const nepal = files.get('nepal');
  const snapshots = await snapshotSection(nepal ? [FIXTURE, nepal] : [FIXTURE], loads, errors);
  checks.push(...snapshots.checks);
  const throughput = (await section('8. HTTP throughput', THROUGHPUT, errors)) as {
    share?: number;
    target?: number;
    pass?: boolean;
  } | null;
  if (throughput?.share !== undefined) {
    checks.push({
      target: `one serve process ≥ ${100 * throughput.target!}% of a bare node:http server's req/s`,
      value: `${(100 * throughput.share).toFixed(0)}%`,
      pass: throughput.pass === true,
    });
  }
  // after 7, which writes the Nepal-scale snapshot it loads
  const slowest = await section('8. Slowest legal request per endpoint', SLOWEST, errors);
  checks.push(...((slowest as { checks?: Check[] } | null)?.checks ?? []));
  const routing = await section('10. Routing', ROUTE, errors);
  checks.push(...((routing as { checks?: Check[] } | null)?.checks ?? []));
  const tiles = await tilesSection(nepal ? [FIXTURE, nepal] : [FIXTURE], errors);
  checks.push(...tiles.checks);
  const reliability = (await section('12. Reliability', RELIABILITY, errors)) as { pass?: Record<string, boolean> } | null;
  for (const [what, pass] of Object.entries(reliability?.pass ?? {}))
    checks.push({ target: `reliability: ${what}`, value: pass ? 'held' : 'broke', pass });

  const seconds = (performance.now() - started) / 1000;
  printChecks('Targets', checks, [
    `${checks.filter((c) => c.pass).length}/${checks.length} targets met. Whole run: ${seconds.toFixed(0)} s.`,
    ...errors.map((e) => `ERROR ${e.split('\n')[0]}`),
  ]);

  mkdirSync(fileURLToPath(new URL('results/', import.meta.url)), { recursive: true });
  writeFileSync(
    RESULTS,
    JSON.stringify(
      {
        machine: m,
        seconds,
        missing,
        errors,
        load: loads,
        nearby: all.nearby,
        nearbyFailures: all.failures,
        scaling,
        memory: all.memory,
        http,
        search: searchResults,
        snapshots: snapshots.rows,
        throughput,
        slowest,
        routing,
        tiles: { builds: tiles.rows, serving: tiles.serving },
        reliability,
        checks,
      },
      null,
      1,
    ) + '\n',
  );
  console.log(`\nResults: ${RESULTS}`);
}

/**
 * Loads a file in a child and runs `parts` on it there. A query class that never ends
 * (the child is killed at the memory, time or silence limit) is reported with the
 * classes it kept from running; the rest of the child's results are kept.
 */
async function inChild(d: Dataset, parts: string[]): Promise<Measured> {
  const got: Measured = { nearby: [], scaling: [], memory: [], failures: [] };
  let running: string | undefined;
  const done = new Set<string>();
  const run = await runChild(
    'load-child.ts',
    [d.path, d.name, parts.join(',')],
    { maxRss: MAX_RSS, timeout: CHILD_TIMEOUT, stall: CHILD_STALL },
    (v) => {
      const l = v as ChildLine;
      if (l.part === 'load') got.load = l.result;
      else if (l.part === 'begin') running = l.class;
      else if (l.part === 'nearby') {
        running = undefined;
        done.add(l.row.class);
        got.nearby.push(l.row);
      } else if (l.part === 'scaling') got.scaling.push(l.row);
      else if (l.part === 'memory') got.memory.push(l.row);
    },
    true,
  );
  if (!run.failed) return got;
  progress(`FAILED ${d.name}${running ? ` nearby ${running}` : ''}: ${run.failed}`);
  if (!running) return { ...got, error: `${parts.join(', ')}: ${run.failed}` };
  const stuck = running;
  got.failures.push({ dataset: d.name, class: stuck, reason: run.failed, notRun: CLASS_NAMES.filter((c) => c !== stuck && !done.has(c)) });
  return got;
}

main().catch((err: unknown) => {
  console.error((err as Error).stack ?? String(err));
  process.exit(1);
});

/** Runs the `run()` of a section module, printing its heading; its failure goes into `errors`. */
async function section(title: string, file: string, errors: string[]): Promise<unknown> {
  const name = file.split('/').pop();
  if (!existsSync(file)) {
    console.log(`\n## ${title}\n\n  skipped: bench/${name} does not exist`);
    return null;
  }
  progress(`${title}: bench/${name} run()`);
  console.log(`\n## ${title}\n`);
  try {
    const mod = (await import(pathToFileURL(file).href)) as { run?: () => Promise<unknown> };
    if (typeof mod.run !== 'function') throw new Error(`bench/${name} exports no run()`);
    return await mod.run();
  } catch (err) {
    const msg = (err as Error).stack ?? String(err);
    errors.push(`${title}: ${msg}`);
    console.log(`  FAILED: ${msg.split('\n')[0]}`);
    return { error: msg };
  }
}
