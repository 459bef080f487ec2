import type { PlaceIndex } from '../index/place-index.js';
import { InvalidQueryError } from '../errors.js';

/**
 * Throws `InvalidQueryError` (`mode`) when `index` is a pack that cannot route `mode`: one
 * without routing, or one whose modes (`--modes`) do not include it, naming those it has.
 */
export function checkRouting(index: PlaceIndex, mode: string): void {
  const p = index.pack;
  if (!p) return;
  if (!p.routing)
    throw new InvalidQueryError(
      'mode',
      'this data is a pack without routing (built with --no-routing): route, matrix, isochrone and nearby by travel time are not available in it; nearby, search, place and reverse are',
    );
  if (!p.modes.includes(mode))
    throw new InvalidQueryError(
      'mode',
      `${mode} is not routed by this data, a pack of some modes (built with --modes): the available modes are ${p.modes.join(', ')}`,
    );
}

/** Throws `InvalidQueryError` (`q`) when `index` is a pack without a text index. */
export function checkSearchable(index: PlaceIndex): void {
  if (index.pack && !index.pack.search)
    throw new InvalidQueryError(
      'q',
      'this data is a pack without a text index (built with --no-search): search is not available in it; nearby, place and reverse are',
    );
}
