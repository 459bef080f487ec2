/**
 * nepal-places over HTTP, on any runtime: API v1 as a Hono app over Web APIs only (Web Crypto,
 * fetch's Request and Response), its keys and quota contract. A separate entry
 * (`nepal-places/http`) so that the core never loads HTTP code; the Node server, the tokens file
 * and the Redis store are in `nepal-places/http/node` (`./node.ts`).
 */
export { createApp, type AppOptions, type AppEnv, type NearbyFn, type ApiApp } from './app.js';
export type { Api, Answer } from './api.js';
export { Reloadable, ReloadAbortedError, type ReloadOutcome, type Lease, type ReloadableOptions } from './reloadable.js';
export { envelope, toWire, SUCCESS, type Envelope, type WirePlace, type NonFinite } from './envelope.js';
export { nptTimestamp, NPT_OFFSET_MS } from './timestamp.js';
export {
  parseNearbyParams,
  parsePlaceParams,
  parseSearchParams,
  parseReverseParams,
  NEARBY_PARAMS,
  PLACE_PARAMS,
  SEARCH_PARAMS,
  REVERSE_PARAMS,
  SEARCH_LIMIT,
  REVERSE_LIMIT,
  type QueryLimits,
} from './params.js';
export { HttpError } from './http-error.js';
export {
  Keyring,
  parseTokens,
  generateKey,
  keyHint,
  KEY_PATTERN,
  KEY_REFUSED,
  TokenError,
  type Token,
  type Grant,
  type ClientQuota,
} from './keys.js';
export { socketClient, clientBucket, foreignPage, ConnectionCounts, type Client, type ClientOf, type Provenance } from './page-key.js';
export { normalizeOrigin, originAllowed, type AllowedOrigins } from './origins.js';
export { MemoryQuotaStore, QuotaUnavailableError, quotaResult, type QuotaStore, type QuotaResult } from './quota.js';
export { openApiDocument, API_VERSION, TIMESTAMP_PATTERN, type OpenApiOptions } from './openapi.js';
export { accessLine, logPath, logTarget, type Access } from './access-log.js';
export { queryOf, type Search } from './query.js';
export { mapRoutes, type MapOptions, type MapTiles } from './routes/map.js';
export type { MapAssets } from '../map/source.js';
export { TileDataError, MAX_TILE_BYTES } from '../map/zxy.js';
export { mapStyle, STYLES, DEFAULT_STYLE, type StyleDocument, type StyleUrls } from '../map/style.js';
