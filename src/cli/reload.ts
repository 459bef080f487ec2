/**
 * What `serve` reloads on SIGHUP: each file it serves (`--data`, and later `--tiles`) behind a
 * `Reloadable`, loaded anew beside the old one and swapped in whole; a file that fails to load
 * leaves the old data serving and is logged with why.
 */
import type { Reloadable } from '../http/reloadable.js';

/** One served file and how to say what it holds (`5,531 places`). */
export interface Served<T> {
  /** The option that named it, e.g. `--data`. */
  flag: string;
  file: string;
  source: Reloadable<T>;
  describe(value: T): string;
}

/** The files a server reloads on SIGHUP. */
export class Reloads {
  // each file's source has its own value type, which the reloads only pass through (a dispose
  // taking T is no dispose taking unknown)
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private served: Served<any>[] = [];
  private readonly out: (line: string) => void;
  private readonly fail: (line: string) => void;
  private readonly who: string;

  /**
   * @param out a line on standard output (`nepal-places: …`)
   * @param fail a line on standard error (`nepal-places serve: …`)
   * @param who names this process in the lines, e.g. `worker 2: ` (default: nothing)
   */
  constructor(out: (line: string) => void, fail: (line: string) => void, who = '') {
    this.out = out;
    this.fail = fail;
    this.who = who;
  }

  /** Adds a file to reload. */
  add<T>(served: Served<T>): void {
    this.served.push(served);
  }

  /** Stops the reloads in progress (their loads are terminated) and refuses later ones: for a shutdown. */
  stop(): void {
    for (const s of this.served) s.source.close();
  }

  /** The SIGHUP handler: reloads every file, each on its own; logs each outcome. */
  readonly signal = (): void => void this.reload();

  /** Reloads every file; resolves when all are done (never rejects). */
  async reload(): Promise<void> {
    if (!this.served.length) {
      this.out(`nepal-places: ${this.who}SIGHUP before the data is loaded; nothing to reload`);
      return;
    }
    await Promise.all(
      this.served.map(async (s) => {
        this.out(`nepal-places: ${this.who}reloading ${s.flag} ${s.file} ...`);
        const start = performance.now();
        const r = await s.source.reload();
        const ms = (performance.now() - start).toFixed(0);
        if (r.ok)
          this.out(
            `nepal-places: ${this.who}reloaded ${s.flag} ${s.file}: ${s.describe(r.value)} (was ${s.describe(r.previous)}) in ${ms} ms`,
          );
        else {
          const why = r.error instanceof Error ? r.error.message : String(r.error);
          this.fail(
            `${this.who}reload of ${s.flag} ${s.file} failed after ${ms} ms; still serving the previous data (${s.describe(r.value)}): ${why}`,
          );
        }
      }),
    );
  }
}
