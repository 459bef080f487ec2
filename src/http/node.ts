/**
 * nepal-places over HTTP on Node (`nepal-places/http/node`, and `nepal-places/http` under Node):
 * everything of the runtime-neutral entry, plus the Node server with graceful shutdown, the
 * tokens file and the Redis quota store.
 */
export * from './index.js';
export { serve, type Fetcher, type ServeOptions, type Running } from './server.js';
export { loadTokens } from './tokens-file.js';
export { RedisQuotaStore, type RedisQuotaOptions } from './redis-quota.js';
export {
  TileArchive,
  TileArchiveError,
  type StoredTile,
  type VectorLayer,
  type TileArchiveOptions,
  type CacheStats,
} from '../map/archive.js';
export { fileAssets, ASSETS_DIR, withShapedGlyphs } from '../map/assets.js';
export {
  withWebApp,
  pageToken,
  WebAppError,
  APP_DIR,
  PAGE_KEY_META,
  PAGE_QUOTA,
  PAGE_CLIENT_QUOTA,
  type WebAppOptions,
} from './web-app.js';
