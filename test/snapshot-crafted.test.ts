/**
 * Crafted snapshots that pass the checksum (re-sealed after the change) but hold what no
 * snapshot writer makes: each is refused at load as `corrupted`, before a query can hang
 * on it or a command report something false from it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot, fromSnapshot, SnapshotError } from '../src/index.js';
import { engine } from './support/fixture.js';
import { TRANSIT } from './support/raw.js';
import { directory, readFloats, readInts, reseal, section, withDirectory, writeFloats, writeInts } from './support/crafted.js';

let bytes: Uint8Array;

beforeAll(async () => {
  bytes = buildSnapshot(await engine(TRANSIT));
});

/** What loading the bytes throws: the SnapshotError's problem and message, or 'loaded'. */
function refusal(b: Uint8Array): { problem: string; message: string } | 'loaded' {
  try {
    fromSnapshot(b, 'crafted.places');
  } catch (err) {
    if (!(err instanceof SnapshotError)) throw err;
    return { problem: err.problem, message: err.message };
  }
  return 'loaded';
}

/** The snapshot with the directory's stats text changed: `"name":value` becomes `"name":text`. */
function withStat(name: string, text: string): Uint8Array {
  const { dir } = directory(bytes);
  const json = JSON.stringify(dir);
  const key = `"${name}":${JSON.stringify((dir.meta.stats as Record<string, unknown>)[name])}`;
  const at = json.indexOf(key, json.indexOf('"stats":'));
  expect(at, `stats.${name} in the directory`).toBeGreaterThan(0);
  return withDirectory(bytes, json.slice(0, at) + `"${name}":${text}` + json.slice(at + key.length));
}

describe('the stats a snapshot carries are counts: whole, finite and not negative', () => {
  it('the snapshot as written loads, its stats as the index it was built from', async () => {
    expect(fromSnapshot(bytes).stats).toEqual((await engine(TRANSIT)).stats);
    // and rewriting its directory unchanged keeps it loadable (the crafting itself is sound)
    expect(fromSnapshot(withDirectory(bytes, JSON.stringify(directory(bytes).dir))).stats).toEqual((await engine(TRANSIT)).stats);
  });

  it.each([
    ['nodes', '-1'],
    ['ways', '1e999'],
    ['relations', '-1e999'],
    ['points', '2.5'],
    ['skippedBlobs', '-7'],
    ['roadEdges', '"12"'],
    ['badSchedules', 'null'],
    ['restrictions', '9007199254740993'],
    ['duplicates', '-2'],
  ])('stats.%s = %s is refused as corrupted', (name, text) => {
    const r = refusal(withStat(name, text));
    expect(r).not.toBe('loaded');
    expect(r).toMatchObject({ problem: 'corrupted' });
    expect((r as { message: string }).message).toContain(`stats.${name}`);
  });

  it.each(['skippedBlobs', 'duplicates'] as const)('a %s count left out (snapshots written before it was counted) reads as 0', (name) => {
    const { dir } = directory(bytes);
    delete (dir.meta.stats as Record<string, unknown>)[name];
    expect(fromSnapshot(withDirectory(bytes, JSON.stringify(dir))).stats[name]).toBe(0);
  });

  it('stats that are not an object are refused as corrupted', () => {
    const { dir } = directory(bytes);
    for (const stats of [null, [1, 2, 3]]) {
      expect(refusal(withDirectory(bytes, JSON.stringify({ ...dir, meta: { ...dir.meta, stats } })))).toMatchObject({
        problem: 'corrupted',
      });
    }
  });
});

/** The car mode's index in the snapshot's routing sections (`ch2…`). */
const CAR = 2;

/** The car hierarchy's slots as stored (each value plus one, 0 for NONE): shortcuts are the slots whose second half is not 0. */
function carSlots(b: Uint8Array): { ab: number[]; shortcuts: number[] } {
  const ab = readInts(b, `ch${CAR}ab`);
  const shortcuts: number[] = [];
  for (let k = 0; 2 * k < ab.length; k++) if (ab[2 * k + 1] !== 0) shortcuts.push(k);
  return { ab, shortcuts };
}

describe('a hierarchy whose unpacking would not end is refused at load', () => {
  it('the car hierarchy as written has shortcuts, and loads', () => {
    expect(carSlots(bytes).shortcuts.length).toBeGreaterThan(10);
    expect(fromSnapshot(bytes).router!.contracted).toBe(true);
  });

  it("every car shortcut's first half pointing at itself: corrupted", () => {
    const b = bytes.slice();
    const { ab, shortcuts } = carSlots(b);
    for (const k of shortcuts) ab[2 * k] = k + 1;
    writeInts(b, `ch${CAR}ab`, ab);
    const r = refusal(reseal(b));
    expect(r).toMatchObject({ problem: 'corrupted' });
    expect((r as { message: string }).message).toMatch(/hierarchy/);
  });

  it("car shortcuts in pairs, each one's first half the other (a 2-cycle): corrupted", () => {
    const b = bytes.slice();
    const { ab, shortcuts } = carSlots(b);
    for (let i = 0; i + 1 < shortcuts.length; i += 2) {
      const [k1, k2] = [shortcuts[i], shortcuts[i + 1]];
      ab[2 * k1] = k2 + 1;
      ab[2 * k2] = k1 + 1;
    }
    writeInts(b, `ch${CAR}ab`, ab);
    expect(refusal(reseal(b))).toMatchObject({ problem: 'corrupted' });
  });

  it('one shortcut whose second half is itself: corrupted', () => {
    const b = bytes.slice();
    const { ab, shortcuts } = carSlots(b);
    const k = shortcuts[Math.floor(shortcuts.length / 2)];
    ab[2 * k + 1] = k + 1;
    writeInts(b, `ch${CAR}ab`, ab);
    expect(refusal(reseal(b))).toMatchObject({ problem: 'corrupted' });
  });

  it("one shortcut's halves swapped (each still a lower slot, but the path no longer joins its ends): corrupted", () => {
    const b = bytes.slice();
    const { ab, shortcuts } = carSlots(b);
    const k = shortcuts[0];
    [ab[2 * k], ab[2 * k + 1]] = [ab[2 * k + 1], ab[2 * k]];
    writeInts(b, `ch${CAR}ab`, ab);
    expect(refusal(reseal(b))).toMatchObject({ problem: 'corrupted' });
  });
});

describe('road data whose travel times are not whole ms below 2^32 is refused at load', () => {
  /** The index of the first edge with car access. */
  function carEdge(b: Uint8Array): number {
    const access = readInts(b, 'edgeAccess');
    const e = access.findIndex((a) => a & (16 | 32));
    if (e < 0) throw new Error('no car edge');
    return e;
  }

  it.each([[Infinity], [NaN], [-1], [1e300]])('a car road %s m long: corrupted', (metres) => {
    const b = bytes.slice();
    const s = section(b, 'edgeMeters');
    new DataView(b.buffer, b.byteOffset).setFloat64(s.at + 8 * carEdge(b), metres, true);
    const r = refusal(reseal(b));
    expect(r).toMatchObject({ problem: 'corrupted' });
    expect((r as { message: string }).message).toMatch(/edge \d+/);
  });

  it('the speeds written back as they were load (the crafting itself is sound)', () => {
    const speeds = readFloats(bytes, 'edgeKmh');
    expect(speeds.some((v) => v > 0)).toBe(true);
    expect(refusal(writeFloats(bytes, 'edgeKmh', speeds))).toBe('loaded');
  });

  it.each([[0], [NaN], [-30], [Infinity], [1e-30]])('a car road at %s km/h: corrupted', (kmh) => {
    // speeds are per edge and mode (car is mode 2 of 4), stored as the format describes (a dictionary of each edge's speeds)
    const speeds = readFloats(bytes, 'edgeKmh');
    speeds[4 * carEdge(bytes) + 2] = kmh;
    const r = refusal(writeFloats(bytes, 'edgeKmh', speeds));
    expect(r).toMatchObject({ problem: 'corrupted' });
    expect((r as { message: string }).message).toMatch(/edge \d+/);
  });
});

describe('a road whose geometry does not run between its nodes is refused at load', () => {
  it("the edges' coordinates moved by a changed first delta (every later point with it): corrupted, naming an edge", () => {
    const b = bytes.slice();
    const s = section(b, 'edgeCoords');
    expect(s.enc).toBe('delta2');
    b[s.at] ^= 2; // the first longitude's zigzag delta, one unit (1e-7 degrees) off
    const r = refusal(reseal(b));
    expect(r).toMatchObject({ problem: 'corrupted' });
    expect((r as { message: string }).message).toMatch(/edge \d+'s geometry/);
  });
});
