import { matrix, MATRIX_HTTP_MAX } from '../../query/matrix.js';
import { RouteError } from '../../errors.js';
import { core, type Api } from '../api.js';
import { HttpError } from '../http-error.js';
import { matrixEndpoint } from '../endpoints.js';
import { bad, onlyKnown } from '../schema.js';

/**
 * `GET /matrix?sources[]=lat,lon&…&destinations[]=lat,lon&…&mode=car` (an extension): one record,
 * `matrix()`'s, with at most `MATRIX_HTTP_MAX` sources and destinations. A point too far from any
 * road of the mode is a 404 naming it.
 */
export function matrixRoutes(api: Api): void {
  const endpoint = matrixEndpoint();
  api.keyed(endpoint, (search, _c, index) => {
    onlyKnown(search, endpoint.query, ['sources[]', 'destinations[]']);
    const list = (name: 'sources' | 'destinations') => {
      const points = search.getAll(`${name}[]`);
      if (points.length === 0) throw bad(name, `missing: give 1 to ${MATRIX_HTTP_MAX} points as ${name}[]=lat,lon`);
      return points;
    };
    const sources = list('sources'),
      destinations = list('destinations');
    const mode = (search.get('mode') ?? 'foot').trim().toLowerCase() as 'foot';
    try {
      return core(() => [matrix(index, { sources, destinations, mode }, { max: MATRIX_HTTP_MAX })]);
    } catch (err) {
      if (err instanceof RouteError && err.problem === 'too-long') throw new HttpError(400, `Bad request: ${err.message}`);
      if (err instanceof RouteError) throw new HttpError(404, `Not found: ${err.message}`);
      throw err;
    }
  });
}
