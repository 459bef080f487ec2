import { Hono, type Context, type Handler } from 'hono';
import type { PlaceIndex } from '../../index/place-index.js';
import type { GeoRecord } from '../../query/geojson.js';
import { bodyLimit } from 'hono/body-limit';
import { core, searchOf, type Answer, type Api, type AppEnv, type BodyAnswer, type NearbyFn } from '../api.js';
import { HttpError } from '../http-error.js';
import { ALLOW_POST } from '../middleware/errors.js';
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

/** The largest JSON body a POST may send (a 100 × 100 matrix as strings is about 4 KiB). */
export const MAX_BODY_BYTES = 256 * 1024;

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
      if (answered instanceof Response) return answered;
      if (out?.format !== 'geojson')
        return answered instanceof NearbyAnswer ? bytesAnswer(c, answered.envelope(now())) : reply(c, 200, undefined, answered);
      const records = answered instanceof NearbyAnswer ? answered.records() : answered;
      return geoJsonAnswer(c, now(), records as GeoRecord[], out.geometry);
    } finally {
      lease.release();
    }
  };

  // A POST's JSON body, read once the key and quota passed: bounded (413), JSON (400), then the answer's.
  const postOptions = keyedPreflight(keyring, { now, post: true });
  const limited = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      // the rest of the body is not read: the connection cannot carry another request
      throw new HttpError(413, `Payload too large: the body may hold at most ${MAX_BODY_BYTES / 1024} KiB`, { Connection: 'close' });
    },
  });
  const bodyWith = (answer: BodyAnswer) => async (c: Context<AppEnv>) => {
    const search = searchOf(c);
    for (const name of search.keys()) {
      if (name !== 'key')
        throw new HttpError(400, `${name}: unknown parameter; a POST takes its arguments in its JSON body (key alone in the query)`);
    }
    const type = c.req.header('Content-Type') ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      throw new HttpError(400, `Content-Type: must be application/json, got ${type ? JSON.stringify(type.slice(0, 60)) : 'none'}`);
    }
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch (err) {
      throw new HttpError(400, `body: not valid JSON (${err instanceof Error ? err.message.slice(0, 80) : 'unreadable'})`);
    }
    const lease = data.acquire();
    try {
      const answered = core(() => answer(body, c, lease.value));
      return answered instanceof Response ? answered : reply(c, 200, undefined, answered);
    } finally {
      lease.release();
    }
  };
  const postNotAllowed = (c: Context<AppEnv>) => {
    throw new HttpError(405, `Method not allowed: ${JSON.stringify(c.req.method)} on ${c.req.path}; allowed: ${ALLOW_POST}`, {
      Allow: ALLOW_POST,
    });
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
      keyed({ path, geojson }: KeyedEndpoint, answer: Answer, post?: BodyAnswer) {
        app.use(path, cors);
        app.get(path, keyCheck, counted, answerWith(answer, geojson !== undefined));
        if (post) app.post(path, keyCheck, counted, limited, bodyWith(post));
        app.options(path, post ? postOptions : keyedOptions);
        app.all(path, post ? postNotAllowed : methodNotAllowed);
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
