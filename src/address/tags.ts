import type { PlaceTable } from '../model/table.js';

/** The value of tag `key` on table row `r`, or undefined. */
export function tagValue(t: PlaceTable, r: number, key: string): string | undefined {
  for (let k = t.tagStart[r]; k < t.tagStart[r + 1]; k++) if (t.strings[t.tagKV[2 * k]] === key) return t.strings[t.tagKV[2 * k + 1]];
  return undefined;
}
