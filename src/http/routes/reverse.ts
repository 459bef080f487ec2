import { reverse, REVERSE_RADIUS } from '../../query/reverse.js';
import { core, type Api } from '../api.js';
import { HttpError } from '../http-error.js';
import { parseReverseParams } from '../params.js';
import { answerLang } from '../lang.js';
import { reverseEndpoint } from '../endpoints.js';

/** `GET /reverse?lat=&lon=`: what is at a point, or a 404. */
export function reverseRoutes(api: Api): void {
  const { limits, now } = api;
  const endpoint = reverseEndpoint(limits);
  api.keyed(endpoint, (search, c, index) => {
    const query = parseReverseParams(search, limits, endpoint.query);
    const lang = answerLang(c, search, endpoint.query);
    if (lang) query.lang = lang;
    query.at = new Date(now());
    const found = core(() => reverse(index, query));
    if (!found.length)
      throw new HttpError(404, `Not found: no place within ${query.radius ?? REVERSE_RADIUS} km of ${query.lat}, ${query.lon}`);
    return found;
  });
}
