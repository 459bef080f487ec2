/**
 * A hand-made road network for the turn rules: U-turns, restrictions with via nodes and via
 * ways, per mode, `except`, `*_on_red`, restrictions that must be skipped, signals and the side
 * of a turn. One case per patch of a 0.001° grid (test/support/roads.ts's grid and ids), far
 * enough apart that no road joins them. Every expected route in test/route-turns.test.ts is
 * worked out by hand from these numbers; the same file is also searched by the independent
 * reference (test/support/turns-raw.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PbfWriter, type OsmRelation } from '../../scripts/pbf-writer.js';
import { nodeId, type P } from './roads.js';

const UNIT = 10_000;
const LAT7 = 277_000_000,
  LON7 = 853_000_000;

type Tags = [string, string][];
const res = (name: string, more: Tags = []): Tags => [['highway', 'residential'], ['name', name], ...more];

/** The cases' named points (absolute grid points). */
export const TURN_CASES = {
  /**
   * A street W – V – E with `no_straight_on` from W–V to V–E; a side street V – S south, S meeting a
   * street S – D west whose end D is a dead end. A car W → E turns back only at D: W V S D S V E.
   */
  deadEnd: { W: [0, 0] as P, V: [1, 0] as P, E: [2, 0] as P, S: [1, -1] as P, D: [0, -1] as P },
  /** The same street and restriction with a loop north (V – N – NE – E) instead: the car takes it, no U-turn anywhere. */
  loop: { W: [10, 0] as P, V: [11, 0] as P, E: [12, 0] as P, N: [11, 1] as P, NE: [12, 1] as P },
  /**
   * A ladder: top T0 – T1 – T2, bottom B0 – B1 – B2, rungs T1 – B1 (the via way) and T2 – B2.
   * `no_u_turn` from Top West (T0–T1) via the rung to Bottom West (B1–B0).
   */
  viaWay: { T0: [20, 1] as P, T1: [21, 1] as P, T2: [22, 1] as P, B0: [20, 0] as P, B1: [21, 0] as P, B2: [22, 0] as P },
  /** The same ladder with `only_right_turn` from Bottom West (B0–B1) via the rung to Top East (T1–T2). */
  onlyVia: { T0: [30, 1] as P, T1: [31, 1] as P, T2: [32, 1] as P, B0: [30, 0] as P, B1: [31, 0] as P, B2: [32, 0] as P },
  /**
   * P – V – Q along the bottom, V – M north, detour Q – R – M: the shape of each restriction
   * case below, at x = ox (P), ox + 1 (V), ox + 2 (Q); M above V, R above Q.
   */
  motorcar: { ox: 40 },
  except: { ox: 50 },
  onRed: { ox: 60 },
  motorcycle: { ox: 70 },
  /** `only_straight_on` whose to-way (M–R) does not touch V: skipped, nothing banned. */
  farTo: { ox: 80 },
  /** `no_left_turn` to a two-way street S – V – M through V: which way is meant is not said, skipped. */
  through: { ox: 90 },
  /** The same with the street one-way S → V → M: only V → M can be meant, so the ban holds. */
  throughOneway: { ox: 100 },
  /** A from way with two via members of different types: an unreadable shape, skipped. */
  badShape: { ox: 110 },
  /** A → B by the north (via (121, 1), traffic signals there) or by the south (via (121, -1)): equal lengths. */
  signalsNorth: { A: [120, 0] as P, B: [122, 0] as P, N: [121, 1] as P, S: [121, -1] as P },
  /** The same with the signals south. */
  signalsSouth: { A: [130, 0] as P, B: [132, 0] as P, N: [131, 1] as P, S: [131, -1] as P },
  /** S → X north, then west to L or east to R, each joined to N by a diagonal: equal lengths, a left or a right turn at X. */
  side: { S: [141, -1] as P, X: [141, 0] as P, L: [140, 0] as P, R: [142, 0] as P, N: [141, 1] as P },
} as const;

/** The P V Q M R points of a restriction case at `ox`. */
export function tee(ox: number): { P: P; V: P; Q: P; M: P; R: P } {
  return { P: [ox, 0], V: [ox + 1, 0], Q: [ox + 2, 0], M: [ox + 1, 1], R: [ox + 2, 1] };
}

/** The restrictions the network holds that a reader must skip (`farTo`, `through`, `badShape`). */
export const SKIPPED = 3;

interface Way {
  id: number;
  pts: P[];
  tags: Tags;
}

function network(): { ways: Way[]; relations: OsmRelation[]; nodeTags: Map<number, Tags> } {
  const ways: Way[] = [];
  const relations: OsmRelation[] = [];
  const nodeTags = new Map<number, Tags>();
  const way = (id: number, pts: P[], tags: Tags) => ways.push({ id, pts, tags });
  const rel = (id: number, members: [string, number, string][], tags: Tags) =>
    relations.push({
      id,
      members: members.map(([type, ref, role]) => ({ type: type as 'node' | 'way', ref, role })),
      tags: [['type', 'restriction'], ...tags],
    });

  const d = TURN_CASES.deadEnd;
  way(1001, [d.W, d.V], res('Dead West'));
  way(1002, [d.V, d.E], res('Dead East'));
  way(1003, [d.V, d.S], res('Dead Side'));
  way(1004, [d.S, d.D], res('Dead End'));
  rel(
    1051,
    [
      ['way', 1001, 'from'],
      ['node', nodeId(d.V), 'via'],
      ['way', 1002, 'to'],
    ],
    [['restriction', 'no_straight_on']],
  );

  const l = TURN_CASES.loop;
  way(1101, [l.W, l.V], res('Loop West'));
  way(1102, [l.V, l.E], res('Loop East'));
  way(1103, [l.V, l.N, l.NE, l.E], res('Loop North'));
  rel(
    1151,
    [
      ['way', 1101, 'from'],
      ['node', nodeId(l.V), 'via'],
      ['way', 1102, 'to'],
    ],
    [['restriction', 'no_straight_on']],
  );

  const ladder = (base: number, c: typeof TURN_CASES.viaWay) => {
    way(base + 1, [c.T0, c.T1], res(`Top West ${base}`));
    way(base + 2, [c.T1, c.T2], res(`Top East ${base}`));
    way(base + 3, [c.B0, c.B1], res(`Bottom West ${base}`));
    way(base + 4, [c.B1, c.B2], res(`Bottom East ${base}`));
    way(base + 5, [c.T1, c.B1], res(`Rung ${base}`));
    way(base + 6, [c.T2, c.B2], res(`End Rung ${base}`));
  };
  ladder(1200, TURN_CASES.viaWay);
  rel(
    1251,
    [
      ['way', 1201, 'from'],
      ['way', 1205, 'via'],
      ['way', 1203, 'to'],
    ],
    [['restriction', 'no_u_turn']],
  );
  ladder(1300, TURN_CASES.onlyVia);
  rel(
    1351,
    [
      ['way', 1303, 'from'],
      ['way', 1305, 'via'],
      ['way', 1302, 'to'],
    ],
    [['restriction', 'only_right_turn']],
  );

  // the P V Q M R cases: P–V–Q one way (a street), V–M, Q–R, R–M
  const teeWays = (base: number, ox: number, vm: P[] = [tee(ox).V, tee(ox).M], vmTags: Tags = []) => {
    const t = tee(ox);
    way(base + 1, [t.P, t.V], res(`Tee West ${ox}`));
    way(base + 2, [t.V, t.Q], res(`Tee East ${ox}`));
    way(base + 3, vm, res(`Tee North ${ox}`, vmTags));
    way(base + 4, [t.Q, t.R], res(`Tee Detour ${ox}`));
    way(base + 5, [t.R, t.M], res(`Tee Top ${ox}`));
    return t;
  };
  let t = teeWays(1400, TURN_CASES.motorcar.ox);
  rel(
    1451,
    [
      ['way', 1401, 'from'],
      ['node', nodeId(t.V), 'via'],
      ['way', 1403, 'to'],
    ],
    [['restriction:motorcar', 'no_left_turn']],
  );
  t = teeWays(1500, TURN_CASES.except.ox);
  rel(
    1551,
    [
      ['way', 1501, 'from'],
      ['node', nodeId(t.V), 'via'],
      ['way', 1503, 'to'],
    ],
    [
      ['restriction', 'no_left_turn'],
      ['except', 'bicycle'],
    ],
  );
  t = teeWays(1600, TURN_CASES.onRed.ox);
  rel(
    1651,
    [
      ['way', 1601, 'from'],
      ['node', nodeId(t.V), 'via'],
      ['way', 1603, 'to'],
    ],
    [['restriction', 'no_turn_on_red']],
  );
  t = teeWays(1700, TURN_CASES.motorcycle.ox);
  rel(
    1751,
    [
      ['way', 1701, 'from'],
      ['node', nodeId(t.V), 'via'],
      ['way', 1703, 'to'],
    ],
    [['restriction:motorcycle', 'no_left_turn']],
  );
  t = teeWays(1800, TURN_CASES.farTo.ox);
  rel(
    1851,
    [
      ['way', 1801, 'from'],
      ['node', nodeId(t.V), 'via'],
      ['way', 1805, 'to'],
    ],
    [['restriction', 'only_straight_on']],
  );
  t = tee(TURN_CASES.through.ox);
  teeWays(1900, TURN_CASES.through.ox, [[t.V[0], -1], t.V, t.M]);
  rel(
    1951,
    [
      ['way', 1901, 'from'],
      ['node', nodeId(t.V), 'via'],
      ['way', 1903, 'to'],
    ],
    [['restriction', 'no_left_turn']],
  );
  t = tee(TURN_CASES.throughOneway.ox);
  teeWays(2000, TURN_CASES.throughOneway.ox, [[t.V[0], -1], t.V, t.M], [['oneway', 'yes']]);
  rel(
    2051,
    [
      ['way', 2001, 'from'],
      ['node', nodeId(t.V), 'via'],
      ['way', 2003, 'to'],
    ],
    [['restriction', 'no_left_turn']],
  );
  t = teeWays(2100, TURN_CASES.badShape.ox);
  rel(
    2151,
    [
      ['way', 2101, 'from'],
      ['node', nodeId(t.V), 'via'],
      ['way', 2102, 'via'],
      ['way', 2103, 'to'],
    ],
    [['restriction', 'no_left_turn']],
  );

  const sig = (base: number, c: typeof TURN_CASES.signalsNorth, at: P) => {
    way(base + 1, [c.A, c.N, c.B], res(`North Road ${base}`));
    way(base + 2, [c.A, c.S, c.B], res(`South Road ${base}`));
    nodeTags.set(nodeId(at), [['highway', 'traffic_signals']]);
  };
  sig(2200, TURN_CASES.signalsNorth, TURN_CASES.signalsNorth.N);
  sig(2300, TURN_CASES.signalsSouth, TURN_CASES.signalsSouth.S);

  const s = TURN_CASES.side;
  way(2401, [s.S, s.X], res('Side South'));
  way(2402, [s.L, s.X, s.R], res('Side Cross'));
  way(2403, [s.L, s.N], res('Side Left'));
  way(2404, [s.R, s.N], res('Side Right'));
  return { ways, relations, nodeTags };
}

/** Writes the network into a fresh temp folder and returns the file's path. */
export async function writeTurnNet(): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'nepal-places-turns-')), 'turns.osm.pbf');
  const w = new PbfWriter(file, { sorted: true });
  const { ways, relations, nodeTags } = network();
  const pts = new Map<number, P>();
  for (const x of ways) for (const p of x.pts) pts.set(nodeId(p), p);
  for (const [id, [x, y]] of [...pts.entries()].sort((a, b) => a[0] - b[0]))
    w.node({ id, lat: LAT7 + y * UNIT, lon: LON7 + x * UNIT, tags: nodeTags.get(id) });
  for (const x of ways.sort((a, b) => a.id - b.id)) w.way({ id: x.id, refs: x.pts.map(nodeId), tags: x.tags });
  for (const r of relations.sort((a, b) => a.id - b.id)) w.relation(r);
  await w.close();
  return file;
}
