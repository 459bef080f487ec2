/**
 * Runs in a worker thread (see test/route-unpack.test.ts): builds a hierarchy directly
 * from data whose shortcuts loop, routes on it, and posts back what each route did. In a
 * thread so that a regression, an endless unpacking, is ended by terminate() rather than
 * hang the test run.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { contract, Hierarchy } from '../../src/route/ch.js';
import { ladder, looped, type Outcome } from './ladder.js';

if (parentPort) {
  const { n, loop } = workerData as { n: number; loop: 'self' | 'pairs' };
  const arcs = ladder(n);
  const bad = looped(contract(arcs).data(), loop);
  const h = new Hierarchy(arcs, bad);
  const out: Outcome[] = [];
  for (let s = 0; s < arcs.n; s += 3) {
    for (let t = 0; t < arcs.n; t += 5) {
      try {
        const p = h.route([s, 0], [t, 0]);
        out.push(p && { arcs: [...p.arcs] });
      } catch (err) {
        out.push({ error: (err as Error).name, message: (err as Error).message });
      }
    }
  }
  parentPort.postMessage(out);
}
