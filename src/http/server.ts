import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { serve as nodeServe } from '@hono/node-server';

/** Anything with a Web-standard `fetch`, e.g. the app of `createApp()`. */
export interface Fetcher {
  fetch: (request: Request) => Response | Promise<Response>;
}

/** Options of `serve()`. */
export interface ServeOptions {
  /** Port to listen on; 0 picks a free one (default 8080). */
  port?: number;
  /** Address to listen on (default `127.0.0.1`). */
  host?: string;
  /**
   * Signals that shut the server down gracefully (default `['SIGTERM', 'SIGINT']`); `[]` for none,
   * e.g. when embedding or testing.
   */
  signals?: NodeJS.Signals[];
  /** Longest wait for in-flight requests on shutdown before their connections are cut (default 10 s). */
  graceMs?: number;
  /** Called once the server has closed (e.g. to close a quota store). */
  onClose?: () => Promise<void> | void;
}

/** A running server. */
export interface Running {
  server: Server;
  /** The address actually bound (useful with port 0). */
  host: string;
  port: number;
  /** `http://host:port`. */
  origin: string;
  /**
   * Stops gracefully: stops accepting connections, lets in-flight requests finish (closing each
   * keep-alive connection once idle), then runs `onClose`. Resolves when all is closed; calling it
   * again returns the same promise.
   */
  close(): Promise<void>;
  /** Resolves when the server has closed, whoever closed it (e.g. a SIGTERM). */
  closed: Promise<void>;
}

/**
 * Serves an app over HTTP/1.1 with `@hono/node-server`, and shuts it down gracefully on SIGTERM
 * (and SIGINT): no new connections, in-flight requests finish, then the process can exit 0.
 * @throws when the address cannot be bound (e.g. `EADDRINUSE`)
 */
export async function serve(app: Fetcher, options: ServeOptions = {}): Promise<Running> {
  const { port = 8080, host = '127.0.0.1', signals = ['SIGTERM', 'SIGINT'], graceMs = 10_000, onClose } = options;
  const server = await new Promise<Server>((resolve, reject) => {
    const s = nodeServe({ fetch: app.fetch, port, hostname: host }) as Server;
    s.once('error', reject);
    s.once('listening', () => {
      s.off('error', reject);
      resolve(s);
    });
  });
  const address = server.address() as AddressInfo;
  const bound = address.address;

  let closing: Promise<void> | undefined;
  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  const onSignal = () => void close();
  for (const s of signals) process.on(s, onSignal);

  function close(): Promise<void> {
    closing ??= (async () => {
      for (const s of signals) process.off(s, onSignal);
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // close() stops listening and drops idle keep-alive connections; a connection busy with a
      // request becomes idle when its response is sent, so keep dropping idle ones until the
      // last in-flight request is done, and cut whatever is left after the grace period.
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      const cut = setTimeout(() => server.closeAllConnections(), graceMs);
      try {
        await stopped;
      } finally {
        clearInterval(sweep);
        clearTimeout(cut);
      }
      await onClose?.();
      done();
    })();
    return closing;
  }

  return {
    server,
    host: bound,
    port: address.port,
    origin: `http://${bound.includes(':') ? `[${bound}]` : bound}:${address.port}`,
    close,
    closed,
  };
}
