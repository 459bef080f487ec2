import type { Context, Hono } from 'hono';
import { InvalidQueryError } from '../errors.js';
import type { PlaceIndex } from '../index/place-index.js';
import type { NearbyPlace, NearbyQuery } from '../types.js';
import { HttpError } from './http-error.js';
import type { NearbyAnswer } from './nearby-json.js';
import type { KeyedEndpoint, OpenEndpoint } from './endpoint.js';
import type { Grant } from './keys.js';
import { queryOf, type Search } from './query.js';
import type { QueryLimits } from './schema.js';

/**
 * The search the app runs: by default the core's, answering a `NearbyAnswer` (which writes its
 * envelope's JSON from kept parts); a stand-in (e.g. in tests) answers records.
 */
export type NearbyFn = (index: PlaceIndex, query: NearbyQuery) => NearbyPlace[] | NearbyAnswer | Promise<NearbyPlace[] | NearbyAnswer>;

/**
 * What the app keeps per request: its id, the hint of its key (for the log), its key's grant,
 * its parsed query, the headers its middleware said before the answer
 * and not yet written into it (`say` in respond.ts), and whether some were said through Hono's
 * context instead (`hono`: its CORS middleware).
 */
export type AppEnv = {
  Variables: {
    requestId: string;
    keyHint: string;
    grant: Grant;
    search: Search;
    said: Record<string, string> | undefined;
    hono: boolean;
  };
};

/**
 * The records of a keyed route's 200 envelope, from the request's parsed query and the index the
 * request was given when it arrived (a reload meanwhile does not change it); or a `NearbyAnswer`,
 * which writes its envelope's JSON itself; or a whole `Response` (a GeoJSON answer of its own
 * shape, e.g. `/directions?format=geojson`'s lines), sent as it is.
 */
export type Answer = (
  search: Search,
  c: Context<AppEnv>,
  index: PlaceIndex,
) => unknown[] | NearbyAnswer | Response | Promise<unknown[] | NearbyAnswer | Response>;

/**
 * The records of a keyed route's 200 envelope from a POST's JSON body (parsed, not yet checked:
 * the answer checks it, refusing with a 400 naming the field) and the request's index; or a
 * whole `Response`, sent as it is (as `Answer`'s).
 */
export type BodyAnswer = (body: unknown, c: Context<AppEnv>, index: PlaceIndex) => unknown[] | Response;

/**
 * What a route module registers its routes with (one module per route group, see `routes/`).
 * Paths are relative to the API's base path, e.g. `/search/nearby`.
 */
export interface Api {
  /** The Hono app of the group, mounted at the API's base path: for routes of other shapes. */
  app: Hono<AppEnv>;
  limits: QueryLimits;
  /** The app's clock in milliseconds. */
  now: () => number;
  nearby: NearbyFn;
  /**
   * The GET route of a declared endpoint (`endpoints.ts`) behind the key (401), origin (403) and
   * quota (429) checks, answering `answer`'s records in a 200 envelope (or, when the declaration
   * has a GeoJSON answer, as GeoJSON with `format=geojson`); with its CORS preflight and a 405 for
   * other methods. With `post`, also its POST taking a JSON body (`application/json`, at most
   * `MAX_BODY_BYTES`, else 413), behind the same checks, its preflight allowing POST.
   */
  keyed(endpoint: KeyedEndpoint, answer: Answer, post?: BodyAnswer): void;
  /**
   * A GET route behind the same checks, answering with `handle`'s own response (a map style, a
   * tile, a font) instead of an envelope; its refusals are envelopes. With its preflight and a 405.
   */
  keyedResource(path: string, handle: (c: Context<AppEnv>, search: Search) => Response | Promise<Response>): void;
  /**
   * The GET route of a declared public endpoint (no key, any origin), e.g. a document; with its
   * preflight and a 405 for other methods.
   */
  open(endpoint: OpenEndpoint, handler: (c: Context<AppEnv>) => Response | Promise<Response>): void;
  /** An envelope response: `status`, `message` (default `Success` on 2xx) and `data`. */
  reply(c: Context<AppEnv>, status: number, message: string | undefined, data: unknown[]): Response;
  /** The index current now (a reload swaps it in), for routes that describe the data. */
  current(): PlaceIndex;
  /** What the app knows of what it serves beside the index: whether map tiles, and the data's date. */
  about: { map: boolean; dataDate?: () => Date | undefined };
}

/**
 * Runs a core query: its `InvalidQueryError` (thrown, or the rejection of a promise it returns)
 * is a bad request (400); anything else a fault.
 */
export function core<T>(run: () => T): T {
  try {
    const out = run();
    return (out instanceof Promise ? out.catch(badRequest) : out) as T;
  } catch (err) {
    return badRequest(err);
  }
}

function badRequest(err: unknown): never {
  if (err instanceof InvalidQueryError) throw new HttpError(400, err.message);
  throw err;
}

/** The query of the request (`queryOf` its URL), read once per request and kept in `c.var.search`. */
export function searchOf(c: Context<AppEnv>): Search {
  let search = c.get('search');
  if (!search) c.set('search', (search = queryOf(c.req.url)));
  return search;
}
