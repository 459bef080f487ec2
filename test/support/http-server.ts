/**
 * Starts the API on 127.0.0.1 on a free port for a test, with its access log collected, and
 * small request helpers that return the envelope and headers.
 */
import { createApp, type AppOptions } from '../../src/http/app.js';
import { serve, type Running } from '../../src/http/server.js';

/** A test server. */
export interface TestServer {
  running: Running;
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  /** Access-log and error lines written so far. */
  lines: string[];
  /** GET (or another method) on `path` (with query); the body parsed as JSON when it is JSON. */
  request(path: string, init?: RequestInit): Promise<Reply>;
  close(): Promise<void>;
}

/** A response, read. */
export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** Starts `createApp(options)` with the log collected. */
export async function startServer(options: AppOptions): Promise<TestServer> {
  const lines: string[] = [];
  const app = createApp({ log: (line) => lines.push(line), ...options });
  const running = await serve(app, { port: 0, host: '127.0.0.1', signals: [] });
  return {
    running,
    origin: running.origin,
    lines,
    request: (path, init) => fetchReply(running.origin + path, init),
    close: () => running.close(),
  };
}

/** Fetches and reads a response. */
export async function fetchReply(url: string, init?: RequestInit): Promise<Reply> {
  const res = await fetch(url, init);
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').startsWith('application/json') && text !== '';
  return { status: res.status, headers: res.headers, text, body: json ? JSON.parse(text) : undefined };
}

/** Builds a query string from pairs (repeats allowed), each part encoded. */
export function qs(pairs: [string, string][]): string {
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}
