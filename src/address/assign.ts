import type { PlaceTable } from '../model/table.js';
import { STREET, LOCALITY } from '../model/table.js';
import { shapesOf, type Shapes } from '../model/shape.js';
import type { Area } from '../geom/areas.js';
import { Streets } from '../index/streets.js';
import { Localities, localityRows } from './localities.js';
import { Admin, nepalDistricts, type AdminName } from './admin.js';
import { tagValue } from './tags.js';
import { officialDistrict, officialProvince, type OfficialName } from './official.js';
import { labelName, nameIn, textIn, type Lang } from '../osm/name.js';
import { CalledNames } from './called.js';

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
  /** Per row, of streets and localities (`''` for others): `labelName` (`name:en`, else the name), and `nameIn` English and Nepali (`osm/name.ts`). */
  labels: string[];
  labelsEn: string[];
  labelsNe: string[];
  /** Per row, of streets and localities: the names an `addr:street` or `addr:place` value may give it (`name`, `name:en`, `name:ne`), `''` for none. */
  called: string[][];
  localities: Uint32Array;
  /** Rows with `addr:*` tags, and their values: `KEYS.length` per row, in `KEYS` order. */
  addrRows: Uint32Array;
  addrVals: (string | null)[];
  areas: Area[];
}

/** Gathers the `AddressInput` of a table. */
export function addressInput(t: PlaceTable, areas: Area[]): AddressInput {
  const slot = new Map<number, number>();
  t.strings.forEach((s, i) => {
    const k = KEYS.indexOf(s);
    if (k >= 0) slot.set(i, k);
  });
  const labels: string[] = new Array(t.size).fill('');
  const labelsEn: string[] = new Array(t.size).fill('');
  const labelsNe: string[] = new Array(t.size).fill('');
  const called: string[][] = [[], [], []];
  const addrRows: number[] = [];
  const addrVals: (string | null)[] = [];
  const v: (string | null)[] = new Array(KEYS.length);
  for (let r = 0; r < t.size; r++) {
    if (t.what[r] === STREET || t.what[r] === LOCALITY) {
      const get = (k: string) => tagValue(t, r, k);
      labels[r] = labelName(get);
      labelsEn[r] = nameIn(get, 'en').name;
      labelsNe[r] = nameIn(get, 'ne').name;
      NAME_KEYS.forEach((k, i) => (called[i][r] = get(k) ?? ''));
    }
    v.fill(null);
    let any = false;
    for (let k = t.tagStart[r]; k < t.tagStart[r + 1]; k++) {
      const at = slot.get(t.tagKV[2 * k]);
      if (at !== undefined && v[at] === null) {
        v[at] = t.strings[t.tagKV[2 * k + 1]];
        any = true;
      }
    }
    if (any) {
      addrRows.push(r);
      addrVals.push(...v);
    }
  }
  return {
    shapes: shapesOf(t),
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

/** One column of addresses being made: each row's text as an index into the column's own distinct texts. */
class Column {
  private readonly ids = new Map<string, number>([['', 0]]);
  readonly texts: string[] = [''];
  readonly rows: Uint32Array;
  constructor(size: number) {
    this.rows = new Uint32Array(size);
  }
  set(r: number, s: string): void {
    let i = this.ids.get(s);
    if (i === undefined) {
      i = this.texts.length;
      this.texts.push(s);
      this.ids.set(s, i);
    }
    this.rows[r] = i;
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
  const ids = new Map<string, number>([['', 0]]);
  const texts: string[] = [];
  const out = [0, 1, 2].map((c) => {
    const column = new Uint32Array(size);
    for (const run of runs) {
      const to = Uint32Array.from(run.texts[c], (s) => {
        let i = ids.get(s);
        if (i === undefined) {
          texts.push(s);
          i = texts.length;
          ids.set(s, i);
        }
        return i;
      });
      const rows = run.rows[c];
      for (let r = 0; r < rows.length; r++) column[run.from + r] = to[rows[r]];
    }
    return column;
  });
  return { texts, list: out[0], en: out[1], ne: out[2] };
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
  const t = input.shapes;
  const { from, to } = run;
  const localities = new Localities(t, input.localities);
  const admin = new Admin(input.areas, await nepalDistricts());
  const called = calledIndex(input);
  const out = [new Column(to - from), new Column(to - from), new Column(to - from)];
  const address = [new Parts(), new Parts(), new Parts()];
  const langs = [undefined, 'en', 'ne'] as const;
  const labelsOf = [input.labels, input.labelsEn, input.labelsNe];
  const none: (string | null)[] = new Array(KEYS.length).fill(null);
  let next = 0; // the next row with addr:* values
  while (next < input.addrRows.length && input.addrRows[next] < from) next++;
  for (let r = from; r < to; r++) {
    for (const a of address) a.clear();
    let v = none;
    if (next < input.addrRows.length && input.addrRows[next] === r) {
      v = input.addrVals.slice(next * KEYS.length, (next + 1) * KEYS.length);
      next++;
    }
    const lon = t.lon[r] / 1e7,
      lat = t.lat[r] / 1e7;
    // the parts' rows and areas, the same in every language
    let street = -1,
      locality = -1;
    if (!v[STREET_KEY] && t.what[r] !== STREET) street = streets.nearest(lon, lat, STREET_KM)?.row ?? -1;
    const place = v[PLACE_KEY] || v[SUBURB];
    if (!place && t.what[r] !== LOCALITY) locality = localities.at(lon, lat, LOCALITY_KM);
    const [municipality, district, province] = admin.names(lon, lat);
    langs.forEach((lang, i) => {
      const a = address[i];
      const text = lang === undefined ? (s: string) => s : (s: string) => textIn(s, lang);
      a.add(v[HOUSENAME], text);
      a.add(v[HOUSENUMBER]);
      // a street is not addressed by another street, nor a locality by another locality
      if (v[STREET_KEY]) a.add(v[STREET_KEY], lang === undefined ? text : (s) => called(s, lon, lat, lang, STREET) ?? text(s));
      else if (street >= 0) a.add(labelsOf[i][street]);
      if (place) a.add(place, lang === undefined ? text : (s) => called(s, lon, lat, lang, LOCALITY) ?? text(s));
      else if (locality >= 0) a.add(labelsOf[i][locality]);
      const area = (n: AdminName, tag: string | null, official: (s: string) => OfficialName | undefined) => {
        if (n.name) a.add(lang === undefined ? n.name : n[lang] || text(n.name));
        else a.add(tag, lang === undefined ? text : (s) => official(s)?.[lang] ?? text(s));
      };
      area(municipality, v[CITY], () => undefined);
      area(district, v[DISTRICT], officialDistrict);
      area(province, v[PROVINCE], officialProvince);
    });
    out[0].set(r - from, address[0].text());
    out[1].set(r - from, address[1].text());
    out[2].set(r - from, address[2].text());
  }
  return { from, texts: out.map((c) => c.texts), rows: out.map((c) => c.rows) };
}

/** One address being assembled: its parts, no empty ones and no repeats. */
class Parts {
  private readonly parts: string[] = [];
  private readonly seen: string[] = []; // lower-cased parts: at most eight, a scan beats a Set

  clear(): void {
    this.parts.length = 0;
    this.seen.length = 0;
  }

  private one(raw: string): void {
    const s = raw.trim();
    if (!s) return;
    const low = s.toLowerCase();
    if (this.seen.includes(low)) return;
    this.seen.push(low);
    this.parts.push(s);
  }

  /** Adds a part; a tag value may itself be a list ("Kathmandu, Thamel"): its pieces count one by one, each through `as`. */
  add(value: string | null | undefined, as?: (s: string) => string): void {
    if (!value) return;
    if (value.indexOf(',') < 0) this.one(as ? as(value.trim()) : value);
    else for (const piece of value.split(',')) this.one(as ? as(piece.trim()) : piece);
  }

  text(): string {
    return this.parts.join(', ');
  }
}

/**
 * The names in a language of the street or locality an `addr:*` value names: of the rows of
 * that kind whose `name`, `name:en` or `name:ne` is the value (case aside), the nearest within
 * `CALLED_KM`; undefined when none.
 */
function calledIndex(input: AddressInput): (value: string, lon: number, lat: number, lang: Lang, what: number) => string | undefined {
  const names = new CalledNames(input.shapes, input.called);
  return (value, lon, lat, lang, what) => {
    const best = names.nearest(value, lon, lat, what, CALLED_KM);
    if (best < 0) return undefined;
    return (lang === 'en' ? input.labelsEn : input.labelsNe)[best] || undefined;
  };
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
