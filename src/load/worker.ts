import { parentPort, type MessagePort } from 'node:worker_threads';
import { inflateBlob } from './blob.js';
import { decodeBlock, blockBuffers, BlockDecoder, type Block, type Keep } from './block.js';
import { readFile } from './frames.js';

/** The first message to a decoder thread: what to keep, and a flag the caller sets to cancel the load. */
export interface Setup {
  keep: Keep;
  /** One Int32: non-zero once the load has failed; jobs after that are skipped, not decoded. */
  cancel: SharedArrayBuffer;
  /** The open file the blobs are read from, when the jobs give where they are rather than their bytes. */
  fd?: number;
}

/** A job for a decoder thread: one blob's bytes, or where they are in the file. */
export type Job = { seq: number; bytes: Uint8Array } | { seq: number; at: number; length: number };

/** The answer of a decoder thread to each job, in order. */
export type Done = { seq: number; block: Block } | { seq: number; error: string; code?: string } | { seq: number; skipped: true };

// Each thread inflates and decodes whole blobs: PBF blobs are independent, so the
// file decodes in parallel with no shared state, and the results come back as
// transferred typed arrays (no copy). A thread's decoder is reused block after block:
// it handles one job at a time.
function serve(port: MessagePort): void {
  const decoder = new BlockDecoder();
  let setup: Setup | undefined;
  let cancel: Int32Array | undefined;
  port.on('message', (msg: Setup | Job) => {
    if ('keep' in msg) {
      setup = msg;
      cancel = new Int32Array(msg.cancel);
      return;
    }
    const job = msg;
    // a failed load lets its threads drain their queues rather than be terminated mid-inflate
    if (!setup || Atomics.load(cancel!, 0)) {
      port.postMessage({ seq: job.seq, skipped: true } satisfies Done);
      return;
    }
    let done: Done;
    try {
      const bytes = 'bytes' in job ? job.bytes : readFile(setup.fd!, job.at, job.length);
      const block = decodeBlock(inflateBlob(bytes), setup.keep, decoder);
      port.postMessage({ seq: job.seq, block } satisfies Done, blockBuffers(block));
      return;
    } catch (err) {
      done = { seq: job.seq, error: (err as Error).message, code: (err as NodeJS.ErrnoException).code };
    }
    port.postMessage(done);
  });
}

if (parentPort) serve(parentPort);
