import { place } from '../../query/place.js';
import { core, type Api } from '../api.js';
import { HttpError } from '../http-error.js';
import { placeEndpoint } from '../endpoints.js';
import { parsePlaceParams } from '../params.js';

/** `GET /places?placeId=`: one record, or a 404. */
export function placeRoutes(api: Api): void {
  const { now } = api;
  const endpoint = placeEndpoint();
  api.keyed(endpoint, (search, _c, index) => {
    const id = parsePlaceParams(search, endpoint.query);
    const found = core(() => place(index, id, { at: new Date(now()) }));
    if (!found) throw new HttpError(404, `Not found: no place with placeId ${id}`);
    return [found];
  });
}
