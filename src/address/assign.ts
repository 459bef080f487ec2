import type { PlaceTable } from '../model/table.js';
import { STREET, LOCALITY } from '../model/table.js';
import { shapesOf, type Shapes } from '../model/shape.js';
import type { Area } from '../geom/areas.js';
import { Streets } from '../index/streets.js';
import { Localities, localityRows } from './localities.js';
import { Admin, nepalDistricts } from './admin.js';
import { tagValue } from './tags.js';

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
 * be computed on another thread: the table's geometry, the English labels of its
 * streets and localities, the rows that are localities, the `addr:*` values of the
 * rows that have any, and the PBF's administrative areas.
 */
export interface AddressInput {
  shapes: Shapes;
  /** Per row: `name:en`, else the name, of streets and localities; `''` for others. */
  labels: string[];
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
  const addrRows: number[] = [];
  const addrVals: (string | null)[] = [];
  const v: (string | null)[] = new Array(KEYS.length);
  for (let r = 0; r < t.size; r++) {
    if (t.what[r] === STREET || t.what[r] === LOCALITY) labels[r] = tagValue(t, r, 'name:en') || t.strings[t.name[r]];
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
  return { shapes: shapesOf(t), labels, localities: localityRows(t), addrRows: Uint32Array.from(addrRows), addrVals, areas };
}

/**
 * Every row's address, most specific first, no empty parts, no repeats, joined with ", ":
 *   house name and number and street from `addr:*`, else the nearest street within 100 m;
 *   the locality: `addr:place`/`addr:suburb`, else the containing or nearest locality within 2 km;
 *   municipality, district and province from the administrative areas, else `addr:city`,
 *   `addr:district`, `addr:province`.
 * Streets, localities and areas are named in English where OSM has `name:en`.
 */
export async function computeAddresses(input: AddressInput, streets = new Streets(input.shapes)): Promise<string[]> {
  const t = input.shapes;
  const localities = new Localities(t, input.localities);
  const admin = new Admin(input.areas, await nepalDistricts());
  const out: string[] = new Array(t.size);
  const parts: string[] = [];
  const seen: string[] = []; // lower-cased parts: at most eight, a scan beats a Set
  const one = (raw: string) => {
    const s = raw.trim();
    if (!s) return;
    const low = s.toLowerCase();
    if (seen.includes(low)) return;
    seen.push(low);
    parts.push(s);
  };
  // a tag value may itself be a list ("Kathmandu, Thamel"): its parts count one by one
  const add = (value: string | null | undefined) => {
    if (!value) return;
    if (value.indexOf(',') < 0) one(value);
    else for (const part of value.split(',')) one(part);
  };
  const none: (string | null)[] = new Array(KEYS.length).fill(null);
  let next = 0; // the next row with addr:* values
  for (let r = 0; r < t.size; r++) {
    parts.length = 0;
    seen.length = 0;
    let v = none;
    if (next < input.addrRows.length && input.addrRows[next] === r) {
      v = input.addrVals.slice(next * KEYS.length, (next + 1) * KEYS.length);
      next++;
    }
    const lon = t.lon[r] / 1e7,
      lat = t.lat[r] / 1e7;
    add(v[HOUSENAME]);
    add(v[HOUSENUMBER]);
    // a street is not addressed by another street, nor a locality by another locality
    if (v[STREET_KEY]) add(v[STREET_KEY]);
    else if (t.what[r] !== STREET) {
      const s = streets.nearest(lon, lat, STREET_KM);
      if (s) add(input.labels[s.row]);
    }
    const place = v[PLACE_KEY] || v[SUBURB];
    if (place) add(place);
    else if (t.what[r] !== LOCALITY) {
      const l = localities.at(lon, lat, LOCALITY_KM);
      if (l >= 0) add(input.labels[l]);
    }
    const [municipality, district, province] = admin.names(lon, lat);
    add(municipality || v[CITY]);
    add(district || v[DISTRICT]);
    add(province || v[PROVINCE]);
    out[r] = parts.join(', ');
  }
  return out;
}

/** Stores computed addresses in the table, each distinct one once in its strings. */
export function storeAddresses(t: PlaceTable, list: string[]): void {
  const ids = new Map<string, number>([['', 0]]);
  for (let r = 0; r < t.size; r++) {
    const s = list[r];
    let i = ids.get(s);
    if (i === undefined) {
      i = t.strings.length;
      t.strings.push(s);
      ids.set(s, i);
    }
    t.address[r] = i;
  }
}
