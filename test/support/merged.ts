/** The merged-type table as issue 2 writes it, typed out again so the engine's copy can be checked. */
export const MERGED: Record<string, readonly string[]> = {
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

/** The member types a query type stands for: a merged type's members, else itself. */
export function membersOf(type: string): readonly string[] {
  const t = type.trim().toLowerCase();
  return Object.hasOwn(MERGED, t) ? MERGED[t] : [t];
}
