/** A place's display name: `name`, else `name:en`, else `name:ne`, else `""`. */
export function placeName(keys: readonly string[], values: readonly string[]): string {
  for (const want of ['name', 'name:en', 'name:ne']) {
    const i = keys.indexOf(want);
    // the value as mapped; a blank one counts as absent
    if (i >= 0 && values[i].trim()) return values[i];
  }
  return '';
}
