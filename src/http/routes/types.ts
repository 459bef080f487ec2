import { types } from '../../query/types.js';
import type { Api } from '../api.js';
import { typesEndpoint } from '../endpoints.js';
import { parseTypesParams } from '../params.js';

/** `GET /types`: every type `/search/nearby` takes for the data served, with counts. */
export function typesRoutes(api: Api): void {
  const endpoint = typesEndpoint();
  api.keyed(endpoint, (search, _c, index) => {
    parseTypesParams(search, endpoint.query);
    return types(index);
  });
}
