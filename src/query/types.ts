import type { PlaceIndex } from '../index/place-index.js';
import { MERGED_TYPES } from '../osm/place.js';
import { InvalidQueryError } from '../errors.js';
import { show } from './validate.js';

/** One type `nearby` can be asked for. */
export interface TypeInfo {
  /** The type as `nearby`'s `type` takes it. */
  type: string;
  /** How many places of the data have it (a place counts once for a merged type). */
  count: number;
  /** For a merged type, the types it gathers; absent for a plain type. */
  members?: string[];
}

/**
 * Every type the data holds and every merged type, with how many places each has, most
 * places first (ties by name): what a type picker lists, and what `nearby` accepts.
 *
 * @example
 * types(index).slice(0, 2); // => [{ type: 'restaurant', count: 505 }, { type: 'eat', count: 451, members: ['cafe', …] }]
 */
export function types(index: PlaceIndex): TypeInfo[] {
  const out: TypeInfo[] = [];
  for (const [type, tree] of index.types) {
    if (!Object.hasOwn(MERGED_TYPES, type)) out.push({ type, count: tree.place.length });
  }
  for (const [type, members] of Object.entries(MERGED_TYPES)) {
    out.push({ type, count: index.types.get(type)?.place.length ?? 0, members: [...members] });
  }
  return out.sort((a, b) => b.count - a.count || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
}

/** Whether `nearby` knows `type` (folded as `nearby` folds it): a type of the data, or a merged type. */
export function isKnownType(index: PlaceIndex, type: string): boolean {
  return index.types.has(type) || Object.hasOwn(MERGED_TYPES, type);
}

/** Largest edit distance at which a known type is suggested for an unknown one. */
const MAX_EDITS = 2;

/**
 * The known types nearest to an unknown `type`, best first, at most `max`: within two edits
 * (one for words of four letters or fewer; a swap of neighbours is one edit), or the same
 * word without a plural ending (`cafes`, `churches`); among equals, the type with more places.
 */
export function suggestTypes(index: PlaceIndex, type: string, max = 3): string[] {
  const limit = type.length <= 4 ? 1 : MAX_EDITS;
  const singular = type.replace(/(?:es|s)$/, '');
  const scored: { type: string; d: number; count: number }[] = [];
  for (const t of types(index)) {
    const d = t.type === singular || t.type === type.replace(/s$/, '') ? 0.5 : edits(type, t.type, limit);
    if (d <= limit) scored.push({ type: t.type, d, count: t.count });
  }
  scored.sort((a, b) => a.d - b.d || b.count - a.count || (a.type < b.type ? -1 : 1));
  return scored.slice(0, max).map((s) => s.type);
}

/** The `InvalidQueryError` for a type the data does not hold, with the nearest known types. */
export function unknownTypeError(index: PlaceIndex, type: string): InvalidQueryError {
  const near = suggestTypes(index, type);
  const quoted = near.map((t) => show(t));
  const list = quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}` : quoted[0];
  const hint = near.length ? `; did you mean ${list}?` : '';
  return new InvalidQueryError(
    'type',
    `unknown type ${show(type)}: no place of the data has it${hint} (types() and GET /api/v1/types list every type)`,
  );
}

// Optimal string alignment distance (Damerau–Levenshtein with adjacent swaps), cut off past `limit`.
// Written here because it runs on a few hundred short type names per error: no index is worth it.
function edits(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row = (rows[i] = new Array<number>(b.length + 1));
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row[j] = j;
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, rows[i - 2][j - 2] + 1);
      row[j] = v;
    }
  }
  return rows[a.length][b.length];
}
