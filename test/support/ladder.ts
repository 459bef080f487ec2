/**
 * Hierarchies built directly from bad data, for test/route-unpack.test.ts: a small graph,
 * and its contracted data with every shortcut's first half made to loop.
 */
import type { HierarchyData } from '../../src/route/ch.js';
import type { Arcs } from '../../src/route/csr.js';

/** What a route did: the arcs it found, null for no route, or the error it threw. */
export type Outcome = { arcs: number[] } | null | { error: string; message: string };

/** A ladder: two rows of `n` nodes, both ways along each row and across each rung, weights varied. */
export function ladder(n: number): Arcs {
  const from: number[] = [],
    to: number[] = [],
    weight: number[] = [];
  const both = (a: number, b: number, w: number) => {
    from.push(a, b);
    to.push(b, a);
    weight.push(w, w);
  };
  for (let i = 0; i + 1 < n; i++) {
    both(i, i + 1, 100 + ((i * 37) % 50));
    both(n + i, n + i + 1, 120 + ((i * 53) % 40));
  }
  for (let i = 0; i < n; i++) both(i, n + i, 300 + ((i * 29) % 70));
  return { n: 2 * n, from: Uint32Array.from(from), to: Uint32Array.from(to), weight: Uint32Array.from(weight) };
}

/** The hierarchy's data with every shortcut's first half changed by `loop` (slot, shortcuts) → slot. */
export function looped(d: HierarchyData, loop: 'self' | 'pairs'): HierarchyData {
  const ab = d.ab.slice();
  const cuts: number[] = [];
  for (let k = 0; 2 * k < ab.length; k++) if (ab[2 * k + 1] !== 0xffffffff) cuts.push(k);
  if (loop === 'self') for (const k of cuts) ab[2 * k] = k;
  else
    for (let i = 0; i + 1 < cuts.length; i += 2) {
      ab[2 * cuts[i]] = cuts[i + 1];
      ab[2 * cuts[i + 1]] = cuts[i];
    }
  return { ...d, ab };
}
