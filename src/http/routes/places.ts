import { place } from '../../query/place.js';
import { core, type Api } from '../api.js';
import { HttpError } from '../http-error.js';
import { placeEndpoint } from '../endpoints.js';
import { parsePlaceParams } from '../params.js';
import { answerLang } from '../lang.js';

/** `GET /places?placeId=`: one record, or a 404. */
export function placeRoutes(api: Api): void {
  const { now } = api;
  const endpoint = placeEndpoint();
  api.keyed(endpoint, (search, c, index) => {
    const id = parsePlaceParams(search, endpoint.query);
    const lang = answerLang(c, search, endpoint.query);
    const found = core(() => place(index, id, { at: new Date(now()), ...(lang ? { lang } : {}) }));
    if (!found) throw new HttpError(404, `Not found: no place with placeId ${id}`);
    return [found];
  });
}
