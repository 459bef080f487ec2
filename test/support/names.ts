/**
 * Names of raw OSM objects as keyword search sees them, written again for the tests:
 * the name tags, their words, and whether a query's words match them (as a prefix,
 * or one edit away for words of five letters or more).
 */
import type { RawData, RawTag } from './raw.js';
import { tag } from './raw.js';

/** The tags a place is found by. */
export const NAME_KEYS = ['name', 'name:en', 'name:ne', 'alt_name', 'old_name'];

/** Lower case, Latin accents dropped, Devanagari kept (canonically composed), joiners dropped. */
export function foldText(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f\u00ad\u200c\u200d]/g, '')
    .normalize('NFC')
    .toLowerCase();
}

/** The words of a text: runs of letters, marks and digits, folded. */
export function wordsOf(s: string): string[] {
  return foldText(s)
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter(Boolean);
}

/** Each non-blank name tag of an object, as its words. */
export function namesOf(tags: RawTag[]): string[][] {
  return NAME_KEYS.map((k) => wordsOf(tag(tags, k) ?? '')).filter((w) => w.length > 0);
}

/** `name`, else `name:en`, else `name:ne` (blank counts as absent), else "". */
export function displayName(tags: RawTag[]): string {
  for (const k of ['name', 'name:en', 'name:ne']) {
    const v = tag(tags, k);
    if (v !== undefined && v.trim()) return v;
  }
  return '';
}

/** Levenshtein distance over code points. */
export function levenshtein(a: string, b: string): number {
  const x = [...a],
    y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[y.length];
}

/** How a word of a name answers a query word: completes it, is one typo from it, or not at all. */
export function wordMatch(word: string, q: string): 'prefix' | 'typo' | undefined {
  if (word.startsWith(q)) return 'prefix';
  if ([...q].length >= 5 && levenshtein(word, q) === 1) return 'typo';
  return undefined;
}

/** Whether one name of the tags answers every word of the query; `prefixOnly` leaves typos out. */
export function nameMatches(tags: RawTag[], q: string, prefixOnly = false): boolean {
  const qs = wordsOf(q);
  return namesOf(tags).some((name) =>
    qs.every((w) =>
      name.some((n) => {
        const m = wordMatch(n, w);
        return prefixOnly ? m === 'prefix' : m !== undefined;
      }),
    ),
  );
}

/** A raw object found by placeId (`osmId * 4 + kind`). */
export interface RawObject {
  kind: number;
  osmId: number;
  tags: RawTag[];
}

/** The raw object of a placeId, or undefined. */
export function rawById(raw: RawData, placeId: number): RawObject | undefined {
  const kind = placeId % 4;
  const osmId = (placeId - kind) / 4;
  const o = kind === 0 ? raw.node.get(osmId) : kind === 1 ? raw.way.get(osmId) : kind === 2 ? raw.relation.get(osmId) : undefined;
  return o && { kind, osmId, tags: o.tags };
}

/** Every raw object (nodes, ways, relations) with its placeId. */
export function* rawObjects(raw: RawData): Generator<RawObject & { placeId: number }> {
  for (const n of raw.nodes) yield { kind: 0, osmId: n.id, tags: n.tags, placeId: n.id * 4 };
  for (const w of raw.ways) yield { kind: 1, osmId: w.id, tags: w.tags, placeId: w.id * 4 + 1 };
  for (const r of raw.relations) yield { kind: 2, osmId: r.id, tags: r.tags, placeId: r.id * 4 + 2 };
}

/**
 * Whether the names the object bears today (not `old_name`) match every word of the query by
 * sound: a key of each word is a key of a word of some name, or (not a meaning `=…` nor letters
 * `@…`) the start of one (three letters or more), or one letter longer than one (four letters or
 * more); or the word and the next or the one before, written as one, have a key of a name's
 * word; or the word's key (five letters or more) cut in two keys of two letters or more, or its
 * letters `@…` one by one, are keys of the name's words; or the word is one of two or more
 * letters in a row (`@r`, `@s`) which together are a key of a name's word. Keys of all the names
 * count together.
 */
export function soundMatches(tags: RawTag[], q: string, keysOf: (word: string) => string[]): boolean {
  const keys = new Set(
    NAME_KEYS.filter((k) => k !== 'old_name')
      .flatMap((k) => wordsOf(tag(tags, k) ?? ''))
      .flatMap(keysOf),
  );
  const sure = (k: string) => k.startsWith('=') || k.startsWith('@');
  const sound = (k: string, n: string) => !sure(k) && ((k.length >= 3 && n.startsWith(k)) || (k.length >= 4 && n === k.slice(0, -1)));
  const one = (w: string) => keysOf(w).some((k) => [...keys].some((n) => n === k || sound(k, n)));
  const cut = (k: string) => {
    if (k.startsWith('@')) return k.length > 2 && [...k.slice(1)].every((l) => keys.has(`@${l}`));
    if (k.startsWith('=') || k.length < 5) return false;
    for (let p = 2; p + 2 <= k.length; p++) if (keys.has(k.slice(0, p)) && keys.has(k.slice(p))) return true;
    return false;
  };
  const qs = [...new Set(wordsOf(q))];
  const script = (w: string) => (/[\u0900-\u097f]/.test(w) ? 'deva' : 'latin');
  const joined = (i: number) =>
    i >= 0 &&
    i + 1 < qs.length &&
    /\p{L}/u.test(qs[i]) &&
    /\p{L}/u.test(qs[i + 1]) &&
    script(qs[i]) === script(qs[i + 1]) &&
    keysOf(qs[i] + qs[i + 1]).some((k) => keys.has(k));
  // runs of single letters: the letters each word spells
  const letter = qs.map((w) =>
    keysOf(w)
      .find((k) => /^@.$/.test(k))
      ?.slice(1),
  );
  const inRun = (i: number) => {
    if (letter[i] === undefined) return false;
    let a = i,
      b = i;
    while (a > 0 && letter[a - 1] !== undefined) a--;
    while (b + 1 < qs.length && letter[b + 1] !== undefined) b++;
    return b > a && keys.has(`@${letter.slice(a, b + 1).join('')}`);
  };
  return qs.every((w, i) => one(w) || keysOf(w).some(cut) || joined(i) || joined(i - 1) || inRun(i));
}
