/**
 * The web app at `/` on Node: the page and its files, built by `scripts/web-app.ts` into
 * `dist/app/` (`npm run prepare`), served in front of API v1.
 *
 * The page needs an API key for its own requests. None is in the files on disk: the server hands
 * one to its own origin by writing it into the page it serves (`<meta name="nepal-places-key">`),
 * so the JavaScript bundle holds no secret and a new key at each start costs no rebuild. See
 * `pageToken()` for what that key may do.
 *
 * Node-only (it reads the files): the app of `createApp()` stays Web-API-only.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { ExecutionContext } from 'hono';
import { accessLine } from './access-log.js';
import type { ClientQuota, Token } from './keys.js';
import type { Fetcher } from './server.js';

/** Where `npm run prepare` (`scripts/web-app.ts`) writes the app: two levels above `src/http/` and `dist/http/`. */
export const APP_DIR = fileURLToPath(new URL('../../dist/app/', import.meta.url));

/** The `<meta>` name the page reads its key from. */
export const PAGE_KEY_META = 'nepal-places-key';

/**
 * The default quota of the page key as a whole, all its clients together: a ceiling on what the
 * public may ask of the server through it, which 50 clients at their own bound reach.
 */
export const PAGE_QUOTA = { requests: 60_000, windowSeconds: 60 };

/**
 * The page key's bound per client (see `ClientQuota`): 1,200 requests a minute from one address,
 * 20 a second. A view of a laptop's screen is about a dozen 512 px tiles, so a visitor panning or
 * zooming every second asks for a few hundred a minute (the browser caching what it has seen);
 * at most 600 of them on one connection (a browser spreads its requests over several).
 */
export const PAGE_CLIENT_QUOTA: ClientQuota = { requests: 1200, windowSeconds: 60, perConnection: 600 };

/** The web app is not built where it was looked for. */
export class WebAppError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebAppError';
  }
}

/** Options of `withWebApp()`. */
export interface WebAppOptions {
  /** The page key, written into the page (see `pageToken()`). */
  key: string;
  /** The built app (default `APP_DIR`). */
  dir?: string;
  /** Origins, besides the page's own, that the page's requests go to (a `--public-url`'s), for its Content-Security-Policy. */
  connect?: string[];
  /** Receives an access-log line per request answered here (default: none). */
  log?: (line: string) => void;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** A file as served: its bytes, gzipped bytes (when smaller) and their ETags. */
interface Served {
  type: string;
  body: Uint8Array;
  etag: string;
  gzip?: Uint8Array;
  gzipEtag?: string;
  cache: string;
}

/**
 * The page key's token. The key is public by nature, like any key a page holds: anyone can read
 * it from the page. So it is made fit for the public rather than kept secret:
 * - browsers may use it from the server's own `origins` only (`ownPages`): another site's page
 *   sending it gets a 403, whether its browser says so with `Origin`, `Sec-Fetch-Site`
 *   (`cross-site`, or `same-site` from another origin: what an `<img>` of a sibling site sends)
 *   or `Referer`. The page's own requests are same-origin and pass;
 * - each client is bounded (`perClient`, default `PAGE_CLIENT_QUOTA`): a script that reads the
 *   key and uses it from curl, which says none of those headers, is one client among the
 *   others, refused (429) at its own bound while the other visitors are served;
 * - `quota`, shared by all its clients, caps what the key may ask of the server in all.
 * It cannot stop a determined script, only bound it: many addresses get many shares.
 */
export function pageToken(key: string, origins: readonly string[], quota = PAGE_QUOTA, perClient: ClientQuota = PAGE_CLIENT_QUOTA): Token {
  return { key, allowedOrigins: [...new Set(origins)], quota: { ...quota }, perClient: { ...perClient }, ownPages: true };
}

/**
 * `api` with the web app in front of it: `GET /` is the page (its key written in), `GET
 * /app/{file}` the app's files (content types, `ETag` with 304s, gzip for clients that take it,
 * `Cache-Control: no-cache` so a new build is picked up at once; the page itself `no-store`, as
 * it holds the key). Every other request, and a file the app does not have, goes to `api` (its
 * 404 envelope). The files are read once, here.
 * @throws {WebAppError} when `dir` holds no built app
 */
export async function withWebApp(api: Fetcher, options: WebAppOptions): Promise<Fetcher> {
  const { key, dir = APP_DIR, log, connect = [] } = options;
  if (!/^[A-Za-z0-9_-]{16,128}$/.test(key)) throw new TypeError('withWebApp: key must be 16 to 128 characters from A-Z a-z 0-9 _ -');
  if (!existsSync(join(dir, 'index.html'))) {
    throw new WebAppError(`the web app is not built in ${dir} (npm run app builds it)`);
  }
  const files = new Map<string, Served>();
  for (const name of await readdir(dir)) {
    if (name === 'index.html' || !(extname(name) in TYPES)) continue;
    files.set(`/app/${name}`, served(await readFile(join(dir, name)), TYPES[extname(name)]!, 'no-cache'));
  }
  const html = (await readFile(join(dir, 'index.html'), 'utf8')).replace(
    '</head>',
    `<meta name="${PAGE_KEY_META}" content="${key}">\n</head>`,
  );
  const page = served(Buffer.from(html), TYPES['.html']!, 'no-store');
  // MapLibre draws in a worker it starts from a blob: URL and loads its images as blobs.
  const csp = [
    "default-src 'self'",
    `connect-src 'self' ${connect.join(' ')}`.trim(),
    "img-src 'self' data: blob:",
    "worker-src 'self' blob:",
    "child-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'self'",
  ].join('; ');

  let count = 0;
  const prefix = `app${Math.floor(Math.random() * 0xffff).toString(16)}`;
  // `env` and `ctx` pass through: under @hono/node-server the env holds the Node response, whose
  // 'close' the API's access log listens to (without it, each request would make an AbortSignal).
  const fetch = (request: Request, env?: unknown, ctx?: ExecutionContext): Response | Promise<Response> => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return api.fetch(request, env, ctx);
    const path = pathOf(request.url);
    const file = path === '/' ? page : path.startsWith('/app/') ? files.get(path) : undefined;
    if (!file) return api.fetch(request, env, ctx);
    const start = performance.now();
    const response = answer(request, file, file === page ? csp : undefined);
    log?.(
      accessLine({
        time: Date.now(),
        id: `${prefix}-${(++count).toString(36)}`,
        method: request.method,
        url: request.url,
        status: response.status,
        ms: performance.now() - start,
      }),
    );
    return response;
  };
  return api.rejected ? { fetch, rejected: api.rejected.bind(api) } : { fetch };
}

/**
 * The path of a request's URL, as `new URL(url).pathname` (a tenth of an API request's time
 * here): a `Request`'s URL is already normalized (no dot segments, no backslashes).
 */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start < 0) return '/';
  const query = url.indexOf('?', start);
  const hash = url.indexOf('#', start);
  const end = query < 0 ? (hash < 0 ? url.length : hash) : hash < 0 ? query : Math.min(query, hash);
  return url.slice(start, end);
}

function served(body: Uint8Array, type: string, cache: string): Served {
  const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 24)}"`;
  const file: Served = { type, body, etag, cache };
  if (body.length >= 1024 && !type.startsWith('image/png')) {
    const gz = gzipSync(body, { level: 9 });
    if (gz.length < body.length) {
      file.gzip = gz;
      file.gzipEtag = `${etag.slice(0, -1)}-gz"`;
    }
  }
  return file;
}

function answer(request: Request, file: Served, csp: string | undefined): Response {
  const gzip = file.gzip !== undefined && /\bgzip\b/i.test(request.headers.get('Accept-Encoding') ?? '');
  const etag = gzip ? file.gzipEtag! : file.etag;
  const headers: Record<string, string> = {
    'Content-Type': file.type,
    'Cache-Control': file.cache,
    'X-Content-Type-Options': 'nosniff',
    Vary: 'Accept-Encoding',
  };
  if (csp) {
    headers['Content-Security-Policy'] = csp;
    headers['Referrer-Policy'] = 'no-referrer';
  } else headers.ETag = etag; // the page changes with each key: nothing to revalidate
  if (!csp && matches(request.headers.get('If-None-Match'), etag)) return new Response(null, { status: 304, headers });
  const body = gzip ? file.gzip! : file.body;
  if (gzip) headers['Content-Encoding'] = 'gzip';
  headers['Content-Length'] = String(body.length);
  return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers });
}

function matches(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.trim() === '*' || header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
