import type { PlaceTable } from '../load/places.js';
import { STREET, LOCALITY } from '../load/places.js';
import type { Streets } from '../index/streets.js';
import type { Localities } from './localities.js';
import type { Admin } from './admin.js';
import { tagValue } from './tags.js';

/** How far (km) a street may be to name a place's address. */
export const STREET_KM = 0.1;
/** How far (km) a locality's centroid may be to name a place's address. */
export const LOCALITY_KM = 2;

/**
 * Gives every row of the table its address, most specific first, no empty parts,
 * no repeats, joined with ", ":
 *   house name and number and street from `addr:*`, else the nearest street within 100 m;
 *   the locality: `addr:place`/`addr:suburb`, else the containing or nearest locality within 2 km;
 *   municipality, district and province from the administrative areas, else `addr:city`,
 *   `addr:district`, `addr:province`.
 * Streets, localities and areas are named in English where OSM has `name:en`.
 * Done once at load: queries only read the result.
 */
export function assignAddresses(t: PlaceTable, streets: Streets, localities: Localities, admin: Admin): void {
  // addresses get their own dedup map: the table's strings are already unique
  const ids = new Map<string, number>([['', 0]]);
  const intern = (s: string): number => {
    let i = ids.get(s);
    if (i === undefined) { i = t.strings.length; t.strings.push(s); ids.set(s, i); }
    return i;
  };
  const english = new Map<number, string>();
  const label = (r: number): string => {
    let s = english.get(r);
    if (s === undefined) english.set(r, (s = tagValue(t, r, 'name:en') || t.strings[t.name[r]]));
    return s;
  };

  // the addr:* keys as string indexes: a row's tags are read in one pass of integer compares
  const KEYS = ['addr:housename', 'addr:housenumber', 'addr:street', 'addr:place', 'addr:suburb', 'addr:city',
    'addr:district', 'addr:province'];
  const slot = new Map<number, number>();
  t.strings.forEach((s, i) => { const k = KEYS.indexOf(s); if (k >= 0) slot.set(i, k); });
  const v: (string | undefined)[] = new Array(KEYS.length);
  const [HOUSENAME, HOUSENUMBER, STREET_KEY, PLACE_KEY, SUBURB, CITY, DISTRICT, PROVINCE] = KEYS.map((_, i) => i);

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
  const add = (value: string | undefined) => {
    if (!value) return;
    if (value.indexOf(',') < 0) one(value);
    else for (const part of value.split(',')) one(part);
  };
  for (let r = 0; r < t.size; r++) {
    parts.length = 0;
    seen.length = 0;
    v.fill(undefined);
    for (let k = t.tagStart[r]; k < t.tagStart[r + 1]; k++) {
      const at = slot.get(t.tagKV[2 * k]);
      if (at !== undefined) v[at] ??= t.strings[t.tagKV[2 * k + 1]];
    }
    const lon = t.lon[r] / 1e7, lat = t.lat[r] / 1e7;
    add(v[HOUSENAME]);
    add(v[HOUSENUMBER]);
    // a street is not addressed by another street, nor a locality by another locality
    if (v[STREET_KEY]) add(v[STREET_KEY]);
    else if (t.what[r] !== STREET) {
      const s = streets.nearest(lon, lat, STREET_KM);
      if (s) add(label(s.row));
    }
    const place = v[PLACE_KEY] || v[SUBURB];
    if (place) add(place);
    else if (t.what[r] !== LOCALITY) {
      const l = localities.at(lon, lat, LOCALITY_KM);
      if (l >= 0) add(label(l));
    }
    const [municipality, district, province] = admin.names(lon, lat);
    add(municipality || v[CITY]);
    add(district || v[DISTRICT]);
    add(province || v[PROVINCE]);
    t.address[r] = intern(parts.join(', '));
  }
}
