/**
 * The map routes in the OpenAPI document: resources with their own media types (a style,
 * TileJSON, MVT, glyph PBF, PNG), behind the same key checks as the search routes. Declared with
 * `@hono/zod-openapi`'s `createRoute`: zod path and query parameters, error envelopes from
 * `records.ts`; the answers themselves are not envelopes, so their schemas say only their type.
 */
import { createRoute, z, type RouteConfig } from '@hono/zod-openapi';
import { errorResponse } from './endpoint.js';

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** The key of a map request (the URLs in a served style carry it). */
const key = z.string().optional().meta({ description: 'Your API key (the URLs in a served style carry it).' });

/** What differs between the map routes of the document. */
interface MapRoute {
  /** The OpenAPI path, e.g. `/tiles/{z}/{x}/{y}.mvt`. */
  path: string;
  operationId: string;
  summary: string;
  description: string;
  /** Its path parameters. */
  params?: z.ZodObject;
  /** Its query parameters besides the key. */
  query?: z.ZodRawShape;
  /** The 200 answer: media type → description. */
  ok: Record<string, string>;
  /** Other responses, by status. */
  more?: Record<number, ReturnType<typeof errorResponse> | { description: string }>;
}

/** One keyed map route: GET answering `ok`, refusals as envelopes. */
function mapRoute({ path, operationId, summary, description, params, query = {}, ok, more = {} }: MapRoute): RouteConfig {
  return createRoute({
    method: 'get',
    path,
    operationId,
    tags: ['map'],
    summary,
    description: `${description} Checks run in this order: key (401), origin (403), quota (429). The answer is the resource itself, not an envelope; refusals are envelopes.`,
    security: [{ apiKey: [] }, { apiKeyHeader: [] }, { bearer: [] }],
    request: { ...(params ? { params } : {}), query: z.object({ ...query, key }) },
    responses: {
      200: {
        description: 'The resource, with `ETag` and `Cache-Control`.',
        content: Object.fromEntries(
          Object.entries(ok).map(([type, d]) => [
            type,
            {
              schema: type.endsWith('json')
                ? { type: 'object' as const, description: d }
                : { type: 'string' as const, format: 'binary', description: d },
            },
          ]),
        ),
      },
      304: { description: '`If-None-Match` names the current `ETag`.' },
      ...more,
      401: errorResponse(401, 'The key is missing, malformed, unknown or revoked.'),
      403: errorResponse(403, "The key does not allow the request's `Origin`."),
      429: errorResponse(429, "The key's quota for the current window is used up."),
      405: ref('responses', 'MethodNotAllowed'),
      500: ref('responses', 'InternalError'),
    },
  });
}

/** The document's operations of the map routes. */
export function mapOperations(): RouteConfig[] {
  const noTiles = errorResponse(404, 'The server has no vector tiles (started without `--tiles`).');
  return [
    mapRoute({
      path: '/styles/{name}',
      operationId: 'style',
      summary: 'A MapLibre style of the data',
      description:
        "A MapLibre style document (version 8) whose layers are @protomaps/basemaps' and whose source, glyph and sprite URLs point back at this server with the same key. Labels are `name:en`, then `name`; with `lang=ne`, the Nepali name shaped on the server (`pgf:name:ne`), then the English label.",
      params: z.object({ name: z.enum(['breeze', 'dark']).meta({ description: 'The style: `breeze` (light, the default) or `dark`.' }) }),
      query: {
        lang: z.enum(['en', 'ne']).default('en').meta({
          description:
            "The labels' language: `en` (the default) or `ne` (Nepali, shaped on the server: drawn right by MapLibre with no plugin).",
        }),
      },
      ok: { 'application/json': 'The style document.' },
      more: {
        400: errorResponse(400, '`lang` is not `en` or `ne`.'),
        404: errorResponse(404, 'No such style, or the server has no vector tiles.'),
      },
    }),
    mapRoute({
      path: '/tiles.json',
      operationId: 'tileJson',
      summary: 'TileJSON 3.0 of the vector tiles',
      description: 'The tile URL, vector layers, zooms, bounds and centre of the archive.',
      ok: { 'application/json': 'TileJSON 3.0.' },
      more: { 404: noTiles },
    }),
    mapRoute({
      path: '/tiles/{z}/{x}/{y}.mvt',
      operationId: 'tile',
      summary: 'One vector tile',
      description:
        'A Mapbox Vector Tile 2.1 of the Protomaps basemap layers, gzip-encoded (plain for a client that does not accept gzip). A tile inflates to at most 16 MiB.',
      params: z.object({
        z: z.number().int().min(0).max(26).meta({
          description:
            "Zoom, within the archive's zooms: TileJSON's `minzoom` to `maxzoom` (0 to 14 for an archive of `nepal-places tiles`; maps overzoom beyond).",
        }),
        x: z.number().int().min(0).meta({ description: 'Column, 0 to 2^z − 1.' }),
        y: z.number().int().min(0).meta({ description: 'Row, 0 to 2^z − 1.' }),
      }),
      ok: { 'application/vnd.mapbox-vector-tile': 'The tile.' },
      more: {
        204: { description: 'No tile there: outside the data (an empty tile).' },
        400: errorResponse(
          400,
          'z/x/y is not a tile of the archive: z outside its zooms, x or y outside 0 to 2^z − 1, or not decimal digits; the message names the coordinate and its range.',
        ),
        404: noTiles,
        502: errorResponse(
          502,
          "The archive's tile cannot be served: it inflates past 16 MiB, is not valid gzip, or lies past the end of the file. The archive is damaged or was not built for serving; the request was fine.",
        ),
      },
    }),
    mapRoute({
      path: '/fonts/{fontstack}/{range}.pbf',
      operationId: 'glyphs',
      summary: 'Glyphs of 256 code points',
      description:
        "Signed distance field glyphs (24 px, 3 px buffer) of Noto Sans Regular, Medium or Italic, the face nearest to the fontstack's first name; a range without glyphs is an empty fontstack.",
      params: z.object({
        fontstack: z.string().max(200).meta({ description: 'Font names separated by commas.' }),
        range: z
          .string()
          .regex(/^\d+-\d+$/)
          .meta({ description: '`start-end`: start a multiple of 256 up to 65280, end = start + 255.' }),
      }),
      ok: { 'application/x-protobuf': 'The glyph ranges (MapLibre glyphs.proto).' },
      more: { 404: errorResponse(404, 'Not a glyph range, or the server has no fonts.') },
    }),
    mapRoute({
      path: '/sprites/{sprite}',
      operationId: 'sprite',
      summary: 'The icons of a style',
      description: 'The sprite sheet of a style (`breeze.png`, `breeze@2x.png`, `dark.json`, …) or its index.',
      params: z.object({
        sprite: z
          .string()
          .regex(/^[a-z0-9_-]+(@2x)?\.(json|png)$/)
          .meta({ description: '`{name}[@2x].{json,png}`.' }),
      }),
      ok: { 'application/json': 'The index: icon name → `{x, y, width, height, pixelRatio}`.', 'image/png': 'The sheet.' },
      more: { 404: errorResponse(404, 'No such sprite, or the server has no sprites.') },
    }),
  ];
}
