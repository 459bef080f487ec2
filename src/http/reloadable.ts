/** What `Reloadable.reload()` did: swapped in the new value, or kept the old one and why. */
export type ReloadOutcome<T> = { ok: true; value: T; previous: T } | { ok: false; error: unknown; value: T };

/** A value in use by one request: `release()` it when the request is done (once is enough). */
export interface Lease<T> {
  readonly value: T;
  release(): void;
}

/** Options of `Reloadable`. */
export interface ReloadableOptions<T> {
  /**
   * Called with a replaced value once the last request using it has released it (e.g. to close
   * a tile archive's file); a value nothing holds, like an index, needs none.
   */
  dispose?: (old: T) => void | Promise<void>;
  /** Told when `dispose` throws or rejects. */
  onError?: (err: unknown) => void;
  /**
   * A load that takes longer fails with a `ReloadAbortedError` and its signal aborts, so that
   * it can stop (a file that never ends, a stuck read); the reloads after it run (default: none).
   */
  timeoutMs?: number;
}

/** A reload gave up: the load took longer than `timeoutMs`, or `close()` stopped it. */
export class ReloadAbortedError extends Error {
  override name = 'ReloadAbortedError';
}

// One loaded value and the requests still using it.
interface Generation<T> {
  value: T;
  leases: number;
  retired: boolean;
}

/**
 * A value loaded from somewhere (the served index, a tile archive) that can be reloaded while
 * it is in use: `reload()` loads the new value completely beside the old one and only then swaps
 * it in, in one assignment. A request takes a `Lease` at its start and uses that value to its
 * end, so in-flight requests finish on the old value while new ones get the new; a load that
 * fails keeps the old value. Reloads do not overlap: one asked for during another runs after it
 * (a load given up on, by `timeoutMs` or `close()`, is told to stop by its signal and no longer waited for).
 */
export class Reloadable<T> {
  private gen: Generation<T>;
  private readonly load: (signal: AbortSignal) => Promise<T>;
  private readonly dispose?: (old: T) => void | Promise<void>;
  private readonly onError?: (err: unknown) => void;
  private readonly timeoutMs?: number;
  private running?: Promise<ReloadOutcome<T>>;
  private queued?: Promise<ReloadOutcome<T>>;
  // aborts the load in progress; set while one runs
  private stop?: (why: Error) => void;
  private closed = false;

  /**
   * @param value the value loaded at start
   * @param load loads a fresh value (e.g. reads the file again); rejects when it cannot, and
   *   should stop when `signal` aborts (a time-out, `close()`)
   */
  constructor(value: T, load: (signal: AbortSignal) => Promise<T>, options: ReloadableOptions<T> = {}) {
    const { timeoutMs } = options;
    if (timeoutMs !== undefined && !(timeoutMs > 0)) throw new TypeError(`Reloadable: timeoutMs must be positive, got ${timeoutMs}`);
    this.gen = { value, leases: 0, retired: false };
    this.load = load;
    this.dispose = options.dispose;
    this.onError = options.onError;
    this.timeoutMs = timeoutMs;
  }

  /** The value new requests get. */
  get current(): T {
    return this.gen.value;
  }

  /** The current value, held until `release()`: a reload meanwhile does not dispose of it. */
  acquire(): Lease<T> {
    const gen = this.gen;
    gen.leases++;
    let held = true;
    return {
      value: gen.value,
      release: () => {
        if (!held) return;
        held = false;
        gen.leases--;
        this.retire(gen);
      },
    };
  }

  /**
   * Loads a new value and swaps it in; on failure keeps the current one. Resolves (never
   * rejects) with the outcome. Called during a reload, it waits for that one and then loads
   * again (the file may have changed since that load began); further calls meanwhile share it.
   */
  reload(): Promise<ReloadOutcome<T>> {
    if (this.running) {
      return (this.queued ??= this.running.then(() => {
        this.queued = undefined;
        return this.reload();
      }));
    }
    const run = this.swap().finally(() => {
      this.running = undefined;
    });
    this.running = run;
    return run;
  }

  /**
   * Stops the load in progress (its signal aborts, its reload fails at once) and refuses later
   * reloads: for a shutdown, which should not wait for a load nobody will use.
   */
  close(): void {
    this.closed = true;
    this.stop?.(new ReloadAbortedError('stopped: the server is shutting down'));
  }

  private async swap(): Promise<ReloadOutcome<T>> {
    if (this.closed) return { ok: false, error: new ReloadAbortedError('stopped: the server is shutting down'), value: this.gen.value };
    let value: T;
    const control = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    try {
      // the first of the load, its time-out and close(): a load that ignores its signal is left behind
      value = await new Promise<T>((resolve, reject) => {
        this.stop = (why) => {
          reject(why);
          control.abort(why);
        };
        if (this.timeoutMs !== undefined) {
          timer = setTimeout(() => this.stop!(new ReloadAbortedError(`gave up after ${fmtMs(this.timeoutMs!)}`)), this.timeoutMs).unref();
        }
        this.load(control.signal).then((v) => {
          // too late: what it loaded is disposed of as soon as it comes
          if (control.signal.aborted) this.retire({ value: v, leases: 0, retired: true });
          else resolve(v);
        }, reject);
      });
    } catch (error) {
      return { ok: false, error, value: this.gen.value };
    } finally {
      clearTimeout(timer);
      this.stop = undefined;
    }
    const old = this.gen;
    this.gen = { value, leases: 0, retired: false };
    old.retired = true;
    this.retire(old);
    return { ok: true, value, previous: old.value };
  }

  private retire(gen: Generation<T>): void {
    if (!gen.retired || gen.leases > 0 || !this.dispose) return;
    // once only: a generation is disposed when it is retired and its last lease is gone
    gen.retired = false;
    void Promise.resolve()
      .then(() => this.dispose!(gen.value))
      .catch((err: unknown) => this.onError?.(err));
  }
}

function fmtMs(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} min` : ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
