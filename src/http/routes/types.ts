import { types } from '../../query/types.js';
import type { Api } from '../api.js';
import { parseTypesParams } from '../params.js';

/** `GET /types`: every type `/search/nearby` takes for the data served, with counts. */
export function typesRoutes(api: Api): void {
  api.keyed('/types', (search, _c, index) => {
    parseTypesParams(search);
    return types(index);
  });
}
