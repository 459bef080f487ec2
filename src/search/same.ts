import { BUILDING, type PlaceTable } from '../model/table.js';
import { kmTo } from '../geom/haversine.js';
import { phoneticKey, scriptOf, type Script } from '../lang/translit.js';
import { NAME_FIELDS } from './words.js';

/**
 * How near two records of the same name must be to be one place mapped twice, in km: a node
 * and its building, a hospital and the bus stop named after it (the fixture's are 5–90 m
 * apart), while namesakes a street apart stay two (two Ganesh temples, two branches of a bank).
 */
export const SAME_PLACE_KM = 0.1;

/** The types of a stop on a bus line: a stop named after a place is listed as that place. */
export const STOP_TYPES: readonly string[] = ['bus_stop', 'stop_position', 'platform'];

// Fewest letters of a name's phonetic keys for two names to be one by sound alone (not `Bank`
// and `Book`, both `bk`).
const MIN_SOUND = 5;

// The words a stop's name adds to the place it is named after (Ratna Park Bus Stop, रत्नपार्क बस बिसौनी).
const STOP_WORDS = new Set(['stop', 'bus', 'busstop', 'बस', 'बिसौनी', 'स्टप', 'स्टेण्ड', 'stand']);

// How useful a record is as the answer, lower first: a place that is what it is named (a hospital),
// then a locality or a street, then a building, then a stop named after the place.
const PLACE_RANK = 0,
  OTHER_RANK = 1,
  BUILDING_RANK = 2,
  STOP_RANK = 3;

// The tags whose names make two records one place: not `old_name` (a name no longer borne).
const NAME_KEYS: ReadonlySet<string> = new Set(NAME_FIELDS.filter((k) => k !== 'old_name'));

/**
 * The records of one search's answer, listed once per place. A row is the same place as a row
 * already met (listed or folded) when one of their names (`name`, `name:en`, `name:ne`,
 * `alt_name`; a stop's without a last `stop`, `bus stop`, `बस बिसौनी`) is the same, compared by
 * its folded words, or, for rows named in two scripts, by its words' phonetic keys (five letters or
 * more, numbers kept), and they lie within `SAME_PLACE_KM` of each other. The place is listed where its
 * first record came (the best-ranked), as its most useful record: a place of its own type before a
 * locality or street, a building, then a stop; the others are dropped. Per query: made, fed the
 * rows best first, and read.
 */
export class Listing {
  /** The rows listed, in order. */
  readonly rows: number[] = [];
  /** The row that first took each place in the list: its rank is the place's. */
  readonly first: number[] = [];
  private readonly t: PlaceTable;
  private readonly phonetic: (word: string) => string;
  // every row met so far (listed or folded); past GRID_FROM of them also by the cell of a grid
  // about SAME_PLACE_KM wide that each lies in, so that a long list compares a row with the
  // rows of nine cells only. Names and sounds are made only for rows that near.
  private readonly met: Met[] = [];
  private grid: Map<number, Met[]> | undefined;
  // names and words' sounds made in this list, by the name's string index (negative: a stop's)
  // and by the word: records of one place, and a chain's branches, share them
  private readonly keys = new Map<number, string>();
  private readonly sounds = new Map<string, string>();

  /** `sound`: a word's phonetic key (`Words.phonetic`, which has the index's words' keys made). */
  constructor(t: PlaceTable, sound: (word: string) => string = phoneticKey) {
    this.t = t;
    this.phonetic = sound;
  }

  /** Lists `row`, or folds it into the place listed that it is one of. Returns whether it was listed. */
  add(row: number): boolean {
    const { t, met } = this;
    const me: Met = { row, at: -1 };
    let found: Met | undefined;
    if (!this.grid) {
      for (let i = 0; i < met.length && !found; i++) if (this.near(met[i], me)) found = met[i];
    } else {
      const cx = Math.floor(t.lon[row] / CELL),
        cy = Math.floor(t.lat[row] / CELL);
      for (let dx = -1; dx <= 1 && !found; dx++)
        for (let dy = -1; dy <= 1 && !found; dy++) {
          const list = this.grid.get(cell(cx + dx, cy + dy));
          if (list) for (let i = 0; i < list.length && !found; i++) if (this.near(list[i], me)) found = list[i];
        }
    }
    let listed = false;
    if (!found) {
      me.at = this.rows.length;
      this.rows.push(row);
      this.first.push(row);
      listed = true;
    } else {
      me.at = found.at;
      if (this.rank(row) < this.rank(this.rows[me.at])) this.rows[me.at] = row;
    }
    met.push(me);
    if (this.grid) this.put(me);
    else if (met.length > GRID_FROM) {
      this.grid = new Map();
      for (const m of met) this.put(m);
    }
    return listed;
  }

  // Whether two rows are one place: within SAME_PLACE_KM (a box first, in 1e-7 degrees: the
  // distance is under NEAR of latitude and twice that of longitude up to 60°), and sharing a name.
  private near(a: Met, b: Met): boolean {
    const { t } = this;
    if (Math.abs(t.lat[a.row] - t.lat[b.row]) > NEAR || Math.abs(t.lon[a.row] - t.lon[b.row]) > 2 * NEAR) return false;
    return kmTo(t.lon[b.row] / 1e7, t.lat[b.row] / 1e7, t.lon[a.row], t.lat[a.row]) <= SAME_PLACE_KM && this.one(a, b);
  }

  private put(m: Met): void {
    const c = cell(Math.floor(this.t.lon[m.row] / CELL), Math.floor(this.t.lat[m.row] / CELL));
    const list = this.grid!.get(c);
    if (list) list.push(m);
    else this.grid!.set(c, [m]);
  }

  // Whether two rows near each other share a name: the same name string; one of their names'
  // words; for names in two scripts, one of their names' sounds.
  private one(a: Met, b: Met): boolean {
    const { t } = this;
    if (t.name[a.row] === t.name[b.row]) return true;
    if (shared(this.namesOf(a), this.namesOf(b))) return true;
    if (this.scriptOf(a) === this.scriptOf(b)) return false;
    for (const x of this.namesOf(a)) for (const y of this.namesOf(b)) if (this.soundsAlike(x, y)) return true;
    return false;
  }

  // A row's names (`name`, `name:en`, `name:ne`, `alt_name`) as their words joined by a space
  // (lower case, split at what is not a letter, mark or digit), a stop's without the words of a
  // stop. Tags are told by their keys' text: a table's string indexes of the keys would take a
  // search through all its strings, longer than a query.
  private namesOf(m: Met): string[] {
    if (m.names) return m.names;
    const { t } = this;
    const row = m.row;
    const stop = this.rank(row) === STOP_RANK;
    const out: string[] = [];
    for (let k = t.tagStart[row]; k < t.tagStart[row + 1]; k++)
      if (NAME_KEYS.has(t.strings[t.tagKV[2 * k]])) this.key(t.tagKV[2 * k + 1], stop, out);
    // a row named by no tag of its own: its name
    if (!out.length) this.key(t.name[row], stop, out);
    return (m.names = out);
  }

  // Adds string `v`'s name key (`nameKey`) to `out` unless it is empty.
  private key(v: number, stop: boolean, out: string[]): void {
    const at = stop ? -1 - v : v;
    let key = this.keys.get(at);
    if (key === undefined) this.keys.set(at, (key = nameKey(this.t.strings[v], stop)));
    if (key && !out.includes(key)) out.push(key);
  }

  private scriptOf(m: Met): Script {
    return (m.script ??= scriptOf(this.t.strings[this.t.name[m.row]]));
  }

  // Whether two names sound alike (Thamel Chowk, ठमेल चोक): word by word the same phonetic key,
  // numbers kept (Ward 1 is not Ward 2), and MIN_SOUND letters of keys at least (a shorter key is
  // too often another name's). Compared a word at a time: most names differ at their first.
  private soundsAlike(x: string, y: string): boolean {
    let i = 0,
      j = 0,
      letters = 0;
    for (;;) {
      const ei = x.indexOf(' ', i),
        ej = y.indexOf(' ', j);
      const a = this.sound(x.slice(i, ei < 0 ? x.length : ei)),
        b = this.sound(y.slice(j, ej < 0 ? y.length : ej));
      if (a !== b) return false;
      letters += a.length;
      if (ei < 0 || ej < 0) return ei === ej && letters >= MIN_SOUND;
      i = ei + 1;
      j = ej + 1;
    }
  }

  // A word's phonetic key with its digits.
  private sound(w: string): string {
    let k = this.sounds.get(w);
    if (k === undefined) this.sounds.set(w, (k = this.phonetic(w) + (HAS_DIGIT.test(w) ? w.replace(DIGITS, '') : '')));
    return k;
  }

  private rank(row: number): number {
    const { t } = this;
    for (let k = t.typeStart[row]; k < t.typeStart[row + 1]; k++) if (STOP_TYPES.includes(t.strings[t.typeList[k]])) return STOP_RANK;
    if (t.typeStart[row + 1] > t.typeStart[row]) return PLACE_RANK;
    return t.what[row] === BUILDING ? BUILDING_RANK : OTHER_RANK;
  }
}

/** A row met by a `Listing`: where its place is listed, and its names and script once made. */
interface Met {
  row: number;
  at: number;
  names?: string[];
  script?: Script;
}

// A name `v` for comparing, its words joined by a space (lower case, split where there is no
// letter, mark or digit; a stop's without the words of a stop); '' when it has none.
function nameKey(v: string, stop: boolean): string {
  let key = v.toLowerCase().replace(ASCII.test(v) ? SPLIT_ASCII : SPLIT, ' ');
  if (key.startsWith(' ')) key = key.slice(1);
  if (key.endsWith(' ')) key = key.slice(0, -1);
  if (stop) {
    let end = key.lastIndexOf(' ');
    while (end > 0 && STOP_WORDS.has(key.slice(end + 1))) {
      key = key.slice(0, end);
      end = key.lastIndexOf(' ');
    }
  }
  return key;
}

// Whether two short lists share a string.
function shared(a: string[], b: string[]): boolean {
  for (const x of a) if (b.includes(x)) return true;
  return false;
}
// Words of a name for comparing: split where there is no letter, mark or digit.
const SPLIT = /[^\p{L}\p{M}\p{N}]+/gu,
  SPLIT_ASCII = /[^a-z0-9]+/g,
  ASCII = /^[\x00-\x7f]*$/,
  DIGITS = /\D/g,
  HAS_DIGIT = /\d/;
// Rows met before a list uses its grid: a short list is scanned whole, faster than the grid's lookups.
const GRID_FROM = 16;
// SAME_PLACE_KM in 1e-7 degrees of latitude, with a margin (100 m is 8,983 of them).
const NEAR = 9_500;
// A grid cell's side in 1e-7 degrees (0.002°): at least SAME_PLACE_KM along a parallel up to 60°
// of latitude, so that rows that near lie in neighbouring cells.
const CELL = 20_000;
// A grid cell's number from its x and y, 15 bits each: a small integer, which a Map hashes
// without boxing (x * 100,000 + y would pass 2^31). Cells 32,768 apart (6,000 km) share a
// number, harmlessly: rows are compared by their distance.
const cell = (x: number, y: number) => ((x & 0x7fff) << 15) | (y & 0x7fff);
