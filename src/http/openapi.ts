import { MAX_LIMIT, MAX_RADIUS } from '../query/limits.js';
import { directionsSchema, nearbySchema, parameterObject, placeSchema, reverseSchema, searchSchema } from './schema.js';
import { mapPaths } from './openapi-map.js';

/** What the OpenAPI document describes: the same settings the app runs with. */
export interface OpenApiOptions {
  /** Base path of the API, ending in `/api/v1` (default `/api/v1`). */
  basePath?: string;
  /** Largest `limit` (default 100). */
  maxLimit?: number;
  /** Largest `radius` in km (default 100). */
  maxRadius?: number;
  /** The types of the data served (`types()`), listed as examples of `type`; default none. */
  types?: readonly string[];
}

const PLACE_FIELDS = ['placeId', 'license', 'name', 'address', 'type', 'centroid', 'tags', 'geometry', 'score', 'open'];

/** `info.version` of the document: the version of API v1's contract. */
export const API_VERSION = '1.0.0';

/** The pattern of an envelope's `timestamp`: Java's `Date.toString()` in Nepal Time. */
export const TIMESTAMP_PATTERN =
  '^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ' +
  '(0[1-9]|[12][0-9]|3[01]) ([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9] NPT [0-9]{4,}$';

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/**
 * The GeoJSON answer of a route whose records have the given schema: a FeatureCollection with the
 * envelope's other fields as foreign members; each feature's properties are the record's fields
 * without `geometry`, tags as an object, `centroid` only with `geometry=full`.
 */
function featureCollection(record: { required: string[]; properties: Record<string, object> }, maxItems: number, minItems = 0) {
  const { geometry: _, tags: __, ...rest } = record.properties;
  return {
    type: 'object',
    description:
      'GeoJSON (RFC 7946), `format=geojson`: one Feature per record, in the same order; `timestamp`, `status` and `message` as in the envelope.',
    required: ['type', 'timestamp', 'status', 'message', 'features'],
    additionalProperties: false,
    properties: {
      type: { const: 'FeatureCollection' },
      timestamp: ref('schemas', 'Timestamp'),
      status: { const: 200 },
      message: { const: 'Success' },
      features: {
        type: 'array',
        minItems,
        maxItems,
        items: {
          type: 'object',
          required: ['type', 'id', 'geometry', 'properties'],
          additionalProperties: false,
          properties: {
            type: { const: 'Feature' },
            id: { type: 'integer', minimum: 0, description: 'The `placeId`.' },
            geometry: {
              ...ref('schemas', 'Geometry'),
              description: "The record's geometry, or with `geometry=centroid` a Point at its centroid.",
            },
            properties: {
              type: 'object',
              required: record.required.filter((k) => k !== 'geometry' && k !== 'centroid'),
              additionalProperties: false,
              properties: {
                ...rest,
                tags: { type: 'object', additionalProperties: { type: 'string' }, description: 'Every tag as `key: value`.' },
              },
            },
          },
        },
      },
    },
  };
}
const json = (schema: object) => ({ 'application/json': { schema } });

/** An error response whose envelope has exactly this status. */
function errorResponse(status: number, description: string, headers: Record<string, object> = {}) {
  return {
    description,
    headers: { 'X-Request-Id': ref('headers', 'X-Request-Id'), ...headers },
    content: json({ allOf: [ref('schemas', 'ErrorEnvelope'), { properties: { status: { const: status } } }] }),
  };
}

const RATE_HEADERS = {
  'RateLimit-Limit': ref('headers', 'RateLimit-Limit'),
  'RateLimit-Remaining': ref('headers', 'RateLimit-Remaining'),
  'RateLimit-Reset': ref('headers', 'RateLimit-Reset'),
};

/** What differs between the keyed routes of the document. */
interface KeyedRoute {
  operationId: string;
  summary: string;
  description: string;
  /** Names under `components/parameters`. */
  parameters: string[];
  /** The 200 response: description and envelope schema. */
  ok: [string, string];
  /** The 404 response's description, for routes that answer one. */
  notFound?: string;
  /** The schema of the 200 answer with `format=geojson`, for routes that have it. */
  geojson?: string;
}

/** A keyed route: GET with the checks in order 401, 403, 429, 400 (then 404), and its CORS preflight. */
function keyedPath(r: KeyedRoute) {
  return {
    get: {
      operationId: r.operationId,
      tags: ['search'],
      summary: r.summary,
      description:
        `${r.description} The key goes in the \`key\` parameter, or in an \`X-API-Key\` or \`Authorization: Bearer\` header ` +
        '(the parameter wins). Checks run in this order: key (401), origin (403), quota (429 or 503), parameters (400)' +
        `${r.notFound ? ', then 404' : ''}. Unknown or repeated parameters are refused (400).`,
      security: [{ apiKey: [] }, { apiKeyHeader: [] }, { bearer: [] }],
      parameters: r.parameters.map((p) => ref('parameters', p)),
      responses: {
        200: {
          description: r.ok[0],
          headers: { ...RATE_HEADERS, 'X-Request-Id': ref('headers', 'X-Request-Id') },
          content: {
            ...json(ref('schemas', r.ok[1])),
            ...(r.geojson ? { 'application/geo+json': { schema: ref('schemas', r.geojson) } } : {}),
          },
        },
        400: errorResponse(
          400,
          'A parameter is missing, malformed, out of range, unknown or repeated; the message names it.',
          RATE_HEADERS,
        ),
        401: errorResponse(401, 'The key is missing, malformed, unknown or revoked.'),
        403: errorResponse(403, "The key does not allow the request's `Origin`."),
        ...(r.notFound ? { 404: errorResponse(404, r.notFound, RATE_HEADERS) } : {}),
        405: ref('responses', 'MethodNotAllowed'),
        429: errorResponse(429, "The key's quota for the current window is used up.", {
          ...RATE_HEADERS,
          'Retry-After': ref('headers', 'Retry-After'),
        }),
        500: ref('responses', 'InternalError'),
        503: errorResponse(
          503,
          'Quotas cannot be counted right now (their store is unreachable): quotas fail closed. Retry after `Retry-After` seconds.',
          {
            'Retry-After': ref('headers', 'Retry-After'),
          },
        ),
      },
    },
    options: {
      operationId: `${r.operationId}Preflight`,
      tags: ['search'],
      summary: 'CORS preflight',
      description:
        'With `Origin` and `Access-Control-Request-Method`: answers 200 with ' +
        '`Access-Control-Allow-Origin` echoing the origin when the key allows it.',
      parameters: [ref('parameters', 'key')],
      responses: {
        200: { description: 'Preflight accepted.', content: json(ref('schemas', 'EmptyEnvelope')) },
        401: errorResponse(401, 'The key is missing, malformed, unknown or revoked.'),
        403: errorResponse(403, "The key does not allow the request's `Origin`."),
        405: ref('responses', 'MethodNotAllowed'),
      },
    },
  };
}

/**
 * The parameters of the routes, generated from their schemas (`schema.ts`): under
 * `components/parameters`, by the names the paths refer to them with.
 */
function parameters(maxLimit: number, maxRadius: number, types: readonly string[]): Record<string, object> {
  const limits = { maxLimit, maxRadius };
  const nearby = nearbySchema(limits);
  const search = searchSchema(limits);
  const reverse = reverseSchema(limits);
  const place = placeSchema();
  const directions = directionsSchema();
  const names: [string, Parameters<typeof parameterObject>[0], string][] = [
    ...(['type', 'lat', 'lon', 'radius', 'limit', 'sortBy', 'isOpen', 'at', 'format', 'geometry', 'key'] as const).map(
      (n) => [n, nearby, n] as [string, typeof nearby, string],
    ),
    ['points', directions, 'points[]'],
    ['pointsPlain', directions, 'points'],
    ['mode', directions, 'mode'],
    ['instructions', directions, 'instructions'],
    ['alternatives', directions, 'alternatives'],
    ['placeId', place, 'placeId'],
    ['q', search, 'q'],
    ['searchLimit', search, 'limit'],
    ['searchLat', search, 'lat'],
    ['searchLon', search, 'lon'],
    ['searchRadius', search, 'radius'],
    ['searchType', search, 'type'],
    ['reverseRadius', reverse, 'radius'],
    ['reverseLimit', reverse, 'limit'],
  ];
  const out: Record<string, Record<string, unknown>> = Object.fromEntries(
    names.map(([component, schema, name]) => [component, parameterObject(schema, name)]),
  );
  // the data's types, as GET /types lists them (examples, not an enum: a type is case-insensitive)
  if (types.length) (out.type.schema as Record<string, unknown>).examples = [...types];
  return out;
}

/** The `paths` of the document: every route, keyed or public. */
function paths(): Record<string, object> {
  return {
    '/search/nearby': keyedPath({
      operationId: 'searchNearby',
      summary: 'Places of a type near a point',
      description:
        'Places of `type` whose centroid lies within `radius` km of (`lat`, `lon`), best score first ' +
        '(or nearest first with `sortBy=true`).',
      parameters: ['type', 'lat', 'lon', 'radius', 'limit', 'sortBy', 'isOpen', 'at', 'format', 'geometry', 'key'],
      ok: ['The places, at most `limit` of them (possibly none).', 'NearbyEnvelope'],
      geojson: 'NearbyFeatures',
    }),
    '/places': keyedPath({
      operationId: 'place',
      summary: 'One place by its placeId',
      description:
        'The place, locality, street or building with this `placeId` (as a search or nearby record gave it), in a one-element `data`.',
      parameters: ['placeId', 'format', 'geometry', 'key'],
      ok: ['The place.', 'PlaceEnvelope'],
      geojson: 'PlaceFeatures',
      notFound: 'No place has this placeId.',
    }),
    '/search': keyedPath({
      operationId: 'search',
      summary: 'Keyword search, as a search box suggests',
      description:
        'Places, localities, streets and buildings whose names (`name`, `name:en`, `name:ne`, `alt_name`, `old_name`) match ' +
        'every word of `q`, each word as a prefix, case- and accent-insensitively, with one typo allowed in words of five ' +
        'letters or more. Ranked by text relevance, then prominence, then (with `lat`/`lon`) nearness; `radius` filters ' +
        'by distance, `type` by type.',
      parameters: ['q', 'searchLimit', 'searchLat', 'searchLon', 'searchRadius', 'searchType', 'key'],
      ok: ['The suggestions, at most `limit` of them (possibly none).', 'SuggestionEnvelope'],
    }),
    '/types': keyedPath({
      operationId: 'types',
      summary: 'The types /search/nearby takes',
      description:
        'Every type of the data served and every merged type (with its `members`), with how many places have it, ' +
        'most first: what `type` of `/search/nearby` accepts. An unknown type there is a 400 that suggests the nearest.',
      parameters: ['key'],
      ok: ['The types.', 'TypesEnvelope'],
    }),
    '/reverse': keyedPath({
      operationId: 'reverse',
      summary: 'What is at a point',
      description:
        'The named places, localities and addressed buildings nearest to (`lat`, `lon`) within `radius` km, one that ' +
        'contains the point first; a named street only when none is within reach.',
      parameters: ['lat', 'lon', 'reverseRadius', 'reverseLimit', 'format', 'geometry', 'key'],
      ok: ['The places, nearest first, at most `limit` of them.', 'ReverseEnvelope'],
      geojson: 'ReverseFeatures',
      notFound: 'Nothing within `radius` km of the point.',
    }),
    '/directions': keyedPath({
      operationId: 'directions',
      summary: 'Routes through two or more points',
      description:
        'The best route through `points` in order for `mode` (foot: the shortest walk; bike; car: the fastest legal drive, ' +
        'obeying one-ways, access and turn restrictions), then with `alternatives=true` (two points only) up to two more that ' +
        'share at most about 70% of its length and cost at most 1.4 times it. Each point snaps to the nearest road the mode ' +
        'may use within 1 km; the route starts and ends at the snapped points.',
      parameters: ['points', 'pointsPlain', 'mode', 'instructions', 'alternatives', 'key'],
      ok: ['The routes, best first.', 'RouteEnvelope'],
      notFound: 'A point lies farther than 1 km from every road the mode may use, or no road of the mode joins two points.',
    }),
    ...mapPaths(),
    '/health': {
      get: {
        operationId: 'health',
        tags: ['meta'],
        summary: 'Health check (public, no key, not counted)',
        description:
          "For load balancers: a 200 envelope while the instance serves; no key, no quota. Its one record says what it serves: the version, the places, the data's extent and date, whether a map.",
        responses: {
          200: {
            description: 'Up.',
            content: json({
              allOf: [ref('schemas', 'Envelope')],
              properties: {
                status: { const: 200 },
                data: {
                  minItems: 1,
                  maxItems: 1,
                  items: {
                    type: 'object',
                    additionalProperties: false,
                    required: ['version', 'places', 'bounds', 'dataDate', 'map'],
                    properties: {
                      version: { type: 'string', description: "The package's version." },
                      places: { type: 'integer', minimum: 0, description: 'The places of /search/nearby in the data.' },
                      bounds: {
                        type: ['array', 'null'],
                        items: { type: 'number' },
                        minItems: 4,
                        maxItems: 4,
                        description: '[west, south, east, north] around the data, degrees; null for empty data.',
                      },
                      dataDate: {
                        type: ['string', 'null'],
                        format: 'date-time',
                        description: "The data file's modification time, where the server knows it.",
                      },
                      map: { type: 'boolean', description: 'Whether map tiles (and the styles) are served.' },
                    },
                  },
                },
              },
            }),
          },
          405: ref('responses', 'MethodNotAllowed'),
          500: ref('responses', 'InternalError'),
        },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'openapi',
        tags: ['meta'],
        summary: 'This document (public, no key)',
        responses: {
          200: { description: 'The OpenAPI 3.1 document.', content: json({ type: 'object', required: ['openapi'] }) },
          405: ref('responses', 'MethodNotAllowed'),
          500: ref('responses', 'InternalError'),
        },
      },
    },
  };
}

/** The `components/schemas` of the document: envelopes and records, `maxLimit` records at most. */
function schemas(maxLimit: number): Record<string, object> {
  const position = {
    type: 'array',
    description: '`[lon, lat]` in degrees (GeoJSON order).',
    prefixItems: [
      { type: 'number', minimum: -180, maximum: 180 },
      { type: 'number', minimum: -90, maximum: 90 },
    ],
    minItems: 2,
    maxItems: 2,
  };
  const ring = { type: 'array', items: ref('schemas', 'Position'), minItems: 4 };
  const geometry = (type: string, coordinates: object) => ({
    type: 'object',
    required: ['type', 'coordinates'],
    additionalProperties: false,
    properties: { type: { const: type }, coordinates },
  });
  const nonFinite = { type: 'string', enum: ['NaN', 'Infinity', '-Infinity'] };
  const placeProperties = {
    placeId: { type: 'integer', minimum: 0, description: '`osmId * 4 + kind` (kind 0 node, 1 way, 2 relation).' },
    license: { type: 'string', minLength: 1 },
    name: { type: 'string', description: '`name`, else `name:en`, else `name:ne`, else empty.' },
    address: { type: 'string', description: 'The textual address, most specific part first, joined with `", "`.' },
    type: { type: 'string', description: "The row's own type: its first feature type, else its `place`, `highway` or `building` value." },
    centroid: ref('schemas', 'Centroid'),
    tags: { type: 'array', items: { type: 'string', pattern: '\\|' }, description: 'Every tag as `key|value`.' },
    geometry: ref('schemas', 'Geometry'),
    score: { const: 'NaN', description: 'No score is computed for a lookup.' },
    open: { type: 'boolean', description: 'Open now by `opening_hours`, in Nepal Time.' },
  };

  // A nearby record: a place's fields, with the type that matched, its score and its distance.
  const nearbyPlaceSchema = {
    type: 'object',
    required: [
      'placeId',
      'osmId',
      'license',
      'name',
      'address',
      'type',
      'centroid',
      'tags',
      'geometry',
      'score',
      'radialDistanceInKm',
      'open',
    ],
    additionalProperties: false,
    properties: {
      ...placeProperties,
      osmId: { type: 'integer', minimum: 1 },
      type: { type: 'string', minLength: 1, description: 'The type that matched (for a merged type, the member type).' },
      score: {
        anyOf: [{ type: 'number' }, nonFinite],
        description: 'Higher is better; a score that is not a number is the string `"NaN"`.',
      },
      radialDistanceInKm: { anyOf: [{ type: 'number', minimum: 0 }, nonFinite] },
    },
  };
  const placeSchema = {
    type: 'object',
    description: 'A place, locality, street or building: the fields of `NearbyPlace` without `osmId` and `radialDistanceInKm`.',
    required: PLACE_FIELDS,
    additionalProperties: false,
    properties: placeProperties,
  };
  const reversePlaceSchema = {
    type: 'object',
    description: 'A `Place` and its distance from the query point.',
    required: [...PLACE_FIELDS, 'radialDistanceInKm'],
    additionalProperties: false,
    properties: {
      ...placeProperties,
      radialDistanceInKm: {
        type: 'number',
        minimum: 0,
        description:
          'Haversine km from the query point to the centroid (more than `radius` for an area the point lies in, or a long street).',
      },
    },
  };

  return {
    Timestamp: {
      type: 'string',
      description: "Server time in Nepal Time (UTC+05:45), written like Java's `Date.toString()`.",
      pattern: TIMESTAMP_PATTERN,
      examples: ['Sat Nov 21 21:50:03 NPT 2026'],
    },
    Envelope: {
      type: 'object',
      required: ['timestamp', 'status', 'message', 'data'],
      additionalProperties: false,
      properties: {
        timestamp: ref('schemas', 'Timestamp'),
        status: { type: 'integer', minimum: 100, maximum: 599, description: 'Equals the HTTP status.' },
        message: { type: 'string', minLength: 1, description: '`Success` on 2xx, else what went wrong.' },
        data: { type: 'array' },
      },
    },
    NearbyEnvelope: {
      allOf: [ref('schemas', 'Envelope')],
      properties: {
        status: { const: 200 },
        message: { const: 'Success' },
        data: { type: 'array', items: ref('schemas', 'NearbyPlace'), maxItems: maxLimit },
      },
    },
    PlaceEnvelope: {
      allOf: [ref('schemas', 'Envelope')],
      properties: {
        status: { const: 200 },
        message: { const: 'Success' },
        data: { type: 'array', items: ref('schemas', 'Place'), minItems: 1, maxItems: 1 },
      },
    },
    TypesEnvelope: {
      allOf: [ref('schemas', 'Envelope')],
      properties: {
        status: { const: 200 },
        message: { const: 'Success' },
        data: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['type', 'count'],
            properties: {
              type: { type: 'string', description: 'The type, as `type` of `/search/nearby` takes it.' },
              count: { type: 'integer', minimum: 0, description: 'How many places have it (each once for a merged type).' },
              members: { type: 'array', items: { type: 'string' }, description: "A merged type's member types." },
            },
          },
        },
      },
    },
    SuggestionEnvelope: {
      allOf: [ref('schemas', 'Envelope')],
      properties: {
        status: { const: 200 },
        message: { const: 'Success' },
        data: { type: 'array', items: ref('schemas', 'Suggestion'), maxItems: maxLimit },
      },
    },
    ReverseEnvelope: {
      allOf: [ref('schemas', 'Envelope')],
      properties: {
        status: { const: 200 },
        message: { const: 'Success' },
        data: { type: 'array', items: ref('schemas', 'ReversePlace'), minItems: 1, maxItems: maxLimit },
      },
    },
    RouteEnvelope: {
      allOf: [ref('schemas', 'Envelope')],
      properties: {
        status: { const: 200 },
        message: { const: 'Success' },
        data: { type: 'array', items: ref('schemas', 'Route'), minItems: 1, maxItems: 3 },
      },
    },
    Route: {
      type: 'object',
      required: ['encodedPolyline', 'distanceInMeters', 'timeInMs', 'routeWeight', 'instructionList'],
      additionalProperties: false,
      properties: {
        encodedPolyline: {
          type: 'string',
          description: 'Google encoded polyline, precision 5, `lat,lon`, every vertex from the first snapped point to the last.',
        },
        distanceInMeters: { type: 'number', minimum: 0, description: 'Length of the polyline (haversine, R = 6371.0088 km).' },
        timeInMs: { type: 'number', minimum: 0, description: 'Travel time in milliseconds.' },
        routeWeight: {
          type: 'number',
          minimum: 0,
          description:
            'What the search minimised, in seconds: the travel time plus the penalties the route pays (entering a destination-only road on the way through).',
        },
        instructionList: { anyOf: [{ type: 'null' }, { type: 'array', items: ref('schemas', 'Instruction'), minItems: 2 }] },
      },
    },
    Instruction: {
      type: 'object',
      required: ['sign', 'text', 'name', 'distance', 'time', 'interval'],
      additionalProperties: false,
      properties: {
        sign: {
          type: 'integer',
          description:
            "GraphHopper's sign: -3 sharp left, -2 left, -1 slight left, 0 continue, 1 slight right, 2 right, 3 sharp right, 4 finish, 5 via point, 6 roundabout, -98 U-turn.",
        },
        text: { type: 'string', minLength: 1, examples: ['Turn left onto Tridevi Marg'] },
        name: { type: 'string', description: 'The street, in English where OSM has `name:en`.' },
        distance: { type: 'number', minimum: 0, description: 'Metres of this step.' },
        time: { type: 'integer', minimum: 0, description: 'Milliseconds of this step.' },
        interval: {
          type: 'array',
          items: { type: 'integer', minimum: 0 },
          minItems: 2,
          maxItems: 2,
          description: 'First and last polyline point of the step.',
        },
        exitNumber: { type: 'integer', minimum: 1, description: 'Roundabouts: the exit to take.' },
      },
    },
    EmptyEnvelope: {
      allOf: [ref('schemas', 'Envelope')],
      properties: { status: { const: 200 }, message: { const: 'Success' }, data: { maxItems: 0 } },
    },
    ErrorEnvelope: {
      allOf: [ref('schemas', 'Envelope')],
      properties: {
        status: { minimum: 400 },
        message: { not: { const: 'Success' } },
        data: { maxItems: 0 },
      },
    },
    NearbyPlace: nearbyPlaceSchema,
    Place: placeSchema,
    ReversePlace: reversePlaceSchema,
    Suggestion: {
      type: 'object',
      description: 'What a search box lists: no coordinates, geometry or tags (ask `/places` for those).',
      required: ['placeId', 'name', 'address', 'type', 'score'],
      additionalProperties: false,
      properties: {
        placeId: { type: 'integer', minimum: 0 },
        name: { type: 'string' },
        address: { type: 'string' },
        type: { type: 'string', description: "The row's own type, or with `type` the type that matched (a member, for a merged type)." },
        score: { type: 'number', exclusiveMinimum: 0, description: 'Text relevance (BM25+ over the names), higher is better.' },
      },
    },
    NearbyFeatures: featureCollection(nearbyPlaceSchema, maxLimit),
    PlaceFeatures: featureCollection(placeSchema, 1, 1),
    ReverseFeatures: featureCollection(reversePlaceSchema, maxLimit, 1),
    Centroid: {
      type: 'object',
      required: ['lat', 'lon'],
      additionalProperties: false,
      properties: {
        lat: { type: 'number', minimum: -90, maximum: 90 },
        lon: { type: 'number', minimum: -180, maximum: 180 },
      },
    },
    Position: position,
    Geometry: {
      oneOf: [
        geometry('Point', ref('schemas', 'Position')),
        geometry('LineString', { type: 'array', items: ref('schemas', 'Position'), minItems: 2 }),
        geometry('Polygon', { type: 'array', items: ring, minItems: 1 }),
        geometry('MultiPolygon', { type: 'array', items: { type: 'array', items: ring, minItems: 1 }, minItems: 1 }),
      ],
    },
  };
}

/**
 * The OpenAPI 3.1 description of API v1 as served at `<basePath>/openapi.json`: every route,
 * parameter, status and response schema, with the limits the app was built with.
 */
export function openApiDocument(options: OpenApiOptions = {}): Record<string, unknown> {
  const { basePath = '/api/v1', maxLimit = MAX_LIMIT, maxRadius = MAX_RADIUS, types = [] } = options;
  return {
    openapi: '3.1.0',
    info: {
      title: 'nepal-places API',
      version: API_VERSION,
      summary: 'Places in Nepal, from OpenStreetMap data: near a point, by name, by placeId, at a point.',
      description:
        'Every response, errors included, is an envelope `{timestamp, status, message, data}`. ' +
        'Data © OpenStreetMap contributors, under the Open Database License (ODbL) 1.0.',
      license: { name: 'ISC', identifier: 'ISC' },
    },
    servers: [{ url: basePath }],
    tags: [{ name: 'search' }, { name: 'map' }, { name: 'meta' }],
    paths: paths(),
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'query', name: 'key', description: 'Your API key (the contract of API v1; it wins over a header).' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Your API key, as a header.' },
        bearer: { type: 'http', scheme: 'bearer', description: 'Your API key as `Authorization: Bearer <key>`.' },
      },
      parameters: parameters(maxLimit, maxRadius, types),
      headers: {
        'RateLimit-Limit': { description: 'Requests allowed per window for this key.', schema: { type: 'integer', minimum: 1 } },
        'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer', minimum: 0 } },
        'RateLimit-Reset': { description: 'Seconds until the window ends.', schema: { type: 'integer', minimum: 1 } },
        'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
        'X-Request-Id': { description: 'Names the request in the server log.', schema: { type: 'string' } },
      },
      responses: {
        MethodNotAllowed: errorResponse(405, 'The path exists but not for this method; `Allow` lists the methods.', {
          Allow: { description: 'The allowed methods.', schema: { type: 'string' } },
        }),
        InternalError: errorResponse(500, 'An unexpected fault, logged under the request id; the message is `Internal server error`.'),
        NotFound: errorResponse(404, 'No such path.'),
      },
      schemas: schemas(maxLimit),
    },
  };
}
