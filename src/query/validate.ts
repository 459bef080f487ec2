import { InvalidQueryError, type QueryParam } from '../errors.js';
import type { NearbyQuery } from '../types.js';
import { NEARBY_LIMIT, NEARBY_RADIUS } from './limits.js';
import type { Lang } from '../osm/name.js';
import { checkLang } from './lang.js';

/** A checked nearby query with its defaults filled in. */
export interface Checked {
  type: string;
  lat: number;
  lon: number;
  radius: number;
  limit: number;
  sortBy: boolean;
  isOpen: boolean;
  at: number;
  lang: Lang | undefined;
}

/** Checks a query's arguments, throwing `InvalidQueryError` naming the first bad one. */
export function checkQuery(q: NearbyQuery): Checked {
  if (q === null || typeof q !== 'object') throw new InvalidQueryError('query', 'must be an object');
  if (typeof q.type !== 'string' || !q.type.trim())
    throw new InvalidQueryError('type', 'is required: a place type such as "cafe" or a merged type such as "eat"');
  coord('lat', q.lat, 90);
  coord('lon', q.lon, 180);
  const radius = positiveInt('radius', q.radius, NEARBY_RADIUS);
  const limit = positiveInt('limit', q.limit, NEARBY_LIMIT);
  const sortBy = bool('sortBy', q.sortBy);
  const isOpen = bool('isOpen', q.isOpen);
  let at = Date.now();
  if (q.at !== undefined) {
    if (!(q.at instanceof Date) || Number.isNaN(q.at.getTime())) throw new InvalidQueryError('at', 'must be a valid Date');
    at = q.at.getTime();
  }
  const lang = checkLang(q.lang);
  return { type: q.type.trim().toLowerCase(), lat: q.lat, lon: q.lon, radius, limit, sortBy, isOpen, at, lang };
}

/** Checks a latitude (`max` 90) or longitude (`max` 180). */
export function coord(name: QueryParam, v: unknown, max: number): void {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new InvalidQueryError(name, `must be a finite number, got ${show(v)}`);
  if (v < -max || v > max) throw new InvalidQueryError(name, `must be between -${max} and ${max}, got ${v}`);
}

/** A positive whole number, or `def` when undefined. */
export function positiveInt(name: QueryParam, v: unknown, def: number): number {
  if (v === undefined) return def;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1)
    throw new InvalidQueryError(name, `must be a positive integer, got ${show(v)}`);
  return v;
}

/** A boolean, or false when undefined. */
export function bool(name: QueryParam, v: unknown): boolean {
  if (v === undefined) return false;
  if (typeof v !== 'boolean') throw new InvalidQueryError(name, `must be true or false, got ${show(v)}`);
  return v;
}

/** A value as an error message quotes it. */
export function show(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}
