/**
 * The page's calls to API v1: the key the server wrote into the page, the envelope unwrapped,
 * refusals as errors carrying the server's message.
 */

/** The `<meta>` the server writes the page key into (`PAGE_KEY_META` of src/http/web-app.ts). */
const KEY_META = 'nepal-places-key';

/** A parameter value; an array is sent as repeated parameters (`points[]`). */
export type Param = string | number | boolean | readonly string[] | undefined;

/** An answer other than 200: `status` and the envelope's `message`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The key the server handed to this page, or an error saying the page was not served by it. */
export function pageKey(): string {
  const key = document.querySelector<HTMLMetaElement>(`meta[name="${KEY_META}"]`)?.content;
  if (!key) throw new Error('this page carries no API key: open it from nepal-places serve');
  return key;
}

/** The API's base, relative to the page, so that the app works under a proxy's path prefix too. */
const BASE = new URL('api/v1/', document.baseURI);

/** The absolute URL of `path` (e.g. `styles/breeze`) with `params` and the page key. */
export function apiUrl(path: string, params: Record<string, Param> = {}): string {
  const url = new URL(path, BASE);
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) url.searchParams.append(name, v);
    else url.searchParams.set(name, String(value));
  }
  url.searchParams.set('key', pageKey());
  return url.href;
}

/**
 * GET `path` and the envelope's `data`.
 * @throws {ApiError} with the envelope's message for any answer but 200
 */
export async function get<T>(path: string, params: Record<string, Param>, signal?: AbortSignal): Promise<T[]> {
  const body = await getJson<{ data?: T[] }>(path, params, signal);
  if (!Array.isArray(body.data)) throw new ApiError(200, `${path}: an answer without data`);
  return body.data;
}

/**
 * GET `path` and its JSON body as it is (the GeoJSON answers are not wrapped in the envelope).
 * @throws {ApiError} with the envelope's message for any answer but 200
 */
export async function getJson<T>(path: string, params: Record<string, Param>, signal?: AbortSignal): Promise<T> {
  const res = await fetch(apiUrl(path, params), { signal });
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  // The server mints the page's key at start: after a restart this page holds an old one.
  if (res.status === 401) throw new ApiError(401, "This page's key is no longer valid (the server has restarted?): reload the page.");
  if (!res.ok || typeof body !== 'object' || body === null)
    throw new ApiError(res.status, (body as { message?: string } | undefined)?.message ?? `HTTP ${res.status}`);
  return body as T;
}

/** A record of `/search/nearby`, `/places` and `/reverse`: the fields the app shows. */
export interface PlaceRecord {
  placeId: number;
  name: string;
  address: string;
  type: string;
  centroid: { lat: number; lon: number };
  tags: string[];
  open: boolean;
  radialDistanceInKm?: number;
  /** With `by=time`: the travel time from the searched point, ms. */
  travelTimeInMs?: number;
  /** With `by=time`: the travel distance from the searched point, m. */
  travelDistanceInMeters?: number;
}

/** A suggestion of `/search`. */
export interface Suggestion {
  placeId: number;
  name: string;
  address: string;
  type: string;
}

/** The one record of `/health`: what the server serves. */
export interface Health {
  version: string;
  places: number;
  /** `[west, south, east, north]` around the data, degrees; `null` for empty data. */
  bounds: [number, number, number, number] | null;
  dataDate: string | null;
  /** Whether map tiles are served (else the styles answer 404). */
  map: boolean;
}

/** What the server serves (`/health`, public), or `undefined` when it cannot be asked. */
export async function health(): Promise<Health | undefined> {
  try {
    const res = await fetch(new URL('health', BASE));
    const body = (await res.json()) as { data?: Health[] };
    return res.ok ? body.data?.[0] : undefined;
  } catch {
    return undefined;
  }
}

/** A route of `/directions`. */
export interface RouteRecord {
  encodedPolyline: string;
  distanceInMeters: number;
  timeInMs: number;
  /** With `instructions=true`: the steps, their text in the language asked. */
  instructionList: { text: string; distance: number; time: number; sign: number }[] | null;
}

/** A contour of `/isochrone`: the area reached within `minutes`. */
export interface Contour {
  type: 'Feature';
  properties: { minutes: number; [key: string]: unknown };
  geometry: { type: 'Polygon' | 'MultiPolygon'; coordinates: unknown };
}

/** The answer of `/isochrone`: the contours, largest first. */
export interface Isochrone {
  type: 'FeatureCollection';
  features: Contour[];
}
