// `npm run bench`: the performance sections of issue 3, one table each, baselines and
// ratios from this same run, the targets checked as PASS/FAIL; everything also
// written to bench/results/latest.json.
//
//   1. Load       engine vs osm-read vs osmium, per file, in fresh processes
//   2. nearby()   query classes vs geokdbush and a linear scan, fixture and Nepal-scale
//   3. Scaling    one query at 10k, 100k, 1M places and Nepal-scale
//   4. Memory     bytes per place, counted and as heap delta
//   5. HTTP       bench/http.ts's run(), when that file exists
//
// Needs `node --expose-gc` (npm run bench passes it). Without the generated files
// (`npm run bench:data`) only the fixture parts run.

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { machine, printMachine } from './machine.js';
import { FIXTURE, GENERATED, MAKE_DATA, generated, hasGc, type Dataset } from './datasets.js';
import { loadSection, progress, type Check, type LoadPlan } from './load.js';
import { nearbySection, type NearbyRow } from './nearby.js';
import { scalingSection, type ScalingRow } from './scaling.js';
import { memorySection, type MemoryRow } from './memory.js';
import { runChild, MAX_RSS } from './child.js';
import { CLASS_NAMES } from './queries.js';
import type { DatasetLine } from './dataset-child.js';
import { printTable, verdict } from './table.js';

const RESULTS = fileURLToPath(new URL('results/latest.json', import.meta.url));
const HTTP = fileURLToPath(new URL('http.ts', import.meta.url));
/** Limits of a file's sections 2–4 child: its whole run, and the silence of one step (a load, a query class). */
const CHILD_TIMEOUT = 240_000;
const CHILD_STALL = 90_000;

async function main(): Promise<void> {
  const started = performance.now();
  const m = machine();
  printMachine(m);
  if (!hasGc) console.log('\nWARNING: run with node --expose-gc (npm run bench does): heap figures are unreliable without it.');

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
  const nepal = files.get('nepal');
  const errors: string[] = [];

  // 1. Load: osm-read only where it finishes in seconds; on the big file, a sample of its blobs
  const plans: LoadPlan[] = [{ dataset: FIXTURE, runs: 3, osmRead: true }];
  const oneM = files.get('places-1m');
  if (oneM) plans.push({ dataset: oneM, runs: 1, osmRead: true });
  if (nepal) plans.push({ dataset: nepal, runs: 1, osmRead: 8 });
  const loadResult = await loadSection(plans);

  // 2–4: each file in its own child, under the watchdog, one big index at a time
  const nearbyRows: NearbyRow[] = [];
  const nearbyFailures: string[] = [];
  const scalingRows: ScalingRow[] = [];
  const memoryRows: MemoryRow[] = [];
  const collect = (l: DatasetLine) => {
    if (l.part === 'nearby') nearbyRows.push(l.row);
    else if (l.part === 'scaling') scalingRows.push(l.row);
    else if (l.part === 'memory') memoryRows.push(l.row);
  };
  nearbyFailures.push(...await inChild('fixture', ['memory', 'nearby'], collect, errors));
  if (nepal) nearbyFailures.push(...await inChild('nepal', ['memory', 'scaling', 'nearby'], collect, errors));
  const nearbyChecks = nearbyRows.length || nearbyFailures.length ? nearbySection(nearbyRows, nearbyFailures, nepal ? ['fixture', 'nepal'] : ['fixture']) : [];

  for (const name of ['places-10k', 'places-100k', 'places-1m'] as const) {
    if (files.has(name)) await inChild(name, ['memory', 'scaling'], collect, errors);
  }
  const scaling = scalingRows.length ? scalingSection(scalingRows) : [];
  if (!scalingRows.length) console.log(`\n## 3. Scaling\n\n  skipped: needs the generated files (${MAKE_DATA})`);
  if (memoryRows.length) memorySection(memoryRows);

  // 5. HTTP: another module's section; its failure is reported, not fatal
  let http: unknown = null;
  if (existsSync(HTTP)) {
    progress('http: bench/http.ts run()');
    try {
      const mod = (await import(pathToFileURL(HTTP).href)) as { run?: () => Promise<unknown> };
      if (typeof mod.run !== 'function') throw new Error('bench/http.ts exports no run()');
      console.log('\n## 5. HTTP\n');
      http = await mod.run();
    } catch (err) {
      const msg = (err as Error).stack ?? String(err);
      errors.push(`http: ${msg}`);
      console.log(`\n## 5. HTTP\n\n  FAILED: ${msg.split('\n')[0]}`);
      http = { error: msg };
    }
  } else {
    console.log('\n## 5. HTTP\n\n  skipped: bench/http.ts does not exist');
  }

  const checks: Check[] = [...loadResult.checks, ...nearbyChecks];
  const seconds = (performance.now() - started) / 1000;
  printTable('Targets', ['target', 'result', 'measured'], checks.map((c) => [c.target, verdict(c.pass), c.value]),
    [`${checks.filter((c) => c.pass).length}/${checks.length} targets met. Whole run: ${seconds.toFixed(0)} s.`,
      ...[...loadResult.errors, ...errors].map((e) => `ERROR ${e.split('\n')[0]}`)]);

  mkdirSync(fileURLToPath(new URL('results/', import.meta.url)), { recursive: true });
  writeFileSync(RESULTS, JSON.stringify({
    machine: m, seconds, missing, errors: [...loadResult.errors, ...errors],
    load: loadResult, nearby: nearbyRows, scaling, memory: memoryRows, http, nearbyFailures, checks,
  }, null, 1) + '\n');
  console.log(`\nResults: ${RESULTS}`);
}

/**
 * Runs sections 2–4's parts on one file in a child. A nearby class that never ends
 * (the child is killed at the memory or time limit) is reported and skipped, and the
 * child restarted once for the classes after it. Returns those failures.
 */
async function inChild(name: string, parts: string[], collect: (l: DatasetLine) => void, errors: string[]): Promise<string[]> {
  const failures: string[] = [];
  let remaining = parts.includes('nearby') ? [...CLASS_NAMES] : [];
  let todo = parts;
  for (let attempt = 0; attempt < 2; attempt++) {
    let running: string | undefined;
    const run = await runChild('dataset-child.ts', [name, todo.join(','), ...(todo.includes('nearby') ? remaining : [])],
      { maxRss: MAX_RSS, timeout: CHILD_TIMEOUT, stall: CHILD_STALL }, (v) => {
        const l = v as DatasetLine;
        if (l.part === 'begin') running = l.class;
        if (l.part === 'nearby') {
          running = undefined;
          remaining = remaining.filter((c) => c !== l.row.class);
        }
        collect(l);
      }, true);
    if (!run.failed) break;
    if (!running) {
      errors.push(`${name} (${todo.join(', ')}): ${run.failed}`);
      progress(`FAILED ${name}: ${run.failed}`);
      break;
    }
    const failed = running;
    failures.push(`${name} ${failed}: ${run.failed}`);
    progress(`FAILED ${name} nearby ${failed}: ${run.failed}`);
    remaining = remaining.filter((c) => c !== failed);
    if (!remaining.length) break;
    todo = ['nearby'];
  }
  return failures;
}

main().catch((err: unknown) => {
  console.error((err as Error).stack ?? String(err));
  process.exit(1);
});
