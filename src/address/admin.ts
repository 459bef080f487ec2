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
  private readonly osmNames: AdminName[];
  private readonly layer: { districts: Areas; province: string[] } | undefined;
  private readonly layerNames: AdminName[];
  private readonly layerProvince: AdminName[];

  constructor(osmAreas: Area[], layer?: { districts: Areas; province: string[] }) {
    this.osm = new Areas(osmAreas);
    this.osmNames = osmAreas.map(adminName);
    this.layer = layer;
    this.layerNames = layer ? layer.districts.areas.map(adminName) : [];
    this.layerProvince = layer ? layer.province.map((name) => adminName({ name, level: PROVINCE, rings: [] })) : [];
  }

  /** `[municipality, district, province]`, each with its names; `''` where unknown. */
  names(lon: number, lat: number): [AdminName, AdminName, AdminName] {
    const out: [AdminName, AdminName, AdminName] = [NONE, NONE, NONE];
    for (const i of this.osm.at(lon, lat)) {
      const a = this.osm.areas[i];
      const k = a.level === MUNICIPALITY ? 0 : a.level === DISTRICT ? 1 : 2;
      if (!out[k].name) out[k] = this.osmNames[i];
    }
    if ((!out[1].name || !out[2].name) && this.layer) {
      const [d] = this.layer.districts.at(lon, lat);
      if (d !== undefined) {
        if (!out[1].name) out[1] = this.layerNames[d];
        if (!out[2].name) out[2] = this.layerProvince[d];
      }
    }
    return out;
  }
}
