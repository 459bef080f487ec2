import { nearby as nearbyCore } from '../../query/nearby.js';
import { RouteError } from '../../errors.js';
import { core, type Api } from '../api.js';
import { toWire } from '../envelope.js';
import { HttpError } from '../http-error.js';
import { NearbyAnswer } from '../nearby-json.js';
import { parseNearbyParams } from '../params.js';
import { answerLang } from '../lang.js';
import { nearbyEndpoint } from '../endpoints.js';

/**
 * `GET /search/nearby`: `nearby()`'s records. The app's search answers a `NearbyAnswer` (its
 * envelope written from kept parts, nearby-json.ts); a stand-in search (tests) answers records.
 * With `by=time` (an extension) the core's records, which carry the trips; a point too far from
 * any road of the mode is then a 404.
 */
export function nearbyRoutes(api: Api): void {
  const { limits, now, nearby } = api;
  const endpoint = nearbyEndpoint(limits);
  api.keyed(endpoint, async (search, c, index) => {
    const query = parseNearbyParams(search, limits, endpoint.query);
    const lang = answerLang(c, search, endpoint.query);
    if (lang) query.lang = lang;
    query.at ??= new Date(now()); // `at`, an extension, asks for another instant
    if (query.by === 'time') {
      try {
        return core(() => nearbyCore(index, query)).map(toWire);
      } catch (err) {
        if (err instanceof RouteError) throw new HttpError(404, `Not found: ${err.message}`);
        throw err;
      }
    }
    const found = await core(() => nearby(index, query));
    return found instanceof NearbyAnswer ? found : found.map(toWire);
  });
}
