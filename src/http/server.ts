import { createServer, ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { getRequestListener, RequestError } from '@hono/node-server';
import type { ExecutionContext } from 'hono';
import { envelope } from './envelope.js';

/**
 * Anything with a Web-standard `fetch`, e.g. the app of `createApp()`; with `rejected` (as that
 * app has), requests the server refuses before the app sees them are answered and logged by it.
 */
export interface Fetcher {
  /** Answers a request; `env` is the runtime's (under Node, `{ incoming, outgoing }`), `ctx` its execution context. */
  fetch: (request: Request, env?: unknown, ctx?: ExecutionContext) => Response | Promise<Response>;
  rejected?: (status: number, message: string, method?: string, target?: string) => Response;
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
  /**
   * Called once the server has closed (e.g. to close a quota store), with the milliseconds left
   * of the grace period; not waited for beyond it.
   */
  onClose?: (msLeft: number) => Promise<void> | void;
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
   * Stops gracefully: stops accepting connections; from then on every answer says
   * `Connection: close` and ends its connection (a FIN after the answer); idle keep-alive
   * connections are closed after a short linger (`LINGER_MS`) in which a request already on its
   * way is still answered; in-flight requests finish; what is left at the grace period is cut;
   * then runs `onClose`.
   * Resolves within the grace period (plus a tick) whatever `onClose` does; calling it again
   * returns the same promise.
   */
  close(): Promise<void>;
  /**
   * Stops accepting connections, and only that: requests on open connections are answered as
   * before (keep-alive) until `close()`. Lets several processes on one port stop listening
   * together before any of them starts closing connections (see src/cli/cluster.ts).
   */
  unlisten(): void;
  /** Resolves when the server has closed, whoever closed it (e.g. a SIGTERM). */
  closed: Promise<void>;
}

/**
 * How long a shutdown leaves idle keep-alive connections open. A client may have sent its next
 * request just before (a load balancer, a pool): it is answered, with `Connection: close`,
 * instead of being reset by a close with its bytes unread. A truly idle client gets a FIN then.
 */
export const LINGER_MS = 100;

/**
 * Serves an app over HTTP/1.1 with `@hono/node-server`, and shuts it down gracefully on SIGTERM
 * (and SIGINT): no new connections, in-flight requests finish, then the process can exit 0.
 * @throws when the address cannot be bound (e.g. `EADDRINUSE`)
 */
export async function serve(app: Fetcher, options: ServeOptions = {}): Promise<Running> {
  const { port = 8080, host = '127.0.0.1', signals = ['SIGTERM', 'SIGINT'], graceMs = 10_000, onClose, maxHeaderSize = 65_536 } = options;
  // The request @hono/node-server could not turn into a Request (`GET *`, `Host: a b`, a
  // backslash in the path): its error handler is called synchronously within the listener, and
  // is told only the error, so the listener notes which request it is handling.
  let current: IncomingMessage | undefined;
  // A count, not a Set of the responses: a Set that is added to and deleted from on every
  // request is rehashed every few requests, and V8 links each old table to its successor (for
  // live iterators), the old one still holding the responses it had. Once one such table is
  // promoted to the old generation, every later table and its responses (a request's whole
  // graph) survive the young collections through it, until the next full one: after a lull, a
  // server with requests in flight (a Redis quota) went from 47 to 99 µs of CPU a request and
  // stayed there (bench/throughput.ts, the Redis rows: each server idles between its rounds).
  let inflight = 0;
  let drained: (() => void) | undefined;
  // Once stopping, every answer is its connection's last: `Connection: close` (Node then ends the
  // connection after it). Set where the head is written, so that answers in flight when the
  // shutdown starts get it too, without keeping a list of them.
  let stopping = false;
  class Answer extends ServerResponse {
    override writeHead(...args: unknown[]): this {
      if (stopping && !this.headersSent) this.setHeader('Connection', 'close');
      return (super.writeHead as (...a: unknown[]) => this)(...args);
    }
  }
  const listener = getRequestListener(app.fetch, {
    errorHandler: (err) => {
      if (!(err instanceof RequestError)) return refuse(500, 'Internal server error');
      return refuse(400, 'Bad request: the request target or Host header is not a valid URL', current?.method, current?.url);
    },
  });
  // One handler for every response, which it reads as `this`: `once` with a closure per request
  // made two functions and a wrapper for each.
  function settled(this: ServerResponse): void {
    if (--inflight === 0) drained?.();
  }
  const refuse = (status: number, message: string, method?: string, target?: string): Response =>
    app.rejected?.(status, message, method, target) ??
    new Response(JSON.stringify(envelope(status, message, [], Date.now())), { status, headers: { 'Content-Type': 'application/json' } });

  const server = await new Promise<Server>((resolve, reject) => {
    // requireHostHeader off: Node would answer a missing Host with a bare 400 of its own; the
    // adapter refuses it instead (an envelope, logged).
    const s = createServer({ maxHeaderSize, requireHostHeader: false, ServerResponse: Answer }, (req, res) => {
      current = req;
      try {
        void listener(req, res);
      } finally {
        current = undefined;
      }
      // Registered after the adapter's own close handler (which aborts the request's signal):
      // a shutdown waits for both.
      if (!res.writableFinished) {
        inflight++;
        res.on('close', settled);
      }
    });
    s.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => void clientError(err, socket));
    // CONNECT never reaches the request handler: Node hands its socket to 'connect' listeners,
    // and closes it without a word when there is none. A 405 envelope instead (the API's methods).
    s.on('connect', (req: IncomingMessage, socket: Socket) => {
      const allow = 'GET, HEAD, OPTIONS';
      void rawAnswer(socket, refuse(405, `Method not allowed: "CONNECT"; allowed: ${allow}`, req.method, req.url), 'Method Not Allowed', {
        Allow: allow,
      });
    });
    // An `Expect` other than 100-continue, which Node would refuse with a bare 417.
    s.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
      void send(
        refuse(417, `Expectation failed: ${JSON.stringify(String(req.headers.expect).slice(0, 40))} is not supported`, req.method, req.url),
        res,
      );
    });
    s.listen(port, host);
    s.once('error', reject);
    s.once('listening', () => {
      s.off('error', reject);
      resolve(s);
    });
  });
  const address = server.address() as AddressInfo;
  const bound = address.address;

  // Resolves once the server no longer listens and its last connection has ended.
  let ended: Promise<void> | undefined;
  // http.Server's close() would also drop the idle keep-alive connections at once (through the
  // instance's closeIdleConnections), and so reset those whose client had just sent a request,
  // its bytes unread: here it only stops listening.
  function unlisten(): void {
    ended ??= new Promise<void>((resolve) => {
      server.closeIdleConnections = () => {};
      try {
        server.close(() => resolve());
      } finally {
        delete (server as Partial<Server>).closeIdleConnections; // the prototype's again
      }
    });
  }

  let closing: Promise<void> | undefined;
  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  const onSignal = () => void close();
  for (const s of signals) process.on(s, onSignal);

  function close(): Promise<void> {
    closing ??= (async () => {
      const deadline = Date.now() + graceMs;
      for (const s of signals) process.off(s, onSignal);
      stopping = true;
      unlisten();
      const stopped = ended!;
      // After the linger (and one more read of the sockets), idle connections are dropped, and
      // again every 50 ms: those that answered keep-alive before the shutdown.
      let over = false;
      let sweep: ReturnType<typeof setInterval> | undefined;
      const linger = setTimeout(
        () =>
          setImmediate(() => {
            if (over) return;
            server.closeIdleConnections();
            sweep = setInterval(() => server.closeIdleConnections(), 50);
          }),
        Math.min(LINGER_MS, graceMs),
      );
      const cut = setTimeout(() => server.closeAllConnections(), graceMs);
      try {
        await stopped;
        // The requests of the connections cut are logged (as cut) before the shutdown is done.
        if (inflight > 0) await Promise.race([new Promise<void>((resolve) => (drained = resolve)), new Promise((r) => setTimeout(r, 100))]);
      } finally {
        over = true;
        clearTimeout(linger);
        clearInterval(sweep);
        clearTimeout(cut);
      }
      // Whatever onClose waits for (a stalled Redis), the shutdown ends at the grace period.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const msLeft = Math.max(0, deadline - Date.now());
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, msLeft)));
      try {
        await Promise.race([Promise.resolve(onClose?.(msLeft)).catch(() => {}), late]);
      } finally {
        clearTimeout(timer);
      }
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
    unlisten,
    closed,
  };

  async function send(response: Response, res: ServerResponse): Promise<void> {
    const body = await response.text();
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(body);
  }

  // Requests Node's parser refuses before they reach the app (too large, not HTTP, too slow) get
  // an envelope too, instead of Node's bare status line, and their log line.
  async function clientError(err: NodeJS.ErrnoException, socket: Socket): Promise<void> {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const [status, reason, message]: [number, string, string] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'Request header fields too large: the URL and headers must fit in the server limit']
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', 'Request timeout: the request was not received in time']
          : [400, 'Bad Request', 'Bad request: not a well-formed HTTP request'];
    await rawAnswer(socket, refuse(status, message), reason);
  }

  // Writes an answer on a socket Node's HTTP layer no longer writes to, and closes it.
  async function rawAnswer(socket: Socket, res: Response, reason: string, headers: Record<string, string> = {}): Promise<void> {
    const body = await res.text();
    if (!socket.writable) return void socket.destroy();
    let head = `HTTP/1.1 ${res.status} ${reason}\r\n`;
    for (const [name, value] of Object.entries(headers)) res.headers.set(name, value);
    res.headers.set('Content-Length', String(Buffer.byteLength(body)));
    res.headers.set('Connection', 'close');
    for (const [name, value] of res.headers) head += `${name}: ${value}\r\n`;
    socket.end(`${head}\r\n${body}`);
  }
}
