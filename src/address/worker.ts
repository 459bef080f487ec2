import { parentPort } from 'node:worker_threads';
import { computeAddresses, type AddressInput } from './assign.js';

// Computes a table's addresses off the main thread, which meanwhile builds the type,
// lookup and search indexes: the two need nothing of each other.
parentPort?.once('message', (input: AddressInput) => {
  computeAddresses(input).then(
    (list) =>
      parentPort!.postMessage({ list }, [list.list.buffer as ArrayBuffer, list.en.buffer as ArrayBuffer, list.ne.buffer as ArrayBuffer]),
    (err: unknown) => parentPort!.postMessage({ error: (err as Error).message }),
  );
});
