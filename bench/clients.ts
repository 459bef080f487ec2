/**
 * HTTP clients for the reliability run, on node:http (its agents give control of keep-alive and of
 * the local address a client connects from): one request, a bounded burst, and clients in loops
 * until stopped that count what they met (answers, `Connection: close`, errors, hangs).
 */
import { Agent, request } from 'node:http';

/** One request's outcome. */
export interface Reply {
  /** The HTTP status; 0 when the connection failed (`error` says how), -1 when no answer came in time (a hang). */
  status: number;
  ms: number;
  /** The answer said `Connection: close`. */
  close: boolean;
  error?: string;
  /** The body, when asked for. */
  body?: string;
}

/** How to send a request. */
export interface SendOptions {
  /** Keep-alive connections to share; default: a connection of its own. */
  agent?: Agent | false;
  /** The address to connect from (127.0.0.2 is loopback too, and another client to the server). */
  localAddress?: string;
  headers?: Record<string, string>;
  /** An answer not complete in this time counts as a hang (default 5 s; the server answers in milliseconds). */
  timeoutMs?: number;
  body?: boolean;
}

/** One GET. */
export function send(url: string, options: SendOptions = {}): Promise<Reply> {
  const { agent = false, localAddress, headers, timeoutMs = 5000 } = options;
  const t0 = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const end = (r: Omit<Reply, 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, ms: performance.now() - t0 });
    };
    const req = request(url, { agent, localAddress, headers }, (res) => {
      const close = res.headers.connection === 'close';
      let text = '';
      if (options.body) res.setEncoding('utf8');
      res.on('data', (d: string) => void (options.body && (text += d)));
      res.on('end', () => end({ status: res.statusCode!, close, ...(options.body ? { body: text } : {}) }));
      res.on('error', (err: NodeJS.ErrnoException) => end({ status: 0, close, error: err.code ?? err.message }));
    });
    const timer = setTimeout(() => {
      end({ status: -1, close: false, error: 'hung' });
      req.destroy();
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => end({ status: 0, close: false, error: err.code ?? err.message }));
    req.end();
  });
}

/** `total` GETs, the i-th of `url(i)`, `concurrency` at a time; the replies in order. */
export async function burst(url: (i: number) => string, total: number, concurrency: number, options: SendOptions = {}): Promise<Reply[]> {
  const out: Reply[] = new Array(total);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        out[i] = await send(url(i), options);
      }
    }),
  );
  return out;
}

/** What clients in loops met. */
export interface Seen {
  answered: number;
  /** Answers saying `Connection: close`. */
  closes: number;
  /** Requests that failed (a reset, a connection closed under them), by code. */
  errors: string[];
  /** Their times, ms from sending. */
  errorMs: number[];
  /** Requests left without an answer past the time-out. */
  hung: number;
}

/**
 * `count` clients sending GETs of `url` one after the other until `stop()` or the port refuses
 * connections (the server is gone), over keep-alive connections or a new connection per request.
 */
export function loops(url: string, count: number, keepAlive: boolean, timeoutMs = 5000) {
  const agent = new Agent({ keepAlive, maxSockets: count });
  const seen: Seen = { answered: 0, closes: 0, errors: [], errorMs: [], hung: 0 };
  let stopped = false;
  const running = Array.from({ length: count }, async () => {
    while (!stopped) {
      const r = await send(url, { agent, timeoutMs });
      if (r.error === 'ECONNREFUSED') break; // the port is closed: this client is done
      if (r.status === -1) seen.hung++;
      else if (r.status === 0) {
        seen.errors.push(r.error!);
        seen.errorMs.push(r.ms);
      } else {
        seen.answered++;
        if (r.close) seen.closes++;
      }
    }
  });
  return {
    seen,
    /** Resolves once `answered` has grown by `more`, or after `ms`. */
    async until(more: number, ms = 10_000) {
      const target = seen.answered + more;
      for (const end = performance.now() + ms; seen.answered < target && performance.now() < end;)
        await new Promise((r) => setTimeout(r, 10));
    },
    /** Ends the loops (each after its request in flight) and their connections. */
    async stop() {
      stopped = true;
      await Promise.all(running);
      agent.destroy();
    },
  };
}

/** Statuses and their counts, `200: 1200, 429: 4900`. */
export function statuses(replies: readonly Reply[]): string {
  const m = new Map<number, number>();
  for (const r of replies) m.set(r.status, (m.get(r.status) ?? 0) + 1);
  return [...m]
    .sort((a, b) => a[0] - b[0])
    .map(([s, n]) => `${s === -1 ? 'hang' : s === 0 ? 'conn error' : s}: ${n}`)
    .join(', ');
}
