import distance from '@turf/distance';
import { beforeAll, describe, expect, it } from 'vitest';
import { search, place, InvalidQueryError, type PlaceIndex, type Suggestion } from '../src/index.js';
import { placeId as rowId } from '../src/query/record.js';
import { kthLargest } from '../src/query/search.js';
import { fold } from '../src/search/fold.js';
import { engine } from './support/fixture.js';
import { readRaw, tag, type RawData } from './support/raw.js';
import { typesOf, type Kind } from './support/places.js';
import { membersOf } from './support/merged.js';
import { nameMatches, rawById, rawObjects, soundMatches, wordsOf, type RawObject } from './support/names.js';
import { matchKeys } from '../src/lang/glossary.js';
import { onceEach, samePlaceIn } from './support/same.js';

const ALL = 100_000;
const THAMEL = { lat: 27.7154, lon: 85.3123 };

let index: PlaceIndex;
let raw: RawData;
/** The raw object of every row of the index, by placeId: the universe a search can answer from. */
let rows: Map<number, RawObject>;
/** Whether two rows are one place mapped twice, which search lists once (support/same.ts). */
let same: (a: number, b: number) => boolean;

beforeAll(async () => {
  [index, raw] = await Promise.all([engine(), readRaw()]);
  rows = new Map();
  for (let r = 0; r < index.table.size; r++) {
    const id = rowId(index.table, r);
    rows.set(id, rawById(raw, id)!);
  }
  same = samePlaceIn(index, raw);
}, 60_000);

const ids = (s: Suggestion[]) => s.map((x) => x.placeId);
const sorted = (a: number[]) => [...a].sort((x, y) => x - y);
/** The rows whose names answer q, from the raw tags (`prefixOnly`: no typos). */
function expectedIds(q: string, prefixOnly = false): number[] {
  const out: number[] = [];
  for (const [id, o] of rows) if (nameMatches(o.tags, q, prefixOnly)) out.push(id);
  return sorted(out);
}
/**
 * The rows of an answer that match `q` by their letters (which the caller checks against the
 * raw names); every other row listed must match each word of `q` by sound (the same name in
 * the other script, spelled otherwise, or translated).
 */
function byLetters(found: Suggestion[], q: string, prefixOnly = false): Suggestion[] {
  const want = new Set(expectedIds(q, prefixOnly));
  for (const s of found.filter((x) => !want.has(x.placeId))) {
    expect(soundMatches(rows.get(s.placeId)!.tags, q, matchKeys), `${s.name} matches ${q} by sound`).toBe(true);
  }
  return found.filter((x) => want.has(x.placeId));
}
/** A named street way with no feature or place key: one street of many ways, listed once per name and address. */
function isStreet(id: number): boolean {
  const o = rows.get(id)!;
  return (
    id % 4 === 1 &&
    tag(o.tags, 'highway') !== undefined &&
    tag(o.tags, 'place') === undefined &&
    !o.tags.some(([k]) =>
      [
        'amenity',
        'shop',
        'tourism',
        'leisure',
        'healthcare',
        'office',
        'craft',
        'historic',
        'public_transport',
        'railway',
        'aeroway',
        'emergency',
      ].includes(k),
    )
  );
}
/** A search box's key for a row: a street once per name and address, any other row by its id. */
const listed = (id: number) => (isStreet(id) ? `street ${place(index, id)!.name}|${place(index, id)!.address}` : String(id));
/** What a search box lists for these rows: a street once per name and address, any other row by its id. */
function listing(list: number[]): string[] {
  return [...new Set(list.map(listed))].sort();
}
/**
 * The rows found are the rows expected, a street once and a place mapped several times once
 * (support/same.ts): none found that is not expected, none expected left out but for one of those.
 */
function expectOnce(found: number[], expected: number[]): void {
  const want = new Set(expected.map(listed));
  expect(found.filter((id) => !want.has(listed(id)))).toEqual([]);
  expect(onceEach(found, expected, same, listed)).toEqual([]);
}
const centroidOf = (id: number) => place(index, id)!.centroid;
const kmFrom = (p: { lat: number; lon: number }, id: number) => {
  const c = centroidOf(id);
  return distance([p.lon, p.lat], [c.lon, c.lat]);
};

describe('prefix: each word of the query completes a word of one of the names', () => {
  it('`thame` finds Thamel: Thamel Marg (a street) and Thamel Chowk (an attraction), among the first ten', () => {
    const found = search(index, { q: 'thame' });
    expect(found.length).toBe(10);
    const names = found.map((s) => s.name);
    expect(names).toContain('Thamel Marg');
    expect(names).toContain('Thamel Chowk');
    // hand-checked: Thamel Marg is way 120358424 (highway=residential), Thamel Chowk node 5599095623
    expect(ids(found)).toContain(120358424 * 4 + 1);
    expect(ids(found)).toContain(5599095623 * 4);
    // the fixture maps no `place=*` Thamel: in it, Thamel is its street and the places named after it
    const localities = [...rawObjects(raw)].filter((o) => tag(o.tags, 'place') !== undefined && nameMatches(o.tags, 'thamel'));
    expect(localities).toEqual([]);
  });

  it.each(['thame', 'thamel', 'kathm', 'nabil b', 'ban', 'durbar sq', 'ठमे', 'new ro'])(
    '%s: exactly the rows whose names answer it, then those that sound like it',
    (q) => {
      const found = byLetters(search(index, { q, limit: ALL }), q);
      expect(found.length).toBeGreaterThan(0);
      expectOnce(ids(found), expectedIds(q));
      expect(listing(ids(found)).length, 'a street listed once').toBe(found.length);
    },
  );

  it('completions rank before corrections: `thame` lists every Thamel before Theme Maker', () => {
    const found = byLetters(search(index, { q: 'thame', limit: ALL }), 'thame');
    const prefix = found.map((s) => nameMatches(rows.get(s.placeId)!.tags, 'thame', true));
    expect(prefix.filter((p) => !p).length).toBeGreaterThan(0); // Theme Maker: one typo from `thame`
    expect(prefix.indexOf(false)).toBe(prefix.lastIndexOf(true) + 1);
    expect(found.find((s) => !prefix[found.indexOf(s)])!.name).toBe('Theme Maker');
  });

  it('a single letter completes too', () => {
    const found = byLetters(search(index, { q: 'Q', limit: ALL }), 'q');
    expectOnce(ids(found), expectedIds('q'));
    expect(found.length).toBeGreaterThan(5);
  });
});

describe('the text index by letters alone: the rows whose names answer every word by their letters, none by sound', () => {
  it('equals the rows the raw names answer, for words of either script, prefixes and typos', () => {
    for (const q of ['thamel', 'thame', 'thamal', 'nabil bank', 'ठमेल', 'होटल', 'kathmandu g', 'resturant']) {
      const rows = index.words.match(q, undefined, { letters: true }).rows.map((r) => rowId(index.table, r));
      expect(sorted([...new Set(rows)]), q).toEqual(expectedIds(q));
    }
  });

  it('by every reading, the same query finds more (names in the other script)', () => {
    expect(index.words.match('ठमेल').rows.length).toBeGreaterThan(index.words.match('ठमेल', undefined, { letters: true }).rows.length);
  });
});

describe('case- and diacritics-insensitive for Latin script', () => {
  it.each([
    ['THAMEL', 'thamel'],
    ['Thāmél', 'thamel'],
    ['BĀLĀJU', 'balaju'],
    ['Bālāju', 'balaju'],
    ['KATHMANDU guest', 'kathmandu GUEST'],
  ])('%s = %s', (a, b) => {
    const x = search(index, { q: a, limit: ALL });
    expect(x.length).toBeGreaterThan(0);
    expect(x).toEqual(search(index, { q: b, limit: ALL }));
  });

  it('`balaju` finds the three localities whose alt_name is Bālāju (hand-checked)', () => {
    // listed once each, or as one place where two are one (support/same.ts)
    const localities = ids(search(index, { q: 'balaju', limit: ALL })).filter(
      (id) => rows.get(id)!.kind === 0 && tag(rows.get(id)!.tags, 'place'),
    );
    expect(
      onceEach(
        localities,
        [3094285263, 6653134800, 9409626772].map((n) => n * 4),
        same,
      ),
    ).toEqual([]);
    expect(localities.length).toBeGreaterThan(0);
  });
});

describe('one typo in words of five letters or more', () => {
  it.each(['thamal', 'thamek', 'kathmadu', 'kathmanduu', 'resturant'])(
    '%s: exactly the rows one edit away (or completing it), then those that sound like it',
    (q) => {
      const found = byLetters(search(index, { q, limit: ALL }), q);
      expect(found.length).toBeGreaterThan(0);
      expectOnce(ids(found), expectedIds(q));
      expect(listing(ids(found)).length, 'a street listed once').toBe(found.length);
    },
  );

  it('`thamal` finds Thamel Chowk', () => {
    expect(search(index, { q: 'thamal', limit: ALL }).map((s) => s.name)).toContain('Thamel Chowk');
  });

  it('no typo in shorter words, and never two', () => {
    for (const q of ['bamk', 'thml', 'marh', 'thomal', 'kathmnadu']) {
      const found = byLetters(search(index, { q, limit: ALL }), q, q.length < 5);
      expectOnce(ids(found), expectedIds(q, q.length < 5));
    }
    // `thomal` is two edits from thamel (a transposition is two edits): not by letters, only by sound
    const thomal = search(index, { q: 'thomal', limit: ALL });
    expect(byLetters(thomal, 'thomal').filter((s) => /thamel/i.test(s.name))).toEqual([]);
    expect(thomal.filter((s) => /thamel/i.test(s.name)).length).toBeGreaterThan(0);
  });
});

describe('Devanagari names (name:ne and Devanagari name tags)', () => {
  it('ठमेल finds the rows with a word ठमेल…, among them ठमेल ट्रेकर्स होटल (hand-checked, node 8696781500)', () => {
    const found = byLetters(search(index, { q: 'ठमेल', limit: ALL }), 'ठमेल');
    expectOnce(ids(found), expectedIds('ठमेल'));
    expect(ids(found)).toContain(8696781500 * 4);
    expect(found.find((s) => s.placeId === 8696781500 * 4)!.name).toBe('ठमेल ट्रेकर्स होटल');
  });

  it('a nukta letter typed as one code point or as two folds to one word', () => {
    // no row of the fixture has one in a name (way 232095609, भक्ति थापा रोड़, is cut off), so the fold itself
    const one = 'रो\u095C',
      two = 'रो\u0921\u093C';
    expect(one).not.toBe(two);
    expect(fold(one)).toBe(fold(two));
    expect(fold('ऩ')).toBe(fold('न\u093C'));
    expect(search(index, { q: `ठमेल ${one}`, limit: ALL })).toEqual(search(index, { q: `ठमेल ${two}`, limit: ALL }));
  });

  it('vowel signs are letters: ठमल (without े) does not find ठमेल by its letters, only by sound', () => {
    const found = search(index, { q: 'ठमल', limit: ALL });
    expect(ids(byLetters(found, 'ठमल'))).not.toContain(8696781500 * 4);
    expect(ids(found)).toContain(8696781500 * 4);
  });

  it('a Devanagari name is found by its English name too', () => {
    // node 8696781500: name=ठमेल ट्रेकर्स होटल, name:en=Thamel Trekkers Hotel
    expect(ids(search(index, { q: 'thamel trekkers', limit: 5 }))).toContain(8696781500 * 4);
  });
});

describe('ranking: text relevance, then prominence, then (with lat/lon) proximity, then placeId', () => {
  // prominence from the index: its values are checked against the raw tags by the nearby tests' scores
  const prominence = (id: number) => index.table.prominence[index.lookup.row(id)];
  /** Whether a row is one place with another row of the index (support/same.ts). */
  const folded = (id: number) => [...rows.keys()].some((other) => other !== id && same(id, other));

  it.each(['thamel', 'ban', 'kathmandu', 'hotel', 'ठमेल'])('%s, without a location', (q) => {
    const found = search(index, { q, limit: ALL });
    for (let i = 1; i < found.length; i++) {
      const a = found[i - 1],
        b = found[i];
      expect(a.score).toBeGreaterThanOrEqual(b.score);
      // a place mapped several times is listed where its best record ranks, as its most useful record
      if (a.score === b.score && !folded(a.placeId)) {
        expect(prominence(a.placeId)).toBeGreaterThanOrEqual(prominence(b.placeId));
        if (prominence(a.placeId) === prominence(b.placeId)) expect(a.placeId).toBeLessThan(b.placeId);
      }
    }
  });

  it.each(['thamel', 'ban', 'nabil bank', 'hotel'])('%s, biased to Thamel: nearer first among equals', (q) => {
    const found = search(index, { q, ...THAMEL, limit: ALL });
    for (let i = 1; i < found.length; i++) {
      const a = found[i - 1],
        b = found[i];
      expect(a.score).toBeGreaterThanOrEqual(b.score);
      if (a.score === b.score && prominence(a.placeId) === prominence(b.placeId)) {
        expect(kmFrom(THAMEL, a.placeId)).toBeLessThanOrEqual(kmFrom(THAMEL, b.placeId) + 1e-9);
      }
    }
  });

  it('the bias is not a filter: the same rows, in another order', () => {
    const plain = search(index, { q: 'nabil bank', limit: ALL });
    const biased = search(index, { q: 'nabil bank', lat: 27.701, lon: 85.34, limit: ALL });
    expect(sorted(ids(biased))).toEqual(sorted(ids(plain)));
    expect(ids(biased)).not.toEqual(ids(plain));
  });

  it.each(['nabil bank', 'global ime', 'himalayan bank'])(
    '%s: biased to one of several equally good matches, that one comes first among them',
    (q) => {
      const plain = search(index, { q, limit: ALL });
      // the largest group of equally relevant and prominent matches (chain branches)
      const groups = new Map<string, Suggestion[]>();
      for (const s of plain) {
        const k = `${s.score}/${prominence(s.placeId)}`;
        groups.set(k, [...(groups.get(k) ?? []), s]);
      }
      const group = [...groups.values()].sort((a, b) => b.length - a.length)[0];
      expect(group.length).toBeGreaterThan(2);
      const members = new Set(ids(group));
      for (const s of group) {
        const biased = search(index, { q, ...centroidOf(s.placeId), limit: ALL });
        expect(biased.find((x) => members.has(x.placeId))!.placeId).toBe(s.placeId);
      }
    },
  );
});

describe('radius: with lat/lon, a hard filter on the distance to the centroid', () => {
  it.each([1, 2])('%i km around Thamel', (radius) => {
    const all = search(index, { q: 'ban', ...THAMEL, limit: ALL });
    const within = search(index, { q: 'ban', ...THAMEL, radius, limit: ALL });
    const want = all.filter((s) => kmFrom(THAMEL, s.placeId) <= radius);
    expect(within.length).toBeGreaterThan(0);
    expect(within.length).toBeLessThan(all.length);
    expect(within).toEqual(want);
  });
});

describe('type: only rows of a type (plain or merged); the record names the type that matched', () => {
  const rawTypes = (id: number) => {
    const o = rows.get(id)!;
    const own = typesOf(o.tags, o.kind as Kind);
    if (own.length) return own;
    // a locality, street or building has its place, highway or building value
    const v = tag(o.tags, 'place') ?? tag(o.tags, 'highway') ?? tag(o.tags, 'building');
    return v && v !== 'yes' ? [v] : tag(o.tags, 'building') ? ['building'] : [];
  };

  it.each([
    ['thamel', 'eat'],
    ['thamel', 'hotel'],
    ['ban', 'atm'],
    ['thamel', 'residential'],
    ['p', 'PARKING '],
    ['k', 'shopping'],
  ])('%s, type %s', (q, type) => {
    const members = membersOf(type);
    const all = search(index, { q, limit: ALL });
    const typed = search(index, { q, type, limit: ALL });
    const want = all.filter((s) => rawTypes(s.placeId).some((t) => members.includes(t)));
    expect(typed.length).toBeGreaterThan(0);
    // the same rows in the same order, but for places mapped several times: without the filter
    // such a place is listed as its most useful record, of another type maybe (a bank for its
    // ATM); with it, as its record of the type
    const wanted = new Set(ids(want)),
      got = new Set(ids(typed));
    expect(ids(typed).filter((id) => wanted.has(id))).toEqual(ids(want).filter((id) => got.has(id)));
    for (const id of ids(typed))
      if (!wanted.has(id))
        expect(
          ids(all).some((other) => same(id, other)),
          `${id} stands for a row listed`,
        ).toBe(true);
    for (const id of ids(want))
      if (!got.has(id))
        expect(
          ids(typed).some((other) => same(id, other)),
          `${id} is listed as another`,
        ).toBe(true);
    for (const s of typed) expect(s.type).toBe(rawTypes(s.placeId).find((t) => members.includes(t)));
  });

  it('an unknown type finds nothing', () => {
    expect(search(index, { q: 'thamel', type: 'no-such-type' })).toEqual([]);
  });

  it("without a type filter, the record has the row's own type", () => {
    for (const s of search(index, { q: 'thamel', limit: ALL })) expect(s.type).toBe(rawTypes(s.placeId)[0] ?? '');
  });
});

describe('records and limit', () => {
  it('a suggestion is placeId, name, address, type and a numeric score; name and address as place() has them', () => {
    for (const s of search(index, { q: 'thamel', limit: 20 })) {
      expect(Object.keys(s).sort()).toEqual(['address', 'name', 'placeId', 'score', 'type']);
      expect(typeof s.score).toBe('number');
      expect(Number.isFinite(s.score) && s.score > 0).toBe(true);
      const p = place(index, s.placeId)!;
      expect([s.name, s.address]).toEqual([p.name, p.address]);
    }
  });

  it('default limit 10; a limit keeps the first of the longer list', () => {
    const long = search(index, { q: 'ban', limit: ALL });
    expect(long.length).toBeGreaterThan(50);
    expect(search(index, { q: 'ban' })).toEqual(long.slice(0, 10));
    for (const limit of [1, 3, 17, 50]) expect(search(index, { q: 'ban', limit })).toEqual(long.slice(0, limit));
  });

  it('every word must match; when no name matches them all, rows matching any word by its letters, or half of them by sound', () => {
    // the fixture maps Thamel Mart twice, as one place (support/same.ts): listed once
    const both = search(index, { q: 'thamel mart', limit: ALL });
    expect(both.map((s) => s.name)).toEqual(['Thamel Mart']);
    const marts = [...rows].filter(([, o]) => tag(o.tags, 'name') === 'Thamel Mart').map(([id]) => id);
    expect(marts.length).toBe(2);
    expect(same(marts[0], marts[1])).toBe(true);
    const either = search(index, { q: 'thamel zqxj', limit: ALL });
    const spelled = new Set(expectedIds('thamel'));
    expectOnce(ids(either.filter((s) => spelled.has(s.placeId))), [...spelled]);
    // the other rows sound like one of the two words (ठमेल)
    const others = either.filter((s) => !spelled.has(s.placeId));
    expect(others.length).toBeGreaterThan(0);
    for (const s of others) expect(['thamel', 'zqxj'].some((w) => soundMatches(rows.get(s.placeId)!.tags, w, matchKeys))).toBe(true);
  });

  it.each(['!!!', '  -- ', 'zqxjzqxj', '🙂'])('%j finds nothing', (q) => {
    expect(search(index, { q })).toEqual([]);
  });
});

describe('bad arguments throw InvalidQueryError naming the parameter', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['q', {}],
    ['q', { q: '' }],
    ['q', { q: '   ' }],
    ['q', { q: 5 }],
    ['q', { q: 'x'.repeat(201) }],
    ['limit', { q: 'a', limit: 0 }],
    ['limit', { q: 'a', limit: 2.5 }],
    ['limit', { q: 'a', limit: '3' }],
    ['lon', { q: 'a', lat: 27.7 }],
    ['lat', { q: 'a', lon: 85.3 }],
    ['lat', { q: 'a', lat: 91, lon: 85.3 }],
    ['lon', { q: 'a', lat: 27, lon: NaN }],
    ['radius', { q: 'a', radius: 1 }],
    ['radius', { q: 'a', ...THAMEL, radius: 0 }],
    ['radius', { q: 'a', ...THAMEL, radius: 1.5 }],
    ['type', { q: 'a', type: '' }],
    ['type', { q: 'a', type: 7 }],
  ];
  it.each(cases)('%s: %j', (param, query) => {
    let err: unknown;
    try {
      search(index, query as never);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InvalidQueryError);
    expect((err as InvalidQueryError).param).toBe(param);
  });

  it('not an object', () => {
    expect(() => search(index, null as never)).toThrow(InvalidQueryError);
  });

  it('a query of 200 characters is fine', () => {
    expect(() => search(index, { q: 'thamel '.repeat(40).slice(0, 200) })).not.toThrow();
  });
});

describe('kthLargest', () => {
  it('equals sorting, with ties and every k', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 1; n < 60; n += 3) {
      const values = Array.from({ length: n }, () => Math.floor(rnd() * 8));
      const desc = [...values].sort((a, b) => b - a);
      for (let k = 1; k <= n; k++) expect(kthLargest(values, k)).toBe(desc[k - 1]);
    }
  });
});

describe("words of the tests and of the index agree on the fixture's names", () => {
  it('every name word the tests split is found whole', () => {
    let checked = 0;
    for (const [, o] of rows) {
      for (const w of wordsOf(tag(o.tags, 'name') ?? '').slice(0, 1)) {
        if (checked++ > 400) return;
        expect(search(index, { q: w, limit: ALL }).length).toBeGreaterThan(0);
      }
    }
  });
});
