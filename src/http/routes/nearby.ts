import type { Api } from '../api.js';
import { toWire } from '../envelope.js';
import { HttpError } from '../http-error.js';
import { InvalidQueryError } from '../../errors.js';
import { NearbyJson } from '../nearby-json.js';
import { parseNearbyParams } from '../params.js';
import { nearby as coreNearby, nearbyHits } from '../../query/nearby.js';

/** `GET /search/nearby`: `nearby()`'s records. */
export function nearbyRoutes(api: Api): void {
  const { limits, now, nearby } = api;
  // The core's search answers with hits whose JSON is written from kept parts (nearby-json.ts);
  // a stand-in search (tests) with its records.
  const json = nearby === coreNearby ? new NearbyJson() : undefined;
  api.keyed('/search/nearby', async (search, _c, index) => {
    const query = parseNearbyParams(search, limits);
    query.at ??= new Date(now()); // `at`, an extension, asks for another instant
    try {
      if (json) return json.answer(index, nearbyHits(index, query));
      return (await nearby(index, query)).map(toWire);
    } catch (err) {
      if (err instanceof InvalidQueryError) throw new HttpError(400, err.message);
      throw err;
    }
  }, { geojson: true });
}
