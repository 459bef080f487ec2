import { search } from '../../query/search.js';
import { core, type Api } from '../api.js';
import { parseSearchParams } from '../params.js';
import { searchEndpoint } from '../endpoints.js';

/** `GET /search?q=`: suggestions for a search box. */
export function searchRoutes(api: Api): void {
  const { limits } = api;
  const endpoint = searchEndpoint(limits);
  api.keyed(endpoint, (params, _c, index) => core(() => search(index, parseSearchParams(params, limits, endpoint.query))));
}
