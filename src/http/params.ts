import type { NearbyQuery, ReverseQuery, SearchQuery } from '../types.js';
import type { RouteQuery } from '../query/route.js';
import type { Lang } from '../osm/name.js';
import { z } from 'zod';
import { INSTANT_FORMAT, parseInstant } from '../hours/instant.js';
import { quote } from './http-error.js';
import type { Search } from './query.js';
import {
  bad,
  defaultOf,
  directionsSchema,
  formatParams,
  nearbySchema,
  onlyKnown,
  paramNames,
  placeSchema,
  readParam,
  reverseSchema,
  searchSchema,
  typesSchema,
  type QueryLimits,
} from './schema.js';

export type { QueryLimits } from './schema.js';
/** Default `limit` of `GET /search` and of `GET /reverse`. */
export { SEARCH_LIMIT, REVERSE_LIMIT } from '../query/limits.js';

// The schemas of the routes whose parameters do not depend on the limits.
const PLACE = placeSchema();
const TYPES = typesSchema();
const DIRECTIONS = directionsSchema();

/**
 * The query parameters of `GET /search/nearby`, in the order they are checked. `at` is
 * an extension of this service, not part of API v1: clients of API v1 never send it.
 */
export const NEARBY_PARAMS = paramNames(nearbySchema({ maxLimit: 1, maxRadius: 1 }));

/**
 * Reads the nearby query from a query string, strictly: every parameter at most once, no unknown
 * parameter (a misspelt `sortby=true` would otherwise be silently ignored), numbers in plain decimal
 * notation, `radius` and `limit` whole numbers within the limits, booleans `true`/`false` in any case,
 * `at` (an extension) an ISO 8601 instant, Nepal Time without an offset. Optional parameters
 * not given are left to the engine's defaults (the same, `src/query/limits.ts`).
 * The `key` parameter is allowed here but read by the key check, not returned.
 * @param schema `nearbySchema(limits)`, made once per app
 * @throws {HttpError} 400, with a message naming the parameter
 */
export function parseNearbyParams(search: Search, limits: QueryLimits, schema = nearbySchema(limits)): NearbyQuery {
  onlyKnown(search, schema);
  const query: NearbyQuery = {
    type: readParam(search, schema, 'type')!,
    lat: readParam(search, schema, 'lat')!,
    lon: readParam(search, schema, 'lon')!,
  };
  const radius = readParam(search, schema, 'radius');
  if (radius !== undefined) query.radius = radius;
  const limit = readParam(search, schema, 'limit');
  if (limit !== undefined) query.limit = limit;
  const sortBy = readParam(search, schema, 'sortBy');
  if (sortBy !== undefined) query.sortBy = sortBy;
  const isOpen = readParam(search, schema, 'isOpen');
  if (isOpen !== undefined) query.isOpen = isOpen;
  const at = search.get('at');
  if (at !== null) {
    const instant = parseInstant(at);
    // a '+' that is not percent-encoded arrives as a space: say so rather than only refuse
    const hint = /T\d\d:\d\d(?::\d\d(?:\.\d+)?)? \d\d(?::?\d\d)?$/.test(at)
      ? " (a '+' in a URL is a space: write the offset's + as %2B)"
      : '';
    if (!instant) throw bad('at', `must be ${INSTANT_FORMAT}${hint}, got ${quote(at)}`);
    query.at = instant;
  }
  // by=time (an extension): the engine refuses radius with it, and mode or minutes without it
  const by = readParam(search, schema, 'by');
  if (by !== undefined) query.by = by;
  const mode = readParam(search, schema, 'mode');
  if (mode !== undefined) query.mode = mode;
  const minutes = readParam(search, schema, 'minutes');
  if (minutes !== undefined) query.minutes = minutes;
  return query;
}

/**
 * Checks the query of `GET /types`: nothing but the key.
 * @throws {HttpError} 400, naming an unknown or repeated parameter
 */
export function parseTypesParams(search: Search, schema: z.ZodObject = TYPES): void {
  onlyKnown(search, schema);
}

/** The query parameters of `GET /places`. */
export const PLACE_PARAMS = paramNames(PLACE);
/** The query parameters of `GET /search`. */
export const SEARCH_PARAMS = paramNames(searchSchema({ maxLimit: 1, maxRadius: 1 }));
/** The query parameters of `GET /reverse`. */
export const REVERSE_PARAMS = paramNames(reverseSchema({ maxLimit: 1, maxRadius: 1 }));

/**
 * Reads the placeId of `GET /places`: a whole number from 0 in plain digits, exact in a double.
 * @throws {HttpError} 400, naming the parameter
 */
export function parsePlaceParams(search: Search, schema = PLACE): number {
  onlyKnown(search, schema);
  return readParam(search, schema, 'placeId')!;
}

/**
 * Reads the query of `GET /search`: `q` required and not blank, at most `MAX_QUERY_LENGTH`
 * characters; `lat` and `lon` together or not at all; `radius` (whole km) only with them.
 * @param schema `searchSchema(limits)`, made once per app
 * @throws {HttpError} 400, naming the parameter
 */
export function parseSearchParams(search: Search, limits: QueryLimits, schema = searchSchema(limits)): SearchQuery {
  onlyKnown(search, schema);
  const q = readParam(search, schema, 'q')!;
  const query: SearchQuery = { q, limit: readParam(search, schema, 'limit') ?? (defaultOf(schema.shape.limit) as number) };
  if (search.has('lat') || search.has('lon')) {
    if (!search.has('lat')) throw bad('lat', 'missing (lat and lon go together)');
    if (!search.has('lon')) throw bad('lon', 'missing (lat and lon go together)');
    query.lat = readParam(search, schema, 'lat');
    query.lon = readParam(search, schema, 'lon');
  }
  const radius = readParam(search, schema, 'radius');
  if (radius !== undefined) {
    if (query.lat === undefined) throw bad('radius', 'needs lat and lon (the centre of the circle)');
    query.radius = radius;
  }
  const type = readParam(search, schema, 'type');
  if (type !== undefined) query.type = type;
  return query;
}

/**
 * Reads the query of `GET /reverse`: `lat` and `lon` required, `radius` a positive number of km
 * (fractions welcome) up to the maximum, `limit` a whole number.
 * @param schema `reverseSchema(limits)`, made once per app
 * @throws {HttpError} 400, naming the parameter
 */
export function parseReverseParams(search: Search, limits: QueryLimits, schema = reverseSchema(limits)): ReverseQuery {
  onlyKnown(search, schema);
  const query: ReverseQuery = {
    lat: readParam(search, schema, 'lat')!,
    lon: readParam(search, schema, 'lon')!,
    limit: readParam(search, schema, 'limit') ?? (defaultOf(schema.shape.limit) as number),
  };
  const radius = readParam(search, schema, 'radius');
  if (radius !== undefined) query.radius = radius;
  return query;
}

/** How a route writes its records: the JSON envelope, or GeoJSON with full shapes or centroid points. */
export type OutputFormat = { format: 'json' } | { format: 'geojson'; geometry: 'full' | 'centroid' };

/**
 * Reads `format` (`json`, the default, or `geojson`) and `geometry` (`full`, the default, or
 * `centroid`; only with `format=geojson`) of the routes that answer records with a shape.
 * The route's own parse refuses repeats and unknown parameters.
 * @throws {HttpError} 400, naming the parameter
 */
export function parseFormat(search: Search): OutputFormat {
  const format = readParam(search, FORMAT, 'format') ?? 'json';
  const geometry = search.get('geometry');
  if (format === 'json') {
    if (geometry !== null) throw bad('geometry', `only goes with format=geojson, got ${quote(geometry)}`);
    return { format: 'json' };
  }
  return { format: 'geojson', geometry: readParam(search, FORMAT, 'geometry') ?? 'full' };
}

const FORMAT = z.object(formatParams);

/** The query parameters of `GET /directions` (`points[]` and `points` are the same list, as clients send it). */
export const DIRECTIONS_PARAMS = paramNames(DIRECTIONS);

/**
 * Reads the directions query: the points as `points[]=lat,lon` (axios, the Baato JS client),
 * `points%5B%5D=` (the Java client: the same name once decoded) or repeated `points=`, in order;
 * `mode`, `instructions` and `alternatives` at most once, the flags `true`/`false` in any case
 * and false when missing. Point syntax and counts are checked by `route()` itself.
 * @throws {HttpError} 400, with a message naming the parameter
 */
export function parseDirectionsParams(search: Search, schema = DIRECTIONS): RouteQuery {
  onlyKnown(search, schema, ['points[]', 'points']);
  const seen = new Set(search.keys());
  if (seen.has('points[]') && seen.has('points')) throw bad('points', 'give the points as points[] or as points, not both');
  const points = search.getAll(seen.has('points[]') ? 'points[]' : 'points');
  if (points.length === 0) throw bad('points', 'missing: give two or more points as points[]=lat,lon');
  const query: RouteQuery = { points };
  const mode = search.get('mode');
  if (mode !== null) query.mode = mode.trim().toLowerCase() as RouteQuery['mode'];
  query.instructions = readParam(search, schema, 'instructions') ?? false;
  query.alternatives = readParam(search, schema, 'alternatives') ?? false;
  return query;
}

/**
 * The language of a request: its `lang` parameter (another value than `en` or `ne` is a 400
 * naming `lang`), else its `Accept-Language` header (`preferredLang`), else undefined: the names
 * as mapped and English directions.
 * @throws {HttpError} 400, naming `lang`
 */
export function requestLang(search: Search, schema: z.ZodObject, acceptLanguage: string | undefined): Lang | undefined {
  return (readParam(search, schema, 'lang') as Lang | undefined) ?? preferredLang(acceptLanguage);
}

/**
 * Of the languages an `Accept-Language` header asks for (RFC 9110: tags by weight, `q=0` never),
 * the most preferred of `en` and `ne` (any region: `ne-NP`, `en-GB`); the earlier on a tie;
 * undefined when it names neither (`*` names none) or is not a header this reads. A header is a
 * preference, never an error.
 */
export function preferredLang(header: string | undefined): Lang | undefined {
  if (!header || header.length > 1000) return undefined; // browsers send a few dozen characters
  let best: Lang | undefined;
  let bestQ = 0;
  for (const part of header.split(',')) {
    const [tag, ...params] = part.trim().split(';');
    const primary = tag.trim().toLowerCase().split('-')[0];
    if (primary !== 'en' && primary !== 'ne') continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)\s*$/i.exec(p);
      if (m) q = Number(m[1]);
    }
    if (q > bestQ) {
      best = primary;
      bestQ = q;
    }
  }
  return best;
}
