import { isochrone } from '../../query/isochrone.js';
import { RouteError } from '../../errors.js';
import type { Mode } from '../../osm/profile.js';
import { core, type Api } from '../api.js';
import { HttpError } from '../http-error.js';
import { GEOJSON } from '../geojson.js';
import { ANSWER_HEADERS, compressible } from '../respond.js';
import { isochroneEndpoint } from '../endpoints.js';
import { onlyKnown, readParam } from '../schema.js';

/**
 * `GET /isochrone?lat=&lon=&mode=car&minutes=5,10,15` (an extension): `isochrone()`'s
 * FeatureCollection itself, as `application/geo+json` (errors are envelopes: a bad parameter a
 * 400 naming it, a point too far from any road of the mode a 404). Keyed and counted as the
 * search routes are.
 */
export function isochroneRoutes(api: Api): void {
  const { path, query: schema } = isochroneEndpoint();
  api.keyedResource(path, (c, search) => {
    onlyKnown(search, schema);
    const lat = readParam(search, schema, 'lat')!;
    const lon = readParam(search, schema, 'lon')!;
    const minutes = readParam(search, schema, 'minutes')!.split(',').map(Number);
    const mode = (search.get('mode') ?? 'foot').trim().toLowerCase() as Mode;
    let fc;
    try {
      fc = core(() => isochrone(api.current(), { lat, lon, mode, minutes }));
    } catch (err) {
      if (err instanceof RouteError) throw new HttpError(404, `Not found: ${err.message}`);
      throw err;
    }
    c.header('Content-Type', GEOJSON);
    for (const name in ANSWER_HEADERS) c.header(name, ANSWER_HEADERS[name as keyof typeof ANSWER_HEADERS]);
    compressible(c);
    return c.body(JSON.stringify(fc), 200);
  });
}
