import { search } from '../../query/search.js';
import { core, type Api } from '../api.js';
import { parseSearchParams } from '../params.js';
import { answerLang } from '../lang.js';
import { searchEndpoint } from '../endpoints.js';

/** `GET /search?q=`: suggestions for a search box. */
export function searchRoutes(api: Api): void {
  const { limits } = api;
  const endpoint = searchEndpoint(limits);
  api.keyed(endpoint, (params, c, index) => {
    const query = parseSearchParams(params, limits, endpoint.query);
    const lang = answerLang(c, params, endpoint.query);
    if (lang) query.lang = lang;
    return core(() => search(index, query));
  });
}
