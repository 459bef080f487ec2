import type { Redis } from 'ioredis';
import { QuotaUnavailableError, quotaResult, type QuotaResult, type QuotaStore } from './quota.js';

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
  /**
   * Longest wait for a command while Redis answers nothing at all, before the store counts as
   * unavailable (default 250 ms).
   */
  timeoutMs?: number;
  /**
   * Longest wait for a command while Redis keeps answering the commands sent before it, i.e. is
   * slow, not gone (default 1000 ms); past it the store counts as unavailable too.
   */
  slowMs?: number;
  /**
   * How long the store stays unavailable after a failed command before one request tries Redis
   * again (default 1000 ms); the `Retry-After` of the 503s meanwhile.
   */
  retryMs?: number;
}

/**
 * Counts in Redis, so that several server instances behind a load balancer share one quota per
 * key. Each hit is a Lua script (`EVALSHA`, loaded once), which Redis runs atomically.
 *
 * Every command is bounded: a stalled or lost Redis makes `hit` reject with a
 * `QuotaUnavailableError`, never wait. A slow answer is told from a missing one: the wait is
 * judged only after this process has read what its socket holds (a timer can fire before a busy
 * event loop reads an answer that came in time), and a command queued behind others that Redis
 * is still answering waits up to `slowMs` instead of `timeoutMs`. After a failure the store does
 * not send commands for `retryMs` (they would pile up in a stalled server's socket and be
 * counted when it resumes), then lets one request try again: the first that succeeds ends the
 * outage.
 */
export class RedisQuotaStore implements QuotaStore {
  readonly redis: Redis;
  private prefix: string;
  private timeoutMs: number;
  private slowMs: number;
  private retryMs: number;
  /** When (performance.now()) bytes last came from Redis: it is answering (something). */
  private answered = 0;
  /** Until when (ms) the store answers unavailable without asking Redis; 0 while healthy. */
  private downUntil = 0;
  private downReason = '';
  private probing = false;

  /** @param redis a connected client; `close()` disconnects it */
  constructor(redis: Redis, options: RedisQuotaOptions = {}) {
    this.redis = redis;
    this.prefix = options.prefix ?? 'nepal-places:quota:';
    this.timeoutMs = options.timeoutMs ?? 250;
    this.slowMs = Math.max(this.timeoutMs, options.slowMs ?? 1000);
    this.retryMs = options.retryMs ?? 1000;
    if (!('quotaHit' in redis)) redis.defineCommand('quotaHit', { numberOfKeys: 1, lua: HIT });
    // Any answer on the connection is a sign of life, this store's or another command's queued
    // before ours (ioredis tells no event per reply; one listener per read is cheap).
    const watched = new WeakSet<object>();
    const watch = () => {
      const stream = redis.stream;
      if (!stream || watched.has(stream)) return;
      watched.add(stream);
      stream.on('data', () => void (this.answered = performance.now()));
    };
    watch();
    redis.on('connect', watch);
  }

  /**
   * Connects to `url` (e.g. `redis://127.0.0.1:6379/0`) and waits until the server answers.
   * Commands fail at once while the connection is down (no offline queue), so a request never
   * hangs on a lost Redis: it fails, and the client keeps reconnecting in the background.
   * @param onError told of connection errors after the first connect
   * @throws when the first connection fails
   */
  static async connect(url: string, options: RedisQuotaOptions & { onError?: (err: Error) => void } = {}): Promise<RedisQuotaStore> {
    // Loaded here, not with this module: ioredis defines a class extending String, which slows
    // string code (charCodeAt) in the whole process; a server without Redis does without it.
    const { Redis } = await import('ioredis');
    const redis = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      // Reconnect quickly and forever: the store recovers by itself once Redis is back.
      retryStrategy: (times) => Math.min(times * 100, 1000),
    });
    // Until connected, keep the first error to explain a failed connect (ioredis itself only
    // says "Connection is closed"); after that, report errors to the caller's handler.
    let first: Error | undefined;
    const early = (err: Error) => void (first ??= err);
    redis.on('error', early);
    try {
      await redis.connect();
      await withTimeout(redis.ping(), 2000, 'PING');
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
    if (this.downUntil !== 0 && (this.probing || Date.now() < this.downUntil)) {
      throw new QuotaUnavailableError(`redis: ${this.downReason}`, Math.ceil(this.retryMs / 1000));
    }
    const probe = this.downUntil !== 0;
    if (probe) this.probing = true;
    try {
      const hit = (this.redis as WithHit).quotaHit(this.prefix + id, windowSeconds * 1000);
      const [count, msLeft] = await this.bounded(hit);
      this.downUntil = 0;
      return quotaResult(count, limit, msLeft);
    } catch (err) {
      this.downReason = (err as Error).message;
      this.downUntil = Date.now() + this.retryMs;
      throw new QuotaUnavailableError(`redis: ${this.downReason}`, Math.ceil(this.retryMs / 1000), { cause: err });
    } finally {
      if (probe) this.probing = false;
    }
  }

  /**
   * `command`'s answer, or a rejection once Redis has answered nothing for `timeoutMs` since it
   * was sent (it is written to the socket at once: no offline queue), or `slowMs` have passed.
   */
  private bounded<T>(command: Promise<T>): Promise<T> {
    const sent = performance.now();
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      // Timers run before a turn of the event loop reads its sockets: after a turn longer than the
      // bound (a burst on a busy CPU) the timer fires while the answer waits unread. So it is
      // judged on the next check phase, after this turn's reads.
      const judge = () =>
        setImmediate(() => {
          if (settled) return;
          const now = performance.now();
          const quiet = now - Math.max(sent, this.answered);
          if (quiet < this.timeoutMs && now - sent < this.slowMs) {
            // Redis answered commands sent before ours meanwhile: slow, not gone.
            timer = setTimeout(judge, Math.min(this.timeoutMs - quiet, this.slowMs - (now - sent)));
            return;
          }
          settled = true;
          reject(
            new Error(
              now - sent < this.slowMs
                ? `quota command timed out after ${this.timeoutMs} ms`
                : `quota command timed out after ${this.slowMs} ms (Redis answers slowly)`,
            ),
          );
        });
      timer = setTimeout(judge, this.timeoutMs);
      command.then(
        (value) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(value);
        },
        (err: unknown) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          reject(err);
        },
      );
    });
  }

  /**
   * Says goodbye to Redis (`QUIT`), but waits at most `timeoutMs` (default 500) for its answer
   * and then drops the connection: a stalled Redis cannot hold up a shutdown.
   */
  async close(timeoutMs = 500): Promise<void> {
    if (this.redis.status === 'end') return;
    try {
      await withTimeout(this.redis.quit(), timeoutMs, 'QUIT');
    } catch {
      // No answer in time: drop the connection. ioredis' disconnect() only half-closes the socket
      // (a stopped server never closes its side), so the socket itself is destroyed.
      this.redis.disconnect();
      this.redis.stream?.destroy();
    }
  }
}

/** `promise`, or a rejection naming `what` once `ms` have passed without an answer. */
function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
  });
  promise.catch(() => {}); // a late rejection after the timeout is not an unhandled one
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
