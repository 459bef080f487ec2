import type { PlaceIndex } from '../index/place-index.js';
import type { Place } from '../types.js';
import { InvalidQueryError } from '../errors.js';
import { placeId as idOf, placeTags, placeGeometry } from './record.js';
import { show } from './validate.js';
import type { Lang } from '../osm/name.js';
import { addressIn, checkLang, nameFields } from './lang.js';

/** Options of `place()`. */
export interface PlaceOptions {
  /** The instant to evaluate opening hours at (default: now). */
  at?: Date;
  /** The language of `name` and `address` (see `Lang`); default: the names as mapped. */
  lang?: Lang;
}

/**
 * The place with this placeId (what a UI asks for when the user picks a result):
 * any row of the index, be it a place, a locality, a street or an addressed
 * building. `undefined` when the index has no such id; a placeId that is not a
 * non-negative whole number throws `InvalidQueryError`.
 *
 * @example
 * place(index, 4 * 5599095623); // the node Thamel Chowk
 */
export function place(index: PlaceIndex, placeId: number, options: PlaceOptions = {}): Place | undefined {
  checkPlaceId(placeId);
  const at = instant(options?.at);
  const lang = checkLang(options?.lang);
  const row = index.lookup.row(placeId);
  return row < 0 ? undefined : placeRecord(index, row, at, lang);
}

/** The `Place` record of table row `row`, open or not at instant `at` (ms), named in `lang` if given. */
export function placeRecord(index: PlaceIndex, row: number, at: number, lang?: Lang): Place {
  const t = index.table;
  return {
    placeId: idOf(t, row),
    license: index.license,
    ...nameFields(t, row, lang),
    address: addressIn(t, row, lang),
    type: t.strings[t.primary[row]],
    centroid: { lat: t.lat[row] / 1e7, lon: t.lon[row] / 1e7 },
    tags: placeTags(t, row),
    geometry: placeGeometry(t, row),
    score: 'NaN',
    open: t.schedules.isOpen(t.hours[row], at),
  };
}

/** Checks a placeId: a whole number from 0, exact in a double. */
export function checkPlaceId(v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
    throw new InvalidQueryError('placeId', `must be a whole number from 0 (osmId * 4 + kind), got ${show(v)}`);
  }
  return v;
}

/** The instant of an optional `at` in ms, now when it is undefined. */
export function instant(at: unknown): number {
  if (at === undefined) return Date.now();
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) throw new InvalidQueryError('at', 'must be a valid Date');
  return at.getTime();
}
