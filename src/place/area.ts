/**
 * Whether a closed way is an area (Polygon) or a closed line (LineString).
 * A closed way is an area unless `area=no`, or it is a linear feature (a running
 * track, a fence, a railway, a runway…) without `area=yes`; the same reading as
 * the OSM wiki's `area` page and common renderers.
 */
const LINEAR = new Map<string, (v: string) => boolean>(
  Object.entries({
    highway: () => true,
    barrier: () => true,
    waterway: (v: string) => !['riverbank', 'dock', 'boatyard', 'dam'].includes(v),
    railway: (v: string) => !['platform', 'station', 'turntable', 'roundhouse', 'traverser'].includes(v),
    aeroway: (v: string) => v === 'runway' || v === 'taxiway',
    leisure: (v: string) => v === 'track' || v === 'slipway',
    natural: (v: string) => ['coastline', 'cliff', 'tree_row', 'ridge', 'arete'].includes(v),
    man_made: (v: string) => ['embankment', 'pipeline', 'breakwater', 'groyne'].includes(v),
  }),
);

/** Whether a closed way with these tags is an area. */
export function isArea(keys: readonly string[], values: readonly string[]): boolean {
  const a = keys.indexOf('area');
  if (a >= 0 && values[a] === 'no') return false;
  if (a >= 0 && values[a] === 'yes') return true;
  for (let i = 0; i < keys.length; i++) if (LINEAR.get(keys[i])?.(values[i])) return false;
  return true;
}
