import { Hono, type Context, type Handler } from 'hono';
import type { PlaceIndex } from '../../index/place-index.js';
import type { GeoRecord } from '../../query/geojson.js';
import { searchOf, type Answer, type Api, type AppEnv, type NearbyFn } from '../api.js';
import type { KeyedEndpoint, OpenEndpoint } from '../endpoint.js';
import type { Keyring } from '../keys.js';
import { keyedCors, keyedPreflight, openCors, openPreflight } from '../middleware/cors.js';
import { keys } from '../middleware/keys.js';
import { quota } from '../middleware/quota.js';
import { envelope } from '../envelope.js';
import { NearbyAnswer } from '../nearby-json.js';
import { parseFormat } from '../params.js';
import type { Search } from '../query.js';
import type { QueryLimits } from '../schema.js';
import type { QuotaStore } from '../quota.js';
import type { ClientOf } from '../page-key.js';
import type { Reloadable } from '../reloadable.js';
import { bytesAnswer, envelopeAnswer, flushSaid, geoJsonAnswer } from '../respond.js';

/** What the route groups share: the app's settings and its middleware. */
export interface KitOptions {
  data: Reloadable<PlaceIndex>;
  keyring: Keyring;
  store: QuotaStore;
  limits: QueryLimits;
  now: () => number;
  log: (line: string) => void;
  nearby: NearbyFn;
  /** Who sent a request, for the per-client bounds of a key. */
  client: ClientOf;
  /** What the app knows of what it serves beside the index (`Api.about`). */
  about: Api['about'];
  /** Answers a path's other methods (405). */
  methodNotAllowed: Handler<AppEnv>;
}

/**
 * Makes the `Api` each route group registers its routes with, on a Hono app of its own (to mount
 * with `app.route()`). A keyed route is its CORS, key (401, 403) and quota (429, 503) middleware,
 * then its handler; a public one its CORS and handler; each with its preflight and a 405.
 */
export function routeKit(options: KitOptions): () => Api {
  const { data, keyring, limits, now, nearby, about, methodNotAllowed } = options;
  // one of each middleware for every keyed route (the quota's outage is the app's, not a route's);
  // CORS on every method of a path (its 405s are readable too), the checks on GET
  const cors = keyedCors(keyring);
  const keyCheck = keys(keyring);
  const counted = quota(options);
  const keyedOptions = keyedPreflight(keyring, { now });
  const openOptions = openPreflight({ now });
  const open = openCors();
  const reply = (c: Context<AppEnv>, status: number, message: string | undefined, data: unknown[]) =>
    envelopeAnswer(c, envelope(status, message, data, now()));

  // The answer of a keyed route, in an envelope or as GeoJSON. The format is read first: a bad
  // one is a 400 before any 404 of the answer.
  const answerWith = (answer: Answer, geojson: boolean) => async (c: Context<AppEnv>) => {
    // the index of this request, whatever a reload swaps in before it is done
    const lease = data.acquire();
    try {
      const search = searchOf(c);
      const out = geojson ? parseFormat(search) : undefined;
      const answered = await answer(search, c, lease.value);
      if (out?.format !== 'geojson')
        return answered instanceof NearbyAnswer ? bytesAnswer(c, answered.envelope(now())) : reply(c, 200, undefined, answered);
      const records = answered instanceof NearbyAnswer ? answered.records() : answered;
      return geoJsonAnswer(c, now(), records as GeoRecord[], out.geometry);
    } finally {
      lease.release();
    }
  };

  return () => {
    const app = new Hono<AppEnv>();
    return {
      app,
      limits,
      now,
      nearby,
      reply,
      current: () => options.data.current,
      about,
      keyed({ path, geojson }: KeyedEndpoint, answer: Answer) {
        app.use(path, cors);
        app.get(path, keyCheck, counted, answerWith(answer, geojson !== undefined));
        app.options(path, keyedOptions);
        app.all(path, methodNotAllowed);
      },
      keyedResource(path: string, handle: (c: Context<AppEnv>, search: Search) => Response | Promise<Response>) {
        app.use(path, cors);
        app.get(path, keyCheck, counted, (c) => {
          flushSaid(c);
          return handle(c, searchOf(c));
        });
        app.options(path, keyedOptions);
        app.all(path, methodNotAllowed);
      },
      open({ path }: OpenEndpoint, handler: (c: Context<AppEnv>) => Response | Promise<Response>) {
        app.use(path, open);
        app.get(path, handler);
        app.options(path, openOptions);
        app.all(path, methodNotAllowed);
      },
    };
  };
}
