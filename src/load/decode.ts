import type { Worker } from 'node:worker_threads';
import { startThread } from './thread.js';
import { availableParallelism } from 'node:os';
import { inflateBlob, BlobError } from './blob.js';
import { decodeBlock, BlockDecoder, type Block, type Keep } from './block.js';
import { bufferSource, type ByteSource, type Frame } from './frames.js';
import type { Job, Done, Setup } from './worker.js';

/** Below this many bytes, starting threads costs more than it saves. */
const THREAD_MIN_BYTES = 4 * 1024 * 1024;

/** Blobs queued per decoder thread (measured on the Nepal-scale file: 2 → 5.4 s, 8 → 5.0 s, 32 → 4.8 s). */
const IN_FLIGHT = 32;

/** How many decoder threads to use for a file of `bytes` bytes. */
export function defaultWorkers(bytes: number): number {
  return bytes < THREAD_MIN_BYTES ? 0 : Math.max(1, Math.min(availableParallelism(), 8));
}

/**
 * Inflates and decodes the data blobs of a PBF on `workers` threads (0: on this
 * thread), handing each decoded block to `take(seq, block)` in file order as soon
 * as it and all blocks before it are done, so the caller works while the threads
 * decode what follows. A blob that fails, or a `take` that throws, rejects and
 * stops the threads. `keep` says whose tags to keep (`decodeBlock`).
 *
 * A failed load does not terminate its threads while they inflate: Node 20 can abort the
 * whole process when a thread is terminated inside zlib ("close before init"). It raises a
 * shared cancel flag instead; each thread finishes its current blob, skips the rest of its
 * queue, and is terminated once it has answered every job it was given.
 */
export async function decodeFrames(
  from: Uint8Array | ByteSource,
  frames: Frame[],
  workers: number,
  take: (seq: number, b: Block) => void,
  keep: Keep,
): Promise<void> {
  if (workers <= 0 || frames.length < 2) {
    const decoder = new BlockDecoder(); // its lists reused block after block
    for (let i = 0; i < frames.length; i++) {
      const f = frames[i];
      let block: Block;
      try {
        const blob = from instanceof Uint8Array ? from.subarray(f.offset, f.offset + f.length) : from.read(f.offset, f.length);
        block = decodeBlock(inflateBlob(blob), keep, decoder);
      } catch (err) {
        throw atOffset(f, err);
      }
      take(i, block);
    }
    return;
  }
  // The file and the caller's `take` (through which every decoded block is reachable), held for
  // the threads' listeners (and named nowhere else in them) and let go once the load is over: a
  // terminated thread keeps its listeners until it has exited, a turn of the event loop later,
  // and meanwhile the caller's next phase would run with the file and all its blocks unfreeable.
  let held: { src: ByteSource; take: (seq: number, b: Block) => void } | undefined = {
    src: from instanceof Uint8Array ? bufferSource(from) : from,
    take,
  };
  return new Promise<void>((resolve, reject) => {
    const pool = startWorkers(Math.min(workers, frames.length));
    const cancel = new SharedArrayBuffer(4);
    const pending = new Map<Worker, number>(); // jobs given and not yet answered, per thread
    let next = 0;
    let out = 0; // the next block to hand over
    const ready = new Map<number, Block>();
    let failed = false;
    let stopping = false;
    // ends each thread once it is idle (at once when the load is done: they all are)
    const stop = () => {
      stopping = true;
      held = undefined;
      ready.clear();
      Atomics.store(new Int32Array(cancel), 0, 1);
      for (const w of pool) if (!pending.get(w)) void w.terminate();
    };
    const answered = (w: Worker) => {
      const left = pending.get(w)! - 1;
      pending.set(w, left);
      if (stopping && left === 0) void w.terminate();
    };
    const fd = held!.src.fd;
    const feed = (w: Worker) => {
      if (failed || next >= frames.length) return;
      const seq = next++;
      const f = frames[seq];
      // a file's blobs are read by the threads (this thread has the blocks to build from)
      if (fd !== undefined) {
        pending.set(w, (pending.get(w) ?? 0) + 1);
        w.postMessage({ seq, at: f.offset, length: f.length } satisfies Job);
        return;
      }
      // bytes in memory: the blob alone, copied into a buffer of its own and transferred, so that a
      // buffer given is neither cloned nor detached
      let bytes: Uint8Array;
      try {
        bytes = held!.src.read(f.offset, f.length);
      } catch (err) {
        failed = true;
        stop();
        reject(atOffset(f, err));
        return;
      }
      pending.set(w, (pending.get(w) ?? 0) + 1);
      w.postMessage({ seq, bytes } satisfies Job, [bytes.buffer as ArrayBuffer]);
    };
    for (const w of pool) {
      w.postMessage({ keep, cancel, fd } satisfies Setup);
      w.on('message', (msg: Done) => {
        answered(w);
        if (failed || 'skipped' in msg) return;
        if ('error' in msg) {
          failed = true;
          stop();
          reject(atOffset(frames[msg.seq], msg.error, msg.code));
          return;
        }
        feed(w);
        ready.set(msg.seq, msg.block);
        try {
          for (let b; (b = ready.get(out)); out++) {
            ready.delete(out);
            held!.take(out, b);
          }
        } catch (err) {
          failed = true;
          stop();
          reject(err);
          return;
        }
        if (out === frames.length) {
          stop();
          resolve();
        }
      });
      w.on('error', (err) => {
        pending.set(w, 0); // a thread that died answers nothing more
        if (failed) return void w.terminate();
        failed = true;
        stop();
        reject(new Error(`decoder thread failed: ${err.message}`));
      });
      // several jobs in flight per thread: the main thread builds places from the blocks
      // it gets and answers late, and a thread should not sit idle meanwhile
      for (let k = 0; k < IN_FLIGHT; k++) feed(w);
    }
  });
}

// A blob's failure, saying where the blob is; zlib's or Node's code is kept (from a
// thread only its message and code come back: an Error loses its fields in between).
function atOffset(f: Frame, err: unknown, code = (err as NodeJS.ErrnoException).code): BlobError {
  const message = err instanceof Error ? err.message : String(err);
  return new BlobError(`blob at offset ${f.offset}: ${message}`, { cause: err instanceof Error ? err : undefined, code });
}

function startWorkers(n: number): Worker[] {
  return Array.from({ length: n }, () => startThread(import.meta.url, 'worker'));
}
