import { Redis } from 'ioredis';
import { quotaResult, type QuotaResult, type QuotaStore } from './quota.js';

// One round trip, atomic on the server: count, and start the window's clock on its first
// request. A key found without an expiry (left by something else) gets one, so no count can
// stick forever.
const HIT = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}`;

type WithHit = Redis & { quotaHit(key: string, windowMs: number): Promise<[number, number]> };

/** Options of `RedisQuotaStore`. */
export interface RedisQuotaOptions {
  /** Prefix of the Redis keys (default `nepal-places:quota:`). */
  prefix?: string;
}

/**
 * Counts in Redis, so that several server instances behind a load balancer share one quota per
 * key. Each hit is a Lua script (`EVALSHA`, loaded once), which Redis runs atomically.
 */
export class RedisQuotaStore implements QuotaStore {
  readonly redis: Redis;
  private prefix: string;

  /** @param redis a connected client; `close()` disconnects it */
  constructor(redis: Redis, options: RedisQuotaOptions = {}) {
    this.redis = redis;
    this.prefix = options.prefix ?? 'nepal-places:quota:';
    if (!('quotaHit' in redis)) redis.defineCommand('quotaHit', { numberOfKeys: 1, lua: HIT });
  }

  /**
   * Connects to `url` (e.g. `redis://127.0.0.1:6379/0`) and waits until the server answers.
   * Commands fail at once while the connection is down (no offline queue), so a request never
   * hangs on a lost Redis: it fails, and the client keeps reconnecting in the background.
   * @param onError told of connection errors after the first connect
   * @throws when the first connection fails
   */
  static async connect(url: string, options: RedisQuotaOptions & { onError?: (err: Error) => void } = {}): Promise<RedisQuotaStore> {
    const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    // Until connected, keep the first error to explain a failed connect (ioredis itself only
    // says "Connection is closed"); after that, report errors to the caller's handler.
    let first: Error | undefined;
    const early = (err: Error) => void (first ??= err);
    redis.on('error', early);
    try {
      await redis.connect();
      await redis.ping();
    } catch (err) {
      redis.disconnect();
      throw first ?? err;
    } finally {
      redis.off('error', early);
    }
    redis.on('error', options.onError ?? (() => {}));
    return new RedisQuotaStore(redis, options);
  }

  async hit(id: string, windowSeconds: number, limit: number): Promise<QuotaResult> {
    const [count, msLeft] = await (this.redis as WithHit).quotaHit(this.prefix + id, windowSeconds * 1000);
    return quotaResult(count, limit, msLeft);
  }

  async close(): Promise<void> {
    if (this.redis.status === 'end') return;
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}
