/**
 * A snapshot stores each mode's contraction hierarchy compact (the `ch<mode>…` sections: order,
 * slot ranges, counts, and a few bits per slot) and derives the rest when it opens: the restored
 * hierarchies are the contracted ones, array for array, so routes, alternatives and matrices
 * answer exactly alike before and after the round trip.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot, fromSnapshot, type PlaceIndex } from '../src/index.js';
import { sectionSizes } from '../src/snapshot/sections.js';
import { route, type RouteQuery } from '../src/query/route.js';
import { matrix } from '../src/query/matrix.js';
import { engine } from './support/fixture.js';
import { CORE, TRANSIT } from './support/raw.js';
import { random } from './support/random.js';

const MODES = ['foot', 'bike', 'car'] as const;

/** An answer as comparable data: the value, or the error's name and message. */
function answer(run: () => unknown): unknown {
  try {
    return run();
  } catch (err) {
    return { error: (err as Error).name, message: (err as Error).message };
  }
}

/** Seeded points at and near the road junctions of an index. */
function points(index: PlaceIndex, count: number, seed: number): [number, number][] {
  const g = index.router!.graph,
    rnd = random(seed);
  return Array.from({ length: count }, () => {
    const v = Math.floor(rnd() * g.nodeLon.length);
    return [g.nodeLat[v] / 1e7 + (rnd() - 0.5) * 0.0005, g.nodeLon[v] / 1e7 + (rnd() - 0.5) * 0.0005];
  });
}

/** Seeded points near the junctions of an index that `mode` can snap to (a matrix refuses the others). */
function routable(index: PlaceIndex, mode: (typeof MODES)[number], count: number, seed: number): [number, number][] {
  const out: [number, number][] = [];
  for (const p of points(index, 20 * count, seed)) {
    if (out.length === count) break;
    if (Array.isArray(answer(() => route(index, { points: [p, p], mode })))) out.push(p);
  }
  expect(out).toHaveLength(count);
  return out;
}

describe.each([
  ['core', CORE],
  ['transit', TRANSIT],
])('the %s fixture: its hierarchies restored from a snapshot are those contracted', (_, file) => {
  let index: PlaceIndex, restored: PlaceIndex, bytes: Uint8Array;
  beforeAll(async () => {
    index = await engine(file);
    expect(index.router?.contracted).toBe(true);
    bytes = buildSnapshot(index);
    restored = fromSnapshot(bytes);
  });

  it("every mode's arrays, of the same type, byte for byte", () => {
    const a = index.router!.hierarchies,
      b = restored.router!.hierarchies;
    expect(b.length).toBe(a.length);
    a.forEach((h, m) => {
      const d = h!.data(),
        e = b[m]!.data();
      for (const k of ['rank', 'first', 'mid', 'head', 'weight', 'ab'] as const) {
        expect(e[k].constructor, `mode ${m} ${k}`).toBe(d[k].constructor);
        expect(
          Buffer.from(e[k].buffer, e[k].byteOffset, e[k].byteLength).equals(Buffer.from(d[k].buffer, d[k].byteOffset, d[k].byteLength)),
          `mode ${m} ${k}`,
        ).toBe(true);
      }
    });
  });

  it('routes and alternatives, every mode: the same answers', () => {
    const ps = points(index, 40, 3);
    const qs: RouteQuery[] = [];
    for (let i = 0; i + 1 < ps.length; i += 2)
      for (const mode of MODES) qs.push({ points: [ps[i], ps[i + 1]], mode, alternatives: i % 4 === 0, instructions: i % 6 === 0 });
    const before = qs.map((q) => answer(() => route(index, q))),
      after = qs.map((q) => answer(() => route(restored, q)));
    expect(after).toEqual(before);
    expect(before.filter(Array.isArray).length).toBeGreaterThan(qs.length / 2);
  });

  it.each(MODES)('a %s matrix of 12 × 12 points: the same durations and distances', (mode) => {
    const sources = routable(index, mode, 12, 4),
      destinations = routable(index, mode, 12, 5);
    const before = answer(() => matrix(index, { sources, destinations, mode })),
      after = answer(() => matrix(restored, { sources, destinations, mode }));
    expect(after).toEqual(before);
    expect((before as { durations?: unknown }).durations).toBeDefined();
  });

  it('the hierarchies take a few bits a slot: their sections under 2 bytes a slot, where the arrays they stand for take 24', () => {
    const slots = index.router!.hierarchies.reduce((n, h) => n + h!.size.edges, 0);
    const ch = sectionSizes(bytes)
      .filter((s) => /^ch\d/.test(s.name))
      .reduce((n, s) => n + s.bytes, 0);
    expect(ch / slots).toBeLessThan(2);
  });
});
