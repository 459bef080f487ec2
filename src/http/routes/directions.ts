import { route } from '../../query/route.js';
import { RouteError } from '../../errors.js';
import { core, type Api } from '../api.js';
import { HttpError } from '../http-error.js';
import { directionsEndpoint } from '../endpoints.js';
import { parseDirectionsParams } from '../params.js';
import { answerLang } from '../lang.js';
import { readParam } from '../schema.js';
import { routesToGeoJSON } from '../../query/route-geojson.js';
import { bytesAnswer, geoJsonText } from '../respond.js';
import { routesBody } from '../route-json.js';
import { SUCCESS } from '../envelope.js';
import { nptTimestamp } from '../timestamp.js';

/**
 * `GET /directions?points[]=lat,lon&points[]=lat,lon&mode=car&instructions=true`: routes, best
 * first. A point too far from any road of the mode, or points no road joins, is a 404. With
 * `format=geojson`, the routes as a FeatureCollection (`routesToGeoJSON`) with the envelope's
 * `timestamp`, `status` and `message` as foreign members, as the other GeoJSON answers have; errors
 * stay envelopes.
 */
export function directionsRoutes(api: Api): void {
  const endpoint = directionsEndpoint();
  api.keyed(endpoint, (search, c, index) => {
    const query = parseDirectionsParams(search, endpoint.query);
    const lang = answerLang(c, search, endpoint.query);
    if (lang) query.lang = lang;
    const geojson = readParam(search, endpoint.query, 'format') === 'geojson';
    try {
      const routes = core(() => route(index, query));
      if (!geojson) return bytesAnswer(c, routesBody(routes, api.now()));
      const { type, features } = routesToGeoJSON(routes, { mode: query.mode ?? 'foot' });
      return geoJsonText(c, JSON.stringify({ type, timestamp: nptTimestamp(api.now()), status: 200, message: SUCCESS, features }));
    } catch (err) {
      // a leg past the search bound of an index without hierarchies: a limit of this server, as
      // GraphHopper's maximum of visited nodes is a 400; the message says how to lift it
      if (err instanceof RouteError && err.problem === 'too-long') throw new HttpError(400, `Bad request: ${err.message}`);
      if (err instanceof RouteError) throw new HttpError(404, `Not found: ${err.message}`);
      throw err;
    }
  });
}
