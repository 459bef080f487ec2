/**
 * The bounds on one search's work (issue 13, item 4): repeated words count once, a query has
 * at most MAX_WORDS different words, and scores at most MAX_POSTINGS postings, shared among
 * its words as README's search section says. Tested on the Kathmandu fixture (where no query
 * reaches the cap, so answers are exact) and on a hand-made file of 60,100 named cafes built
 * so that the capped answer can be worked out from how it was written.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import distance from '@turf/distance';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPbf, place, prepareSearch, search, InvalidQueryError, type PlaceIndex, type Suggestion } from '../src/index.js';
import { STREET } from '../src/model/table.js';
import { MAX_POSTINGS, MAX_WORDS } from '../src/search/words.js';
import { createApp } from '../src/http/index.js';
import { PbfWriter } from '../scripts/pbf-writer.js';
import { engine } from './support/fixture.js';
import { CORE_PBF, token } from './support/http-fixture.js';
import { wordsOf } from './support/names.js';
import { readRaw, type RawData } from './support/raw.js';
import { onceEach, samePlaceIn } from './support/same.js';

// The hand-made file: node ids 1.. in this order, all cafes on a small grid.
/** Cafes named with a word of their own starting with `s` (`sq0`, `sq1`, … base 36): each word in one name. */
const RARE = 30_000;
/** Cafes all named `shop`: one word in 30,000 names. */
const SHOPS = 30_000;
/** Cafes named `xeno`. */
const XENOS = 100;
const rareName = (i: number) => `sq${i.toString(36)}`;
// ids: the rare ones first, then the shops, then the xenos
const rareId = (i: number) => 1 + i;
const shopId = (i: number) => 1 + RARE + i;
const xenoId = (i: number) => 1 + RARE + SHOPS + i;

/**
 * Where cafe `id` stands, in 1e-7 degrees: a grid of 300 rows, 0.002° apart (over 190 m), so
 * that no two cafes of one name are one place mapped twice (search lists those once).
 */
const position = (id: number) => ({ lat: 277_000_000 + (id % 300) * 20_000, lon: 853_000_000 + Math.floor(id / 300) * 20_000 });

async function writeMany(): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'nepal-places-caps-')), 'many.osm.pbf');
  const w = new PbfWriter(file, { sorted: true });
  const cafe = (id: number, name: string) =>
    w.node({
      id,
      ...position(id),
      tags: [
        ['amenity', 'cafe'],
        ['name', name],
      ],
    });
  for (let i = 0; i < RARE; i++) cafe(rareId(i), rareName(i));
  for (let i = 0; i < SHOPS; i++) cafe(shopId(i), 'shop');
  for (let i = 0; i < XENOS; i++) cafe(xenoId(i), 'xeno');
  await w.close();
  return file;
}

let many: PlaceIndex;
let fixture: PlaceIndex;
let raw: RawData;
beforeAll(async () => {
  [many, fixture, raw] = await Promise.all([writeMany().then((f) => loadPbf(f)), engine(), readRaw()]);
}, 120_000);

/** The node ids of rows matched by `q` in the hand-made index (no limit, no ranking). */
function matchedIds(q: string): { ids: number[]; scored: number } {
  const hits = many.words.match(q);
  return { ids: hits.rows.map((r) => many.table.osmId[r]).sort((a, b) => a - b), scored: hits.scored };
}
const range = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

describe('a word repeated in the query counts once', () => {
  // the same word written again, in other cases, accents and punctuation: the same folded word
  it.each([
    ['thamel', 'thamel thamel', 'Thamel, THAMEL; thamel'],
    ['ka', 'ka ka ka ka', 'KA-ka ka'],
    ['resturant', 'resturant resturant', 'Resturant RESTURANT'],
    ['ठमेल', 'ठमेल ठमेल', 'ठमेल, ठमेल'],
    ['nabil bank', 'nabil bank nabil', 'bank nabil nabil bank'],
  ])('%s: the same suggestions, scores included, as the words once', (once, twice, thrice) => {
    const want = search(fixture, { q: once, limit: 50 });
    expect(want.length).toBeGreaterThan(0);
    // `bank nabil` reorders the words: the same rows and scores, in the same order
    expect(search(fixture, { q: twice, limit: 50 })).toEqual(want);
    expect(search(fixture, { q: thrice, limit: 50 })).toEqual(want);
  });

  it("issue 13's request, `s` 100 times with limit 100 and radius 100, answers as `s` alone", () => {
    const q = { limit: 100, lat: 27.7154, lon: 85.3123, radius: 100 };
    const want = search(fixture, { q: 's', ...q });
    expect(want.length).toBe(100);
    expect(search(fixture, { q: Array(100).fill('s').join(' '), ...q })).toEqual(want);
  });

  it('a repeated word is scored once: the hand-made index scores `xeno xeno xeno` on its 100 postings', () => {
    expect(matchedIds('xeno xeno xeno')).toEqual({ ids: range(XENOS, xenoId), scored: XENOS });
    expect(search(many, { q: 'xeno xeno xeno', limit: 3 })).toEqual(search(many, { q: 'xeno', limit: 3 }));
  });
});

describe(`a query has at most MAX_WORDS (${MAX_WORDS}) different words`, () => {
  const distinct = Array.from({ length: MAX_WORDS + 1 }, (_, i) => `w${i.toString(36)}x`);

  it(`${MAX_WORDS} different words are a query; one more is an InvalidQueryError naming q and the cap`, () => {
    expect(() => search(fixture, { q: distinct.slice(0, MAX_WORDS).join(' ') })).not.toThrow();
    let err: unknown;
    try {
      search(fixture, { q: distinct.join(' ') });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InvalidQueryError);
    expect((err as InvalidQueryError).param).toBe('q');
    expect((err as InvalidQueryError).message).toContain(`at most ${MAX_WORDS} different words, got ${MAX_WORDS + 1}`);
  });

  it('words are counted as the index splits and folds them: repeats in other cases and punctuation are one', () => {
    // 12 words written twice, in upper case and with commas: 12 different words
    const q = [...distinct.slice(0, MAX_WORDS), ...distinct.slice(0, MAX_WORDS).map((w) => `${w.toUpperCase()},`)].join(' ');
    expect(new Set(wordsOf(q)).size).toBe(MAX_WORDS);
    expect(() => search(fixture, { q })).not.toThrow();
  });

  it('over HTTP, one word too many is a 400 envelope naming q', async () => {
    const t = token('c');
    const app = createApp({ index: fixture, tokens: [t], log: () => {} });
    const res = await app.fetch(new Request(`http://x/api/v1/search?q=${encodeURIComponent(distinct.join(' '))}&key=${t.key}`));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { status: number; message: string; data: unknown[] };
    expect(body.status).toBe(400);
    expect(body.message).toMatch(/^q: .*at most 12 different words/);
    expect(body.data).toEqual([]);
  });
});

describe(`a query scores at most MAX_POSTINGS (${MAX_POSTINGS}) postings`, () => {
  it('the hand-made index holds what the cases below assume', () => {
    expect(MAX_POSTINGS).toBe(40_000);
    expect(many.size).toBe(RARE + SHOPS + XENOS);
  });

  it('below the cap every match is scored: `shop` finds its 30,000 cafes, `sq` its 30,000', () => {
    expect(matchedIds('shop')).toEqual({ ids: range(SHOPS, shopId), scored: SHOPS });
    expect(matchedIds('sq')).toEqual({ ids: range(RARE, rareId), scored: RARE });
  });

  it('`s` completes to 60,000 postings: all 30,000 rare words (one name each) first, then the first 10,000 shops in index order', () => {
    const { ids, scored } = matchedIds('s');
    expect(scored).toBe(MAX_POSTINGS);
    expect(ids).toEqual([...range(RARE, rareId), ...range(MAX_POSTINGS - RARE, shopId)]);
  });

  it('the top of a capped answer is the top of the exact one: the rarest, shortest completions', () => {
    // BM25+: a word in one name weighs far more than one in 30,000, and a shorter completion of
    // `s` more than a longer one; the 36 three-letter words sq0..sqz tie, and ties go by placeId
    const top = search(many, { q: 's', limit: 10 });
    expect(top.map((s) => s.name)).toEqual(range(10, rareName));
    expect(top.map((s) => s.placeId)).toEqual(range(10, (i) => rareId(i) * 4));
  });

  it('the words share the cap: `xeno` needs 100 and gets them, `s` the other 39,900', () => {
    // no name holds both words: the rows matching either come back
    const { ids, scored } = matchedIds('xeno s');
    expect(scored).toBe(MAX_POSTINGS);
    expect(ids).toEqual([...range(RARE, rareId), ...range(MAX_POSTINGS - RARE - XENOS, shopId), ...range(XENOS, xenoId)]);
  });

  it('two broad words get half each: `shop` 20,000 of its 30,000, `s` 20,000 of its rare words first', () => {
    const { ids, scored } = matchedIds('shop s');
    expect(scored).toBe(MAX_POSTINGS);
    // `shop` takes the first 20,000 shops; `s` fills its share with rare words (in the index's
    // code-unit order of words) before reaching `shop`: no row matches both, any-word rows come back
    const rare = range(RARE, (i) => i)
      .sort((a, b) => (rareName(a) < rareName(b) ? -1 : 1))
      .slice(0, MAX_POSTINGS / 2)
      .map(rareId);
    expect(ids).toEqual([...rare.sort((a, b) => a - b), ...range(MAX_POSTINGS / 2, shopId)]);
  });

  it('the capped answer never exceeds the cap, whatever the words (every letter, every prefix)', () => {
    for (const q of ['s', 's sh sq shop', 's x', 'a b c d e f g h i j k s']) {
      expect(many.words.match(q).scored).toBeLessThanOrEqual(MAX_POSTINGS);
    }
  });

  it('on the fixture no query reaches the cap: every letter scores all its postings, as many as the names hold', () => {
    // the postings of a one-letter query, counted from the names: a name's distinct words starting with it
    const t = fixture.table;
    for (const letter of ['s', 'k', 'ठ']) {
      let want = 0;
      const key = new Set(['name', 'name:en', 'name:ne', 'alt_name', 'old_name']);
      for (let r = 0; r < t.size; r++) {
        if (t.strings[t.name[r]] === '') continue;
        const names = new Set<string>();
        for (let k = t.tagStart[r]; k < t.tagStart[r + 1]; k++) {
          if (key.has(t.strings[t.tagKV[2 * k]])) names.add(wordsOf(t.strings[t.tagKV[2 * k + 1]]).join(' '));
        }
        for (const n of names) want += new Set(n.split(' ').filter((w) => w.startsWith(letter))).size;
      }
      expect(want).toBeGreaterThan(0);
      expect(fixture.words.match(letter).scored).toBe(want);
    }
  });
});

describe('thousands of equally relevant rows are ordered as the contract says', () => {
  it('`shop` names 30,000 cafes alike (same relevance, same prominence): with lat/lon the nearest come first, ties by placeId', () => {
    const here = { lat: 27.7013, lon: 85.30137 };
    const want = range(SHOPS, shopId)
      .map((id) => ({ id: id * 4, km: distance([here.lon, here.lat], [position(id).lon / 1e7, position(id).lat / 1e7]) }))
      .sort((a, b) => a.km - b.km || a.id - b.id)
      .slice(0, 25)
      .map((x) => x.id);
    const got = search(many, { q: 'shop', limit: 25, ...here });
    expect(got.map((s) => s.placeId)).toEqual(want);
    expect(new Set(got.map((s) => s.score)).size).toBe(1);
  });
});

describe('radius keeps exactly the rows within it (decided without trigonometry where it is sure)', () => {
  it.each([
    [27.7154, 85.3123, 1],
    [27.7154, 85.3123, 2],
    [27.7006, 85.3002, 2],
    [27.716, 85.341, 3],
    [27.708, 85.32, 1],
  ])('around %f, %f, %i km: the rows of `a` whose centroid @turf/distance puts within it', (lat, lon, radius) => {
    // streets left out: a street of many ways is listed once, by the best of its ways in range
    const street = (s: Suggestion) => fixture.table.what[fixture.lookup.row(s.placeId)] === STREET;
    const all = search(fixture, { q: 'a', limit: 100_000 }).filter((s) => !street(s));
    const within = search(fixture, { q: 'a', lat, lon, radius, limit: 100_000 }).filter((s) => !street(s));
    const want = all.filter((s) => {
      const c = place(fixture, s.placeId)!.centroid;
      return distance([lon, lat], [c.lon, c.lat]) <= radius;
    });
    // the fixture is about 4 km by 2: some rows in, some out, at every radius
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(all.length);
    // a place mapped several times is listed once (support/same.ts): maybe as another of its
    // records in the wider answer, one outside the circle
    const wanted = new Set(want.map((s) => s.placeId));
    const same = samePlaceIn(fixture, raw);
    for (const s of within) {
      const c = place(fixture, s.placeId)!.centroid;
      expect(distance([lon, lat], [c.lon, c.lat])).toBeLessThanOrEqual(radius);
      if (!wanted.has(s.placeId))
        expect(
          all.some((x) => same(x.placeId, s.placeId)),
          `${s.name} stands for a row listed`,
        ).toBe(true);
    }
    expect(
      onceEach(
        within.map((s) => s.placeId),
        [...wanted],
        same,
      ),
    ).toEqual([]);
  });
});

describe('prepareSearch builds up front what the first searches would (createApp calls it)', () => {
  // the radix tree of typos and the pool of query scratch, private to the text index
  const built = (i: PlaceIndex) => {
    const w = i.words as unknown as { dict?: unknown; free: { score: Float64Array }[] };
    return { typos: w.dict !== undefined, scratch: w.free.reduce((n, c) => n + c.score.length, 0) };
  };

  it('a fresh index has neither; prepareSearch builds both, and answers do not change', async () => {
    const [fresh, other] = await Promise.all([loadPbf(CORE_PBF), loadPbf(CORE_PBF)]);
    expect(built(fresh)).toEqual({ typos: false, scratch: 0 });
    prepareSearch(fresh);
    expect(built(fresh)).toEqual({ typos: true, scratch: fresh.words.names });
    for (const q of ['resturant', 'thamal', 'ka', 'ठमेल']) expect(search(fresh, { q, limit: 20 })).toEqual(search(other, { q, limit: 20 }));
  });

  it('createApp prepares the index it serves', async () => {
    const fresh = await loadPbf(CORE_PBF);
    createApp({ index: fresh, tokens: [token('d')], log: () => {} });
    expect(built(fresh)).toEqual({ typos: true, scratch: fresh.words.names });
  });
});
