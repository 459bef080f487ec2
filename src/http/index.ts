/**
 * nepal-places over HTTP: API v1 as a Hono app, its quota stores and a server with graceful
 * shutdown. A separate entry (`nepal-places/http`) so that the core never loads HTTP code.
 */
export { createApp, type AppOptions, type AppEnv, type NearbyFn } from './app.js';
export { serve, type Fetcher, type ServeOptions, type Running } from './server.js';
export { envelope, toWire, SUCCESS, type Envelope, type WirePlace, type NonFinite } from './envelope.js';
export { nptTimestamp, NPT_OFFSET_MS } from './timestamp.js';
export {
  parseNearbyParams, parsePlaceParams, parseSearchParams, parseReverseParams,
  NEARBY_PARAMS, PLACE_PARAMS, SEARCH_PARAMS, REVERSE_PARAMS, SEARCH_LIMIT, REVERSE_LIMIT, type QueryLimits,
} from './params.js';
export { HttpError } from './http-error.js';
export { Keyring, parseTokens, loadTokens, generateKey, keyHint, KEY_PATTERN, TokenError, type Token, type Grant } from './keys.js';
export { normalizeOrigin, originAllowed, type AllowedOrigins } from './origins.js';
export { MemoryQuotaStore, quotaResult, type QuotaStore, type QuotaResult } from './quota.js';
export { RedisQuotaStore, type RedisQuotaOptions } from './redis-quota.js';
export { openApiDocument, API_VERSION, TIMESTAMP_PATTERN, type OpenApiOptions } from './openapi.js';
export { accessLine, logPath } from './access-log.js';
export { mapRoutes, type MapOptions, type Gate } from './map.js';
export { TileArchive, TileArchiveError, isTile, type StoredTile, type VectorLayer } from '../map/archive.js';
export { mapStyle, STYLES, DEFAULT_STYLE, type StyleDocument, type StyleUrls } from '../map/style.js';
