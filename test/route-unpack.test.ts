/**
 * Unpacking a route's shortcuts always ends. `Hierarchy.from` refuses data whose shortcuts
 * are not made of lower slots (what a snapshot restores); a Hierarchy built directly from
 * such data still unpacks no path past the graph's number of arcs (a cheapest path uses
 * each arc once at most), throwing a RangeError instead of looping.
 */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { contract, Hierarchy } from '../src/route/ch.js';
import { ladder, looped, type Outcome } from './support/ladder.js';

const N = 12;

/** Routes on the looped hierarchy in a worker thread, ended after `ms` if it has not answered. */
function routeInThread(loop: 'self' | 'pairs', ms: number): Promise<Outcome[] | 'timed out'> {
  const url = new URL('./support/unpack-thread.ts', import.meta.url).href;
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const boot = `import(${tsx}).then((t) => { t.register(); return import(${JSON.stringify(url)}); });`;
  const w = new Worker(boot, { eval: true, workerData: { n: N, loop } });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void w.terminate();
      resolve('timed out');
    }, ms);
    w.once('message', (out: Outcome[]) => {
      clearTimeout(timer);
      void w.terminate();
      resolve(out);
    });
    w.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** The same pairs on the intact hierarchy. */
function intact(): Outcome[] {
  const arcs = ladder(N);
  const h = contract(arcs);
  const out: Outcome[] = [];
  for (let s = 0; s < arcs.n; s += 3)
    for (let t = 0; t < arcs.n; t += 5) {
      const p = h.route([s, 0], [t, 0]);
      out.push(p && { arcs: [...p.arcs] });
    }
  return out;
}

describe('Hierarchy.from refuses shortcuts that are not made of lower slots', () => {
  it.each(['self', 'pairs'] as const)('first halves looping (%s): a RangeError naming the shortcut', (loop) => {
    const arcs = ladder(N);
    const data = contract(arcs).data();
    expect(() => Hierarchy.from(arcs, data)).not.toThrow();
    expect(() => Hierarchy.from(arcs, looped(data, loop))).toThrow(/hierarchy data: shortcut \d+/);
  });

  it("a shortcut at a weight other than its halves' sum, or an original slot at another arc's: a RangeError", () => {
    const arcs = ladder(N);
    const d = contract(arcs).data();
    const k = d.ab.findIndex((_, i) => i % 2 === 1 && d.ab[i] !== 0xffffffff) >> 1;
    const heavier = d.weight.slice();
    heavier[k] += 1;
    expect(() => Hierarchy.from(arcs, { ...d, weight: heavier })).toThrow(/shortcut/);
    const o = d.ab.findIndex((_, i) => i % 2 === 1 && d.ab[i] === 0xffffffff) >> 1;
    const other = d.ab.slice();
    other[2 * o] = (other[2 * o] + 1) % arcs.from.length;
    expect(() => Hierarchy.from(arcs, { ...d, ab: other })).toThrow(/slot \d+ is not the arc/);
  });
});

describe('unpacking is bounded even for a Hierarchy built directly from looping data', () => {
  // the bound is the graph's arcs (a few dozen here): answers come in milliseconds; 30 s
  // is the headroom of a loaded machine, past which the unpacking is taken to be endless
  it.each(['self', 'pairs'] as const)(
    'first halves looping (%s): routes over a shortcut throw a RangeError, the others are unchanged',
    { timeout: 60_000 },
    async (loop) => {
      const got = await routeInThread(loop, 30_000);
      expect(got).not.toBe('timed out');
      const want = intact();
      const outcomes = got as Outcome[];
      expect(outcomes.length).toBe(want.length);
      let thrown = 0;
      outcomes.forEach((o, i) => {
        if (o && 'error' in o) {
          thrown++;
          expect(o).toMatchObject({ error: 'RangeError', message: expect.stringMatching(/unpacks to more than the graph's \d+ arcs/) });
        } else expect(o).toEqual(want[i]);
      });
      expect(thrown).toBeGreaterThan(0);
    },
  );
});
