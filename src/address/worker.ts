import { parentPort } from 'node:worker_threads';
import { computeAddresses, type AddressInput } from './assign.js';

// Computes the addresses of a run of a table's rows off the main thread, which meanwhile builds
// the type, lookup and search indexes (the two need nothing of each other), then the rest.
parentPort?.once('message', ({ input, run }: { input: AddressInput; run: { from: number; to: number } }) => {
  computeAddresses(input, undefined, run).then(
    (list) =>
      parentPort!.postMessage(
        { list },
        list.rows.map((r) => r.buffer as ArrayBuffer),
      ),
    (err: unknown) => parentPort!.postMessage({ error: (err as Error).message }),
  );
});
