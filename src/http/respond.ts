/**
 * The response writer of API v1: every answer the app makes itself (envelopes, the kept-parts
 * nearby envelope, GeoJSON) is written here, with the headers every such answer carries.
 *
 * The speed-ups that are worth keeping live in this module and nowhere else (bench/throughput.ts,
 * one keyed `/search/nearby`): middleware says its headers into a plain object (`say`) rather
 * than through `c.header()`, and a `NearbyAnswer`'s bytes go out with that object as their
 * headers. @hono/node-server writes a plain object as it is, where a `Headers` (what `c.body()`
 * makes of more than one header) is validated on every set and turned back into an object,
 * sorted, on every request. Every other answer has what was said
 * written through `c.header()` first (`flushSaid`), so it reads as plain Hono.
 */
import type { Context } from 'hono';
import type { GeoRecord, FeatureGeometry } from '../query/geojson.js';
import type { AppEnv } from './api.js';
import { envelope, type Envelope } from './envelope.js';
import { GEOJSON, geoJsonBody } from './geojson.js';
import type { Body } from './nearby-json.js';

/** The headers of every answer the app writes itself (envelopes, GeoJSON): set here only. */
export const ANSWER_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } as const;

/** Hono's compress() compresses what it cannot measure; a shorter envelope says its length instead. */
export const COMPRESS_MIN = 1024;
const encoder = new TextEncoder();

/**
 * Says a response header (lower-case `name`) before the route answers, as `c.header()` would,
 * but in a plain object: a `NearbyAnswer` takes them as its response's own headers
 * (`bytesAnswer`); every other answer has them said through `c.header()` first (`flushSaid`).
 */
export function say(c: Context<AppEnv>, name: string, value: string): void {
  const said = c.get('said');
  if (said) said[name] = value;
  else c.set('said', { [name]: value });
}

/** Says through `c.header()` what `say` kept: before any answer other than `bytesAnswer`'s. */
export function flushSaid(c: Context<AppEnv>): void {
  const said = c.get('said');
  if (!said) return;
  for (const name in said) c.header(name, said[name]);
  c.set('said', undefined);
}

/**
 * A request header (`name` in lower case) that every request reads: under Node, from the Node
 * request's own parsed headers. `c.req.header()` would build the Request's `Headers` from them
 * first, validating each, on every request. Repeated lines come joined
 * with `, ` either way (Node keeps the first of a few single-valued fields, none of these).
 */
export function requestHeader(
  c: Context<AppEnv>,
  name: 'x-request-id' | 'accept-encoding' | 'accept-language' | 'origin' | 'sec-fetch-site' | 'referer',
): string | undefined {
  const incoming = (c.env as { incoming?: { headers?: Record<string, string | string[] | undefined> } } | undefined)?.incoming;
  if (!incoming?.headers) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * Says that a body compress() may compress varies by Accept-Encoding, before the response exists.
 * Said after (by compress() itself), Hono rebuilds the response around a stream, on every keyed
 * request, even when the client takes no compression.
 */
export function compressible(c: Context<AppEnv>): void {
  c.header('Vary', 'Accept-Encoding', { append: true });
}

/** An envelope (`envelope()`) as the answer, with its status. */
export function envelopeAnswer(c: Context<AppEnv>, body: Envelope): Response {
  const text = JSON.stringify(body);
  flushSaid(c);
  c.header('Content-Type', 'application/json');
  for (const name in ANSWER_HEADERS) c.header(name, ANSWER_HEADERS[name as keyof typeof ANSWER_HEADERS]);
  // UTF-8 is at least as long as UTF-16 code units: a long text needs no measuring to be compressed.
  if (text.length < COMPRESS_MIN) c.header('Content-Length', String(encoder.encode(text).length));
  else compressible(c);
  return c.body(text, body.status as 200);
}

/** A 200 GeoJSON answer of `records`. */
export function geoJsonAnswer(c: Context<AppEnv>, now: number, records: GeoRecord[], geometry: FeatureGeometry): Response {
  return geoJsonText(c, geoJsonBody(records, geometry, now));
}

/** A 200 GeoJSON answer already written (`text`), with the headers of every answer. */
export function geoJsonText(c: Context<AppEnv>, text: string): Response {
  flushSaid(c);
  c.header('Content-Type', GEOJSON);
  for (const name in ANSWER_HEADERS) c.header(name, ANSWER_HEADERS[name as keyof typeof ANSWER_HEADERS]);
  compressible(c);
  return c.body(text, 200);
}

/**
 * A 200 envelope already written as UTF-8 (`NearbyAnswer`, `routesBody`), with the headers of `envelopeAnswer`,
 * in a plain object: what the middleware said (its object, made for this request, becomes the
 * headers), after what was said through Hono's context (Hono's CORS, for a browser's request).
 * With `encoding`, the bytes are already compressed so (compress() leaves such an answer alone).
 */
export function bytesAnswer(c: Context<AppEnv>, body: Body, encoding?: 'gzip' | 'deflate'): Response {
  const said = c.get('said') ?? {};
  c.set('said', undefined);
  let headers: Record<string, string | string[]> = said;
  if (c.get('hono')) {
    headers = {};
    const prepared = c.res.headers;
    for (const [name, value] of prepared) headers[name] = value;
    if (headers['set-cookie'] !== undefined) headers['set-cookie'] = prepared.getSetCookie();
    Object.assign(headers, said);
  }
  headers['content-type'] = 'application/json';
  Object.assign(headers, ANSWER_HEADERS);
  if (encoding) headers['content-encoding'] = encoding;
  if (encoding || body.chars < COMPRESS_MIN) headers['content-length'] = String(body.bytes.length);
  if (encoding || body.chars >= COMPRESS_MIN)
    headers.vary = headers.vary ? `${headers.vary as string}, Accept-Encoding` : 'Accept-Encoding'; // compressible()
  // Set as is: assigned over the placeholder `c.res` that reading its headers made above, Hono
  // would copy that one's headers into a rebuilt response, which is what this avoids.
  c.res = undefined;
  c.res = new Response(body.bytes as Uint8Array<ArrayBuffer>, { status: 200, headers });
  return c.res;
}

/**
 * The envelope of a request refused before it reached the app (malformed HTTP, see `serve()`),
 * with `X-Request-Id: rid`; the connection is closed after it.
 */
export function refusedAnswer(now: number, rid: string, status: number, message: string): Response {
  const text = JSON.stringify(envelope(status, message, [], now));
  return new Response(text, {
    status,
    headers: {
      'Content-Type': 'application/json',
      'Content-Length': String(encoder.encode(text).length),
      ...ANSWER_HEADERS,
      'X-Request-Id': rid,
      Connection: 'close',
    },
  });
}
