/**
 * Which OSM objects are places, and their types.
 */

/** Keys whose values are place types, on nodes, ways and relations. */
export const FEATURE_KEYS: readonly string[] = [
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

/** Keys whose values are place types on nodes only (a highway way is a road, not a place). */
export const NODE_FEATURE_KEYS: readonly string[] = ['highway'];

/**
 * Merged types: asking for the merged name returns places of any member type.
 * A merged name wins over a plain type of the same name (`parking`, `tourism`, `clinic`).
 */
export const MERGED_TYPES: Readonly<Record<string, readonly string[]>> = {
  eat: ['cafe', 'restaurant', 'bakery'],
  grocery: ['department_store', 'supermarket'],
  tourism: ['attraction', 'artwork', 'museum', 'park'],
  transport: ['bus_stop', 'bus_station'],
  parking: ['parking', 'bicycle_parking', 'underground', 'multi-storey', 'parking_space', 'car_parking'],
  shopping: ['jewelry', 'sports', 'gift', 'mall', 'department_store', 'hardware', 'kitchen', 'furniture'],
  children: ['swimming_pool', 'playground', 'recreation_ground', 'park', 'water_park', 'disneyland'],
  night_life: ['pub', 'bar', 'nightclub'],
  entertainment: ['cinema', 'theatre', 'casino', 'nightclub'],
  clinic: ['clinic', 'dentist', 'veterinary', 'herbalist', 'ayurvedic'],
  workshop: ['metal', 'bicycle', 'aluminium', 'car_repair', 'tyres', 'car_parts'],
};

/** Key flag: a feature key on any object. */
export const FEATURE = 1;
/** Key flag: a feature key on nodes only (`highway`; on ways it makes a street). */
export const NODE_FEATURE = 2;
/** Key flag: `place` (a locality). */
export const PLACE_KEY = 4;
/** Key flag: a name. */
export const NAME = 8;
/** Key flag: `building`. */
export const BUILDING_KEY = 16;
/** Key flag: a house number or street address. */
export const ADDRESS = 32;
/** Key flag: a barrier or access key, which routing reads on a road's nodes (src/osm/barrier.ts). */
export const ROUTE_NODE = 64;
/** Key flag: a way routing reads besides roads: a ferry (`route`), a building (the density of built-up areas). */
export const ROUTE_WAY = 128;

const flagOf = new Map<string, number>();
for (const k of FEATURE_KEYS) flagOf.set(k, FEATURE);
for (const k of NODE_FEATURE_KEYS) flagOf.set(k, NODE_FEATURE);
flagOf.set('place', PLACE_KEY);
for (const k of ['name', 'name:en', 'name:ne']) flagOf.set(k, NAME);
flagOf.set('building', BUILDING_KEY | ROUTE_WAY);
flagOf.set('route', ROUTE_WAY);
for (const k of ['addr:housenumber', 'addr:housename']) flagOf.set(k, ADDRESS);
for (const k of ['barrier', 'access', 'vehicle', 'motor_vehicle', 'motorcar', 'motorcycle', 'bicycle', 'foot']) flagOf.set(k, ROUTE_NODE);

/** The flags of a tag key (0 for a key none names): what `rowKindOf` reads of an object's keys. */
export function keyFlags(key: string): number {
  return flagOf.get(key) ?? 0;
}

/**
 * What the decoder keeps of a PBF for places (`Keep` of `src/load/block.ts`): the tags of
 * nodes that are places, localities, addresses or named buildings, or carry a barrier or
 * access tag (routing); of ways that are places, localities, addresses, named buildings or
 * roads (`highway`). Everything else (most nodes) is only a coordinate.
 */
export const PLACE_KEEP = {
  flags: Object.fromEntries(flagOf),
  node: { any: FEATURE | NODE_FEATURE | PLACE_KEY | ADDRESS | ROUTE_NODE, all: NAME | BUILDING_KEY },
  way: { any: FEATURE | PLACE_KEY | ADDRESS | NODE_FEATURE | ROUTE_WAY, all: NAME | BUILDING_KEY },
} as const;

/**
 * The types of an object, in tag order (left to right within `a;b`), without
 * repeats; empty when it is no place. `kind` is 0 node, 1 way, 2 relation.
 */
export function placeTypes(keys: readonly string[], values: readonly string[], kind: number): string[] {
  const types: string[] = [];
  let parking = false;
  for (let i = 0; i < keys.length; i++) {
    const f = flagOf.get(keys[i]) ?? 0;
    if (!(f & FEATURE) && !(kind === 0 && f & NODE_FEATURE)) continue;
    if (keys[i] === 'amenity' && values[i] === 'parking') parking = true;
    addValues(types, values[i]);
  }
  // `parking=underground` etc. only says something on a parking
  if (parking) for (let i = 0; i < keys.length; i++) if (keys[i] === 'parking') addValues(types, values[i]);
  return types;
}

/**
 * Whether `placeTypes` reads the value of `key` on an object of `kind`: a feature key, `highway` on
 * a node, `parking`. Its answer depends on these tags alone (in their order), so that a caller may
 * work it out once per distinct set of them.
 */
export function typeKey(key: string, kind: number): boolean {
  const f = flagOf.get(key) ?? 0;
  return (f & FEATURE) !== 0 || (kind === 0 && (f & NODE_FEATURE) !== 0) || key === 'parking';
}

/** Whether an object with these keys is a place at all (even if all its values are `yes`). */
export function isPlace(keys: readonly string[], kind: number): boolean {
  for (const k of keys) {
    const f = flagOf.get(k) ?? 0;
    if (f & FEATURE || (kind === 0 && f & NODE_FEATURE)) return true;
  }
  return false;
}

function addValues(types: string[], value: string): void {
  for (const part of value.split(';')) {
    const t = part.trim().toLowerCase(); // queries are lower-cased too
    if (t && t !== 'yes' && t !== 'no' && !types.includes(t)) types.push(t);
  }
}
