import { search } from '../../query/search.js';
import { core, type Api } from '../api.js';
import { parseSearchParams } from '../params.js';
import { searchSchema } from '../schema.js';

/** `GET /search?q=`: suggestions for a search box. */
export function searchRoutes(api: Api): void {
  const { limits } = api;
  const schema = searchSchema(limits);
  api.keyed('/search', (params, _c, index) => core(() => search(index, parseSearchParams(params, limits, schema))));
}
