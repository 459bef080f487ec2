import type { NearbyQuery } from '../types.js';
import { HttpError, quote } from './http-error.js';

/** The largest `limit` and `radius` (km) a request may ask for. */
export interface QueryLimits {
  maxLimit: number;
  maxRadius: number;
}

/** The query parameters of `GET /search/nearby`, in the order they are checked. */
export const NEARBY_PARAMS = ['key', 'type', 'lat', 'lon', 'radius', 'limit', 'sortBy', 'isOpen'] as const;

// A plain decimal, optionally with an exponent. Stricter than Number(), which also takes
// '', ' 1', '0x1f', 'Infinity' and '1_0'-like oddities we do not want to guess at.
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const DIGITS = /^\d+$/;
const BOOLEAN = /^(?:true|false)$/i;

/**
 * Reads the nearby query from a query string, strictly: every parameter at most once, no unknown
 * parameter (a misspelt `sortby=true` would otherwise be silently ignored), numbers in plain decimal
 * notation, `radius` and `limit` whole numbers within the limits, booleans `true`/`false` in any case.
 * The `key` parameter is allowed here but read by the key check, not returned.
 * @throws {HttpError} 400, with a message naming the parameter
 */
export function parseNearbyParams(search: URLSearchParams, limits: QueryLimits): NearbyQuery {
  const seen = new Set<string>();
  for (const name of search.keys()) {
    if (!(NEARBY_PARAMS as readonly string[]).includes(name)) {
      throw bad(name || '(empty name)', `unknown parameter; expected one of ${NEARBY_PARAMS.join(', ')}`);
    }
    if (seen.has(name)) throw bad(name, 'given more than once');
    seen.add(name);
  }

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
  return query;
}

function bad(param: string, message: string): HttpError {
  return new HttpError(400, `${param}: ${message}`);
}

function coordinate(search: URLSearchParams, name: 'lat' | 'lon', max: number): number {
  const s = search.get(name);
  if (s === null) throw bad(name, 'missing');
  const n = DECIMAL.test(s) ? Number(s) : NaN;
  if (!(n >= -max && n <= max)) throw bad(name, `must be a number from ${-max} to ${max}, got ${quote(s)}`);
  return n;
}

function count(search: URLSearchParams, name: string, max: number, unit: string): number | undefined {
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

function flag(search: URLSearchParams, name: string): boolean | undefined {
  const s = search.get(name);
  if (s === null) return undefined;
  if (!BOOLEAN.test(s)) throw bad(name, `must be true or false, got ${quote(s)}`);
  return s.toLowerCase() === 'true';
}
