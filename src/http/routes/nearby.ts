import { core, type Api } from '../api.js';
import { toWire } from '../envelope.js';
import { NearbyAnswer } from '../nearby-json.js';
import { parseNearbyParams } from '../params.js';
import { nearbyEndpoint } from '../endpoints.js';

/**
 * `GET /search/nearby`: `nearby()`'s records. The app's search answers a `NearbyAnswer` (its
 * envelope written from kept parts, nearby-json.ts); a stand-in search (tests) answers records.
 */
export function nearbyRoutes(api: Api): void {
  const { limits, now, nearby } = api;
  const endpoint = nearbyEndpoint(limits);
  api.keyed(endpoint, async (search, _c, index) => {
    const query = parseNearbyParams(search, limits, endpoint.query);
    query.at ??= new Date(now()); // `at`, an extension, asks for another instant
    const found = await core(() => nearby(index, query));
    return found instanceof NearbyAnswer ? found : found.map(toWire);
  });
}
