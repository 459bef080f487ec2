import type { Api } from '../api.js';
import { toWire } from '../envelope.js';
import { HttpError } from '../http-error.js';
import { InvalidQueryError } from '../../errors.js';
import { parseNearbyParams } from '../params.js';

/** `GET /search/nearby`: `nearby()`'s records. */
export function nearbyRoutes(api: Api): void {
  const { limits, now, nearby } = api;
  api.keyed('/search/nearby', async (search, _c, index) => {
    const query = parseNearbyParams(search, limits);
    query.at = new Date(now());
    try {
      return (await nearby(index, query)).map(toWire);
    } catch (err) {
      if (err instanceof InvalidQueryError) throw new HttpError(400, err.message);
      throw err;
    }
  }, { geojson: true });
}
