import { parentPort, type MessagePort } from 'node:worker_threads';
import { inflateBlob } from './blob.js';
import { decodeBlock, blockBuffers, BlockDecoder } from './block.js';

/** A job for a decoder thread: one blob's bytes. */
export interface Job {
  seq: number;
  bytes: Uint8Array;
  /** `decodeBlock`'s keep policy (default: places). */
  keep?: number;
}

/** The answer of a decoder thread. */
export type Done = { seq: number; block: import('./block.js').Block } | { seq: number; error: string; code?: string };

// Each thread inflates and decodes whole blobs: PBF blobs are independent, so the
// file decodes in parallel with no shared state, and the results come back as
// transferred typed arrays (no copy). A thread's decoder is reused block after block:
// it handles one job at a time.
function serve(port: MessagePort): void {
  const decoder = new BlockDecoder();
  port.on('message', (job: Job) => {
    let msg: Done;
    try {
      const block = decodeBlock(inflateBlob(job.bytes), job.keep, decoder);
      port.postMessage({ seq: job.seq, block } satisfies Done, blockBuffers(block));
      return;
    } catch (err) {
      msg = { seq: job.seq, error: (err as Error).message, code: (err as NodeJS.ErrnoException).code };
    }
    port.postMessage(msg);
  });
}

if (parentPort) serve(parentPort);
