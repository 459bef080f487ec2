/**
 * Relevance of a place: a static prominence, decided at load, times a distance
 * decay, applied per query.
 *
 *   prominence = 1
 *     + 1    named
 *     + 1    wikidata or wikipedia (a notable place)
 *     + 0.5  website, contact:website or url
 *     + 0.5  phone or contact:phone
 *     + 0.5  opening_hours
 *     + min(2, log10(1 + area / 100 m²) / 2)   for areas: a campus outranks a kiosk
 *   score = prominence / (1 + distance in km)
 *
 * The decay halves the score at 1 km, so a prominent place a little farther can
 * outrank an obscure one next door, but not one across town.
 */
export function prominence(keys: readonly string[], named: boolean, areaM2: number): number {
  let p = 1;
  if (named) p += 1;
  if (keys.includes('wikidata') || keys.includes('wikipedia')) p += 1;
  if (keys.includes('website') || keys.includes('contact:website') || keys.includes('url')) p += 0.5;
  if (keys.includes('phone') || keys.includes('contact:phone')) p += 0.5;
  if (keys.includes('opening_hours')) p += 0.5;
  if (areaM2 > 0) p += Math.min(2, Math.log10(1 + areaM2 / 100) / 2);
  return p;
}

/** Score of a place of prominence `p` at `km` from the query point. */
export function score(p: number, km: number): number {
  return p / (1 + km);
}
