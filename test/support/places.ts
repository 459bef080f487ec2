/**
 * The places of a raw file as the contract defines them, rebuilt from osm-read's objects
 * without any engine code: which objects are places, their types, name, address, tags,
 * placeId and geometry. Tests compare the engine's records against these.
 */
import type { RawData, RawTag, RawWay, RawRelation } from './raw.js';
import { tag } from './raw.js';

/** Keys that make an object a place (plus `highway` on nodes). */
export const FEATURE_KEYS = new Set([
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
]);

/** OSM object kind, as encoded in the low bits of a placeId. */
export type Kind = 0 | 1 | 2;

/** A GeoJSON position. */
export type Pos = [number, number];

/** The expected geometry of a place, or why it has none. */
export type ExpectedGeometry =
  | { type: 'Point'; coordinates: Pos }
  | { type: 'LineString'; coordinates: Pos[] }
  | { type: 'Polygon'; coordinates: Pos[][] }
  | { type: 'MultiPolygon'; coordinates: Pos[][][] };

/** A place as the contract describes it, computed from raw data. */
export interface ExpectedPlace {
  kind: Kind;
  osmId: number;
  placeId: number;
  rawTags: RawTag[];
  /** Own types in tag order, then left to right within `a;b`. */
  types: string[];
  name: string;
  address: string;
  tags: string[];
  geometry: ExpectedGeometry;
  /** Built from a way with missing nodes or a relation with missing or dropped members. */
  partial: boolean;
}

/** All places of a file plus what could not be built. */
export interface ExpectedPlaces {
  places: ExpectedPlace[];
  byId: Map<number, ExpectedPlace>;
  skippedWays: number;
  skippedRelations: number;
}

const ADDRESS_KEYS = [
  'addr:housename',
  'addr:housenumber',
  'addr:street',
  'addr:place',
  'addr:suburb',
  'addr:city',
  'addr:district',
  'addr:province',
];

/** True when the tags carry a feature key (`highway` counts on nodes only). */
export function isFeature(tags: RawTag[], kind: Kind): boolean {
  return tags.some(([k]) => FEATURE_KEYS.has(k) || (kind === 0 && k === 'highway'));
}

/**
 * The place's own types, in tag order and left to right within `a;b`; `yes`/`no` are not types.
 * Lower-cased: queries are lower-cased, so `amenity=Cooperative` answers `cooperative` (the
 * contract's only reading under which such a place can be found at all).
 */
export function typesOf(tags: RawTag[], kind: Kind): string[] {
  const amenityParking = (tag(tags, 'amenity') ?? '').split(';').some((v) => v.trim() === 'parking');
  const types: string[] = [];
  for (const [k, v] of tags) {
    const counts = FEATURE_KEYS.has(k) || (kind === 0 && k === 'highway') || (k === 'parking' && amenityParking);
    if (!counts) continue;
    for (const part of v.split(';')) {
      const t = part.trim().toLowerCase();
      if (t !== '' && t !== 'yes' && t !== 'no') types.push(t);
    }
  }
  return types;
}

/** `name`, else `name:en`, else `name:ne`, else `""`. */
export function nameOf(tags: RawTag[]): string {
  return tag(tags, 'name') ?? tag(tags, 'name:en') ?? tag(tags, 'name:ne') ?? '';
}

/** The `addr:*` values in the contract's order, trimmed, without empties and repeats. */
export function addressOf(tags: RawTag[]): string {
  const parts: string[] = [];
  for (const key of ADDRESS_KEYS) {
    const v = tag(tags, key)?.trim();
    if (v && !parts.includes(v)) parts.push(v);
  }
  return parts.join(', ');
}

/** True for ways the contract treats as lines even when closed. */
function isLinear(tags: RawTag[]): boolean {
  for (const [k, v] of tags) {
    if (k === 'highway' || k === 'barrier' || k === 'waterway') return true;
    if (k === 'railway' && v !== 'platform' && v !== 'station') return true;
    if (k === 'aeroway' && (v === 'runway' || v === 'taxiway')) return true;
    if (k === 'leisure' && v === 'track') return true;
  }
  return false;
}

function wayGeometry(raw: RawData, way: RawWay): { geometry: ExpectedGeometry; partial: boolean } | null {
  const present = way.refs.filter((id) => raw.node.has(id));
  if (present.length < 2) return null;
  const partial = present.length < way.refs.length;
  const pos = (id: number): Pos => {
    const n = raw.node.get(id)!;
    return [n.lon, n.lat];
  };
  const closed = way.refs.length >= 4 && way.refs[0] === way.refs[way.refs.length - 1];
  const area = closed && tag(way.tags, 'area') !== 'no' && (!isLinear(way.tags) || tag(way.tags, 'area') === 'yes');
  if (area && !partial) return { geometry: { type: 'Polygon', coordinates: [present.map(pos)] }, partial };
  if (area) {
    const distinct = [...new Set(present)];
    if (distinct.length >= 3) {
      return { geometry: { type: 'Polygon', coordinates: [[...distinct, distinct[0]].map(pos)] }, partial };
    }
  }
  return { geometry: { type: 'LineString', coordinates: present.map(pos) }, partial };
}

/** Joins node-id chains end to end into closed rings; returns the rings and how many chains stayed open. */
export function joinRings(chains: number[][]): { rings: number[][]; open: number } {
  const left = chains.map((c) => c.slice());
  const rings: number[][] = [];
  let open = 0;
  while (left.length) {
    let ring = left.shift()!;
    for (;;) {
      if (ring.length >= 4 && ring[0] === ring[ring.length - 1]) {
        rings.push(ring);
        break;
      }
      const end = ring[ring.length - 1];
      const i = left.findIndex((c) => c[0] === end || c[c.length - 1] === end);
      if (i < 0) {
        open++;
        break;
      }
      const next = left.splice(i, 1)[0];
      ring = ring.concat((next[0] === end ? next : next.slice().reverse()).slice(1));
    }
  }
  return { rings, open };
}

/** Ray casting, strictly inside (points on the edge may go either way; callers vote). */
function inside(p: Pos, ring: Pos[]): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

function relationGeometry(raw: RawData, rel: RawRelation): { geometry: ExpectedGeometry; partial: boolean } | null {
  let partial = false;
  const outer: number[][] = [];
  const inner: number[][] = [];
  for (const m of rel.members) {
    if (m.type !== 'way' || (m.role !== 'outer' && m.role !== 'inner' && m.role !== '')) continue;
    const way = raw.way.get(m.ref);
    const present = way ? way.refs.filter((id) => raw.node.has(id)) : [];
    if (!way || present.length < way.refs.length) partial = true;
    if (present.length < 2) continue;
    (m.role === 'inner' ? inner : outer).push(present);
  }
  const o = joinRings(outer);
  const i = joinRings(inner);
  if (o.open || i.open) partial = true;
  if (!o.rings.length) return null;
  const pos = (id: number): Pos => {
    const n = raw.node.get(id)!;
    return [n.lon, n.lat];
  };
  const polys: Pos[][][] = o.rings.map((r) => [r.map(pos)]);
  for (const r of i.rings) {
    const ring = r.map(pos);
    // the outer holding most of the hole's vertices owns it
    let best = -1;
    let votes = 0;
    polys.forEach((poly, k) => {
      const n = ring.filter((p) => inside(p, poly[0])).length;
      if (n > votes) {
        votes = n;
        best = k;
      }
    });
    if (best >= 0) polys[best].push(ring);
  }
  return { geometry: { type: 'MultiPolygon', coordinates: polys }, partial };
}

const cache = new WeakMap<RawData, ExpectedPlaces>();

/** Every place of a raw file per the contract, once per RawData. */
export function expectedPlaces(raw: RawData): ExpectedPlaces {
  const hit = cache.get(raw);
  if (hit) return hit;
  const out: ExpectedPlaces = { places: [], byId: new Map(), skippedWays: 0, skippedRelations: 0 };
  const add = (kind: Kind, osmId: number, rawTags: RawTag[], built: { geometry: ExpectedGeometry; partial: boolean }) => {
    const place: ExpectedPlace = {
      kind,
      osmId,
      placeId: osmId * 4 + kind,
      rawTags,
      types: typesOf(rawTags, kind),
      name: nameOf(rawTags),
      address: addressOf(rawTags),
      tags: rawTags.map(([k, v]) => `${k}|${v}`),
      geometry: built.geometry,
      partial: built.partial,
    };
    out.places.push(place);
    out.byId.set(place.placeId, place);
  };
  for (const n of raw.nodes) {
    if (isFeature(n.tags, 0)) add(0, n.id, n.tags, { geometry: { type: 'Point', coordinates: [n.lon, n.lat] }, partial: false });
  }
  for (const w of raw.ways) {
    if (!isFeature(w.tags, 1)) continue;
    const built = wayGeometry(raw, w);
    if (built) add(1, w.id, w.tags, built);
    else out.skippedWays++;
  }
  for (const r of raw.relations) {
    if (tag(r.tags, 'type') !== 'multipolygon' || !isFeature(r.tags, 2)) continue;
    const built = relationGeometry(raw, r);
    if (built) add(2, r.id, r.tags, built);
    else out.skippedRelations++;
  }
  cache.set(raw, out);
  return out;
}
