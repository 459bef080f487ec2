/**
 * Addresses computed from osm-read's raw objects with turf and nepal-geojson, sharing no
 * code with the engine: the expectation the address tests compare against.
 */
import pointToLineDistance from '@turf/point-to-line-distance';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import distance from '@turf/distance';
import { lineString, point, polygon } from '@turf/helpers';
import nepalGeojson from 'nepal-geojson';
import type { RawData, RawTag } from './raw.js';
import { polygonsCentroid } from './centroid.js';

const PROVINCES = [
  'Koshi Province',
  'Madhesh Province',
  'Bagmati Province',
  'Gandaki Province',
  'Lumbini Province',
  'Karnali Province',
  'Sudurpashchim Province',
];
const LOCALITY = new Set(['neighbourhood', 'quarter', 'suburb', 'locality', 'hamlet', 'village', 'town']);

/** Metres within which two candidates are too close to call: the engine measures on a local flat projection, turf on the sphere, a few millimetres apart at these distances. */
export const TOO_CLOSE_M = 0.05;

const tag = (tags: RawTag[], k: string) => tags.find(([key]) => key === k)?.[1];
const named = (tags: RawTag[]) => tag(tags, 'name') ?? tag(tags, 'name:en') ?? tag(tags, 'name:ne');
const englishName = (tags: RawTag[]) => tag(tags, 'name:en') || tag(tags, 'name') || tag(tags, 'name:ne') || '';

/** What an address is made of, from the raw data. */
export interface Expect {
  /** The expected address, or undefined when a nearest street or locality is too close to call (or, with a `Naming`, has no name in it). */
  address: string | undefined;
}

/** Names an address in a language: a street's or locality's name (undefined: it has none), a district's and a province's from their English names. */
export interface Naming {
  label(tags: RawTag[]): string | undefined;
  district(english: string): string;
  province(english: string): string;
}

/** Builds the raw streets, localities and districts once, and answers the address of a point with tags (its parts named by `naming` if given). */
export function addressBook(raw: RawData, naming?: Naming) {
  // a part with no name in the language: the address is not expected
  const NO_NAME = '\u0000';
  const english = (tags: RawTag[]) => (naming ? (naming.label(tags) ?? NO_NAME) : englishName(tags));
  const streets: { id: number; name: string; line: ReturnType<typeof lineString>; box: number[] }[] = [];
  const points: { id: number; name: string; at: [number, number] }[] = [];
  const areas: { id: number; name: string; poly: ReturnType<typeof polygon> }[] = [];
  for (const w of raw.ways) {
    const coords = w.refs
      .map((r) => raw.node.get(r))
      .filter((n) => n !== undefined)
      .map((n) => [n!.lon, n!.lat]);
    const isPlace = tag(w.tags, 'place');
    if (tag(w.tags, 'highway') && named(w.tags) && !hasFeature(w.tags) && !isPlace && coords.length >= 2) {
      const xs = coords.map((c) => c[0]),
        ys = coords.map((c) => c[1]);
      streets.push({
        id: w.id,
        name: english(w.tags),
        line: lineString(coords),
        box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
      });
    }
    if (
      isPlace &&
      LOCALITY.has(isPlace) &&
      named(w.tags) &&
      !hasFeature(w.tags) &&
      w.refs[0] === w.refs[w.refs.length - 1] &&
      coords.length >= 4
    ) {
      areas.push({ id: w.id * 4 + 1, name: english(w.tags), poly: polygon([coords]) });
      // an area is also a candidate for "nearest", by its centroid
      const c = polygonsCentroid([[coords as [number, number][]]]);
      points.push({ id: w.id * 4 + 1, name: english(w.tags), at: [c.lon, c.lat] });
    }
  }
  for (const n of raw.nodes) {
    const p = tag(n.tags, 'place');
    if (p && LOCALITY.has(p) && named(n.tags) && !hasFeature(n.tags))
      points.push({ id: n.id * 4, name: english(n.tags), at: [n.lon, n.lat] });
  }
  const districts = nepalGeojson.districts().features;

  return (lon: number, lat: number, tags: RawTag[], self: { street?: boolean; locality?: boolean } = {}): Expect => {
    const parts: string[] = [];
    const add = (v: string | undefined) => {
      for (const piece of (v ?? '').split(',')) {
        const s = piece.trim();
        if (s && !parts.some((p) => p.toLowerCase() === s.toLowerCase())) parts.push(s);
      }
    };
    const here = point([lon, lat]);
    add(tag(tags, 'addr:housename'));
    add(tag(tags, 'addr:housenumber'));
    const street = tag(tags, 'addr:street');
    if (street) add(street);
    else if (!self.street) {
      // a coarse box first (0.0011 degrees of latitude and 0.0013 of longitude are over 120 m here), then turf's geodesic distance
      const near = streets
        .filter((s) => lon > s.box[0] - 0.0013 && lon < s.box[2] + 0.0013 && lat > s.box[1] - 0.0011 && lat < s.box[3] + 0.0011)
        .map((s) => ({ s, m: pointToLineDistance(here, s.line, { units: 'meters', method: 'geodesic' }) }))
        .filter((x) => x.m <= 100 + TOO_CLOSE_M)
        .sort((a, b) => a.m - b.m);
      if (near.length && Math.abs(near[0].m - 100) < TOO_CLOSE_M) return { address: undefined };
      // nearest to a crossing: both streets are at the very same distance (turf says within a millimetre), and the lower id wins
      const tied = near.filter((x) => near.length && x.m - near[0].m < 1e-3).sort((a, b) => a.s.id - b.s.id);
      const best = tied[0];
      if (best && near.some((x) => x.m - near[0].m >= 1e-3 && x.m - near[0].m < TOO_CLOSE_M && x.s.name !== best.s.name))
        return { address: undefined };
      if (best) add(best.s.name);
    }
    const place = tag(tags, 'addr:place') || tag(tags, 'addr:suburb');
    if (place) add(place);
    else if (!self.locality) {
      const inside = areas.filter((a) => booleanPointInPolygon(here, a.poly)).sort((a, b) => a.id - b.id);
      if (inside.length) add(inside[0].name);
      else {
        const near = points
          .map((p) => ({ p, m: distance(here, point(p.at), { units: 'meters' }) }))
          .filter((x) => x.m <= 2000 + TOO_CLOSE_M)
          .sort((a, b) => a.m - b.m);
        if (near.length && Math.abs(near[0].m - 2000) < TOO_CLOSE_M) return { address: undefined };
        if (near.length > 1 && near[1].m - near[0].m < TOO_CLOSE_M && near[1].p.name !== near[0].p.name) return { address: undefined };
        if (near.length) add(near[0].p.name);
      }
    }
    // the fixture's boundaries cannot be assembled (their ways have no nodes): nepal-geojson gives the district
    const d = districts.find((f) => booleanPointInPolygon(here, polygon(f.geometry.coordinates)));
    add(tag(tags, 'addr:city'));
    if (d) {
      const district = d.properties.DISTRICT.charAt(0) + d.properties.DISTRICT.slice(1).toLowerCase();
      const province = PROVINCES[d.properties.PROVINCE - 1];
      add(naming ? naming.district(district) : district);
      add(naming ? naming.province(province) : province);
    } else {
      add(tag(tags, 'addr:district'));
      add(tag(tags, 'addr:province'));
    }
    if (parts.includes(NO_NAME)) return { address: undefined };
    return { address: parts.join(', ') };
  };
}

const FEATURES = [
  'amenity',
  'shop',
  'tourism',
  'leisure',
  'healthcare',
  'office',
  'craft',
  'historic',
  'public_transport',
  'railway',
  'aeroway',
  'emergency',
];

function hasFeature(tags: RawTag[]): boolean {
  return tags.some(([k]) => FEATURES.includes(k));
}
