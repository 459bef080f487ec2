import type { PlaceIndex } from '../index/place-index.js';
import type { PlaceTable } from '../model/table.js';
import type { SearchQuery, Suggestion } from '../types.js';
import { InvalidQueryError } from '../errors.js';
import { MERGED_TYPES } from '../osm/place.js';
import { placeId } from './record.js';
import { STREET } from '../model/table.js';
import { coord, positiveInt, show } from './validate.js';
import { SEARCH_LIMIT } from './limits.js';
import { EARTH_RADIUS_KM, kmTo } from '../geom/haversine.js';
import { words, MAX_WORDS } from '../search/words.js';
import { Listing } from '../search/same.js';
import { checkNotSwapped } from './swapped.js';
import type { Lang } from '../osm/name.js';
import { addressIn, checkLang, nameFields } from './lang.js';
import { checkSearchable } from './pack.js';

// How far outside the data a search's point may be before a swapped reading inside it is suspected.
const SWAP_MARGIN_KM = 100;

export { MAX_WORDS, MAX_POSTINGS } from '../search/words.js';

/** Longest query `search` takes, in UTF-16 units: a search box, not a document. */
export const MAX_QUERY_LENGTH = 200;

/**
 * Suggestions for what a user types in a search box: rows (places, localities,
 * streets, buildings) whose `name`, `name:en`, `name:ne`, `alt_name` or `old_name`
 * match every word of `q`, each word as a prefix, case- and accent-insensitively,
 * with one typo allowed in words of five letters or more.
 *
 * Ranked by text relevance; equally relevant rows by prominence, then, when
 * `lat`/`lon` are given, nearest first (a bias: far rows still come), then by
 * placeId. `radius` (km, with `lat`/`lon`) keeps only rows whose centroid lies
 * within it; `type` (plain or merged) only rows of that type. Bad arguments throw
 * `InvalidQueryError`.
 *
 * The work is bounded: a word repeated in `q` counts once, `q` may have at most
 * `MAX_WORDS` different words, and at most `MAX_POSTINGS` matches of its words in
 * names are scored (a query over the cap scores each word's rarest completions first;
 * see the README).
 *
 * @example
 * search(index, { q: 'thame', lat: 27.7154, lon: 85.3123, limit: 5 });
 */
export function search(index: PlaceIndex, query: SearchQuery): Suggestion[] {
  const q = checkSearch(query);
  checkSearchable(index);
  // lat/lon only bias the ranking (and bound it with radius): a swapped point would bias it silently
  if (q.lat !== undefined && q.lon !== undefined) checkNotSwapped(index, q.lat, q.lon, { marginKm: q.radius ?? SWAP_MARGIN_KM });
  const t = index.table;
  const { lat, lon, radius } = q;
  const here = lat !== undefined && lon !== undefined;
  const members = q.type === undefined ? undefined : membersOf(q.type);

  const inCircle = radius === undefined ? undefined : circle(t, lon!, lat!, radius);
  const accept =
    members || inCircle ? (r: number) => (!members || matchedType(t, r, members) >= 0) && (!inCircle || inCircle(r)) : undefined;
  const { rows, scores } = index.words.match(q.q, accept);

  // Ties at the cut can be thousands (a name a country repeats): they are taken best first from
  // a heap, as far as the limit needs, not sorted whole. Distance is measured only for the pairs
  // that tie on relevance and prominence.
  const km = here ? new Float64Array(rows.length).fill(NaN) : undefined;
  const kmOf = (i: number) => {
    if (!km) return 0;
    if (Number.isNaN(km[i])) km[i] = kmTo(lon!, lat!, t.lon[rows[i]], t.lat[rows[i]]);
    return km[i];
  };
  const before = (a: number, b: number) => {
    const ra = rows[a],
      rb = rows[b];
    return (scores[b] - scores[a] || t.prominence[rb] - t.prominence[ra] || kmOf(a) - kmOf(b) || placeId(t, ra) - placeId(t, rb)) < 0;
  };
  // OSM cuts a street into many ways: a search box lists the street once (its best way); and
  // a place mapped several times (a node, its building, its bus stop) once (search/same.ts)
  const streets = new Set<string>();
  const once = new Listing(t, (w) => index.words.phonetic(w));
  const scoreOf: number[] = []; // the relevance of each place listed: its first hit's
  const list = (heap: Heap) => {
    while (heap.size && once.rows.length < q.limit) {
      const i = heap.pop();
      const row = rows[i];
      if (t.what[row] === STREET) {
        const key = `${t.name[row]}|${addressIn(t, row, undefined)}`;
        if (streets.has(key)) continue;
        streets.add(key);
      }
      if (once.add(row)) scoreOf.push(scores[i]);
    }
  };
  // Only the hits down to the limit-th best relevance (ties included) need the finer order;
  // those below it only when rows above the cut were folded (streets, places mapped twice) and
  // the list came out short: they all rank below, so the list goes on with them.
  const cut = rows.length > q.limit ? kthLargest(scores, q.limit) : -Infinity;
  list(Heap.of(scores, cut, true, before));
  if (once.rows.length < q.limit && cut > -Infinity) list(Heap.of(scores, cut, false, before));

  return once.rows.map((row, i) => ({
    placeId: placeId(t, row),
    ...nameFields(t, row, q.lang),
    address: addressIn(t, row, q.lang),
    type: t.strings[members ? matchedType(t, row, members) : t.primary[row]],
    score: scoreOf[i],
  }));
}

/**
 * Whether a row's centroid lies within `radius` km of a point (`kmTo(...) <= radius`),
 * decided without trigonometry where the answer is sure, since a query over the cap
 * tests tens of thousands of rows: a path along the point's parallel and then a meridian
 * is no shorter than the great circle (surely in when that is short enough), and the
 * great circle no shorter than the meridian leg alone (surely out when that is too long).
 * The haversine decides the rest; the margins dwarf its rounding.
 */
function circle(t: PlaceTable, lon: number, lat: number, radius: number): (r: number) => boolean {
  const perDeg = (Math.PI / 180) * EARTH_RADIUS_KM;
  const perLonDeg = perDeg * Math.cos((lat * Math.PI) / 180);
  const sureIn = radius * (1 - 1e-9),
    sureOut = radius * (1 + 1e-9);
  return (r) => {
    const dy = Math.abs(t.lat[r] / 1e7 - lat) * perDeg;
    if (dy > sureOut) return false;
    const dLon = Math.abs(t.lon[r] / 1e7 - lon);
    if (dy + Math.min(dLon, 360 - dLon) * perLonDeg <= sureIn) return true;
    return kmTo(lon, lat, t.lon[r], t.lat[r]) <= radius;
  };
}

/**
 * Builds now what the first searches on `index` would build on their way (a few
 * megabytes of scratch, the words ordered backwards for typos, every word's phonetic
 * keys): a server calls it once at start, so that no request pays for it.
 *
 * @example
 * const index = await loadSnapshot('nepal.places');
 * prepareSearch(index);
 */
export function prepareSearch(index: PlaceIndex): void {
  index.words.prepare();
}

/** The k-th largest of `values` (1-based), by quickselect on a copy: linear, where a sort is not. */
export function kthLargest(values: readonly number[], k: number): number {
  const a = Float64Array.from(values);
  let lo = 0,
    hi = a.length - 1;
  const want = k - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1];
    let i = lo,
      j = hi;
    while (i <= j) {
      while (a[i] > pivot) i++;
      while (a[j] < pivot) j--;
      if (i <= j) {
        const x = a[i];
        a[i] = a[j];
        a[j] = x;
        i++;
        j--;
      }
    }
    if (want <= j) hi = j;
    else if (want >= i) lo = i;
    else break;
  }
  return a[want];
}

/** A checked search query with its defaults filled in. */
interface CheckedSearch {
  q: string;
  limit: number;
  lat?: number;
  lon?: number;
  radius?: number;
  type?: string;
  lang?: Lang;
}

/** Checks a search query, throwing `InvalidQueryError` naming the first bad argument. */
export function checkSearch(s: SearchQuery): CheckedSearch {
  if (s === null || typeof s !== 'object') throw new InvalidQueryError('query', 'must be an object');
  if (typeof s.q !== 'string' || !s.q.trim()) throw new InvalidQueryError('q', `is required: the words to search for, got ${show(s.q)}`);
  if (s.q.length > MAX_QUERY_LENGTH) throw new InvalidQueryError('q', `must be at most ${MAX_QUERY_LENGTH} characters, got ${s.q.length}`);
  // a repeated word counts once: it finds nothing a single one does not
  const distinct = new Set(words(s.q)).size;
  if (distinct > MAX_WORDS) throw new InvalidQueryError('q', `must have at most ${MAX_WORDS} different words, got ${distinct}`);
  const limit = positiveInt('limit', s.limit, SEARCH_LIMIT);
  const out: CheckedSearch = { q: s.q, limit };
  if (s.lat !== undefined || s.lon !== undefined) {
    // one without the other is a mistake, not a point
    if (s.lat === undefined) throw new InvalidQueryError('lat', 'is required with lon');
    if (s.lon === undefined) throw new InvalidQueryError('lon', 'is required with lat');
    coord('lat', s.lat, 90);
    coord('lon', s.lon, 180);
    out.lat = s.lat;
    out.lon = s.lon;
  }
  if (s.radius !== undefined) {
    out.radius = positiveInt('radius', s.radius, 0);
    if (out.lat === undefined) throw new InvalidQueryError('radius', 'needs lat and lon (the centre of the circle)');
  }
  if (s.type !== undefined) {
    if (typeof s.type !== 'string' || !s.type.trim())
      throw new InvalidQueryError('type', `must be a place type such as "cafe" or a merged type such as "eat", got ${show(s.type)}`);
    out.type = s.type.trim().toLowerCase();
  }
  const lang = checkLang(s.lang);
  if (lang) out.lang = lang;
  return out;
}

/** The member types a query type stands for: a merged type's members, else itself. */
export function membersOf(type: string): readonly string[] {
  return Object.hasOwn(MERGED_TYPES, type) ? MERGED_TYPES[type] : [type];
}

/**
 * The string index of the first of row `r`'s types that is one of `members`, or -1.
 * A row's types are its feature types, or (for a locality, street or building, which
 * has none) its own type: `type=neighbourhood` finds localities.
 */
export function matchedType(t: PlaceTable, r: number, members: readonly string[]): number {
  const s = t.typeStart[r],
    e = t.typeStart[r + 1];
  if (s === e) return t.primary[r] !== 0 && members.includes(t.strings[t.primary[r]]) ? t.primary[r] : -1;
  for (let k = s; k < e; k++) if (members.includes(t.strings[t.typeList[k]])) return t.typeList[k];
  return -1;
}

/**
 * A binary heap of numbers (indexes of hits), first the one `before` puts first: built in
 * linear time, then popped in order as far as needed.
 */
class Heap {
  size: number;
  private readonly a: Int32Array;
  private readonly before: (x: number, y: number) => boolean;

  constructor(a: Int32Array, before: (x: number, y: number) => boolean) {
    this.a = a;
    this.size = a.length;
    this.before = before;
    for (let i = (a.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  /** The heap of the indexes of `values` at `cut` or above (`above`), or below it. */
  static of(values: readonly number[], cut: number, above: boolean, before: (x: number, y: number) => boolean): Heap {
    let n = 0;
    for (let i = 0; i < values.length; i++) if (values[i] >= cut === above) n++;
    const a = new Int32Array(n);
    n = 0;
    for (let i = 0; i < values.length; i++) if (values[i] >= cut === above) a[n++] = i;
    return new Heap(a, before);
  }

  /** Removes and returns the first. */
  pop(): number {
    const top = this.a[0];
    this.a[0] = this.a[--this.size];
    this.down(0);
    return top;
  }

  private down(i: number): void {
    const { a, size, before } = this;
    const x = a[i];
    for (;;) {
      let c = 2 * i + 1;
      if (c >= size) break;
      if (c + 1 < size && before(a[c + 1], a[c])) c++;
      if (!before(a[c], x)) break;
      a[i] = a[c];
      i = c;
    }
    a[i] = x;
  }
}
