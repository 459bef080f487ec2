/**
 * OSM access, one-ways and barriers, read as routers read them (README, "Routing profiles"):
 * each rule on a hand-made "bypass" (test/support/access-net.ts): from A to B straight through M
 * on the way under test, or round by a public detour. The expected route of each mode and
 * direction is worked out by hand from the rule: straight where the rule lets the mode along the
 * straight way (or past the node M), the detour where not.
 */
import polyline from '@mapbox/polyline';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPbf, type PlaceIndex } from '../src/index.js';
import { DESTINATION_PENALTY_MS } from '../src/route/modes.js';
import { TURN_COSTS } from '../src/route/turns.js';
import { route } from '../src/query/route.js';
import { gridMetres, gridOf, latLon, type P } from './support/roads.js';
import { points, writeBypasses, type Bypass } from './support/access-net.js';

type Mode = 'foot' | 'bike' | 'car';
/** Per mode: `S` straight both ways, `D` the detour both ways, `F` straight A → B only, `R` straight B → A only. */
type Want = Record<Mode, 'S' | 'D' | 'F' | 'R'>;

const t = (s: string): [string, string][] => (s ? s.split(' ').map((kv) => kv.split('=') as [string, string]) : []);

/** [rule group, way tags, node M's tags, expected per mode]. */
const CASES: [string, string, string, Want][] = [
  // the hierarchy: access < vehicle < motor_vehicle < motorcar (cars); access < vehicle < bicycle; access < foot
  ['hierarchy', 'vehicle=no', '', { foot: 'S', bike: 'D', car: 'D' }],
  ['hierarchy', 'vehicle=no bicycle=yes', '', { foot: 'S', bike: 'S', car: 'D' }],
  ['hierarchy', 'access=no motor_vehicle=yes', '', { foot: 'D', bike: 'D', car: 'S' }],
  ['hierarchy', 'motor_vehicle=no', '', { foot: 'S', bike: 'S', car: 'D' }],
  ['hierarchy', 'motor_vehicle=no motorcar=yes', '', { foot: 'S', bike: 'S', car: 'S' }],
  ['hierarchy', 'access=private foot=permissive', '', { foot: 'S', bike: 'D', car: 'D' }],
  ['hierarchy', 'vehicle=private bicycle=designated', '', { foot: 'S', bike: 'S', car: 'D' }],
  // closing values
  ['values', 'motor_vehicle=agricultural', '', { foot: 'S', bike: 'S', car: 'D' }],
  ['values', 'motor_vehicle=forestry', '', { foot: 'S', bike: 'S', car: 'D' }],
  ['values', 'access=psv', '', { foot: 'D', bike: 'D', car: 'D' }],
  ['values', 'motorcar=bus', '', { foot: 'S', bike: 'S', car: 'D' }],
  ['values', 'access=military', '', { foot: 'D', bike: 'D', car: 'D' }],
  ['values', 'vehicle=emergency', '', { foot: 'S', bike: 'D', car: 'D' }],
  ['values', 'motorcar=delivery', '', { foot: 'S', bike: 'S', car: 'D' }],
  ['values', 'bicycle=use_sidepath', '', { foot: 'S', bike: 'D', car: 'S' }],
  // an unknown value is as if the key were not there: the less specific key decides
  ['values', 'access=permit', '', { foot: 'S', bike: 'S', car: 'S' }],
  ['values', 'access=no motorcar=permit', '', { foot: 'D', bike: 'D', car: 'D' }],
  // :forward / :backward
  ['directions', 'motor_vehicle:forward=no', '', { foot: 'S', bike: 'S', car: 'R' }],
  ['directions', 'access:backward=private', '', { foot: 'F', bike: 'F', car: 'F' }],
  ['directions', 'vehicle:backward=no bicycle=yes', '', { foot: 'S', bike: 'S', car: 'F' }],
  ['directions', 'access=no foot:forward=yes', '', { foot: 'F', bike: 'D', car: 'D' }],
  // one-ways per mode
  ['oneways', 'oneway=yes', '', { foot: 'S', bike: 'F', car: 'F' }],
  ['oneways', 'oneway=reverse', '', { foot: 'S', bike: 'R', car: 'R' }],
  ['oneways', 'oneway=yes oneway:motorcar=no', '', { foot: 'S', bike: 'F', car: 'S' }],
  ['oneways', 'oneway:motorcar=yes', '', { foot: 'S', bike: 'S', car: 'F' }],
  ['oneways', 'oneway:bicycle=yes', '', { foot: 'S', bike: 'F', car: 'S' }],
  ['oneways', 'oneway=yes oneway:bicycle=no', '', { foot: 'S', bike: 'S', car: 'F' }],
  ['oneways', 'oneway=yes cycleway=opposite_lane', '', { foot: 'S', bike: 'S', car: 'F' }],
  ['oneways', 'oneway:foot=yes', '', { foot: 'F', bike: 'S', car: 'S' }],
  ['oneways', 'oneway=reversible', '', { foot: 'S', bike: 'D', car: 'D' }],
  ['oneways', 'oneway=alternating', '', { foot: 'S', bike: 'D', car: 'D' }],
  ['oneways', 'junction=circular', '', { foot: 'S', bike: 'F', car: 'F' }],
  // node barriers and node access
  ['barriers', '', 'barrier=gate', { foot: 'S', bike: 'S', car: 'S' }],
  ['barriers', '', 'barrier=lift_gate', { foot: 'S', bike: 'S', car: 'S' }],
  ['barriers', '', 'barrier=swing_gate', { foot: 'S', bike: 'S', car: 'S' }],
  ['barriers', '', 'barrier=gate access=private', { foot: 'D', bike: 'D', car: 'D' }],
  ['barriers', '', 'barrier=gate access=private foot=yes', { foot: 'S', bike: 'D', car: 'D' }],
  ['barriers', '', 'barrier=lift_gate motor_vehicle=no', { foot: 'S', bike: 'S', car: 'D' }],
  ['barriers', '', 'barrier=bollard', { foot: 'S', bike: 'S', car: 'D' }],
  ['barriers', '', 'barrier=block', { foot: 'S', bike: 'S', car: 'D' }],
  ['barriers', '', 'barrier=cycle_barrier', { foot: 'S', bike: 'S', car: 'D' }],
  ['barriers', '', 'barrier=bollard motorcar=yes', { foot: 'S', bike: 'S', car: 'S' }],
  ['barriers', '', 'barrier=kissing_gate', { foot: 'S', bike: 'D', car: 'D' }],
  ['barriers', '', 'barrier=stile', { foot: 'S', bike: 'D', car: 'D' }],
  ['barriers', '', 'barrier=turnstile', { foot: 'S', bike: 'D', car: 'D' }],
  ['barriers', '', 'barrier=wall', { foot: 'D', bike: 'D', car: 'D' }],
  ['barriers', '', 'barrier=fence', { foot: 'D', bike: 'D', car: 'D' }],
  ['barriers', '', 'motorcar=no', { foot: 'S', bike: 'S', car: 'D' }],
  ['barriers', '', 'bicycle=no', { foot: 'S', bike: 'D', car: 'S' }],
  ['barriers', '', 'access=no foot=yes', { foot: 'S', bike: 'D', car: 'D' }],
  ['barriers', '', 'access=customers', { foot: 'S', bike: 'S', car: 'S' }],
  // destination-only: never a through road, even the shorter one
  ['destination', 'access=destination', '', { foot: 'D', bike: 'D', car: 'D' }],
  ['destination', 'access=customers', '', { foot: 'D', bike: 'D', car: 'D' }],
  ['destination', 'motor_vehicle=destination', '', { foot: 'S', bike: 'S', car: 'D' }],
  ['destination', 'access=private motorcar=customers', '', { foot: 'D', bike: 'D', car: 'D' }],
  // one direction destination-only makes the way destination-only both ways (README: one flag per way and mode)
  ['destination', 'motor_vehicle:forward=destination', '', { foot: 'S', bike: 'S', car: 'D' }],
  ['destination', 'motor_vehicle:backward=no motor_vehicle:forward=destination', '', { foot: 'S', bike: 'S', car: 'D' }],
];

let index: PlaceIndex;
beforeAll(async () => {
  index = await loadPbf(await writeBypasses(CASES.map(([, way, node]): Bypass => ({ way: t(way), node: node ? t(node) : undefined }))));
});

/** The grid points of the best route from a to b by `mode`. */
function go(mode: Mode, a: P, b: P): P[] {
  const [r] = route(index, { points: [latLon(a), latLon(b)], mode });
  return polyline.decode(r.encodedPolyline, 5).map(gridOf);
}

const GROUPS: [string, string][] = [
  [
    'hierarchy',
    'the access hierarchy per mode: access < vehicle < motor_vehicle < motorcar (car), access < vehicle < bicycle (bike), access < foot; the most specific key decides',
  ],
  [
    'values',
    'yes, permissive, designated open; no, private, agricultural, forestry, psv, bus, military, emergency, delivery (and use_sidepath for bikes) close; other values are ignored',
  ],
  ['directions', "each key's :forward / :backward form decides that direction before the plain key"],
  [
    'oneways',
    'one-ways per mode: oneway:bicycle, oneway:motorcar, oneway:foot; reversible and alternating closed to vehicles; cycleway=opposite*; junction=circular is a roundabout',
  ],
  ['barriers', 'node barriers pass or block per mode; access tags on a node apply at that node'],
  ['destination', 'destination and customers are no through roads'],
];

describe.each(GROUPS)('%s', (group, _title) => {
  const list = CASES.map((c, i) => [c, i] as const).filter(([c]) => c[0] === group);
  it.each(
    list.flatMap(([[, way, node, want], i]) =>
      (['foot', 'bike', 'car'] as Mode[]).map((m) => [`${way || node}: ${m} ${want[m]}`, i, m, want[m]] as const),
    ),
  )('%s', (_, i, m, w) => {
    const { A, M, B, C, D } = points(i);
    const straightFwd = w === 'S' || w === 'F',
      straightBwd = w === 'S' || w === 'R';
    expect(go(m, A, B), 'A → B').toEqual(straightFwd ? [A, M, B] : [A, C, D, B]);
    expect(go(m, B, A), 'B → A').toEqual(straightBwd ? [B, M, A] : [B, D, C, A]);
  });
});

describe('a destination-only road is used at the start or the end of a leg: to reach or leave a place on it', () => {
  // The bypass of `access=destination` (A M B, detour A C D B), and a destination-only spur M N
  // south to N (1, -1), a place deep in the destination-only roads.
  const { A, M, B, C, D } = points(0);
  const N: P = [M[0], -1];
  const H: P = [A[0] + 0.5, 0];
  let dest: PlaceIndex;
  beforeAll(async () => {
    dest = await loadPbf(
      await writeBypasses([{ way: t('access=destination') }], {
        ways: [{ id: 9000, pts: [M, N], tags: t('highway=residential access=destination') }],
      }),
    );
  });
  const drive = (a: P, b: P, mode: Mode = 'car') => {
    const [r] = route(dest, { points: [latLon(a), latLon(b)], mode });
    return { pts: polyline.decode(r.encodedPolyline, 5).map(gridOf), r };
  };
  const ms = (pts: P[], perM: number) => pts.slice(1).reduce((sum, p, i) => sum + gridMetres(pts[i], p) * perM, 0);

  it('a through drive A → B takes the detour, twice as long', () => {
    expect(drive(A, B).pts).toEqual([A, C, D, B]);
  });

  it('C → N enters at the nearer entrance A and drives in: C A M N; its time is the travel time, its weight a day more', () => {
    const { pts, r } = drive(C, N);
    expect(pts).toEqual([C, A, M, N]);
    // and the right turn at M onto the spur (src/route/turns.ts; A, where the road only bends, costs none)
    const want = ms(pts, 3600 / 25) + TURN_COSTS.car.right.normal;
    expect(Math.abs(r.timeInMs - want)).toBeLessThanOrEqual(3);
    expect(Math.abs(r.routeWeight * 1000 - (want + DESTINATION_PENALTY_MS))).toBeLessThanOrEqual(3);
  });

  it('D → N enters at B: D B M N; N → D leaves the same way, and no penalty: N M B D', () => {
    expect(drive(D, N).pts).toEqual([D, B, M, N]);
    const { pts, r } = drive(N, D);
    expect(pts).toEqual([N, M, B, D]);
    expect(r.routeWeight * 1000).toBe(r.timeInMs);
  });

  it('a leg that starts on it drives on along it: from H, halfway along A M, to B is H M B', () => {
    expect(drive(H, B).pts).toEqual([H, M, B]);
  });

  // every entrance costs the one penalty, so a leg that ends on the road enters it where the drive is quickest
  it('a leg that ends on it: A → H is A H; from D the car enters at B, the quicker drive: D B M H', () => {
    expect(drive(A, H).pts).toEqual([A, H]);
    expect(drive(D, H).pts).toEqual([D, B, M, H]);
  });

  it("foot and bike alike (access=destination is every mode's)", () => {
    for (const m of ['foot', 'bike'] as Mode[]) {
      expect(drive(A, B, m).pts, m).toEqual([A, C, D, B]);
      expect(drive(C, N, m).pts, m).toEqual([C, A, M, N]);
    }
  });
});

describe('a barrier at a junction blocks passage between all of its roads for the modes it stops', () => {
  // Three ways meet at V (1, 0): W–V, V–E and V–S down to S (1, -1); a public residential
  // W (0, -1) S (2, -1) E runs below. V is a bollard: walkers pass, cars not.
  const x = 2000;
  const W: P = [x, 0],
    V: P = [x + 1, 0],
    E: P = [x + 2, 0],
    S: P = [x + 1, -1],
    WS: P = [x, -1],
    ES: P = [x + 2, -1];
  let cross: PlaceIndex;
  beforeAll(async () => {
    const res = t('highway=residential');
    cross = await loadPbf(
      await writeBypasses([], {
        ways: [
          { id: 9101, pts: [W, V], tags: res },
          { id: 9102, pts: [V, E], tags: res },
          { id: 9103, pts: [V, S], tags: res },
          { id: 9104, pts: [W, WS, S, ES, E], tags: res },
        ],
        nodes: [[V, t('barrier=bollard')]],
      }),
    );
  });
  const go2 = (mode: Mode, a: P, b: P) =>
    polyline.decode(route(cross, { points: [latLon(a), latLon(b)], mode })[0].encodedPolyline, 5).map(gridOf);

  it('foot and bike W → E straight through V: W V E', () => {
    expect(go2('foot', W, E)).toEqual([W, V, E]);
    expect(go2('bike', W, E)).toEqual([W, V, E]);
  });

  it('car W → E round below (419 m, not 197 m through V): W WS S ES E, and back the same', () => {
    expect(go2('car', W, E)).toEqual([W, WS, S, ES, E]);
    expect(go2('car', E, W)).toEqual([E, ES, S, WS, W]);
  });
});
