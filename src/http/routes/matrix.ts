import { matrixGrid, MATRIX_HTTP_MAX, type MatrixQuery } from '../../query/matrix.js';
import type { PlaceIndex } from '../../index/place-index.js';
import { RouteError } from '../../errors.js';
import type { Context } from 'hono';
import { core, type Api, type AppEnv } from '../api.js';
import { HttpError } from '../http-error.js';
import { matrixEndpoint } from '../endpoints.js';
import { matrixAnswer } from '../matrix-json.js';
import { bad, onlyKnown } from '../schema.js';

/**
 * `GET /matrix?sources[]=lat,lon&…&destinations[]=lat,lon&…&mode=car` (an extension): one record,
 * `matrix()`'s, with at most `MATRIX_HTTP_MAX` sources and destinations. A point too far from any
 * road of the mode is a 404 naming it. `POST /matrix` takes the same arguments as a JSON body
 * `{sources, destinations, mode}` (points as `[lat, lon]` or `"lat,lon"`), with the same answers.
 * The answer's JSON is written by `matrix-json.ts`.
 */
export function matrixRoutes(api: Api): void {
  const endpoint = matrixEndpoint();
  api.keyed(
    endpoint,
    (search, c, index) => {
      onlyKnown(search, endpoint.query, ['sources[]', 'destinations[]']);
      const list = (name: 'sources' | 'destinations') => {
        const points = search.getAll(`${name}[]`);
        if (points.length === 0) throw bad(name, `missing: give 1 to ${MATRIX_HTTP_MAX} points as ${name}[]=lat,lon`);
        return points;
      };
      const sources = list('sources'),
        destinations = list('destinations');
      const mode = (search.get('mode') ?? 'foot').trim().toLowerCase() as 'foot';
      return answer(c, index, { sources, destinations, mode }, api.now);
    },
    (body, c, index) => {
      // the same arguments as GET's, in a JSON body: for lists too long for a URL
      if (body === null || typeof body !== 'object' || Array.isArray(body))
        throw bad('body', 'must be a JSON object {"sources": [...], "destinations": [...], "mode": "car"}');
      for (const name of Object.keys(body)) {
        if (!BODY_FIELDS.includes(name)) throw bad(name, `unknown field; expected one of ${BODY_FIELDS.join(', ')}`);
      }
      const { sources, destinations, mode = 'foot' } = body as Record<string, unknown>;
      for (const [name, list] of [
        ['sources', sources],
        ['destinations', destinations],
      ] as const) {
        if (list === undefined) throw bad(name, `missing: give 1 to ${MATRIX_HTTP_MAX} points as [lat, lon] pairs or "lat,lon" strings`);
      }
      if (typeof mode !== 'string') throw bad('mode', `must be a string such as "car", got ${JSON.stringify(mode)}`);
      return answer(c, index, { sources, destinations, mode: mode.trim().toLowerCase() } as MatrixQuery, api.now);
    },
  );
}

const BODY_FIELDS = ['sources', 'destinations', 'mode'];

// The envelope of matrix()'s record, or the 400 and 404 of its errors.
function answer(c: Context<AppEnv>, index: PlaceIndex, query: MatrixQuery, now: () => number): Response {
  try {
    const grid = core(() => matrixGrid(index, query, { max: MATRIX_HTTP_MAX }));
    return matrixAnswer(c, grid, now());
  } catch (err) {
    if (err instanceof RouteError && err.problem === 'too-long') throw new HttpError(400, `Bad request: ${err.message}`);
    if (err instanceof RouteError) throw new HttpError(404, `Not found: ${err.message}`);
    throw err;
  }
}
