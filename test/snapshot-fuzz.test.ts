/**
 * Crafted snapshots: bytes changed on purpose inside the sections, then the checksum
 * made right again, as an adversary would. The checksum cannot catch these; what
 * fromSnapshot checks must. Each one either throws a SnapshotError or gives an index
 * whose every placeId (of every row and of every query's records) is a whole number
 * that place() finds again: never NaN, never fractional, never a row out of the table.
 */
import { xxHash32 } from 'js-xxhash';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot, fromSnapshot, nearby, place, reverse, search, SnapshotError, type PlaceIndex } from '../src/index.js';
import { engine, CENTER } from './support/fixture.js';
import { CORE, TRANSIT } from './support/raw.js';
import { random } from './support/random.js';

interface Section {
  name: string;
  enc: string;
  type: string;
  offset: number;
  bytes: number;
  count: number;
}

const HEADER = 24;

let bytes: Uint8Array;
let sections: Section[];
let start: number;

/** Reads the directory as the format describes it: its length at 24, the JSON after it, the sections from the next multiple of 8. */
function use(snapshot: Uint8Array): void {
  bytes = snapshot;
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const n = view.getUint32(HEADER, true);
  const dir = JSON.parse(new TextDecoder().decode(bytes.subarray(HEADER + 4, HEADER + 4 + n)));
  sections = dir.sections;
  start = (HEADER + 4 + n + 7) & ~7;
}

function reseal(b: Uint8Array): Uint8Array {
  new DataView(b.buffer, b.byteOffset).setUint32(16, xxHash32(b.subarray(HEADER), 0), true);
  return b;
}

function section(name: string): Section {
  const s = sections.find((x) => x.name === name);
  if (!s) throw new Error(`no section ${name}`);
  return s;
}

/** The sections that hold spatial indexes. */
const TREES = ['types', 'landmarks', 'landmarkBoxes', 'streets'];

/** Ways to craft a snapshot, each from a seeded generator. */
const CRAFTS: Record<string, (b: Uint8Array, rnd: () => number) => void> = {
  // an osmId made fractional, NaN, infinite, huge or negative, in place of a real one
  osmId(b, rnd) {
    const s = section('osmId');
    const view = new DataView(b.buffer, b.byteOffset);
    const at = start + s.offset + 8 * Math.floor(rnd() * s.count);
    const old = view.getFloat64(at, true);
    const values = [old + 0.5, old + 1e-6, NaN, Infinity, 2 ** 53, 2 ** 51, -old, old * 2 ** 30, old + 0.25];
    view.setFloat64(at, values[Math.floor(rnd() * values.length)], true);
  },
  // low bits of an osmId flipped: a fraction, mostly still in ascending order
  osmIdBits(b, rnd) {
    const s = section('osmId');
    const at = start + s.offset + 8 * Math.floor(rnd() * s.count) + Math.floor(rnd() * 3);
    b[at] ^= 1 << Math.floor(rnd() * 8);
  },
  // bytes of a spatial index changed: its item ids, its node pointers, its coordinates
  trees(b, rnd) {
    const names = sections.filter((x) => TREES.includes(x.name));
    const s = names[Math.floor(rnd() * names.length)];
    for (let k = 1 + Math.floor(rnd() * 3); k > 0; k--) {
      const at = start + s.offset + 8 + Math.floor(rnd() * (s.bytes - 8));
      b[at] = rnd() < 0.5 ? b[at] ^ (1 << Math.floor(rnd() * 8)) : Math.floor(rnd() * 256);
    }
  },
  // the row columns of other indexes (type items, lookup order, text documents)
  rowColumns(b, rnd) {
    const names = sections.filter((x) => ['typePlace', 'lookup', 'docRow', 'postingDoc', 'wordId', 'kind'].includes(x.name));
    const s = names[Math.floor(rnd() * names.length)];
    const at = start + s.offset + Math.floor(rnd() * s.bytes);
    b[at] ^= 1 << Math.floor(rnd() * 8);
  },
  // any byte of any section
  anywhere(b, rnd) {
    const s = sections[Math.floor(rnd() * sections.length)];
    if (s.bytes === 0) return;
    const at = start + s.offset + Math.floor(rnd() * s.bytes);
    b[at] ^= 1 + Math.floor(rnd() * 255);
  },
};

/** Every placeId the index gives, by row and by query, checked; the records looked at, and what was wrong. */
function checkIds(index: PlaceIndex): { seen: number; bad: string[] } {
  const t = index.table;
  const bad: string[] = [];
  let seen = 0;
  // expect() per record would cost more than the queries: failures are collected instead
  const ok = (id: number, what: string) => {
    seen++;
    if (!(Number.isSafeInteger(id) && id >= 0)) bad.push(`${what}: placeId ${id}`);
    else if (place(index, id)?.placeId !== id) bad.push(`${what}: placeId ${id} is not found again`);
  };
  for (let r = 0; r < t.size; r++) {
    const id = t.osmId[r] * 4 + t.kind[r];
    if (!Number.isSafeInteger(id)) bad.push(`row ${r}: placeId ${id}`);
  }
  const at = new Date('2026-01-10T06:30:00Z');
  for (const type of ['eat', 'school', 'bus_stop', 'atm', 'toilets', 'parking']) {
    for (const p of nearby(index, { type, ...CENTER, radius: 5, limit: 50, at })) ok(p.placeId, `nearby ${type}`);
    for (const p of nearby(index, { type, ...CENTER, radius: 5, limit: 20, sortBy: true, at })) ok(p.placeId, `nearest ${type}`);
  }
  for (const q of ['thamel', 'a', 'hotel', 'marg']) for (const s of search(index, { q, limit: 20 })) ok(s.placeId, `search ${q}`);
  for (const d of [0, 0.002, -0.004]) {
    for (const p of reverse(index, { lat: CENTER.lat + d, lon: CENTER.lon - d, radius: 1, limit: 10, at })) ok(p.placeId, 'reverse');
  }
  return { seen, bad };
}

// Trials per fixture: the small transit fixture reads in a few ms, the core one (211
// opening_hours values to parse) in tens: 900 trials in all, as the issue's own run.
const RUNS: [string, string, number][] = [['transit', TRANSIT, 720], ['core', CORE, 180]];

describe.each(RUNS)('a crafted snapshot of the %s fixture with a valid checksum never yields a bad placeId', (_name, file, trials) => {
  beforeAll(async () => {
    use(buildSnapshot(await engine(file)));
  });

  it('the snapshot as written passes the same checks', () => {
    const { seen, bad } = checkIds(fromSnapshot(bytes));
    expect(bad).toEqual([]);
    expect(seen).toBeGreaterThan(50);
  });

  it(`${trials} crafted snapshots: a SnapshotError, or whole placeIds that resolve`, { timeout: 240_000 }, () => {
    const rnd = random(13);
    const names = Object.keys(CRAFTS).filter((c) => c !== 'trees' || sections.some((x) => TREES.includes(x.name)));
    const outcome: Record<string, { refused: number; loaded: number }> = {};
    const failures: string[] = [];
    for (let trial = 0; trial < trials; trial++) {
      const craft = names[trial % names.length];
      const b = bytes.slice();
      CRAFTS[craft](b, rnd);
      reseal(b);
      const o = (outcome[craft] ??= { refused: 0, loaded: 0 });
      let index: PlaceIndex;
      try {
        index = fromSnapshot(b, 'crafted.places');
      } catch (err) {
        if (!(err instanceof SnapshotError && err.problem === 'corrupted')) failures.push(`trial ${trial} (${craft}): threw ${String(err)}`);
        o.refused++;
        continue;
      }
      o.loaded++;
      const { bad } = checkIds(index);
      if (bad.length) failures.push(`trial ${trial} (${craft}): ${bad.slice(0, 3).join('; ')}`);
    }
    expect(failures).toEqual([]);
    // every way of crafting was refused at least sometimes, so each reached a check
    for (const name of names) expect(outcome[name].refused, name).toBeGreaterThan(0);
    // a changed osmId is always caught: fractional, NaN, out of range or out of order
    expect(outcome.osmId.loaded).toBe(0);
  });
});
