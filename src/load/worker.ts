import { parentPort } from 'node:worker_threads';
import { inflateBlob } from './blob.js';
import { decodeBlock, blockBuffers } from './block.js';

/** A job for a decoder thread: one blob's bytes. */
export interface Job {
  seq: number;
  bytes: Uint8Array;
  /** `decodeBlock`'s keep policy (default: places). */
  keep?: number;
}

/** The answer of a decoder thread. */
export type Done = { seq: number; block: import('./block.js').Block } | { seq: number; error: string };

// Each thread inflates and decodes whole blobs: PBF blobs are independent, so the
// file decodes in parallel with no shared state, and the results come back as
// transferred typed arrays (no copy).
parentPort?.on('message', (job: Job) => {
  let msg: Done;
  try {
    const block = decodeBlock(inflateBlob(job.bytes), job.keep);
    parentPort!.postMessage({ seq: job.seq, block } satisfies Done, blockBuffers(block));
    return;
  } catch (err) {
    msg = { seq: job.seq, error: (err as Error).message };
  }
  parentPort!.postMessage(msg);
});
