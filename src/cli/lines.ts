/**
 * Lines for standard output written in batches: every line of a short window (`windowMs`, or one
 * turn of the event loop) in one write. A server logs a line per request. Standard output is
 * most often a pipe (a terminal, a log shipper, systemd), which Node writes synchronously on
 * Linux: a write per line costs a system call and a wake-up of the reader each, and a reader
 * that falls behind blocks the server until it reads. Under load, batches of one turn still
 * came a few lines each; a window of 25 ms makes them hundreds (bench/throughput.ts).
 */

/** Largest batch held before it is written at once, in UTF-16 units. */
const MAX_PENDING = 64 * 1024;

/** A batching line writer. */
export interface Lines {
  /** Queues `line` and a newline; written by the end of the window (or of this turn of the event loop). */
  line(line: string): void;
  /** Writes whatever is queued, now. */
  flush(): void;
}

/**
 * Batches lines for `write` (e.g. `process.stdout.write`), in order. Queued lines are written
 * `windowMs` after the first of them (default 0: after the current turn of the event loop), when
 * 64 KiB are queued, on `flush()`, and when the process exits normally or on an uncaught error.
 * The window's timer does not keep the process alive.
 */
export function batchedLines(write: (text: string) => void, windowMs = 0): Lines {
  let pending = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending === '') return;
    const text = pending;
    pending = '';
    write(text);
  };
  process.on('exit', flush);
  return {
    line(line: string) {
      pending += `${line}\n`;
      if (pending.length >= MAX_PENDING) flush();
      else if (!scheduled) {
        scheduled = true;
        if (windowMs > 0) setTimeout(flush, windowMs).unref();
        else setImmediate(flush);
      }
    },
    flush,
  };
}
