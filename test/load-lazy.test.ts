/**
 * A PBF load makes each mode's routing graph on the mode's first use, as a snapshot's open does:
 * the load costs none of it, a mode never routed by is never made, and a route answers as it does
 * where every mode was made up front.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPbf, type PlaceIndex } from '../src/index.js';
import { route } from '../src/query/route.js';
import { MODES } from '../src/osm/profile.js';
import { TRANSIT } from './support/raw.js';

/** Whether item m has been made (the items are made by their getter until then). */
const made = (items: unknown[], m: number) => Object.getOwnPropertyDescriptor(items, m)?.get === undefined;

const CAR = MODES.indexOf('car');
let eager: PlaceIndex;
let points: [number, number][];

beforeAll(async () => {
  eager = await loadPbf(TRANSIT, { contract: 'never' });
  MODES.forEach((_, m) => expect(eager.router!.modes[m].arcs).toBeDefined());
  // two junctions on an edge every mode may take, a third of the graph apart
  const g = eager.router!.graph;
  const open = [...g.edgeFrom.keys()].filter((e) => (g.edgeAccess[e] & 0xff) === 0xff);
  const at = (e: number): [number, number] => [g.nodeLat[g.edgeFrom[e]] / 1e7, g.nodeLon[g.edgeFrom[e]] / 1e7];
  points = [at(open[0]), at(open[Math.floor(open.length / 3)])];
});

describe("a PBF load makes no mode's graph", () => {
  it('every mode is still to be made after the load', async () => {
    const router = (await loadPbf(TRANSIT, { contract: 'never' })).router!;
    MODES.forEach((_, m) => expect(made(router.modes, m), MODES[m]).toBe(false));
  });
});

describe("a mode's first route makes that mode alone, and answers as the index made up front does", () => {
  it('a car route makes the car graph, not the others', async () => {
    const index = await loadPbf(TRANSIT, { contract: 'never' });
    const got = route(index, { points, mode: 'car' });
    expect(got).toEqual(route(eager, { points, mode: 'car' }));
    expect(got[0].distanceInMeters).toBeGreaterThan(0);
    MODES.forEach((_, m) => expect(made(index.router!.modes, m), MODES[m]).toBe(m === CAR));
  });
});

describe('contracting makes every mode', () => {
  it("a contracted load's modes are all made, with a hierarchy each", async () => {
    const router = (await loadPbf(TRANSIT, { contract: 'always' })).router!;
    MODES.forEach((_, m) => {
      expect(made(router.modes, m), MODES[m]).toBe(true);
      expect(router.hierarchies[m], MODES[m]).toBeDefined();
    });
  });
});
