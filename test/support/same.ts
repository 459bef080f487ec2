/**
 * Search's rule for one place mapped several times, written again for the tests from the raw
 * tags: two records are one place when one of their names (`name`, `name:en`, `name:ne`,
 * `alt_name`; a bus stop's without a last `stop`, `bus stop`, `बस बिसौनी`) has the same words, or,
 * for records whose names are written in two scripts, the same phonetic keys (five letters or
 * more, numbers kept), and their centroids are 100 m apart at most (@turf/distance).
 */
import distance from '@turf/distance';
import { place, type PlaceIndex } from '../../src/index.js';
import { phoneticKey } from '../../src/lang/translit.js';
import { displayName, rawById } from './names.js';
import { tag, type RawData, type RawTag } from './raw.js';

const NAMES = ['name', 'name:en', 'name:ne', 'alt_name'];
const STOP_WORDS = new Set(['stop', 'bus', 'busstop', 'बस', 'बिसौनी', 'स्टप', 'स्टेण्ड', 'stand']);

/** Whether the tags are a bus stop's (a stop named after a place is listed as the place). */
function isStop(tags: RawTag[]): boolean {
  return tag(tags, 'highway') === 'bus_stop' || ['stop_position', 'platform'].includes(tag(tags, 'public_transport') ?? '');
}

/** A record's names as their words (lower case, split where there is no letter, mark or digit), a stop's without the words of a stop. */
function namesWords(tags: RawTag[]): string[][] {
  const out: string[][] = [];
  for (const k of NAMES) {
    let ws = (tag(tags, k) ?? '')
      .toLowerCase()
      .split(/[^\p{L}\p{M}\p{N}]+/u)
      .filter(Boolean);
    if (isStop(tags)) while (ws.length > 1 && STOP_WORDS.has(ws[ws.length - 1])) ws = ws.slice(0, -1);
    if (ws.length) out.push(ws);
  }
  return out;
}

/** A record's names by sound: each word's phonetic key with its digits, when five letters or more. */
function sounds(names: string[][]): string[] {
  return names.map((ws) => ws.map((w) => phoneticKey(w) + w.replace(/\D/g, '')).join(' ')).filter((k) => k.replace(/ /g, '').length >= 5);
}

/** `(a, b) => whether placeIds a and b are one place by the rule above`, for an index of raw data. */
export function samePlaceIn(index: PlaceIndex, raw: RawData): (a: number, b: number) => boolean {
  const memo = new Map<number, { names: string[]; sounds: string[]; script: boolean; at: [number, number] }>();
  const of = (id: number) => {
    let m = memo.get(id);
    if (!m) {
      const c = place(index, id)!.centroid;
      const tags = rawById(raw, id)!.tags;
      const ws = namesWords(tags);
      m = { names: ws.map((w) => w.join(' ')), sounds: sounds(ws), script: /[\u0900-\u097f]/.test(displayName(tags)), at: [c.lon, c.lat] };
      memo.set(id, m);
    }
    return m;
  };
  return (a, b) => {
    const x = of(a),
      y = of(b);
    const named = x.names.some((k) => y.names.includes(k)) || (x.script !== y.script && x.sounds.some((k) => y.sounds.includes(k)));
    return named && distance(x.at, y.at) <= 0.1;
  };
}

/**
 * Checks that `found` lists `expected` once per place: every expected row is found, or is one
 * place with a row found or another expected row (folded into it), and no two rows found are
 * one place. `key` lists a street of many ways once (by name and address). Returns a message
 * per failure.
 */
export function onceEach(
  found: number[],
  expected: number[],
  same: (a: number, b: number) => boolean,
  key: (id: number) => string = String,
): string[] {
  const out: string[] = [];
  const foundKeys = new Set(found.map(key));
  const one = (id: number, list: number[]) => list.some((other) => other !== id && same(id, other));
  for (const id of expected)
    if (!foundKeys.has(key(id)) && !one(id, found) && !one(id, expected)) out.push(`${id} neither found nor one place with another`);
  for (let i = 0; i < found.length; i++)
    for (let j = i + 1; j < found.length; j++)
      if (same(found[i], found[j])) out.push(`${found[i]} and ${found[j]} are one place, listed twice`);
  return out;
}
