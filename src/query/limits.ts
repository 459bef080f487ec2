/**
 * The defaults and limits of the queries, stated once: the engine's own validation
 * (`validate.ts`, `search.ts`, `reverse.ts`), the HTTP parameters (`src/http/params.ts`) and the
 * OpenAPI document (`src/http/openapi.ts`) all read them from here.
 */

/** Default `radius` of `nearby()`, in whole km. */
export const NEARBY_RADIUS = 10;
/** Default `limit` of `nearby()`. */
export const NEARBY_LIMIT = 5;
/** Default `limit` of `search()`. */
export const SEARCH_LIMIT = 10;
/** Default `limit` of `reverse()`. */
export const REVERSE_LIMIT = 1;
/** Default `radius` of `reverse()`, in km. */
export const REVERSE_RADIUS = 0.5;
/** Default largest `limit` a request over HTTP may ask for (`createApp({ maxLimit })`). */
export const MAX_LIMIT = 100;
/** Default largest `radius` in km a request over HTTP may ask for (`createApp({ maxRadius })`). */
export const MAX_RADIUS = 100;
