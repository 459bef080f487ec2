import { Areas, type Area } from '../geom/areas.js';
import { nepalDistrictTable } from './districts.js';
import { PROVINCES, officialDistrict, officialProvince } from './official.js';

/** Nepal's administrative levels in OSM: province, district, municipality. */
export const PROVINCE = 4,
  DISTRICT = 6,
  MUNICIPALITY = 7;

let fallback: Promise<{ districts: Areas; province: string[] }> | undefined;

/** An administrative area's name as mapped (`name`) and in English and in Nepali; `''` where unknown. */
export interface AdminName {
  name: string;
  en: string;
  ne: string;
}

const NONE: AdminName = { name: '', en: '', ne: '' };

/**
 * Nepal's 77 districts and their provinces from the district table built from nepal-geojson
 * (MIT, see ./districts.ts), for what the PBF cannot give; read once per process. Their names
 * in English and Nepali are the official ones (./official.ts).
 * Rejects with a `DistrictTableError` when the table is not built.
 */
export function nepalDistricts(): Promise<{ districts: Areas; province: string[] }> {
  fallback ??= Promise.resolve().then(() => {
    const areas: Area[] = [];
    const province: string[] = [];
    for (const d of nepalDistrictTable()) {
      const name = titleCase(d.name);
      const official = officialDistrict(name);
      areas.push({ name, en: official?.en ?? name, ne: official?.ne ?? '', level: DISTRICT, rings: d.rings });
      province.push(PROVINCES[d.province - 1]?.en ?? '');
    }
    return { districts: new Areas(areas), province };
  });
  return fallback;
}

function titleCase(s: string): string {
  return s.toLowerCase().replace(/(^|[\s_-])(\p{L})/gu, (_, sep: string, c: string) => `${sep === '_' ? ' ' : sep}${c.toUpperCase()}`);
}

/** An area's names; a district or province by its official names where the table knows it. */
function adminName(a: Area): AdminName {
  const find = a.level === DISTRICT ? officialDistrict : a.level === PROVINCE ? officialProvince : undefined;
  const official = find && [a.name, a.en, a.ne].map((n) => (n ? find(n) : undefined)).find((x) => x !== undefined);
  return { name: a.name, en: official?.en ?? a.en ?? a.name, ne: official?.ne ?? a.ne ?? '' };
}

/**
 * Municipality, district and province names at a point: from the PBF's boundaries
 * where they assembled, else district and province from the district table.
 */
export class Admin {
  private readonly osm: Areas;
  private readonly layer: { districts: Areas; province: string[] } | undefined;
  // Per level (municipality, district, province), the names a point can get, none first: OSM's
  // areas of that level, then (districts, provinces) the district table's, in its order. A point's
  // three names are three places in these lists, one number (`id`), which the caller can key on.
  private readonly levels: AdminName[][] = [[NONE], [NONE], [NONE]];
  // per OSM area: its level (0 municipality, 1 district, 2 any other) and its place in that level's list
  private readonly levelOf: Uint8Array;
  private readonly placeOf: Uint32Array;
  // where the district table's districts (and their provinces) start in the district (province) list
  private readonly layerAt: [number, number];

  constructor(osmAreas: Area[], layer?: { districts: Areas; province: string[] }) {
    this.osm = new Areas(osmAreas);
    this.levelOf = new Uint8Array(osmAreas.length);
    this.placeOf = new Uint32Array(osmAreas.length);
    osmAreas.forEach((a, i) => {
      const k = a.level === MUNICIPALITY ? 0 : a.level === DISTRICT ? 1 : 2;
      this.levelOf[i] = k;
      this.placeOf[i] = this.levels[k].length;
      this.levels[k].push(adminName(a));
    });
    this.layer = layer;
    this.layerAt = [this.levels[1].length, this.levels[2].length];
    if (layer) {
      this.levels[1].push(...layer.districts.areas.map(adminName));
      this.levels[2].push(...layer.province.map((name) => adminName({ name, level: PROVINCE, rings: [] })));
    }
    if (this.levels[0].length * this.levels[1].length * this.levels[2].length > Number.MAX_SAFE_INTEGER)
      throw new RangeError(`too many administrative areas to number their combinations: ${osmAreas.length}`);
  }

  /** `[municipality, district, province]`, each with its names; `''` where unknown. */
  names(lon: number, lat: number): [AdminName, AdminName, AdminName] {
    return this.byId(this.id(lon, lat));
  }

  /** The names at a point as one number: points with the same number have the same `names` (`byId`). */
  id(lon: number, lat: number): number {
    const [ms, ds, ps] = this.levels;
    let m = 0,
      d = 0,
      p = 0;
    for (const i of this.osm.at(lon, lat)) {
      const k = this.levelOf[i],
        x = this.placeOf[i];
      // the first named area of each level
      if (k === 0) {
        if (!ms[m].name) m = x;
      } else if (k === 1) {
        if (!ds[d].name) d = x;
      } else if (!ps[p].name) p = x;
    }
    if ((!ds[d].name || !ps[p].name) && this.layer) {
      const [j] = this.layer.districts.at(lon, lat);
      if (j !== undefined) {
        if (!ds[d].name) d = this.layerAt[0] + j;
        if (!ps[p].name) p = this.layerAt[1] + j;
      }
    }
    return (m * ds.length + d) * ps.length + p;
  }

  /** The names of an `id`. */
  byId(id: number): [AdminName, AdminName, AdminName] {
    const [m, d, p] = this.levels;
    return [m[Math.floor(id / (d.length * p.length))], d[Math.floor(id / p.length) % d.length], p[id % p.length]];
  }
}
