/** The outcome of counting one request against a key's quota. */
export interface QuotaResult {
  /** Whether this request is within the quota. */
  allowed: boolean;
  /** Requests left in the current window after this one (0 once exhausted). */
  remaining: number;
  /** Whole seconds until the window ends and the count starts again (at least 1). */
  resetSeconds: number;
}

/**
 * Where request counts live. `hit` counts one request for `id` in a fixed window of
 * `windowSeconds` that starts with the window's first request, and must be atomic: N concurrent
 * hits against a limit of Q admit exactly min(N, Q).
 */
export interface QuotaStore {
  hit(id: string, windowSeconds: number, limit: number): Promise<QuotaResult>;
  /** Releases connections or timers, if any, within `timeoutMs` if given. */
  close?(timeoutMs?: number): Promise<void>;
}

/** Turns a count and the window's remaining time into a result. */
export function quotaResult(count: number, limit: number, msLeft: number): QuotaResult {
  return {
    allowed: count <= limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil(msLeft / 1000)),
  };
}

/**
 * Counts in this process's memory: the default, for a single server. Atomic because `hit` runs to
 * completion on the one JavaScript thread. A window that has ended is reset on its id's next hit.
 * Ids are keys' digests, and keys' digests with a client's address (a key bounded per client):
 * those come and go, so ended windows are swept whenever the map has doubled since the last
 * sweep (amortized, one pass per as many new windows), which bounds it by twice the ids live in a
 * window.
 */
export class MemoryQuotaStore implements QuotaStore {
  private windows = new Map<string, { count: number; end: number }>();
  private sweepAt = 1024;
  private now: () => number;

  /** @param now the clock in milliseconds (default `Date.now`) */
  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  hit(id: string, windowSeconds: number, limit: number): Promise<QuotaResult> {
    const t = this.now();
    let w = this.windows.get(id);
    if (!w || w.end <= t) {
      if (!w && this.windows.size >= this.sweepAt) this.sweep(t);
      w = { count: 0, end: t + windowSeconds * 1000 };
      this.windows.set(id, w);
    }
    w.count++;
    return Promise.resolve(quotaResult(w.count, limit, w.end - t));
  }

  /** How many windows it holds, ended ones not yet swept included. */
  get size(): number {
    return this.windows.size;
  }

  private sweep(t: number): void {
    for (const [id, w] of this.windows) if (w.end <= t) this.windows.delete(id);
    this.sweepAt = Math.max(1024, this.windows.size * 2);
  }
}

/**
 * The quota store cannot count right now (it timed out, refused or is disconnected). The app
 * answers 503 with `Retry-After: retryAfter`: quotas fail closed, see the README.
 */
export class QuotaUnavailableError extends Error {
  /** Seconds after which the store is worth trying again. */
  readonly retryAfter: number;
  constructor(message: string, retryAfter: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'QuotaUnavailableError';
    this.retryAfter = retryAfter;
  }
}
