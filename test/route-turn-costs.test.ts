/**
 * Turn costs are data: each profile's `turnCosts` in the profiles document (docs/routing.md,
 * "Profiles" and "Turns and restrictions") is what routes pay, checked with errors naming the
 * field, the shipped numbers the documented table's, and a user's own document changes them.
 * Hand-made network (test/support/turn-net.ts); times worked out here from the grid lengths.
 */
import polyline from '@mapbox/polyline';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildSnapshot,
  checkProfiles,
  DEFAULT_PROFILES,
  fromSnapshot,
  loadPbf,
  ProfileError,
  route,
  type PlaceIndex,
} from '../src/index.js';
import { gridMetres, gridOf, latLon, type P } from './support/roads.js';
import { TURN_CASES, writeTurnNet } from './support/turn-net.js';

const residential = (mode: 'car' | 'bike') => {
  const s = DEFAULT_PROFILES[mode].speeds as Record<string, number>;
  return s.residential ?? s['*'];
};
const msOf = (pts: P[], kmh: number) => (pts.slice(1).reduce((m, p, i) => m + gridMetres(pts[i], p), 0) * 3600) / kmh;

function drive(index: PlaceIndex, from: [number, number], to: P) {
  const [r] = route(index, { points: [from, latLon(to)], mode: 'car' });
  return { pts: polyline.decode(r.encodedPolyline, 5).map(gridOf), r };
}

/** The shipped document with the car's turn costs changed by `edit`. */
function carCosts(edit: (c: Record<string, any>) => void) {
  const costs = structuredClone(DEFAULT_PROFILES.car.turnCosts) as Record<string, any>;
  edit(costs);
  return { version: 1, car: { ...DEFAULT_PROFILES.car, turnCosts: costs } };
}

describe('the document holds the turn costs, checked with errors naming the field', () => {
  it('the shipped numbers are the documented table (ms)', () => {
    const doc = checkProfiles(DEFAULT_PROFILES);
    expect(doc.car.turnCosts).toEqual({
      left: { slight: 1000, normal: 3000, sharp: 6000 },
      right: { slight: 1500, normal: 5000, sharp: 8000 },
      uTurn: 20_000,
      signals: 10_000,
      stop: 3000,
      giveWay: 1500,
      crossing: 1000,
    });
    expect(doc.motorbike.turnCosts.right).toEqual({ slight: 1000, normal: 3500, sharp: 6000 });
    expect(doc.bike.turnCosts.uTurn).toBe(5000);
    expect(
      Object.values(doc.foot.turnCosts)
        .flatMap((v) => (typeof v === 'number' ? [v] : Object.values(v)))
        .every((v) => v === 0),
    ).toBe(true);
  });
  it.each([
    [carCosts((c) => (c.right.sharp = -1)), 'car.turnCosts.right.sharp'],
    [carCosts((c) => (c.signals = 2.5)), 'car.turnCosts.signals'],
    [carCosts((c) => (c.uTurn = 'long')), 'car.turnCosts.uTurn'],
    [carCosts((c) => delete c.giveWay), 'car.turnCosts.giveWay'],
    [carCosts((c) => (c.left.slight = 3_600_000)), 'car.turnCosts.left.slight'],
    [carCosts((c) => (c.merge = 100)), 'car.turnCosts'],
    [{ version: 1, car: { ...DEFAULT_PROFILES.car, turnCosts: {} } }, 'car.turnCosts.left'],
  ] as [unknown, string][])('case %# → ProfileError naming %s', (doc, field) => {
    let err: unknown;
    try {
      checkProfiles(doc);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ProfileError);
    expect((err as ProfileError).field).toBe(field);
  });
});

describe('routes pay the turn costs of the document the graph was built with', () => {
  const n = TURN_CASES.signalsNorth;
  // from halfway A–N to B: on through N (traffic signals), the only way on without turning back
  let half: [number, number], file: string;
  let plain: PlaceIndex, noSignals: PlaceIndex;
  const want = () => msOf([n.A, n.N], residential('car')) / 2 + msOf([n.N, n.B], residential('car'));
  beforeAll(async () => {
    file = await writeTurnNet();
    half = [(latLon(n.A)[0] + latLon(n.N)[0]) / 2, (latLon(n.A)[1] + latLon(n.N)[1]) / 2];
    [plain, noSignals] = await Promise.all([loadPbf(file), loadPbf(file, { profiles: carCosts((c) => (c.signals = 0)) })]);
  });
  it('the shipped car waits at the signals: their delay in timeInMs', () => {
    const { pts, r } = drive(plain, half, n.B);
    expect(pts.slice(1)).toEqual([n.N, n.B]);
    expect(Math.abs(r.timeInMs - want() - 10_000)).toBeLessThanOrEqual(3);
  });
  it('a document with car signals 0: the same route without the delay, in the index and in its snapshot', () => {
    for (const index of [noSignals, fromSnapshot(buildSnapshot(noSignals))]) {
      const { pts, r } = drive(index, half, n.B);
      expect(pts.slice(1)).toEqual([n.N, n.B]);
      expect(Math.abs(r.timeInMs - want())).toBeLessThanOrEqual(3);
    }
  });
  it('a document whose left turns cost more than the right ones turns the car right: S X R N, its right turn in timeInMs', async () => {
    const { S, X, R, L, N } = TURN_CASES.side;
    const kmh = residential('car');
    expect(drive(plain, latLon(S), N).pts).toEqual([S, X, L, N]);
    const index = await loadPbf(file, { profiles: carCosts((c) => (c.left.normal = 9000)), contract: 'always' });
    const { pts, r } = drive(index, latLon(S), N);
    expect(pts).toEqual([S, X, R, N]);
    expect(Math.abs(r.timeInMs - msOf([S, X, R, N], kmh) - DEFAULT_PROFILES.car.turnCosts.right.normal)).toBeLessThanOrEqual(4);
  });
});
