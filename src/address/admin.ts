import { Areas, type Area } from '../geom/areas.js';
import { nepalDistrictTable } from './districts.js';

/** Nepal's administrative levels in OSM: province, district, municipality. */
export const PROVINCE = 4,
  DISTRICT = 6,
  MUNICIPALITY = 7;

/** Province numbers of the district table (nepal-geojson's), by the names the provinces took in 2022–23. */
const PROVINCES = [
  'Koshi Province',
  'Madhesh Province',
  'Bagmati Province',
  'Gandaki Province',
  'Lumbini Province',
  'Karnali Province',
  'Sudurpashchim Province',
];

let fallback: Promise<{ districts: Areas; province: string[] }> | undefined;

/**
 * Nepal's 77 districts and their provinces from the district table built from nepal-geojson
 * (MIT, see ./districts.ts), for what the PBF cannot give; read once per process.
 * Rejects with a `DistrictTableError` when the table is not built.
 */
export function nepalDistricts(): Promise<{ districts: Areas; province: string[] }> {
  fallback ??= Promise.resolve().then(() => {
    const areas: Area[] = [];
    const province: string[] = [];
    for (const d of nepalDistrictTable()) {
      areas.push({ name: titleCase(d.name), level: DISTRICT, rings: d.rings });
      province.push(PROVINCES[d.province - 1] ?? '');
    }
    return { districts: new Areas(areas), province };
  });
  return fallback;
}

function titleCase(s: string): string {
  return s.toLowerCase().replace(/(^|[\s_-])(\p{L})/gu, (_, sep: string, c: string) => `${sep === '_' ? ' ' : sep}${c.toUpperCase()}`);
}

/**
 * Municipality, district and province names at a point: from the PBF's boundaries
 * where they assembled, else district and province from the district table.
 */
export class Admin {
  private readonly osm: Areas;
  private readonly layer: { districts: Areas; province: string[] } | undefined;

  constructor(osmAreas: Area[], layer?: { districts: Areas; province: string[] }) {
    this.osm = new Areas(osmAreas);
    this.layer = layer;
  }

  /** `[municipality, district, province]`, each `''` where unknown. */
  names(lon: number, lat: number): [string, string, string] {
    const out: [string, string, string] = ['', '', ''];
    for (const i of this.osm.at(lon, lat)) {
      const a = this.osm.areas[i];
      const k = a.level === MUNICIPALITY ? 0 : a.level === DISTRICT ? 1 : 2;
      out[k] ||= a.name;
    }
    if ((!out[1] || !out[2]) && this.layer) {
      const [d] = this.layer.districts.at(lon, lat);
      if (d !== undefined) {
        out[1] ||= this.layer.districts.areas[d].name;
        out[2] ||= this.layer.province[d];
      }
    }
    return out;
  }
}
