import type { NearbyQuery, ReverseQuery, SearchQuery } from '../types.js';
import type { RouteQuery } from '../query/route.js';
import { MAX_QUERY_LENGTH } from '../query/search.js';
import { INSTANT_FORMAT, parseInstant } from '../hours/instant.js';
import { HttpError, quote } from './http-error.js';
import type { Search } from './query.js';
import { REVERSE_LIMIT, SEARCH_LIMIT } from '../query/limits.js';

/** The largest `limit` and `radius` (km) a request may ask for. */
export interface QueryLimits {
  maxLimit: number;
  maxRadius: number;
}

/**
 * The query parameters of `GET /search/nearby`, in the order they are checked. `at` is
 * an extension of this service, not part of API v1: clients of API v1 never send it.
 */
export const NEARBY_PARAMS = ['key', 'type', 'lat', 'lon', 'radius', 'limit', 'sortBy', 'isOpen', 'at', 'format', 'geometry'] as const;

// A plain decimal, optionally with an exponent. Stricter than Number(), which also takes
// '', ' 1', '0x1f', 'Infinity' and '1_0'-like oddities we do not want to guess at.
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const DIGITS = /^\d+$/;
const BOOLEAN = /^(?:true|false)$/i;

/**
 * Reads the nearby query from a query string, strictly: every parameter at most once, no unknown
 * parameter (a misspelt `sortby=true` would otherwise be silently ignored), numbers in plain decimal
 * notation, `radius` and `limit` whole numbers within the limits, booleans `true`/`false` in any case,
 * `at` (an extension) an ISO 8601 instant, Nepal Time without an offset.
 * The `key` parameter is allowed here but read by the key check, not returned.
 * @throws {HttpError} 400, with a message naming the parameter
 */
export function parseNearbyParams(search: Search, limits: QueryLimits): NearbyQuery {
  known(search, NEARBY_PARAMS);

  const type = search.get('type');
  if (type === null) throw bad('type', 'missing (a place type such as cafe, or a merged type such as eat)');
  if (type.trim() === '') throw bad('type', 'must not be empty');

  const query: NearbyQuery = {
    type,
    lat: coordinate(search, 'lat', 90),
    lon: coordinate(search, 'lon', 180),
  };
  const radius = count(search, 'radius', limits.maxRadius, ' km');
  if (radius !== undefined) query.radius = radius;
  const limit = count(search, 'limit', limits.maxLimit, '');
  if (limit !== undefined) query.limit = limit;
  const sortBy = flag(search, 'sortBy');
  if (sortBy !== undefined) query.sortBy = sortBy;
  const isOpen = flag(search, 'isOpen');
  if (isOpen !== undefined) query.isOpen = isOpen;
  const at = search.get('at');
  if (at !== null) {
    const instant = parseInstant(at);
    // a '+' that is not percent-encoded arrives as a space: say so rather than only refuse
    const hint = /T\d\d:\d\d(?::\d\d(?:\.\d+)?)? \d\d(?::?\d\d)?$/.test(at) ? " (a '+' in a URL is a space: write the offset's + as %2B)" : '';
    if (!instant) throw bad('at', `must be ${INSTANT_FORMAT}${hint}, got ${quote(at)}`);
    query.at = instant;
  }
  return query;
}

/** The query parameters of `GET /places`. */
export const PLACE_PARAMS = ['key', 'placeId', 'format', 'geometry'] as const;
/** The query parameters of `GET /search`. */
export const SEARCH_PARAMS = ['key', 'q', 'limit', 'lat', 'lon', 'radius', 'type'] as const;
/** The query parameters of `GET /reverse`. */
export const REVERSE_PARAMS = ['key', 'lat', 'lon', 'radius', 'limit', 'format', 'geometry'] as const;

export { SEARCH_LIMIT, REVERSE_LIMIT } from '../query/limits.js';

const PLACE_ID = /^\d{1,16}$/;

/**
 * Reads the placeId of `GET /places`: a whole number from 0 in plain digits, exact in a double.
 * @throws {HttpError} 400, naming the parameter
 */
export function parsePlaceParams(search: Search): number {
  known(search, PLACE_PARAMS);
  const s = search.get('placeId');
  if (s === null) throw bad('placeId', 'missing (the placeId of a record, osmId * 4 + kind)');
  const n = PLACE_ID.test(s) ? Number(s) : NaN;
  if (!Number.isSafeInteger(n)) throw bad('placeId', `must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, got ${quote(s)}`);
  return n;
}

/**
 * Reads the query of `GET /search`: `q` required and not blank, at most `MAX_QUERY_LENGTH`
 * characters; `lat` and `lon` together or not at all; `radius` (whole km) only with them.
 * @throws {HttpError} 400, naming the parameter
 */
export function parseSearchParams(search: Search, limits: QueryLimits): SearchQuery {
  known(search, SEARCH_PARAMS);
  const q = search.get('q');
  if (q === null) throw bad('q', 'missing (the words to search for)');
  if (q.trim() === '') throw bad('q', 'must not be blank');
  if (q.length > MAX_QUERY_LENGTH) throw bad('q', `must be at most ${MAX_QUERY_LENGTH} characters, got ${q.length}`);
  const query: SearchQuery = { q, limit: count(search, 'limit', limits.maxLimit, '') ?? SEARCH_LIMIT };
  if (search.has('lat') || search.has('lon')) {
    if (!search.has('lat')) throw bad('lat', 'missing (lat and lon go together)');
    if (!search.has('lon')) throw bad('lon', 'missing (lat and lon go together)');
    query.lat = coordinate(search, 'lat', 90);
    query.lon = coordinate(search, 'lon', 180);
  }
  const radius = count(search, 'radius', limits.maxRadius, ' km');
  if (radius !== undefined) {
    if (query.lat === undefined) throw bad('radius', 'needs lat and lon (the centre of the circle)');
    query.radius = radius;
  }
  const type = search.get('type');
  if (type !== null) {
    if (type.trim() === '') throw bad('type', 'must not be empty');
    query.type = type;
  }
  return query;
}

/**
 * Reads the query of `GET /reverse`: `lat` and `lon` required, `radius` a positive number of km
 * (fractions welcome) up to the maximum, `limit` a whole number.
 * @throws {HttpError} 400, naming the parameter
 */
export function parseReverseParams(search: Search, limits: QueryLimits): ReverseQuery {
  known(search, REVERSE_PARAMS);
  const query: ReverseQuery = {
    lat: coordinate(search, 'lat', 90),
    lon: coordinate(search, 'lon', 180),
    limit: count(search, 'limit', limits.maxLimit, '') ?? REVERSE_LIMIT,
  };
  const s = search.get('radius');
  if (s !== null) {
    const n = DECIMAL.test(s) ? Number(s) : NaN;
    if (!(n > 0 && n <= limits.maxRadius)) throw bad('radius', `must be a number of km above 0 and at most ${limits.maxRadius}, got ${quote(s)}`);
    query.radius = n;
  }
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
  const format = search.get('format');
  const geometry = search.get('geometry');
  if (format === null || format === 'json') {
    if (geometry !== null) throw bad('geometry', `only goes with format=geojson, got ${quote(geometry)}`);
    return { format: 'json' };
  }
  if (format !== 'geojson') throw bad('format', `must be json or geojson, got ${quote(format)}`);
  if (geometry !== null && geometry !== 'full' && geometry !== 'centroid') {
    throw bad('geometry', `must be full or centroid, got ${quote(geometry)}`);
  }
  return { format: 'geojson', geometry: geometry ?? 'full' };
}

// Every parameter at most once, and none unknown (a misspelt one would otherwise be silently ignored).
function known(search: Search, allowed: readonly string[]): void {
  const seen: string[] = []; // a dozen names at most: a Set costs more
  for (const name of search.keys()) {
    if (!allowed.includes(name)) throw bad(name || '(empty name)', `unknown parameter; expected one of ${allowed.join(', ')}`);
    if (seen.includes(name)) throw bad(name, 'given more than once');
    seen.push(name);
  }
}

function bad(param: string, message: string): HttpError {
  return new HttpError(400, `${param}: ${message}`);
}

function coordinate(search: Search, name: 'lat' | 'lon', max: number): number {
  const s = search.get(name);
  if (s === null) throw bad(name, 'missing');
  const n = DECIMAL.test(s) ? Number(s) : NaN;
  if (!(n >= -max && n <= max)) throw bad(name, `must be a number from ${-max} to ${max}, got ${quote(s)}`);
  return n;
}

function count(search: Search, name: string, max: number, unit: string): number | undefined {
  const s = search.get(name);
  if (s === null) return undefined;
  if (!DIGITS.test(s)) {
    const hint = DECIMAL.test(s) && Number.isFinite(Number(s)) && Number(s) > 0 ? ' (only integers are supported)' : '';
    throw bad(name, `must be a whole number from 1 to ${max}${hint}, got ${quote(s)}`);
  }
  const n = Number(s);
  if (n < 1) throw bad(name, `must be at least 1, got ${quote(s)}`);
  if (n > max) throw bad(name, `must be at most ${max}${unit} (the maximum), got ${quote(s)}`);
  return n;
}

function flag(search: Search, name: string): boolean | undefined {
  const s = search.get(name);
  if (s === null) return undefined;
  if (!BOOLEAN.test(s)) throw bad(name, `must be true or false, got ${quote(s)}`);
  return s.toLowerCase() === 'true';
}

/** The query parameters of `GET /directions` (`points[]` and `points` are the same list, as clients send it). */
export const DIRECTIONS_PARAMS = ['key', 'points[]', 'points', 'mode', 'instructions', 'alternatives'] as const;

/**
 * Reads the directions query: the points as `points[]=lat,lon` (axios, the Baato JS client),
 * `points%5B%5D=` (the Java client: the same name once decoded) or repeated `points=`, in order;
 * `mode`, `instructions` and `alternatives` at most once, the flags `true`/`false` in any case
 * and false when missing. Point syntax and counts are checked by `route()` itself.
 * @throws {HttpError} 400, with a message naming the parameter
 */
export function parseDirectionsParams(search: Search): RouteQuery {
  const seen = new Set<string>();
  for (const name of search.keys()) {
    if (!(DIRECTIONS_PARAMS as readonly string[]).includes(name)) {
      throw bad(name || '(empty name)', `unknown parameter; expected one of ${DIRECTIONS_PARAMS.join(', ')}`);
    }
    if (seen.has(name) && !name.startsWith('points')) throw bad(name, 'given more than once');
    seen.add(name);
  }
  if (seen.has('points[]') && seen.has('points')) throw bad('points', 'give the points as points[] or as points, not both');
  const points = search.getAll(seen.has('points[]') ? 'points[]' : 'points');
  if (points.length === 0) throw bad('points', 'missing: give two or more points as points[]=lat,lon');
  const query: RouteQuery = { points };
  const mode = search.get('mode');
  if (mode !== null) query.mode = mode.trim().toLowerCase() as RouteQuery['mode'];
  query.instructions = flag(search, 'instructions') ?? false;
  query.alternatives = flag(search, 'alternatives') ?? false;
  return query;
}
