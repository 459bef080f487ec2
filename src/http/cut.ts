/**
 * Where `serve()` lets the app hear that a response's connection closed before the answer was
 * written: the app sets a function under this symbol on the Node response (`env.outgoing`), and
 * `serve()`, which listens to every response's 'close' anyway (to drain on shutdown), calls it.
 * A listener of the app's own per request would cost a twentieth of a request's time
 * (bench/throughput.ts). A response without the symbol (another server) is listened to instead.
 */
export const CUT = Symbol.for('nepal-places.cut');

/** A Node response as the app sees it in `env.outgoing`: `serve()`'s carry `CUT`. */
export interface Outgoing {
  [CUT]?: (() => void) | null;
  once?(event: 'close', f: () => void): unknown;
}
