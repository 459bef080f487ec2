import type { Context } from 'hono';
import type { z } from '@hono/zod-openapi';
import type { Lang } from '../osm/name.js';
import type { AppEnv } from './api.js';
import { requestLang } from './params.js';
import { requestHeader, say } from './respond.js';
import type { Search } from './query.js';

/**
 * The language a keyed route answers in (`requestLang`: `lang`, else `Accept-Language`), and
 * `Vary: Accept-Language` on the answer, since a cache must not hand one language's answer to
 * a request for the other.
 * @throws {HttpError} 400 naming `lang`
 */
export function answerLang(c: Context<AppEnv>, search: Search, schema: z.ZodObject): Lang | undefined {
  // said with the middleware's own Vary (Origin), which the answer writes last
  const vary = c.get('said')?.vary;
  say(c, 'vary', vary ? `${vary}, Accept-Language` : 'Accept-Language');
  return requestLang(search, schema, requestHeader(c, 'accept-language'));
}
