/**
 * A snapshot's router makes each mode's graph and hierarchy on the mode's first use, not when the
 * snapshot opens: opening costs none of it, a mode never routed by is never made, and a damaged
 * hierarchy is refused, as `corrupted`, by the first query of its mode.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fromSnapshot, SnapshotError, type PlaceIndex } from '../src/index.js';
import { route } from '../src/query/route.js';
import { MODES } from '../src/osm/profile.js';
import { reseal, section, transitSnapshot } from './support/crafted.js';

const FOOT = MODES.indexOf('foot'),
  CAR = MODES.indexOf('car');
// two junction-side points of the transit fixture a few hundred metres apart, on roads every mode may use
let points: [number, number][];
let whole: PlaceIndex;
let bytes: Uint8Array;

beforeAll(async () => {
  ({ whole, bytes, points } = await transitSnapshot());
});

/** Whether mode m's graph has been made (the items are made by their getter until then). */
const made = (items: unknown[], m: number) => Object.getOwnPropertyDescriptor(items, m)?.get === undefined;

describe("opening makes no mode's routing", () => {
  it('every mode is said to have its hierarchy, none is made', () => {
    const router = fromSnapshot(bytes).router!;
    MODES.forEach((_, m) => {
      expect(router.has(m), MODES[m]).toBe(whole.router!.has(m));
      expect(made(router.modes, m), `${MODES[m]} graph`).toBe(false);
      expect(made(router.hierarchies, m), `${MODES[m]} hierarchy`).toBe(false);
    });
    expect(router.contracted).toBe(true);
  });
});

describe("a mode's first query makes that mode alone, and answers as the whole index does", () => {
  it('a car route makes the car graph and hierarchy, not the others', () => {
    const index = fromSnapshot(bytes);
    const want = route(whole, { points, mode: 'car' });
    expect(route(index, { points, mode: 'car' })).toEqual(want);
    const router = index.router!;
    expect(made(router.modes, CAR)).toBe(true);
    expect(made(router.hierarchies, CAR)).toBe(true);
    expect(made(router.hierarchies, FOOT)).toBe(false);
    expect(router.hierarchies[CAR]!.data()).toEqual(whole.router!.hierarchies[CAR]!.data());
  });
});

describe("a damaged hierarchy opens, and is refused as corrupted by its mode's first query", () => {
  it('every bit of the foot slots set: the snapshot opens, cars route, walking throws SnapshotError corrupted', () => {
    const b = bytes.slice();
    const s = section(b, `ch${FOOT}slots`);
    b.fill(0xff, s.at, s.at + s.bytes);
    const index = fromSnapshot(reseal(b), 'crafted.places');
    expect(route(index, { points, mode: 'car' })).toEqual(route(whole, { points, mode: 'car' }));
    let err: unknown;
    try {
      route(index, { points, mode: 'foot' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SnapshotError);
    expect(err).toMatchObject({ problem: 'corrupted', file: 'crafted.places' });
    // and again: a refused mode stays refused
    expect(() => route(index, { points, mode: 'foot' })).toThrow(SnapshotError);
  });
});
