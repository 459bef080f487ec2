/**
 * Crafted snapshots that pass the checksum (re-sealed after the change) but hold what no
 * snapshot writer makes: each is refused at load as `corrupted`, before a query can hang
 * on it or a command report something false from it.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot, fromSnapshot, SnapshotError } from '../src/index.js';
import { engine } from './support/fixture.js';
import { TRANSIT } from './support/raw.js';
import {
  directory,
  openWhole,
  readFloats,
  readInts,
  replaceSection,
  reseal,
  section,
  withDirectory,
  writeFloats,
} from './support/crafted.js';

let bytes: Uint8Array;

beforeAll(async () => {
  bytes = buildSnapshot(await engine(TRANSIT));
});

/** What loading the bytes throws: the SnapshotError's problem and message, or 'loaded'. */
function refusal(b: Uint8Array): { problem: string; message: string } | 'loaded' {
  try {
    openWhole(b, 'crafted.places');
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

/** A section's encoded bytes: inflated (raw deflate, by node:zlib) where the section is deflated. */
function encoded(b: Uint8Array, name: string): Uint8Array {
  const s = section(b, name);
  const bytes = b.subarray(s.at, s.at + s.bytes);
  return s.inflated === undefined ? bytes : new Uint8Array(inflateRawSync(bytes));
}

/** The values of a `bits` section without a base, or a `steps` one (its differences): `width` bits each, least significant first. */
function packed(b: Uint8Array, name: string): number[] {
  const { count, width } = section(b, name);
  const bytes = encoded(b, name);
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    let v = 0;
    for (let k = width! - 1; k >= 0; k--) {
      const bit = i * width! + k;
      v = v * 2 + ((bytes[bit >> 3] >> (bit & 7)) & 1);
    }
    out.push(v);
  }
  return out;
}

/**
 * A copy of the snapshot with `packed()` values written back into the section (deflated again
 * where it was), the sections after it moved as the format lays them out, the checksum made right.
 */
function withPacked(b: Uint8Array, name: string, values: number[]): Uint8Array {
  const s = section(b, name);
  const bytes = encoded(b, name).slice();
  values.forEach((v, i) => {
    for (let k = 0; k < s.width!; k++) {
      const bit = i * s.width! + k;
      if (Math.floor(v / 2 ** k) % 2) bytes[bit >> 3] |= 1 << (bit & 7);
      else bytes[bit >> 3] &= ~(1 << (bit & 7));
    }
  });
  const data = s.inflated === undefined ? bytes : new Uint8Array(deflateRawSync(bytes));
  return replaceSection(b, name, data);
}

describe('a hierarchy whose stored slots do not derive one is refused at load', () => {
  it('the car hierarchy as written loads, its slots a stream of a few bits each', () => {
    const s = section(bytes, `ch${CAR}slots`);
    expect(s.enc).toBe('raw');
    // the slots are the sum of each rank's (first is stored as those counts)
    const slots = packed(bytes, `ch${CAR}first`).reduce((a, b) => a + b, 0);
    expect(slots).toBeGreaterThan(100);
    expect((8 * s.bytes) / slots).toBeLessThan(8);
    expect(fromSnapshot(bytes).router!.contracted).toBe(true);
    // and its counts written back as they were load (the crafting below is sound)
    for (const name of ['outTo', 'inTo'])
      expect(refusal(withPacked(bytes, `ch${CAR}${name}`, packed(bytes, `ch${CAR}${name}`)))).toBe('loaded');
  });

  it('every bit of the car slots set (the last way each slot may name, or one past them): corrupted', () => {
    const b = bytes.slice();
    const s = section(b, `ch${CAR}slots`);
    b.fill(0xff, s.at, s.at + s.bytes);
    const r = refusal(reseal(b));
    expect(r).toMatchObject({ problem: 'corrupted' });
    expect((r as { message: string }).message).toMatch(/hierarchy data: /);
  });

  it('the car slots a word short: corrupted, the bits ending before the slots', () => {
    const { dir } = directory(bytes);
    const s = dir.sections.find((x) => x.name === `ch${CAR}slots`)!;
    s.bytes -= 4;
    s.count -= 1;
    const r = refusal(reseal(withDirectory(bytes, JSON.stringify(dir))));
    expect(r).toMatchObject({ problem: 'corrupted' });
    expect((r as { message: string }).message).toMatch(/hierarchy data: the slots' bits end at slot \d+/);
  });

  it.each(['outTo', 'inTo'])('one of the car %s counts moved to the next rank (the slots that lead to each): corrupted', (name) => {
    const counts = packed(bytes, `ch${CAR}${name}`);
    // counts[r + 1] is rank r's; swapping two that differ leaves one rank more slots than counted
    const r = counts.findIndex((c, i) => i > 0 && i + 1 < counts.length && c !== counts[i + 1]);
    expect(r).toBeGreaterThan(0);
    [counts[r], counts[r + 1]] = [counts[r + 1], counts[r]];
    const got = refusal(withPacked(bytes, `ch${CAR}${name}`, counts));
    expect(got).toMatchObject({ problem: 'corrupted' });
    expect((got as { message: string }).message).toMatch(/hierarchy data: (more|fewer) slots lead to rank \d+/);
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
