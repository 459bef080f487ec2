/**
 * OSM tags to the Protomaps basemap schema (docs.protomaps.com/basemaps/layers, and
 * the kinds `@protomaps/basemaps` filters its style layers on): which layer a tagged
 * object goes to, its `kind`, `kind_detail` and `min_zoom`, and from which zoom its
 * tiles hold it. Only the tags are read here; geometry is the caller's.
 */
import { isPlace, placeTypes } from '../osm/place.js';
import { LINE, POINT, POLYGON, type FeatureInfo, type LayerName, type Value } from './features.js';
import { MAX_ZOOM } from './project.js';
import { isRoad } from '../osm/road.js';
import { vehicleOneway } from '../osm/oneway.js';
import { placeId } from '../osm/id.js';

/** An object's tags. */
export type Tags = Map<string, string>;

/** A property's type, as TileJSON's `fields` name them. */
export type FieldType = 'String' | 'Number' | 'Boolean';

// `pgf:name:ne`: `name:ne` (or a Devanagari `name`) shaped, as `src/map/shape.ts` writes it and the Nepali style reads it
const NAME_FIELDS = { name: 'String', 'name:en': 'String', 'name:ne': 'String', script: 'String', 'pgf:name:ne': 'String' } as const;

/**
 * The properties each layer's features may carry, and their types: what the functions below
 * (and `earth.ts`, for `earth` and `boundaries`) write, for TileJSON's `vector_layers[].fields`.
 * A property added below belongs here too (test/map-tilejson.test.ts reads every built tile).
 */
export const LAYER_FIELDS: Readonly<Record<LayerName, Readonly<Record<string, FieldType>>>> = {
  earth: { kind: 'String' },
  landcover: { kind: 'String' },
  landuse: { kind: 'String', ...NAME_FIELDS },
  natural: { kind: 'String', kind_detail: 'String', min_zoom: 'Number', ...NAME_FIELDS },
  water: { kind: 'String', kind_detail: 'String', min_zoom: 'Number', ...NAME_FIELDS },
  boundaries: { kind: 'String', kind_detail: 'Number', min_zoom: 'Number' },
  transit: { kind: 'String', kind_detail: 'String', min_zoom: 'Number', ...NAME_FIELDS },
  roads: {
    kind: 'String',
    kind_detail: 'String',
    min_zoom: 'Number',
    ...NAME_FIELDS,
    ref: 'String',
    oneway: 'String',
    is_link: 'Boolean',
    is_bridge: 'Boolean',
    is_tunnel: 'Boolean',
  },
  buildings: { kind: 'String', kind_detail: 'String', height: 'Number', min_height: 'Number' },
  pois: { kind: 'String', kind_detail: 'String', min_zoom: 'Number', placeId: 'Number', elevation: 'Number', ...NAME_FIELDS },
  places: {
    kind: 'String',
    kind_detail: 'String',
    min_zoom: 'Number',
    sort_key: 'Number',
    population: 'Number',
    population_rank: 'Number',
    capital: 'String',
    placeId: 'Number',
    ...NAME_FIELDS,
  },
};

/** Name properties: `name` in English where `name:en` exists, the others as tagged, and `script` for a Devanagari `name`. */
export function names(tags: Tags): [string, Value | undefined][] {
  const en = tags.get('name:en');
  const name = en ?? tags.get('name') ?? tags.get('name:ne');
  return [
    ['name', name],
    ['name:en', en],
    ['name:ne', tags.get('name:ne')],
    ['script', name !== undefined && DEVANAGARI.test(name) ? 'Devanagari' : undefined],
  ];
}

const DEVANAGARI = /[\u0900-\u097f]/;

// ---- roads ----------------------------------------------------------------------

const ROAD_KIND: Record<string, string> = {
  motorway: 'highway',
  motorway_link: 'highway',
  trunk: 'major_road',
  trunk_link: 'major_road',
  primary: 'major_road',
  primary_link: 'major_road',
  secondary: 'major_road',
  secondary_link: 'major_road',
  tertiary: 'major_road',
  tertiary_link: 'major_road',
  residential: 'minor_road',
  unclassified: 'minor_road',
  road: 'minor_road',
  raceway: 'minor_road',
  service: 'minor_road',
  living_street: 'minor_road',
  pedestrian: 'path',
  track: 'path',
  corridor: 'path',
  path: 'path',
  cycleway: 'path',
  bridleway: 'path',
  footway: 'path',
  steps: 'path',
};

// Protomaps' highway zooms: the zoom a road first appears at, and its names
const ROAD_ZOOM: Record<string, [number, number]> = {
  motorway: [3, 11],
  motorway_link: [3, 11],
  trunk: [6, 12],
  trunk_link: [6, 12],
  primary: [7, 12],
  primary_link: [7, 13],
  secondary: [9, 12],
  secondary_link: [9, 14],
  tertiary: [9, 13],
  tertiary_link: [9, 14],
};

function road(tags: Tags): FeatureInfo | undefined {
  const highway = tags.get('highway')!;
  // a platform is drawn by its own layer, not as a road
  if (!isRoad(highway) || highway === 'platform') return undefined;
  const kind = ROAD_KIND[highway] ?? 'other';
  let detail = highway;
  const zooms = ROAD_ZOOM[highway] ?? [14, 14];
  let minZoom = zooms[0];
  const nameZoom = zooms[1];
  if (kind === 'minor_road') minZoom = highway === 'service' ? 13 : 12;
  if (kind === 'path') minZoom = ['pedestrian', 'track'].includes(highway) ? 12 : highway === 'corridor' ? 14 : 13;
  if (highway === 'service') detail = 'service';
  const footway = tags.get('footway');
  if (highway === 'footway' && (footway === 'sidewalk' || footway === 'crossing')) {
    detail = footway;
    minZoom = 14;
  }
  if (tags.get('access') === 'private' || tags.get('access') === 'no') minZoom = Math.max(minZoom, 14);
  const bridge = yes(tags.get('bridge'));
  const tunnel = !bridge && yes(tags.get('tunnel'));
  return {
    layer: 'roads',
    type: LINE,
    minZoom,
    nameZoom,
    props: [
      ['kind', kind],
      ['kind_detail', detail],
      ['min_zoom', minZoom + 1],
      ...names(tags),
      ['ref', tags.get('ref')],
      ['oneway', oneway(tags) ? 'yes' : undefined],
      ['is_link', highway.endsWith('_link') ? true : undefined],
      ['is_bridge', bridge ? true : undefined],
      ['is_tunnel', tunnel ? true : undefined],
    ],
  };
}

/**
 * Whether a way is one-way for vehicles (src/osm/oneway.ts: `oneway=yes|1|true|-1|reverse`, a
 * roundabout, a motorway); `-1` ways are reversed by the caller (`reversed`).
 */
export function oneway(tags: Tags): boolean {
  const o = vehicleOneway((k) => tags.get(k));
  return o === 1 || o === -1;
}

/** Whether a one-way road is drawn against its direction (`oneway=-1|reverse`). */
export function reversed(tags: Tags): boolean {
  return vehicleOneway((k) => tags.get(k)) === -1;
}

function yes(v: string | undefined): boolean {
  return v !== undefined && v !== 'no' && v !== 'false' && v !== '0';
}

// ---- rail and aerialways: roads (kind rail, as the style draws it) and transit ----

function rail(tags: Tags): FeatureInfo[] {
  const out: FeatureInfo[] = [];
  const railway = tags.get('railway');
  if (
    railway &&
    ['rail', 'light_rail', 'narrow_gauge', 'subway', 'tram', 'funicular', 'monorail', 'preserved', 'miniature'].includes(railway)
  ) {
    const minZoom = railway === 'rail' ? 11 : 14;
    const props: [string, Value | undefined][] = [['kind', 'rail'], ['kind_detail', railway], ['min_zoom', minZoom + 1], ...names(tags)];
    out.push({ layer: 'roads', type: LINE, minZoom, props });
    out.push({
      layer: 'transit',
      type: LINE,
      minZoom,
      props: [['kind', 'rail'], ['kind_detail', railway], ['min_zoom', minZoom + 1], ...names(tags)],
    });
  }
  const aerialway = tags.get('aerialway');
  if (aerialway && aerialway !== 'pylon' && aerialway !== 'station') {
    out.push({
      layer: 'transit',
      type: LINE,
      minZoom: 11,
      props: [['kind', 'aerialway'], ['kind_detail', aerialway], ['min_zoom', 12], ...names(tags)],
    });
  }
  const aeroway = tags.get('aeroway');
  if (aeroway === 'runway' || aeroway === 'taxiway') {
    const minZoom = aeroway === 'runway' ? 9 : 10;
    out.push({
      layer: 'roads',
      type: LINE,
      minZoom,
      props: [['kind', 'aeroway'], ['kind_detail', aeroway], ['min_zoom', minZoom + 1], ...names(tags)],
    });
  }
  return out;
}

// ---- water ----------------------------------------------------------------------

const WATERWAY_ZOOM: Record<string, number> = { river: 9, canal: 10, stream: 13, drain: 14, ditch: 14 };

function waterLine(tags: Tags): FeatureInfo | undefined {
  const w = tags.get('waterway');
  if (!w || WATERWAY_ZOOM[w] === undefined) return undefined;
  const minZoom = WATERWAY_ZOOM[w];
  return {
    layer: 'water',
    type: LINE,
    minZoom,
    nameZoom: Math.max(minZoom, 12),
    props: [['kind', w], ['min_zoom', minZoom + 1], ...names(tags)],
  };
}

function waterArea(tags: Tags): FeatureInfo | undefined {
  const natural = tags.get('natural'),
    water = tags.get('water'),
    landuse = tags.get('landuse'),
    waterway = tags.get('waterway');
  let kind: string | undefined;
  if (natural === 'water' || landuse === 'reservoir' || landuse === 'basin' || waterway === 'riverbank' || waterway === 'dock') {
    kind = water === 'lake' || water === 'reservoir' || landuse === 'reservoir' ? 'lake' : 'water';
  } else if (tags.get('leisure') === 'swimming_pool' || tags.get('amenity') === 'swimming_pool') {
    kind = 'swimming_pool';
  }
  if (!kind) return undefined;
  return {
    layer: 'water',
    type: POLYGON,
    minZoom: kind === 'swimming_pool' ? 14 : 6,
    nameZoom: 12,
    props: [['kind', kind], ['kind_detail', water ?? landuse], ...names(tags)],
  };
}

// ---- landuse, landcover, natural --------------------------------------------------

// `key=value` -> landuse kind (Protomaps' names, as the style's landuse layers filter them)
const LANDUSE: Record<string, string> = {
  'leisure=park': 'park',
  'leisure=garden': 'garden',
  'leisure=playground': 'playground',
  'leisure=golf_course': 'golf_course',
  'leisure=nature_reserve': 'nature_reserve',
  'leisure=pitch': 'pitch',
  'leisure=stadium': 'stadium',
  'leisure=sports_centre': 'sports_centre',
  'leisure=dog_park': 'dog_park',
  'leisure=track': 'track',
  'leisure=recreation_ground': 'park',
  'landuse=forest': 'forest',
  'landuse=cemetery': 'cemetery',
  'landuse=military': 'military',
  'landuse=industrial': 'industrial',
  'landuse=brownfield': 'industrial',
  'landuse=railway': 'railway',
  'landuse=residential': 'residential',
  'landuse=commercial': 'commercial',
  'landuse=retail': 'retail',
  'landuse=grass': 'grass',
  'landuse=meadow': 'grassland',
  'landuse=farmland': 'farmland',
  'landuse=farmyard': 'farmland',
  'landuse=orchard': 'farmland',
  'landuse=allotments': 'allotments',
  'landuse=village_green': 'village_green',
  'landuse=recreation_ground': 'park',
  'landuse=quarry': 'quarry',
  'landuse=construction': 'construction',
  'landuse=religious': 'religious',
  'landuse=park': 'park',
  'natural=wood': 'wood',
  'natural=scrub': 'scrub',
  'natural=grassland': 'grassland',
  'natural=glacier': 'glacier',
  'natural=sand': 'sand',
  'natural=beach': 'beach',
  'natural=heath': 'scrub',
  'amenity=hospital': 'hospital',
  'amenity=school': 'school',
  'amenity=university': 'university',
  'amenity=college': 'college',
  'amenity=kindergarten': 'kindergarten',
  'amenity=grave_yard': 'cemetery',
  'amenity=parking': 'parking',
  'amenity=place_of_worship': 'place_of_worship',
  'amenity=marketplace': 'marketplace',
  'aeroway=aerodrome': 'aerodrome',
  'aeroway=runway': 'runway',
  'aeroway=taxiway': 'taxiway',
  'aeroway=apron': 'apron',
  'tourism=zoo': 'zoo',
  'tourism=theme_park': 'theme_park',
  'boundary=national_park': 'national_park',
  'boundary=protected_area': 'protected_area',
  'man_made=pier': 'pier',
  'man_made=bridge': 'pedestrian',
  'highway=pedestrian': 'pedestrian',
  'railway=platform': 'platform',
  'waterway=dam': 'dam',
};

// kinds big enough to be drawn from low zooms; the rest from z11
const EARLY: Record<string, number> = {
  national_park: 5,
  protected_area: 6,
  nature_reserve: 6,
  forest: 7,
  wood: 7,
  glacier: 6,
  aerodrome: 9,
  military: 9,
  park: 9,
  cemetery: 11,
};

// landuse kinds shown as landcover at low zooms (the style draws landcover to z7)
const LANDCOVER: Record<string, string> = {
  forest: 'forest',
  wood: 'forest',
  glacier: 'glacier',
  grassland: 'grassland',
  scrub: 'scrub',
  farmland: 'farmland',
  residential: 'urban_area',
};

function landuse(tags: Tags): FeatureInfo[] {
  for (const key of [
    'leisure',
    'landuse',
    'natural',
    'amenity',
    'aeroway',
    'tourism',
    'boundary',
    'man_made',
    'highway',
    'railway',
    'waterway',
  ]) {
    const v = tags.get(key);
    if (v === undefined) continue;
    const kind = LANDUSE[`${key}=${v}`];
    if (!kind) continue;
    if (key === 'highway' && tags.get('area') !== 'yes') continue;
    let k = kind;
    if (tags.get('landuse') === 'military' && ['airfield', 'naval_base'].includes(tags.get('military') ?? '')) k = tags.get('military')!;
    const minZoom = EARLY[k] ?? 11;
    const out: FeatureInfo[] = [{ layer: 'landuse', type: POLYGON, minZoom, nameZoom: 14, props: [['kind', k], ...names(tags)] }];
    const cover = LANDCOVER[k];
    if (cover) out.push({ layer: 'landcover', type: POLYGON, minZoom: 0, maxZoom: 7, props: [['kind', cover]] });
    return out;
  }
  return [];
}

const NATURAL_AREAS = new Set(['glacier', 'bare_rock', 'scree', 'shingle', 'sand', 'beach', 'wetland', 'mud', 'rock']);
const NATURAL_LINES = new Set(['cliff', 'ridge', 'arete', 'valley', 'tree_row', 'gorge']);

function natural(tags: Tags, area: boolean): FeatureInfo | undefined {
  const n = tags.get('natural');
  if (!n) return undefined;
  if (area && NATURAL_AREAS.has(n)) {
    const minZoom = n === 'glacier' || n === 'bare_rock' || n === 'scree' ? 9 : 11;
    return {
      layer: 'natural',
      type: POLYGON,
      minZoom,
      nameZoom: 13,
      props: [['kind', n], ['kind_detail', tags.get('wetland') ?? tags.get('surface')], ['min_zoom', minZoom + 1], ...names(tags)],
    };
  }
  if (!area && NATURAL_LINES.has(n))
    return { layer: 'natural', type: LINE, minZoom: 12, props: [['kind', n], ['min_zoom', 13], ...names(tags)] };
  return undefined;
}

// ---- buildings --------------------------------------------------------------------

/** A length in metres from an OSM value (`12`, `12.5 m`); undefined for feet or words. */
export function metres(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(m)?\s*$/.exec(v);
  return m ? Math.round(Number(m[1]) * 10) / 10 : undefined;
}

function building(tags: Tags): FeatureInfo | undefined {
  const b = tags.get('building'),
    part = tags.get('building:part');
  const isPart = part !== undefined && part !== 'no';
  if (!isPart && (b === undefined || b === 'no')) return undefined;
  const levels = metres(tags.get('building:levels'));
  const minLevel = metres(tags.get('building:min_level'));
  const height = metres(tags.get('height')) ?? (levels !== undefined ? Math.round(levels * 3 * 10) / 10 : undefined);
  const minHeight = metres(tags.get('min_height')) ?? (minLevel !== undefined ? Math.round(minLevel * 3 * 10) / 10 : undefined);
  return {
    layer: 'buildings',
    type: POLYGON,
    minZoom: 13,
    nameZoom: 15,
    props: [
      ['kind', isPart ? 'building_part' : 'building'],
      ['kind_detail', isPart ? part : undefined],
      ['height', height],
      ['min_height', minHeight],
    ],
  };
}

/**
 * The line and area features of a way or multipolygon: roads, water, landuse,
 * landcover, natural, buildings, transit. `area` tells a closed area from a line.
 */
export function shapeFeatures(tags: Tags, area: boolean): FeatureInfo[] {
  const out: FeatureInfo[] = [];
  if (area) {
    const b = building(tags);
    if (b) out.push(b);
    const w = waterArea(tags);
    if (w) out.push(w);
    out.push(...landuse(tags));
    const n = natural(tags, true);
    if (n) out.push(n);
  } else {
    if (tags.has('highway')) {
      const r = road(tags);
      if (r) out.push(r);
    }
    const w = waterLine(tags);
    if (w) out.push(w);
    const n = natural(tags, false);
    if (n) out.push(n);
  }
  if (!area || tags.get('area') !== 'yes') out.push(...rail(tags));
  return out;
}

// ---- points of interest ---------------------------------------------------------------

// which feature key names a place's kind, most telling first (Protomaps reads them in
// about this order; a few values of the lower keys win over the others, below)
const KIND_KEYS = [
  'amenity',
  'craft',
  'aeroway',
  'leisure',
  'railway',
  'highway',
  'shop',
  'tourism',
  'historic',
  'healthcare',
  'office',
  'public_transport',
  'emergency',
];
const FIRST: Record<string, string[]> = {
  tourism: ['attraction', 'camp_site', 'hotel', 'museum', 'zoo'],
  shop: ['grocery', 'supermarket'],
  leisure: ['golf_course', 'marina', 'stadium', 'park'],
};

// zoom a POI kind is labelled from (the `min_zoom` the style filters on); unnamed ones later
const POI_ZOOM: Record<string, number> = {
  aerodrome: 11,
  station: 12,
  university: 12,
  hospital: 13,
  attraction: 13,
  museum: 13,
  stadium: 13,
  zoo: 13,
  park: 13,
  college: 13,
  bus_station: 13,
  peak: 13,
  place_of_worship: 14,
  school: 14,
  hotel: 14,
  marketplace: 14,
  library: 14,
  townhall: 14,
  police: 14,
  fire_station: 14,
  post_office: 14,
  theatre: 14,
  cinema: 14,
  mall: 14,
  supermarket: 14,
  fuel: 14,
  bank: 15,
  restaurant: 15,
  cafe: 15,
};
const STREET_FURNITURE = new Set([
  'traffic_signals',
  'crossing',
  'street_lamp',
  'stop',
  'give_way',
  'turning_circle',
  'turning_loop',
  'milestone',
  'bench',
  'waste_basket',
  'motorway_junction',
  'speed_camera',
  'mini_roundabout',
  'passing_place',
  'elevator',
]);

/** The Protomaps `kind` of a place: one of its types, by the keys' order above. */
export function poiKind(tags: Tags, osmKind: number): string {
  for (const [key, values] of Object.entries(FIRST)) {
    const v = tags.get(key);
    if (v !== undefined && values.includes(v)) return v;
  }
  for (const key of KIND_KEYS) {
    if (key === 'highway' && osmKind !== 0) continue;
    const v = tags.get(key);
    if (v === undefined) continue;
    const t = placeTypes([key], [v], osmKind);
    if (t.length) return t[0];
  }
  const all = placeTypes([...tags.keys()], [...tags.values()], osmKind);
  return all[0] ?? 'other';
}

/**
 * The `pois` feature of an object that is a place (see `osm/place.ts`), or
 * undefined: its kind, names, `placeId` and the zoom it is labelled from.
 */
export function poiFeature(tags: Tags, osmKind: number, osmId: number): FeatureInfo | undefined {
  const keys = [...tags.keys()];
  if (!isPlace(keys, osmKind)) return undefined;
  const kind = poiKind(tags, osmKind);
  const named = tags.has('name') || tags.has('name:en') || tags.has('name:ne');
  let minZoom = POI_ZOOM[kind] ?? 15;
  if (!named) minZoom = Math.max(minZoom, 16);
  if (STREET_FURNITURE.has(kind)) minZoom = 17;
  const detail = tags.get('cuisine') ?? tags.get('religion') ?? tags.get('sport');
  return {
    layer: 'pois',
    type: POINT,
    minZoom: Math.min(minZoom, MAX_ZOOM),
    props: [['kind', kind], ['kind_detail', detail], ['min_zoom', minZoom], ['placeId', placeId(osmId, osmKind)], ...names(tags)],
  };
}

/** Peaks and volcanoes: `pois` of kind `peak` with their elevation (not places of `nearby`). */
export function peakFeature(tags: Tags): FeatureInfo | undefined {
  const n = tags.get('natural');
  if (n !== 'peak' && n !== 'volcano') return undefined;
  const ele = metres(tags.get('ele'));
  const named = tags.has('name') || tags.has('name:en');
  // the high Himalaya first: an 8000 m peak from z9
  const minZoom = !named ? 14 : ele === undefined ? 13 : ele >= 8000 ? 9 : ele >= 7000 ? 10 : ele >= 6000 ? 11 : ele >= 4000 ? 12 : 13;
  return { layer: 'pois', type: POINT, minZoom, props: [['kind', n], ['min_zoom', minZoom], ['elevation', ele], ...names(tags)] };
}

// ---- places -----------------------------------------------------------------------------

const PLACE_KIND: Record<string, [string, number]> = {
  country: ['country', 2],
  state: ['region', 6],
  province: ['region', 6],
  region: ['region', 6],
  city: ['locality', 7],
  town: ['locality', 8],
  village: ['locality', 11],
  hamlet: ['locality', 12],
  isolated_dwelling: ['locality', 13],
  locality: ['locality', 13],
  farm: ['locality', 13],
  suburb: ['neighbourhood', 11],
  quarter: ['macrohood', 12],
  neighbourhood: ['neighbourhood', 13],
};

// Protomaps' population_rank: 1 (under 200 people) to 18 (a billion or more), by these breaks.
const POPULATION_BREAKS = [1e9, 1e8, 5e7, 2e7, 1e7, 5e6, 1e6, 5e5, 2e5, 1e5, 5e4, 2e4, 1e4, 5e3, 2e3, 1e3, 200, 0];
// Where OSM gives no population, a typical one for the place's type: the styles size labels by
// rank (a missing rank is a null in their expressions), and a city should not draw as a hamlet.
const TYPICAL_POPULATION: Record<string, number> = { city: 100_000, town: 10_000, village: 1_000, hamlet: 200 };

/** The `population_rank` of a population (Protomaps' scale): 1 below 200 people, 18 from a billion. */
export function populationRank(population: number): number {
  const i = POPULATION_BREAKS.findIndex((b) => population >= b);
  return i < 0 ? 1 : POPULATION_BREAKS.length - i;
}

/** A named `place=*` as a `places` label: locality, neighbourhood, region; with `placeId` (localities are rows of the index). */
export function placeFeature(tags: Tags, osmKind: number, osmId: number): FeatureInfo | undefined {
  const p = tags.get('place');
  if (!p || !PLACE_KIND[p]) return undefined;
  if (!(tags.has('name') || tags.has('name:en'))) return undefined;
  const [kind, zoom] = PLACE_KIND[p];
  const population = Number(tags.get('population'));
  let minZoom = zoom;
  if (kind === 'locality' && population >= 1_000_000) minZoom = Math.min(minZoom, 4);
  else if (kind === 'locality' && population >= 100_000) minZoom = Math.min(minZoom, 6);
  const capital = tags.get('capital') === 'yes' || tags.get('capital') === '2' ? 'yes' : undefined;
  if (capital) minZoom = Math.min(minZoom, 4);
  return {
    layer: 'places',
    type: POINT,
    minZoom,
    props: [
      ['kind', kind],
      ['kind_detail', p],
      ['min_zoom', minZoom],
      ['sort_key', minZoom],
      ['population', Number.isFinite(population) && population > 0 ? population : undefined],
      ['population_rank', populationRank(Number.isFinite(population) && population > 0 ? population : (TYPICAL_POPULATION[p] ?? 0))],
      ['capital', capital],
      ['placeId', placeId(osmId, osmKind)],
      ...names(tags),
    ],
  };
}
