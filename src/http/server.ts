import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { serve as nodeServe } from '@hono/node-server';
import { envelope } from './envelope.js';

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
  /** Largest request line plus headers in bytes (default 64 KiB; Node's own default is 16 KiB). */
  maxHeaderSize?: number;
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
  const { port = 8080, host = '127.0.0.1', signals = ['SIGTERM', 'SIGINT'], graceMs = 10_000, onClose, maxHeaderSize = 65_536 } = options;
  const server = await new Promise<Server>((resolve, reject) => {
    const s = nodeServe({ fetch: app.fetch, port, hostname: host, serverOptions: { maxHeaderSize } }) as Server;
    s.on('clientError', clientError);
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

// Requests Node refuses before they reach the app (too large, not HTTP) get an envelope too,
// instead of Node's bare status line.
function clientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable || (err.code === 'ECONNRESET')) {
    socket.destroy();
    return;
  }
  const [status, message] = err.code === 'HPE_HEADER_OVERFLOW'
    ? [431, 'Request header fields too large: the URL and headers must fit in the server limit']
    : [400, 'Bad request: not a well-formed HTTP request'];
  const body = JSON.stringify(envelope(status, message, [], Date.now()));
  socket.end(
    `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
