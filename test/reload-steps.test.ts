/**
 * A reload's share on the serving thread is short steps: the loading thread reads the snapshot whole
 * (every check `fromSnapshot` makes) and hands over, with its bytes, the arrays it decoded and the
 * router's graphs it made; the serving thread takes them as they are and builds the index, and warms
 * its search, in steps. The index so made is the one `fromSnapshot` makes; the library's `fromSnapshot`
 * checks every section, on its first use (`test/snapshot-crafted.test.ts`, `test/snapshot-fuzz.test.ts`).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot, fromSnapshot, loadPbf, nearby, route, search, SnapshotError, type PlaceIndex } from '../src/index.js';
import { buffers, snapshotOf, type Proven } from '../src/cli/data-worker.js';
import { loadOffThread } from '../src/cli/data.js';
import { snapshotSteps } from '../src/snapshot/read.js';
import { SectionReader, SectionWriter } from '../src/snapshot/sections.js';
import { matchKeys } from '../src/lang/glossary.js';
import { modeGraph } from '../src/route/modes.js';
import { CORE } from './support/raw.js';
import { MODES } from '../src/osm/profile.js';
import { section } from './support/crafted.js';

let dir: string;
let file: string;
let bytes: Uint8Array;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'np-steps-'));
  file = join(dir, 'core.places');
  bytes = buildSnapshot(await loadPbf(CORE));
  await writeFile(file, bytes);
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

/** What the loading thread sends, as the serving thread receives it: through a message port, its buffers transferred. */
async function handedOver(done: Proven): Promise<Proven> {
  const { port1, port2 } = new MessageChannel();
  const got = new Promise<Proven>((resolve) => port2.once('message', resolve));
  port1.postMessage(done, buffers(done));
  const out = await got;
  port1.close();
  return out;
}

/** Runs steps to their end; how many there were, and what the last returned. */
function run<T>(steps: Generator<string, T>): { value: T; steps: number } {
  for (let n = 0; ; n++) {
    const s = steps.next();
    if (s.done) return { value: s.value, steps: n };
  }
}

/** Answers of both indexes to the same queries (search, nearby, route), side by side. */
function answers(index: PlaceIndex): unknown[] {
  const tryIt = (f: () => unknown) => {
    try {
      return f();
    } catch (err) {
      return { error: (err as Error).name, message: (err as Error).message };
    }
  };
  const out: unknown[] = [];
  for (const q of ['thamel', 'resturant', 'ka', 'ठमेल', 'boudha stupa']) out.push(tryIt(() => search(index, { q, limit: 20 })));
  for (const type of ['cafe', 'eat', 'atm']) out.push(tryIt(() => nearby(index, { lat: 27.7152, lon: 85.3123, type, limit: 10 })));
  for (const mode of ['foot', 'bike', 'car'] as const) {
    out.push(
      tryIt(() =>
        route(index, {
          points: [
            [27.7152, 85.3123],
            [27.7046, 85.3206],
          ],
          mode,
        }),
      ),
    );
  }
  return out;
}

describe("the loading thread hands over the arrays it decoded and the router's graphs, each buffer transferred once", () => {
  it('a snapshot file: every section decoded into an array of its own is handed over, and every mode graph', async () => {
    const done = await snapshotOf({ file, strict: false, contract: 'never' });
    expect(Buffer.from(done.bytes).equals(Buffer.from(bytes))).toBe(true);
    for (const name of ['name', 'coords', 'tagKV', 'hours', 'postingDoc', 'edgeCoords', 'edgeKmh', 'ch2head'])
      expect(done.handover.arrays.has(name)).toBe(true);
    // raw sections are views of the bytes, a view again on the other side: not handed over
    expect(done.handover.arrays.has('edgeMeters')).toBe(false);
    expect(done.handover.modes?.map((m) => m.mode)).toEqual(MODES.map((_, m) => m));
    const list = buffers(done);
    expect(new Set(list).size).toBe(list.length);
    expect(list).toContain(done.bytes.buffer);
  });

  it('a PBF: built into a snapshot and read back on the thread, so what is handed over was checked the same way', async () => {
    const done = await snapshotOf({ file: CORE, strict: false, contract: 'always' });
    expect(Buffer.from(done.bytes).equals(Buffer.from(bytes))).toBe(true);
    expect(done.handover.arrays.has('name')).toBe(true);
    expect(done.handover.modes).toHaveLength(MODES.length);
  });
});

describe("the serving thread's index, made of what was handed over, is the one fromSnapshot makes", () => {
  it('the same snapshot when written again, the same mode graphs, the same answers; the handed arrays used as they are', async () => {
    const got = await handedOver(await snapshotOf({ file, strict: false, contract: 'never' }));
    const { value: index, steps } = run(snapshotSteps(got.bytes, file, { proven: got.handover }));
    const plain = fromSnapshot(await readFile(file));
    expect(steps).toBeGreaterThan(10);
    expect(Buffer.from(buildSnapshot(index)).equals(Buffer.from(bytes))).toBe(true);
    // nothing decoded again: the table's and the road graph's arrays are those handed over
    expect(index.table.name).toBe(got.handover.arrays.get('name'));
    expect(index.router!.graph.coords).toBe(got.handover.arrays.get('edgeCoords'));
    expect(index.router!.modes).toBe(got.handover.modes);
    for (let m = 0; m < 3; m++) expect(index.router!.modes[m]).toEqual(modeGraph(plain.router!.graph, m));
    expect(answers(index)).toEqual(answers(plain));
  });

  it("loadOffThread: the index it resolves with answers as fromSnapshot's, its search prepared", async () => {
    const index = await loadOffThread('test', file, { strict: false });
    const plain = fromSnapshot(await readFile(file));
    expect(answers(index)).toEqual(answers(plain));
    const words = index.words as unknown as { dict?: unknown; byKey?: unknown };
    expect(words.dict).toBeDefined();
    expect(words.byKey).toBeDefined();
  });
});

describe("the library's fromSnapshot, and steps without a handover, check every section: `whole` at once, else on its first use", () => {
  it('a damaged byte is refused by both, with the checksum of its section', () => {
    const bad = bytes.slice();
    const s = section(bad, 'coords');
    bad[s.at + (s.bytes >> 1)] ^= 0x40;
    expect(() => fromSnapshot(bad, 'bad.places', { whole: true })).toThrow(/checksum mismatch in section coords/);
    expect(() => run(snapshotSteps(bad, 'bad.places', { whole: true }))).toThrow(/checksum mismatch in section coords/);
    const index = fromSnapshot(bad, 'bad.places');
    expect(() => index.table.coords).toThrow(SnapshotError);
    expect(() => index.table.coords).toThrow(/checksum mismatch in section coords/);
  });
});

describe('Words.preparing() builds, in steps of a few hundred words, what prepare() builds', () => {
  it("the typos' order holds every word read backwards, and the phonetic keys are every word's keys in order of key, then word", () => {
    const index = fromSnapshot(bytes);
    const w = index.words;
    const { steps } = run(w.preparing());
    const { sorted, sortedId } = w.data;
    // a step per 256 words of the typos' order and of the keys at least
    expect(steps).toBeGreaterThanOrEqual(2 * Math.floor(sorted.length / 256));
    const inside = w as unknown as { dict: { back: Uint32Array }; byKey: { keys: string[]; keyWord: Uint32Array; pos: Uint32Array } };
    const backwards = (s: string) => [...s].reverse().join('');
    const order = sorted.map((_, k) => k).sort((a, b) => (backwards(sorted[a]) < backwards(sorted[b]) ? -1 : 1));
    expect([...inside.dict.back]).toEqual(order);
    // worked out here with one sort of all the pairs
    const pairs: [string, number][] = [];
    sorted.forEach((word, k) => {
      for (const key of matchKeys(word)) pairs.push([key, sortedId[k]]);
    });
    pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
    expect(inside.byKey.keys).toEqual(pairs.map((p) => p[0]));
    expect([...inside.byKey.keyWord]).toEqual(pairs.map((p) => p[1]));
  });

  it('prepared in steps or at once, or not at all, it answers the same', () => {
    const a = fromSnapshot(bytes),
      b = fromSnapshot(bytes),
      c = fromSnapshot(bytes);
    run(a.words.preparing());
    b.words.prepare();
    for (const q of ['thamel', 'thamal', 'ka', 'ठमेल', 'kathmandu guest house']) {
      expect(search(a, { q, limit: 20 })).toEqual(search(c, { q, limit: 20 }));
      expect(search(b, { q, limit: 20 })).toEqual(search(c, { q, limit: 20 }));
    }
  });
});

describe('a strings section is decoded 64 KB at a time: characters cut between two chunks come out whole', () => {
  it('Devanagari (3 bytes a letter) and emoji (4) across every chunk boundary read back as written; a cut character is refused', () => {
    // 'क' is 3 bytes: after 21,845 of them, byte 65,536 falls inside the next; the emoji then straddle other boundaries
    const list = ['क'.repeat(21_846), 'x', '😀'.repeat(20_000), 'ठमेल', '', 'a'.repeat(70_000), 'नेपाल'];
    const w = new SectionWriter();
    w.strings('strings', list);
    const snap = w.finish({});
    expect(new SectionReader(snap, 'ok').strings('strings')).toEqual(list);
    const { value, steps } = run(new SectionReader(snap, 'ok').stringSteps('strings'));
    expect(value).toEqual(list);
    expect(steps).toBeGreaterThanOrEqual(Math.floor(new TextEncoder().encode(list.join('')).length / 65_536));

    // the last string's last letter cut to 2 of its 3 bytes: no longer UTF-8
    const cut = new SectionWriter();
    const bytes = new TextEncoder().encode(list.join('')).subarray(0, -1);
    cut.raw('strings.utf8', bytes);
    cut.varint(
      'strings.len',
      Uint32Array.from(list, (s) => s.length),
    );
    expect(() => new SectionReader(cut.finish({}), 'cut').strings('strings')).toThrow(/section strings is not UTF-8/);
  });
});
