/**
 * The map routes in the OpenAPI document: paths with their own response media types (a style,
 * TileJSON, MVT, glyph PBF, PNG), behind the same key checks as the search routes.
 */

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
const envelope = (status: number, description: string) => ({
  description,
  content: { 'application/json': { schema: { allOf: [ref('schemas', 'ErrorEnvelope'), { properties: { status: { const: status } } }] } } },
});
const key = {
  name: 'key',
  in: 'query',
  required: false,
  description: 'Your API key (the URLs in a served style carry it).',
  schema: { type: 'string' },
};
const pathParam = (name: string, description: string, schema: object) => ({ name, in: 'path', required: true, description, schema });

/** What differs between the map routes of the document. */
interface MapRoute {
  operationId: string;
  summary: string;
  description: string;
  /** Its path parameters (the key is added). */
  parameters: object[];
  /** The 200 answer: media type → description. */
  ok: Record<string, string>;
  /** Other responses, by status. */
  more?: Record<number, object>;
}

/** One keyed map route: GET answering `ok`, refusals as envelopes. */
function mapPath({ operationId, summary, description, parameters, ok, more = {} }: MapRoute) {
  return {
    get: {
      operationId,
      tags: ['map'],
      summary,
      description: `${description} Checks run in this order: key (401), origin (403), quota (429). The answer is the resource itself, not an envelope; refusals are envelopes.`,
      security: [{ apiKey: [] }, { apiKeyHeader: [] }, { bearer: [] }],
      parameters: [...parameters, key],
      responses: {
        200: {
          description: 'The resource, with `ETag` and `Cache-Control`.',
          content: Object.fromEntries(
            Object.entries(ok).map(([type, d]) => [
              type,
              { schema: type.endsWith('json') ? { type: 'object', description: d } : { type: 'string', format: 'binary', description: d } },
            ]),
          ),
        },
        304: { description: '`If-None-Match` names the current `ETag`.' },
        ...more,
        401: envelope(401, 'The key is missing, malformed, unknown or revoked.'),
        403: envelope(403, "The key does not allow the request's `Origin`."),
        429: envelope(429, "The key's quota for the current window is used up."),
        405: ref('responses', 'MethodNotAllowed'),
        500: ref('responses', 'InternalError'),
      },
    },
  };
}

/** The `paths` entries of the map routes. */
export function mapPaths(): Record<string, object> {
  const noTiles = envelope(404, 'The server has no vector tiles (started without `--tiles`).');
  return {
    '/styles/{name}': mapPath({
      operationId: 'style',
      summary: 'A MapLibre style of the data',
      description:
        "A MapLibre style document (version 8) whose layers are @protomaps/basemaps' and whose source, glyph and sprite URLs point back at this server with the same key. Labels are `name:en`, then `name`; with `lang=ne`, the Nepali name shaped on the server (`pgf:name:ne`), then the English label.",
      parameters: [
        pathParam('name', 'The style: `breeze` (light, the default) or `dark`.', { type: 'string', enum: ['breeze', 'dark'] }),
        {
          name: 'lang',
          in: 'query',
          required: false,
          description:
            "The labels' language: `en` (the default) or `ne` (Nepali, shaped on the server: drawn right by MapLibre with no plugin).",
          schema: { type: 'string', enum: ['en', 'ne'], default: 'en' },
        },
      ],
      ok: { 'application/json': 'The style document.' },
      more: { 400: envelope(400, '`lang` is not `en` or `ne`.'), 404: envelope(404, 'No such style, or the server has no vector tiles.') },
    }),
    '/tiles.json': mapPath({
      operationId: 'tileJson',
      summary: 'TileJSON 3.0 of the vector tiles',
      description: 'The tile URL, vector layers, zooms, bounds and centre of the archive.',
      parameters: [],
      ok: { 'application/json': 'TileJSON 3.0.' },
      more: { 404: noTiles },
    }),
    '/tiles/{z}/{x}/{y}.mvt': mapPath({
      operationId: 'tile',
      summary: 'One vector tile',
      description:
        'A Mapbox Vector Tile 2.1 of the Protomaps basemap layers, gzip-encoded (plain for a client that does not accept gzip). A tile inflates to at most 16 MiB.',
      parameters: [
        pathParam(
          'z',
          "Zoom, within the archive's zooms: TileJSON's `minzoom` to `maxzoom` (0 to 14 for an archive of `nepal-places tiles`; maps overzoom beyond).",
          { type: 'integer', minimum: 0, maximum: 26 },
        ),
        pathParam('x', 'Column, 0 to 2^z − 1.', { type: 'integer', minimum: 0 }),
        pathParam('y', 'Row, 0 to 2^z − 1.', { type: 'integer', minimum: 0 }),
      ],
      ok: { 'application/vnd.mapbox-vector-tile': 'The tile.' },
      more: {
        204: { description: 'No tile there: outside the data (an empty tile).' },
        400: envelope(
          400,
          'z/x/y is not a tile of the archive: z outside its zooms, x or y outside 0 to 2^z − 1, or not decimal digits; the message names the coordinate and its range.',
        ),
        404: noTiles,
        502: envelope(
          502,
          "The archive's tile cannot be served: it inflates past 16 MiB, is not valid gzip, or lies past the end of the file. The archive is damaged or was not built for serving; the request was fine.",
        ),
      },
    }),
    '/fonts/{fontstack}/{range}.pbf': mapPath({
      operationId: 'glyphs',
      summary: 'Glyphs of 256 code points',
      description:
        "Signed distance field glyphs (24 px, 3 px buffer) of Noto Sans Regular, Medium or Italic, the face nearest to the fontstack's first name; a range without glyphs is an empty fontstack.",
      parameters: [
        pathParam('fontstack', 'Font names separated by commas.', { type: 'string', maxLength: 200 }),
        pathParam('range', '`start-end`: start a multiple of 256 up to 65280, end = start + 255.', {
          type: 'string',
          pattern: '^\\d+-\\d+$',
        }),
      ],
      ok: { 'application/x-protobuf': 'The glyph ranges (MapLibre glyphs.proto).' },
      more: { 404: envelope(404, 'Not a glyph range, or the server has no fonts.') },
    }),
    '/sprites/{sprite}': mapPath({
      operationId: 'sprite',
      summary: 'The icons of a style',
      description: 'The sprite sheet of a style (`breeze.png`, `breeze@2x.png`, `dark.json`, …) or its index.',
      parameters: [pathParam('sprite', '`{name}[@2x].{json,png}`.', { type: 'string', pattern: '^[a-z0-9_-]+(@2x)?\\.(json|png)$' })],
      ok: { 'application/json': 'The index: icon name → `{x, y, width, height, pixelRatio}`.', 'image/png': 'The sheet.' },
      more: { 404: envelope(404, 'No such sprite, or the server has no sprites.') },
    }),
  };
}
