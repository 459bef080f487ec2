/**
 * The words one typo away (search/typos.ts) against the textbook: a Levenshtein distance
 * computed by its dynamic programme over every word, for the fixture's words and for words
 * made from them by a random edit, and against MiniSearch's own `fuzzyGet(term, 1)`, which
 * search used before.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import SearchableMap from 'minisearch/SearchableMap';
import { Typos, oneApart } from '../src/search/typos.js';
import { words } from '../src/search/words.js';
import { engine } from './support/fixture.js';
import { random } from './support/random.js';

/** Levenshtein distance in UTF-16 code units, by the full table. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = row;
  }
  return prev[b.length];
}

/** The words at distance 1 from `term`, without those that start with it (unless `completions`), sorted. */
function expected(all: readonly string[], term: string, completions = false): string[] {
  // (a length more than one apart is a distance more than one: the table need not say so)
  return all.filter((w) => Math.abs(w.length - term.length) <= 1 && distance(w, term) === 1 && (completions || !w.startsWith(term)));
}

function build(sorted: string[]): Typos {
  const steps = Typos.build(sorted, 64);
  for (;;) {
    const s = steps.next();
    if (s.done) return s.value;
  }
}

let sorted: string[];
let typos: Typos;
/** Queries: the fixture's words, and each with one random edit (a letter changed, added, dropped). */
const terms: string[] = [];

beforeAll(async () => {
  const index = await engine();
  const t = index.table;
  const set = new Set<string>();
  for (let r = 0; r < t.size; r++) for (const w of words(t.strings[t.name[r]])) set.add(w);
  sorted = [...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  typos = build(sorted);
  const rnd = random(21);
  const alphabet = 'abcdehikmnorstuy' + 'कखगठडतदनपमरलसहािीुूेो्ं';
  for (const w of sorted) {
    terms.push(w);
    const at = Math.floor(rnd() * (w.length + 1));
    const c = alphabet[Math.floor(rnd() * alphabet.length)];
    const edit = Math.floor(rnd() * 3);
    terms.push(
      edit === 0 ? w.slice(0, at) + c + w.slice(at) : edit === 1 ? w.slice(0, at) + w.slice(at + 1) : w.slice(0, at) + c + w.slice(at + 1),
    );
  }
}, 60_000);

describe('near(term): the words one letter changed, added or dropped away, but the term and its completions', () => {
  it("equals the Levenshtein distance 1 of every word, for the fixture's words and one random edit of each", () => {
    let found = 0;
    for (const term of terms.slice(0, 2000)) {
      const got = typos.near(term).map((k) => sorted[k]);
      expect(got, term).toEqual(expected(sorted, term));
      found += got.length;
    }
    expect(found).toBeGreaterThan(300); // the check saw typos, not only empty lists
  });

  it('with completions: the words one letter longer that start with the term too', () => {
    for (const term of ['thame', 'hote', 'ठमे', 'bank', 'kathmand'])
      expect(typos.near(term, true).map((k) => sorted[k])).toEqual(expected(sorted, term, true));
  });

  it("equals MiniSearch's fuzzyGet(term, 1) at distance 1, for words of five letters or more", () => {
    const tree = new SearchableMap<number>();
    sorted.forEach((w, k) => tree.set(w, k));
    for (const term of terms.filter((t) => [...t].length >= 5).slice(0, 1500)) {
      const theirs = [...tree.fuzzyGet(term, 1)].filter(([w, [, d]]) => d === 1 && !w.startsWith(term)).map(([, [k]]) => k);
      expect(typos.near(term), term).toEqual(theirs.sort((a, b) => a - b));
    }
  });

  it('short and odd terms: one letter, a letter of a surrogate pair, none', () => {
    const list = ['a', 'ab', 'b', 'ba', 'bb', 'x😀', '😀'].sort();
    const small = build(list);
    for (const term of ['a', 'b', 'c', 'x', '😀', 'x😀', 'ab'])
      expect(
        small.near(term).map((k) => list[k]),
        term,
      ).toEqual(expected(list, term));
    expect(small.near('')).toEqual([]);
    expect(build([]).near('abc')).toEqual([]);
  });
});

describe('oneApart: at most one code unit changed, added or dropped', () => {
  it('agrees with the Levenshtein distance on random short strings', () => {
    const rnd = random(5);
    const s = () => Array.from({ length: Math.floor(rnd() * 5) }, () => 'abc'[Math.floor(rnd() * 3)]).join('');
    for (let i = 0; i < 20_000; i++) {
      const a = s(),
        b = s();
      expect(oneApart(a, b), `${a} ${b}`).toBe(distance(a, b) <= 1);
    }
  });
});
