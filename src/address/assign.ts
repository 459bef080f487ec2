import type { PendingAddresses, PlaceTable } from '../model/table.js';
import { STREET, LOCALITY } from '../model/table.js';
import { shapesOf, type Shapes } from '../model/shape.js';
import type { Area } from '../geom/areas.js';
import { Streets } from '../index/streets.js';
import { Localities, localityRows } from './localities.js';
import { Admin, nepalDistricts, type AdminName } from './admin.js';
import { officialDistrict, officialProvince, type OfficialName } from './official.js';
import { labelName, nameIn, textIn, type Lang } from '../osm/name.js';
import { CalledNames } from './called.js';
import { StringTable } from '../model/strings.js';

/** How far (km) a street may be to name a place's address. */
export const STREET_KM = 0.1;
/** How far (km) a locality's centroid may be to name a place's address. */
export const LOCALITY_KM = 2;

/** The `addr:*` keys an address reads, in the order of `AddressInput.addrVals`. */
const KEYS = [
  'addr:housename',
  'addr:housenumber',
  'addr:street',
  'addr:place',
  'addr:suburb',
  'addr:city',
  'addr:district',
  'addr:province',
];
const [HOUSENAME, HOUSENUMBER, STREET_KEY, PLACE_KEY, SUBURB, CITY, DISTRICT, PROVINCE] = KEYS.map((_, i) => i);

/**
 * Everything addresses are made from, as plain arrays and strings, so that they can
 * be computed on another thread: the table's geometry, the labels of its streets and
 * localities (as mapped, in English, in Nepali, and the names an `addr:*` tag may call them
 * by), the rows that are localities, the `addr:*` values of the rows that have any, and the
 * PBF's administrative areas.
 */
export interface AddressInput {
  shapes: Shapes;
  /**
   * The rows that are streets or localities, ascending: the columns below have one item per
   * such row, not per row (at Nepal scale the table's other two million rows would make them
   * hundreds of MB, on both threads, of `''`).
   */
  named: Uint32Array;
  /** Per named row: `labelName` (`name:en`, else the name), and `nameIn` English and Nepali (`osm/name.ts`). */
  labels: string[];
  labelsEn: string[];
  labelsNe: string[];
  /** Per named row: the names an `addr:street` or `addr:place` value may give it (`name`, `name:en`, `name:ne`), `''` for none. */
  called: string[][];
  localities: Uint32Array;
  /** Rows with `addr:*` tags, and their values: `KEYS.length` per row, in `KEYS` order. */
  addrRows: Uint32Array;
  addrVals: (string | null)[];
  areas: Area[];
}

/** Gathers the `AddressInput` of a table. */
export function addressInput(t: PlaceTable, areas: Area[]): AddressInput {
  // Per string index, the key it is among KEYS then NAME_KEYS, -1 for none: one array read per
  // tag instead of a Map's, over the tags of every row.
  const slot = new Int8Array(t.strings.length).fill(-1);
  t.strings.forEach((s, i) => {
    if (s.startsWith('addr:')) slot[i] = KEYS.indexOf(s);
    else if (s.startsWith('name')) {
      const k = NAME_KEYS.indexOf(s);
      if (k >= 0) slot[i] = KEYS.length + k;
    }
  });
  const named: number[] = [];
  const labels: string[] = [];
  const labelsEn: string[] = [];
  const labelsNe: string[] = [];
  const called: string[][] = NAME_KEYS.map(() => []);
  const addrRows: number[] = [];
  const addrVals: (string | null)[] = [];
  const v: (string | null)[] = new Array(KEYS.length);
  const names = new Int32Array(NAME_KEYS.length); // the string index of each name tag's value, -1 for none
  // the labels of each distinct set of name values: a long street is many ways with the same names
  const labelled = new Map<string, string[]>();
  for (let r = 0; r < t.size; r++) {
    v.fill(null);
    names.fill(-1);
    let any = false;
    // the first value of each key, as `tagValue` reads it
    for (let k = t.tagStart[r]; k < t.tagStart[r + 1]; k++) {
      const at = slot[t.tagKV[2 * k]];
      if (at < 0) continue;
      if (at < KEYS.length) {
        if (v[at] === null) {
          v[at] = t.strings[t.tagKV[2 * k + 1]];
          any = true;
        }
      } else if (names[at - KEYS.length] < 0) names[at - KEYS.length] = t.tagKV[2 * k + 1];
    }
    if (t.what[r] === STREET || t.what[r] === LOCALITY) {
      const key = names.join();
      let l = labelled.get(key);
      if (!l) {
        const values = Array.from(names, (i) => (i < 0 ? undefined : t.strings[i]));
        const get = (k: string) => values[NAME_KEYS.indexOf(k)];
        labelled.set(key, (l = [labelName(get), nameIn(get, 'en').name, nameIn(get, 'ne').name, ...values.map((x) => x ?? '')]));
      }
      named.push(r);
      labels.push(l[0]);
      labelsEn.push(l[1]);
      labelsNe.push(l[2]);
      for (let i = 0; i < NAME_KEYS.length; i++) called[i].push(l[3 + i]);
    }
    if (any) {
      addrRows.push(r);
      addrVals.push(...v);
    }
  }
  return {
    shapes: shapesOf(t),
    named: Uint32Array.from(named),
    labels,
    labelsEn,
    labelsNe,
    called,
    localities: localityRows(t),
    addrRows: Uint32Array.from(addrRows),
    addrVals,
    areas,
  };
}

/** The name tags an `addr:street` or `addr:place` value is matched against. */
const NAME_KEYS = ['name', 'name:en', 'name:ne'];

/**
 * Every row's address: as mapped, in English and in Nepali (see `computeAddresses`), each distinct
 * text once. Why not a string per row and column: at Nepal scale that is five million strings,
 * hundreds of MB held on the address thread and again on the main thread that receives them,
 * where a few hundred thousand are distinct; these are typed arrays, moved without a copy.
 */
export interface Addresses {
  /** The distinct addresses but `''`, in the order first met: all rows' as mapped, then the new ones in English, then in Nepali. */
  texts: string[];
  /** Per row: its address as mapped (`name:en` first), English and Nepali, as 1 + its index in `texts`; 0 for none (`''`). */
  list: Uint32Array;
  en: Uint32Array;
  ne: Uint32Array;
}

/** One column of addresses being made: each row's text as an index into the column's own distinct texts (`''` first). */
class Column {
  readonly texts = new StringTable();
  readonly rows: Uint32Array;
  constructor(size: number) {
    this.rows = new Uint32Array(size);
  }
}

/** The addresses of a run of rows (`computeAddresses`): per column, its distinct texts (`''` first) and each row's index into them. */
export interface AddressRun {
  /** The first row of the run. */
  from: number;
  texts: string[][];
  rows: Uint32Array[];
}

/**
 * The addresses of runs that together cover a table's rows in order, numbered as one list: texts
 * in the order a scan of the whole table meets them, column after column (as mapped, English, Nepali).
 */
export function mergeAddresses(runs: AddressRun[], size: number): Addresses {
  // `''` is string 0, so text k of `texts` is string k + 1
  const table = new StringTable();
  const out = [0, 1, 2].map((c) => {
    const column = new Uint32Array(size);
    for (const run of runs) {
      const to = Uint32Array.from(run.texts[c], (s) => table.intern(s));
      const rows = run.rows[c];
      for (let r = 0; r < rows.length; r++) column[run.from + r] = to[rows[r]];
    }
    return column;
  });
  return { texts: table.list.slice(1), list: out[0], en: out[1], ne: out[2] };
}

/** How far (km) a street or locality named by an `addr:*` tag may be to lend the address its names in another language. */
const CALLED_KM = 5;

/**
 * The address of every row (of `run`, by default all), most specific first, no empty parts, no
 * repeats, joined with ", " (see `mergeAddresses` for all runs' as one list):
 *   house name and number and street from `addr:*`, else the nearest street within 100 m;
 *   the locality: `addr:place`/`addr:suburb`, else the containing or nearest locality within 2 km;
 *   municipality, district and province from the administrative areas, else `addr:city`,
 *   `addr:district`, `addr:province`.
 * `list`: streets, localities and areas named in English where OSM has `name:en`, `addr:*` as
 * tagged. `en`, `ne`: each part in that language: streets, localities and municipalities by
 * `nameIn` (`osm/name.ts`); districts and provinces by their official names (`./official.ts`);
 * an `addr:street`/`addr:place` value by the names of the nearest street or locality it names
 * (within 5 km), an `addr:*` value otherwise in the language's script (`textIn`).
 */
export async function computeAddresses(
  input: AddressInput,
  streets = new Streets(input.shapes),
  run: { from: number; to: number } = { from: 0, to: input.shapes.size },
): Promise<AddressRun> {
  return addressRun(input, streets, await nepalDistricts(), run);
}

/** The district table `nepalDistricts` reads. */
export type Districts = Awaited<ReturnType<typeof nepalDistricts>>;

/** `computeAddresses` with the district table given: the addresses of a run of rows. */
export function addressRun(input: AddressInput, streets: Streets, districts: Districts, run: { from: number; to: number }): AddressRun {
  const { from, to } = run;
  const work = new Work(input, streets, new Admin(input.areas, districts), to - from);
  let next = 0; // the next row with addr:* values
  while (next < input.addrRows.length && input.addrRows[next] < from) next++;
  for (let r = from; r < to; r++) {
    let at = -1;
    if (next < input.addrRows.length && input.addrRows[next] === r) at = next++ * KEYS.length;
    work.row(r, at, r - from);
  }
  return { from, texts: work.out.map((c) => c.texts.list), rows: work.out.map((c) => c.rows) };
}

/** The columns of `Work`: as mapped, English, Nepali. */
const LIST = 0,
  EN = 1,
  NE = 2;

/**
 * One `computeAddresses` call: its indexes, its columns, and memos of what repeats from row to
 * row. Why the memos: at Nepal scale a million rows hold a few hundred thousand distinct
 * addresses, and a few thousand distinct `addr:*` values and area names; making every row's
 * parts, texts and transliterations anew was most of the load's address time.
 */
class Work {
  readonly out: Column[];
  private readonly t: Shapes;
  private readonly localities: Localities;
  private readonly called: CalledNames;
  // per column, the labels of the named rows (`AddressInput.named`), and each row's place among them (-1: none)
  private readonly labels: string[][];
  private readonly at: Int32Array;
  private readonly parts = [new Parts(), new Parts(), new Parts()];
  // textIn per language (en, ne) of each distinct value met
  private readonly script = [new Map<string, string>(), new Map<string, string>()];
  // a district's or province's official name per `addr:*` value met, null for none
  private readonly officials = [new Map<string, OfficialName | null>(), new Map<string, OfficialName | null>()];
  // the texts of an area's name in each column, per `AdminName` met
  private readonly areaTexts = new Map<AdminName, string[]>();
  // rows without `addr:*` values: their texts are those of their street, locality and areas alone,
  // so each such combination is made once; per areas' id, per street and locality, the three column ids
  private readonly shared = new Map<number, Map<number, number>>();
  private readonly sharedIds: number[] = [];

  constructor(
    private readonly input: AddressInput,
    private readonly streets: Streets,
    private readonly admin: Admin,
    size: number,
  ) {
    this.t = input.shapes;
    this.localities = new Localities(input.shapes, input.localities);
    this.called = new CalledNames(input.shapes, input.called, input.named);
    this.labels = [input.labels, input.labelsEn, input.labelsNe];
    this.at = new Int32Array(input.shapes.size).fill(-1);
    input.named.forEach((r, k) => (this.at[r] = k));
    this.out = [new Column(size), new Column(size), new Column(size)];
  }

  /** Computes table row `r`'s address into row `o` of the columns; `at`: the row's first value in `addrVals`, -1 for none. */
  row(r: number, at: number, o: number): void {
    const t = this.t,
      v = this.input.addrVals;
    const lon = t.lon[r] / 1e7,
      lat = t.lat[r] / 1e7;
    // the parts' rows and areas, the same in every language
    const streetTag = at < 0 ? null : v[at + STREET_KEY];
    const place = at < 0 ? null : v[at + PLACE_KEY] || v[at + SUBURB];
    let street = -1,
      locality = -1;
    if (!streetTag && t.what[r] !== STREET) street = this.streets.nearest(lon, lat, STREET_KM)?.row ?? -1;
    if (!place && t.what[r] !== LOCALITY) locality = this.localities.at(lon, lat, LOCALITY_KM);
    const areas = this.admin.id(lon, lat);
    let byRows: Map<number, number> | undefined;
    let key = 0;
    if (at < 0) {
      byRows = this.shared.get(areas);
      if (!byRows) this.shared.set(areas, (byRows = new Map()));
      key = (street + 1) * (t.size + 1) + locality + 1;
      const i = byRows.get(key);
      if (i !== undefined) {
        for (let c = 0; c < 3; c++) this.out[c].rows[o] = this.sharedIds[i + c];
        return;
      }
    }
    const p = this.parts;
    for (const a of p) a.clear();
    if (at >= 0) {
      this.add(v[at + HOUSENAME], true);
      this.add(v[at + HOUSENUMBER], false);
    }
    // a street is not addressed by another street, nor a locality by another locality
    if (streetTag) this.addCalled(streetTag, lon, lat, STREET);
    else if (street >= 0) for (let c = 0; c < 3; c++) p[c].add(this.labels[c][this.at[street]]);
    if (place) this.addCalled(place, lon, lat, LOCALITY);
    else if (locality >= 0) for (let c = 0; c < 3; c++) p[c].add(this.labels[c][this.at[locality]]);
    const [municipality, district, province] = this.admin.byId(areas);
    this.addArea(municipality, at < 0 ? null : v[at + CITY], -1);
    this.addArea(district, at < 0 ? null : v[at + DISTRICT], 0);
    this.addArea(province, at < 0 ? null : v[at + PROVINCE], 1);
    if (byRows) byRows.set(key, this.sharedIds.length);
    for (let c = 0; c < 3; c++) {
      const id = this.out[c].texts.intern(p[c].text());
      this.out[c].rows[o] = id;
      if (byRows) this.sharedIds.push(id);
    }
  }

  /** `value`'s pieces (see `pieces`) as they are, and in English and Nepali in that script when `script`, else as they are. */
  private add(value: string | null, script: boolean): void {
    if (!value) return;
    for (const s of pieces(value)) {
      this.parts[LIST].one(s);
      this.parts[EN].one(script ? this.textIn(s, 'en') : s);
      this.parts[NE].one(script ? this.textIn(s, 'ne') : s);
    }
  }

  /** An `addr:street`/`addr:place` value's pieces: in English and Nepali the names of the nearest row of kind `what` of that name, else the piece in the language's script. */
  private addCalled(value: string, lon: number, lat: number, what: number): void {
    for (const s of pieces(value)) {
      const best = this.called.nearest(s, lon, lat, what, CALLED_KM);
      this.parts[LIST].one(s);
      this.parts[EN].one((best >= 0 && this.labels[EN][this.at[best]]) || this.textIn(s, 'en'));
      this.parts[NE].one((best >= 0 && this.labels[NE][this.at[best]]) || this.textIn(s, 'ne'));
    }
  }

  /** An area's names where the point has one, else its `addr:*` value: a district's (`official` 0) or province's (1) by its official names, else in the language's script. */
  private addArea(n: AdminName, tag: string | null, official: number): void {
    if (n.name) {
      let texts = this.areaTexts.get(n);
      if (!texts) this.areaTexts.set(n, (texts = [n.name, n.en || this.textIn(n.name, 'en'), n.ne || this.textIn(n.name, 'ne')]));
      for (let c = 0; c < 3; c++) this.parts[c].add(texts[c]);
      return;
    }
    if (!tag) return;
    for (const s of pieces(tag)) {
      const found = official < 0 ? null : this.official(official, s);
      this.parts[LIST].one(s);
      this.parts[EN].one(found?.en ?? this.textIn(s, 'en'));
      this.parts[NE].one(found?.ne ?? this.textIn(s, 'ne'));
    }
  }

  private official(kind: number, s: string): OfficialName | null {
    const memo = this.officials[kind];
    let found = memo.get(s);
    if (found === undefined) memo.set(s, (found = (kind === 0 ? officialDistrict(s) : officialProvince(s)) ?? null));
    return found;
  }

  private textIn(s: string, lang: Lang): string {
    const memo = this.script[lang === 'en' ? 0 : 1];
    let out = memo.get(s);
    if (out === undefined) memo.set(s, (out = textIn(s, lang)));
    return out;
  }
}

/** A tag value's pieces, trimmed: it may itself be a list ("Kathmandu, Thamel"), whose pieces count one by one. */
function pieces(value: string): string[] {
  return value.indexOf(',') < 0 ? [value.trim()] : value.split(',').map((s) => s.trim());
}

/** One address being assembled: its parts, no empty ones and no repeats. */
class Parts {
  private readonly parts: string[] = [];
  private readonly seen: string[] = []; // lower-cased parts: at most eight, a scan beats a Set

  clear(): void {
    this.parts.length = 0;
    this.seen.length = 0;
  }

  /** Adds one part, trimmed, unless empty or already there (case aside). */
  one(raw: string): void {
    const s = raw.trim();
    if (!s) return;
    const low = s.toLowerCase();
    if (this.seen.includes(low)) return;
    this.seen.push(low);
    this.parts.push(s);
  }

  /** Adds a text as it is: each of its pieces (`pieces`) a part. */
  add(value: string): void {
    if (!value) return;
    if (value.indexOf(',') < 0) this.one(value);
    else for (const piece of value.split(',')) this.one(piece);
  }

  text(): string {
    return this.parts.join(', ');
  }
}

/**
 * A load's addresses, each row's made on first ask (`text`) as `computeAddresses` makes it, then
 * kept; `fill`, `fillWith` make them all and store them in the table. Why: at Nepal scale the
 * addresses of every row are twenty seconds of CPU, a third of a load's, where a query returns a
 * few rows; what a load leaves its table as `pending`.
 */
export class RowAddresses implements PendingAddresses {
  // made on the first ask: the input of every row, the work that makes a row's, which rows it made
  private input: AddressInput | undefined;
  private work: Work | undefined;
  private made = new Uint8Array(0);

  /**
   * `streets`: the nearest street's index (a load makes it on first use, as `reverse` may too);
   * `threads`: whether a caller filling them all should use a thread too (undefined: by the size).
   */
  constructor(
    private readonly t: PlaceTable,
    private readonly areas: Area[],
    private readonly districts: Districts,
    private readonly streets: () => Streets,
    readonly threads?: boolean,
  ) {}

  text(row: number, column: number): string {
    let work = this.work;
    if (!work) {
      const input = this.inputs();
      work = this.work = new Work(input, this.streets(), new Admin(this.areas, this.districts), this.t.size);
      this.made = new Uint8Array(this.t.size);
    }
    if (!this.made[row]) {
      const rows = this.input!.addrRows;
      const k = lowerBound(rows, row);
      work.row(row, rows[k] === row ? k * KEYS.length : -1, row);
      this.made[row] = 1;
    }
    const c = work.out[column];
    return c.texts.list[c.rows[row]];
  }

  fill(): void {
    if (this.t.pending !== this) return;
    const input = this.inputs();
    this.store([addressRun(input, this.streets(), this.districts, { from: 0, to: this.t.size })]);
  }

  /**
   * `fill` on two threads: the rows before `share` of the table by `far` (a thread of the
   * caller's), the rest here meanwhile. The same addresses, numbered the same (`mergeAddresses`).
   */
  async fillWith(far: (input: AddressInput, run: { from: number; to: number }) => Promise<AddressRun>, share: number): Promise<void> {
    if (this.t.pending !== this) return;
    const input = this.inputs();
    const split = Math.round(this.t.size * share);
    const there = far(input, { from: 0, to: split });
    there.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
    const here = addressRun(input, this.streets(), this.districts, { from: split, to: this.t.size });
    this.store([await there, here]);
  }

  private inputs(): AddressInput {
    return (this.input ??= addressInput(this.t, this.areas));
  }

  private store(runs: AddressRun[]): void {
    if (this.t.pending !== this) return; // filled already
    storeAddresses(this.t, mergeAddresses(runs, this.t.size));
    this.t.pending = undefined;
    this.input = this.work = undefined;
  }
}

// the first index of ascending `a` whose value is not below `v`
function lowerBound(a: Uint32Array, v: number): number {
  let lo = 0,
    hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Stores computed addresses in the table, each distinct one once in its strings. */
export function storeAddresses(t: PlaceTable, addresses: Addresses): void {
  const base = t.strings.length - 1; // text k (from 1) is string base + k
  for (const s of addresses.texts) t.strings.push(s);
  const store = (rows: Uint32Array, column: Uint32Array) => {
    for (let r = 0; r < t.size; r++) column[r] = rows[r] === 0 ? 0 : base + rows[r];
  };
  store(addresses.list, t.address);
  store(addresses.en, t.addressEn);
  store(addresses.ne, t.addressNe);
}
