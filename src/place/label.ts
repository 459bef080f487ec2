/** A place's display name: `name`, else `name:en`, else `name:ne`, else `""`. */
export function placeName(keys: readonly string[], values: readonly string[]): string {
  for (const want of ['name', 'name:en', 'name:ne']) {
    const i = keys.indexOf(want);
    // the value as mapped; a blank one counts as absent
    if (i >= 0 && values[i].trim()) return values[i];
  }
  return '';
}

/** `addr:*` keys of an address, most specific first. */
export const ADDRESS_KEYS: readonly string[] = [
  'addr:housename', 'addr:housenumber', 'addr:street', 'addr:place', 'addr:suburb',
  'addr:city', 'addr:district', 'addr:province',
];

/** A place's address from its `addr:*` tags, joined with `", "`; `""` when none. */
export function placeAddress(keys: readonly string[], values: readonly string[]): string {
  const parts: string[] = [];
  for (const want of ADDRESS_KEYS) {
    const i = keys.indexOf(want);
    if (i < 0) continue;
    const v = values[i].trim();
    if (v && !parts.includes(v)) parts.push(v);
  }
  return parts.join(', ');
}
