/**
 * An endpoint of API v1, declared once: its path, what the document says of it, its query
 * parameters (a zod object of `schema.ts`) and its 200 answer (a zod envelope of `records.ts`).
 * The route module registers its handler under the declaration (`Api.keyed`), the handler reads its
 * parameters by the same schema (`readParam`), and `openapi.ts` turns the declarations into the
 * document's operations with `@hono/zod-openapi`'s `createRoute` (`operationsOf`), adding what
 * every keyed route shares: the key, its checks' statuses, the rate headers and the CORS preflight.
 */
import { createRoute, type RouteConfig, type z } from '@hono/zod-openapi';
import { EmptyEnvelope, errorEnvelopeOf } from './records.js';

/** A keyed GET endpoint of API v1 (behind the key, origin and quota checks). */
export interface KeyedEndpoint<Q extends z.ZodObject = z.ZodObject> {
  /** Under the base path, e.g. `/search/nearby`. */
  path: string;
  operationId: string;
  summary: string;
  /** What it answers; the checks' order and the key's places are added. */
  description: string;
  /** Its query parameters, in the order they are checked (`schema.ts`). */
  query: Q;
  /**
   * The 200 answer: what it holds, and its envelope's schema (`envelopeOf`); or, with `media`, the
   * schema of a body of that media type that is not an envelope (an isochrone's GeoJSON).
   */
  ok: { description: string; schema: z.ZodType; media?: string };
  /** The schema of its GeoJSON answer (`format=geojson`, `featuresOf`), for records with shapes. */
  geojson?: z.ZodType;
  /** Its 404, for an endpoint that answers one. */
  notFound?: string;
  /** An extension of this service, not part of API v1 (`x-extension` on its operation). */
  extension?: boolean;
  /** Its POST, taking the same arguments as a JSON body: what the body holds, and its schema. */
  body?: { description: string; schema: z.ZodType };
}

/** Declares a keyed endpoint (a typed identity: the declaration is data). */
export function keyed<Q extends z.ZodObject>(endpoint: KeyedEndpoint<Q>): KeyedEndpoint<Q> {
  return endpoint;
}

/** A public GET endpoint (no key, no quota, any origin), e.g. `/health`. */
export interface OpenEndpoint {
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  ok: { description: string; schema: z.ZodType };
}

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

const RATE_HEADERS = {
  'RateLimit-Limit': ref('headers', 'RateLimit-Limit'),
  'RateLimit-Remaining': ref('headers', 'RateLimit-Remaining'),
  'RateLimit-Reset': ref('headers', 'RateLimit-Reset'),
};

/** An error response whose envelope has exactly this status. */
export function errorResponse(status: number, description: string, headers: Record<string, object> = {}) {
  return {
    description,
    headers: { 'X-Request-Id': ref('headers', 'X-Request-Id'), ...headers },
    content: { 'application/json': { schema: errorEnvelopeOf(status) } },
  };
}

const UNKEYED = 'The key is missing, malformed, unknown or revoked.';
const ORIGIN = "The key does not allow the request's `Origin`.";

/** The document's operations of a keyed endpoint: GET with the checks in order 401, 403, 429, 400 (then 404), and its preflight. */
export function keyedOperations(e: KeyedEndpoint): RouteConfig[] {
  const get = createRoute({
    method: 'get',
    path: e.path,
    operationId: e.operationId,
    tags: ['search'],
    summary: e.summary,
    description:
      `${e.description} The key goes in the \`key\` parameter, or in an \`X-API-Key\` or \`Authorization: Bearer\` header ` +
      '(the parameter wins). Checks run in this order: key (401), origin (403), quota (429 or 503), parameters (400)' +
      `${e.notFound ? ', then 404' : ''}. Unknown or repeated parameters are refused (400).`,
    security: [{ apiKey: [] }, { apiKeyHeader: [] }, { bearer: [] }],
    ...(e.extension ? { 'x-extension': true } : {}),
    request: { query: e.query },
    responses: {
      200: {
        description: e.ok.description,
        headers: { ...RATE_HEADERS, 'X-Request-Id': ref('headers', 'X-Request-Id') },
        content: e.ok.media
          ? { [e.ok.media]: { schema: e.ok.schema } }
          : {
              'application/json': { schema: e.ok.schema },
              ...(e.geojson ? { 'application/geo+json': { schema: e.geojson } } : {}),
            },
      },
      400: errorResponse(400, 'A parameter is missing, malformed, out of range, unknown or repeated; the message names it.', RATE_HEADERS),
      401: errorResponse(401, UNKEYED),
      403: errorResponse(403, ORIGIN),
      ...(e.notFound ? { 404: errorResponse(404, e.notFound, RATE_HEADERS) } : {}),
      405: ref('responses', 'MethodNotAllowed'),
      429: errorResponse(429, "The key's quota for the current window is used up.", {
        ...RATE_HEADERS,
        'Retry-After': ref('headers', 'Retry-After'),
      }),
      500: ref('responses', 'InternalError'),
      503: errorResponse(
        503,
        'Quotas cannot be counted right now (their store is unreachable): quotas fail closed. Retry after `Retry-After` seconds.',
        { 'Retry-After': ref('headers', 'Retry-After') },
      ),
    },
  });
  const post = e.body
    ? createRoute({
        ...get,
        method: 'post',
        operationId: `${e.operationId}Post`,
        description:
          `${e.description} As GET, with the arguments in a JSON body (\`Content-Type: application/json\`, at most 256 KiB) ` +
          'instead of the query; the key in the query or a header. Checks run in this order: key (401), origin (403), quota ' +
          `(429 or 503), body size (413), body (400)${e.notFound ? ', then 404' : ''}.`,
        request: {
          query: e.query.pick({ key: true }),
          body: { required: true, content: { 'application/json': { schema: e.body.schema } } },
        },
        responses: {
          ...get.responses,
          400: errorResponse(
            400,
            'The body is not JSON, not `application/json`, or a field is missing, malformed, out of range or unknown; the message names it.',
            RATE_HEADERS,
          ),
          413: errorResponse(413, 'The body is larger than 256 KiB.', RATE_HEADERS),
        },
      })
    : undefined;
  const preflight = createRoute({
    method: 'options',
    path: e.path,
    operationId: `${e.operationId}Preflight`,
    tags: ['search'],
    summary: 'CORS preflight',
    description:
      `With \`Origin\` and \`Access-Control-Request-Method\` (GET or HEAD${e.body ? ', or POST' : ''}): answers 200 with ` +
      '`Access-Control-Allow-Origin` echoing the origin when the key allows it.',
    request: { query: e.query.pick({ key: true }) },
    responses: {
      200: { description: 'Preflight accepted.', content: { 'application/json': { schema: EmptyEnvelope } } },
      401: errorResponse(401, UNKEYED),
      403: errorResponse(403, ORIGIN),
      405: ref('responses', 'MethodNotAllowed'),
    },
  });
  return post ? [get, post, preflight] : [get, preflight];
}

/** The document's operation of a public endpoint. */
export function openOperation(e: OpenEndpoint): RouteConfig {
  return createRoute({
    method: 'get',
    path: e.path,
    operationId: e.operationId,
    tags: ['meta'],
    summary: e.summary,
    ...(e.description ? { description: e.description } : {}),
    responses: {
      200: { description: e.ok.description, content: { 'application/json': { schema: e.ok.schema } } },
      405: ref('responses', 'MethodNotAllowed'),
      500: ref('responses', 'InternalError'),
    },
  });
}
