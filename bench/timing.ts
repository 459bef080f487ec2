// Latency of functions called one input at a time, measured by tinybench: one
// sample per call, so p50/p99 are per-call latencies, not batch means.

import { Bench } from 'tinybench';

/** Per-call latency of one function. */
export interface Timing {
  /** Latency percentiles and mean, microseconds. */
  p50: number;
  p99: number;
  mean: number;
  /** Calls per second: 1 / mean latency. */
  hz: number;
  samples: number;
}

/** How long to measure each function. */
export interface Budget {
  /** Milliseconds of measured calls (at least `iterations` calls). */
  time: number;
  iterations: number;
  warmupTime: number;
}

/** Enough for a stable median of microsecond calls; a slow call still gets `iterations` samples. */
export const QUICK: Budget = { time: 150, iterations: 24, warmupTime: 40 };

// results' lengths add up here: a module variable, so no call can be optimised away
export let sink = 0;

/**
 * Times each function over `inputs`, call i taking input i mod n, one after the
 * other in one tinybench run. The timer's own cost is calibrated and subtracted.
 */
export function timeEach<I>(
  inputs: I[],
  fns: Record<string, (input: I) => { length: number }>,
  budget: Budget = QUICK,
): Record<string, Timing> {
  const bench = new Bench({
    time: budget.time,
    iterations: budget.iterations,
    warmupTime: budget.warmupTime,
    warmupIterations: Math.min(8, budget.iterations),
    timestampProvider: 'hrtimeNow',
    subtractTimerOverhead: true,
    throws: true,
  });
  for (const [name, fn] of Object.entries(fns)) {
    let i = 0;
    bench.add(
      name,
      () => {
        sink += fn(inputs[i++ % inputs.length]).length;
      },
      { async: false },
    );
  }
  bench.runSync();
  const out: Record<string, Timing> = {};
  for (const task of bench.tasks) {
    const r = task.result;
    if (r.state === 'errored') throw r.error;
    if (r.state !== 'completed' && r.state !== 'aborted-with-statistics') throw new Error(`${task.name}: ${r.state}`);
    out[task.name] = {
      p50: r.latency.p50 * 1000,
      p99: r.latency.p99 * 1000,
      mean: r.latency.mean * 1000,
      hz: r.period > 0 ? 1000 / r.period : Infinity,
      samples: r.latency.samplesCount,
    };
  }
  return out;
}
