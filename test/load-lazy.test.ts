/**
 * A PBF load makes each mode's routing graph, the text, reverse and lookup indexes, and each
 * row's address, on their first use, as a snapshot's open does: the load costs none of it, a part never used is never
 * made, every answer is the one an index made whole gives, and `openWhole` makes them all.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot, loadPbf, nearby, openWhole, place, reverse, search, type PlaceIndex } from '../src/index.js';
import { addressIn } from '../src/query/lang.js';
import { fillAddresses } from '../src/ingest/assemble.js';
import { random } from './support/random.js';
import { route } from '../src/query/route.js';
import { MODES } from '../src/osm/profile.js';
import { CORE, TRANSIT } from './support/raw.js';

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

/** Which of an index's parts left to first use are made (read from its internals: nothing public tells). */
function partsMade(index: PlaceIndex): Record<string, boolean> {
  const parts = (index as unknown as { parts: Record<string, { made: boolean }> }).parts;
  return { lookup: parts.lookup.made, words: parts.words.made, landmarks: parts.landmarks.made };
}

describe('the text, reverse and lookup indexes are made on first use', () => {
  let whole: PlaceIndex;
  beforeAll(async () => {
    whole = openWhole(await loadPbf(TRANSIT));
    expect(partsMade(whole)).toEqual({ lookup: true, words: true, landmarks: true });
  });

  it('a load makes none of them', async () => {
    expect(partsMade(await loadPbf(TRANSIT))).toEqual({ lookup: false, words: false, landmarks: false });
  });

  it('a search makes the text index alone, and answers as the whole index does', async () => {
    const index = await loadPbf(TRANSIT);
    const q = { q: 'bus', limit: 20 };
    const got = search(index, q);
    expect(got.length).toBeGreaterThan(0);
    expect(got).toEqual(search(whole, q));
    expect(partsMade(index).words).toBe(true);
    expect(partsMade(index).landmarks).toBe(false);
  });

  it('reverse and place answer as the whole index does', async () => {
    const index = await loadPbf(TRANSIT);
    const at = new Date('2026-01-17T12:00:00+05:45');
    const q = { lat: 27.7041, lon: 85.3145, radius: 2, limit: 5, at };
    const near = reverse(index, q);
    expect(near.length).toBeGreaterThan(0);
    expect(near).toEqual(reverse(whole, q));
    const id = near[0].placeId;
    expect(place(index, id, { at })).toEqual(place(whole, id, { at }));
    expect(partsMade(index)).toEqual({ lookup: true, words: false, landmarks: true });
  });

  it("openWhole makes every part, each mode's graph among them", async () => {
    const index = openWhole(await loadPbf(TRANSIT, { contract: 'never' }));
    expect(partsMade(index)).toEqual({ lookup: true, words: true, landmarks: true });
    MODES.forEach((_, m) => expect(made(index.router!.modes, m), MODES[m]).toBe(true));
  });
});

describe("each type's spatial index is made by its first query", () => {
  it('the counts need none; nearby of every type, asked in a shuffled order, answers as the whole index does', async () => {
    const index = await loadPbf(CORE);
    const whole = openWhole(await loadPbf(CORE));
    expect(index.typeCounts()).toEqual(whole.typeCounts());
    const rnd = random(29);
    const types = Object.keys(index.typeCounts())
      .map((t) => [rnd(), t] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, t]) => t);
    expect(types.length).toBeGreaterThan(20);
    const at = new Date('2026-01-17T12:00:00+05:45');
    for (const type of types) {
      for (const sortBy of [false, true]) {
        const q = { type, lat: 27.7041, lon: 85.3145, radius: 20, limit: 7, sortBy, at };
        expect(nearby(index, q), type).toEqual(nearby(whole, q));
      }
    }
  });
});

describe("each row's address is made on first ask, as the whole load's", () => {
  let whole: PlaceIndex;
  const LANGS = [undefined, 'en', 'ne'] as const;
  const columns = (i: PlaceIndex) => [i.table.address, i.table.addressEn, i.table.addressNe];
  // every row's three texts, read from the columns (`pending` would answer otherwise)
  const stored = (i: PlaceIndex) => columns(i).map((col) => Array.from(col, (s) => i.table.strings[s]));
  beforeAll(async () => {
    whole = openWhole(await loadPbf(CORE));
    expect(whole.table.pending).toBeUndefined();
  });

  it('a load makes none: the table has them pending, its columns empty', async () => {
    const index = await loadPbf(CORE);
    expect(index.table.pending).toBeDefined();
    for (const col of columns(index)) expect(col.every((s) => s === 0)).toBe(true);
  });

  it('every row, in each language, asked in a shuffled order, is the text the whole index stores', async () => {
    const index = await loadPbf(CORE);
    const texts = stored(whole);
    const rnd = random(31);
    const rows = [...Array(index.table.size).keys()].map((r) => [rnd(), r] as const).sort((a, b) => a[0] - b[0]);
    const wrong: string[] = [];
    for (const [, r] of rows)
      LANGS.forEach((lang, c) => {
        const got = addressIn(index.table, r, lang);
        if (got !== texts[c][r]) wrong.push(`${r} ${lang}: ${got} vs ${texts[c][r]}`);
      });
    expect(wrong).toEqual([]);
    expect(texts[0].filter((t) => t !== '').length).toBeGreaterThan(index.table.size / 2);
    expect(texts[2].some((t, r) => t !== '' && t !== texts[0][r])).toBe(true);
  });

  it('a snapshot stores them all, the same bytes whatever was asked before', async () => {
    const index = await loadPbf(CORE);
    nearby(index, { type: 'eat', lat: 27.7041, lon: 85.3145, radius: 2, limit: 20 });
    search(index, { q: 'temple', limit: 20 });
    expect(Buffer.from(buildSnapshot(index)).equals(Buffer.from(buildSnapshot(whole)))).toBe(true);
    expect(index.table.pending).toBeUndefined();
  });

  it('fillAddresses on two threads stores what one thread does', async () => {
    const index = await loadPbf(CORE, { workers: 1 });
    expect(addressIn(index.table, 7, 'ne')).toBe(stored(whole)[2][7]); // a row asked first
    await fillAddresses(index);
    expect(index.table.pending).toBeUndefined();
    expect(stored(index)).toEqual(stored(whole));
    expect(index.table.strings).toEqual(whole.table.strings);
  });
});
