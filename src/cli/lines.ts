/**
 * Lines for standard output written in batches: every line of one turn of the event loop in one
 * write. A server logs a line per request; written one by one to a pipe (synchronous on Linux)
 * they cost a system call each, a twentieth of a request's time (bench/throughput.ts).
 */

/** Largest batch held before it is written at once, in UTF-16 units. */
const MAX_PENDING = 64 * 1024;

/** A batching line writer. */
export interface Lines {
  /** Queues `line` and a newline; written by the end of this turn of the event loop. */
  line(line: string): void;
  /** Writes whatever is queued, now. */
  flush(): void;
}

/**
 * Batches lines for `write` (e.g. `process.stdout.write`), in order. Queued lines are written
 * after the current turn of the event loop, when 64 KiB are queued, on `flush()`, and when the
 * process exits normally or on an uncaught error.
 */
export function batchedLines(write: (text: string) => void): Lines {
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
        setImmediate(flush);
      }
    },
    flush,
  };
}
