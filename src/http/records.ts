/**
 * What API v1 answers, as zod schemas: the records (place, nearby record, reverse record, search
 * hit, route, type, health), the envelope around them and the GeoJSON form of records with shapes.
 * The OpenAPI document's response schemas are generated from these (`openapi.ts`), and the wire
 * types below are inferred from them; `test/http-records-types.test.ts` checks that they agree with
 * the library's public types (`src/types.ts`). Nothing here runs per request: the server writes
 * its answers directly, these describe them.
 */
import { z } from '@hono/zod-openapi';
import { MODES } from '../osm/profile.js';
import { MAX_CONTOURS } from '../query/isochrone.js';

/** The pattern of an envelope's `timestamp`: Java's `Date.toString()` in Nepal Time. */
export const TIMESTAMP_PATTERN =
  '^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ' +
  '(0[1-9]|[12][0-9]|3[01]) ([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9] NPT [0-9]{4,}$';

/** An envelope's `timestamp`. */
export const Timestamp = z
  .string()
  .regex(new RegExp(TIMESTAMP_PATTERN))
  .meta({
    id: 'Timestamp',
    description: "Server time in Nepal Time (UTC+05:45), written like Java's `Date.toString()`.",
    examples: ['Sat Nov 21 21:50:03 NPT 2026'],
  });

/** A record's centroid. */
export const Centroid = z
  .object({ lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180) })
  .strict()
  .meta({ id: 'Centroid' });

/** A GeoJSON position. */
export const Position = z
  .tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)])
  // a tuple's JSON Schema (prefixItems) lets more items follow: these say there are none
  .meta({ id: 'Position', description: '`[lon, lat]` in degrees (GeoJSON order).', minItems: 2, maxItems: 2 });

const ring = z.array(Position).min(4);
const shape = <T extends string, C extends z.ZodType>(type: T, coordinates: C) => z.object({ type: z.literal(type), coordinates }).strict();

/** A record's geometry: a GeoJSON Point, LineString, Polygon or MultiPolygon. */
export const Geometry = z
  .union([
    shape('Point', Position),
    shape('LineString', z.array(Position).min(2)),
    shape('Polygon', z.array(ring).min(1)),
    shape('MultiPolygon', z.array(z.array(ring).min(1)).min(1)),
  ])
  .meta({ id: 'Geometry' });

/** How JSON carries a number that JSON cannot write. */
const nonFinite = z.enum(['NaN', 'Infinity', '-Infinity']);

/** The fields every place record has, described once. */
const placeFields = {
  placeId: z.number().int().min(0).describe('`osmId * 4 + kind` (kind 0 node, 1 way, 2 relation).'),
  license: z.string().min(1),
  name: z
    .string()
    .describe('`name`, else `name:en`, else `name:ne`, else empty; with `lang` (or `Accept-Language`), the name in that language.'),
  nameTransliterated: z
    .boolean()
    .optional()
    .describe(
      '**Extension**, present with a language only: whether `name` is a transliteration from the other script (no name in the language asked for).',
    ),
  address: z.string().describe('The textual address, most specific part first, joined with `", "`.'),
  type: z.string().describe("The row's own type: its first feature type, else its `place`, `highway` or `building` value."),
  centroid: Centroid,
  tags: z.array(z.string().regex(/\|/)).describe('Every tag as `key|value`.'),
  geometry: Geometry,
  score: z.literal('NaN').describe('No score is computed for a lookup.'),
  open: z.boolean().describe('Open now by `opening_hours`, in Nepal Time.'),
};

/** A record of `/places`. */
export const Place = z.object(placeFields).strict().meta({
  id: 'Place',
  description: 'A place, locality, street or building: the fields of `NearbyPlace` without `osmId` and `radialDistanceInKm`.',
});

/** A record of `/search/nearby`: a place's fields, with the type that matched, its score and its distance. */
export const NearbyPlace = z
  .object({
    ...placeFields,
    osmId: z.number().int().min(1),
    type: z.string().min(1).describe('The type that matched (for a merged type, the member type).'),
    score: z.union([z.number(), nonFinite]).describe('Higher is better; a score that is not a number is the string `"NaN"`.'),
    radialDistanceInKm: z.union([z.number().min(0), nonFinite]),
    travelTimeInMs: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('**Extension**, with `by=time` only: the travel time from the query point, ms, as `/directions` reports it.'),
    travelDistanceInMeters: z.number().min(0).optional().describe('**Extension**, with `by=time` only: the length of that trip, metres.'),
  })
  .strict()
  .meta({ id: 'NearbyPlace' });

/** Where a point of a matrix snapped. */
const MatrixPoint = z
  .object({ lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180), snapDistanceInMeters: z.number().min(0) })
  .strict()
  .meta({ id: 'MatrixPoint', description: 'The snapped point, and how far the given point lies from it.' });

/** The record of `/matrix`. */
export const Matrix = z
  .object({
    durations: z
      .array(z.array(z.number().int().min(0).nullable()))
      .describe('`durations[i][j]`: ms from source i to destination j; null where no road joins them.'),
    distances: z.array(z.array(z.number().min(0).nullable())).describe('`distances[i][j]`: metres along the roads; null likewise.'),
    sources: z.array(MatrixPoint),
    destinations: z.array(MatrixPoint),
  })
  .strict()
  .meta({ id: 'Matrix' });

/** The answer of `/isochrone`: GeoJSON itself, not an envelope. */
export const Isochrone = z
  .object({
    type: z.literal('FeatureCollection'),
    features: z
      .array(
        z
          .object({
            type: z.literal('Feature'),
            properties: z
              .object({
                minutes: z.number().int().min(1).describe('The contour: reached within this many minutes.'),
                mode: z.enum(MODES),
              })
              .strict(),
            geometry: shape('MultiPolygon', z.array(z.array(ring).min(1))).describe(
              'What is reached in time, with holes where the network does not reach; no polygons where nothing is.',
            ),
          })
          .strict(),
      )
      .min(1)
      .max(MAX_CONTOURS)
      .describe('One per contour asked for, largest first (so that a map drawing them in order stacks them).'),
  })
  .strict()
  .meta({ id: 'Isochrone', description: 'GeoJSON (RFC 7946), `application/geo+json`.' });

/** A record of `/reverse`. */
export const ReversePlace = z
  .object({
    ...placeFields,
    radialDistanceInKm: z
      .number()
      .min(0)
      .describe('Haversine km from the query point to the centroid (more than `radius` for an area the point lies in, or a long street).'),
  })
  .strict()
  .meta({ id: 'ReversePlace', description: 'A `Place` and its distance from the query point.' });

/** A record of `/search`. */
export const Suggestion = z
  .object({
    placeId: z.number().int().min(0),
    name: z.string(),
    nameTransliterated: z
      .boolean()
      .optional()
      .describe('**Extension**, present with a language only: whether `name` is a transliteration from the other script.'),
    address: z.string(),
    type: z.string().describe("The row's own type, or with `type` the type that matched (a member, for a merged type)."),
    score: z.number().gt(0).describe('Text relevance (BM25+ over the names), higher is better.'),
  })
  .strict()
  .meta({ id: 'Suggestion', description: 'What a search box lists: no coordinates, geometry or tags (ask `/places` for those).' });

/** A step of a route's `instructionList`. */
export const Instruction = z
  .object({
    sign: z
      .number()
      .int()
      .describe(
        "GraphHopper's sign: -3 sharp left, -2 left, -1 slight left, 0 continue, 1 slight right, 2 right, 3 sharp right, 4 finish, 5 via point, 6 roundabout, -98 U-turn.",
      ),
    text: z
      .string()
      .min(1)
      .meta({ examples: ['Turn left onto Tridevi Marg'] }),
    name: z.string().describe('The street, in English where OSM has `name:en`; with `lang` (or `Accept-Language`), in that language.'),
    distance: z.number().min(0).describe('Metres of this step.'),
    time: z.number().int().min(0).describe('Milliseconds of this step.'),
    interval: z
      .tuple([z.number().int().min(0), z.number().int().min(0)])
      .meta({ description: 'First and last polyline point of the step.', minItems: 2, maxItems: 2 }),
    exitNumber: z.number().int().min(1).optional().describe('Roundabouts: the exit to take.'),
    pushed: z
      .literal(true)
      .optional()
      .describe('Bike routes: `true` on a step the bike is walked (pushed) along, where it may not be ridden.'),
  })
  .strict()
  .meta({ id: 'Instruction' });

/** A record of `/directions`. */
export const Route = z
  .object({
    encodedPolyline: z
      .string()
      .describe('Google encoded polyline, precision 5, `lat,lon`, every vertex from the first snapped point to the last.'),
    distanceInMeters: z.number().min(0).describe('Length of the polyline (haversine, R = 6371.0088 km).'),
    timeInMs: z.number().min(0).describe('Travel time in milliseconds.'),
    routeWeight: z
      .number()
      .min(0)
      .describe(
        'What the search minimised, in seconds: the travel time plus the penalties the route pays (entering a destination-only road on the way through).',
      ),
    instructionList: z.array(Instruction).min(2).nullable(),
  })
  .strict()
  .meta({ id: 'Route' });

/** `/directions?format=geojson`: the routes as a GeoJSON FeatureCollection (`routesToGeoJSON`). */
export const RouteFeatures = z
  .object({
    type: z.literal('FeatureCollection'),
    timestamp: Timestamp,
    status: z.literal(200),
    message: z.literal('Success'),
    features: z
      .array(
        z
          .object({
            type: z.literal('Feature'),
            properties: z
              .object({
                rank: z.number().int().min(0).describe('0 for the best route, then the alternatives in order.'),
                mode: z.string().describe('The mode (`motorcycle` given: `motorbike`).'),
                distanceInMeters: Route.shape.distanceInMeters,
                timeInMs: Route.shape.timeInMs,
                routeWeight: Route.shape.routeWeight,
                instructionList: z.array(Instruction).min(2).optional().describe('With `instructions=true` only.'),
              })
              .strict(),
            geometry: z
              .object({ type: z.literal('LineString'), coordinates: z.array(Position).min(2) })
              .strict()
              .describe("The vertices of the route's `encodedPolyline`, `[lon, lat]`."),
          })
          .strict(),
      )
      .min(1)
      .max(3),
  })
  .strict()
  .describe(
    'GeoJSON (RFC 7946), `format=geojson`: one LineString Feature per route, best first; `timestamp`, `status` and `message` as in the envelope.',
  )
  .meta({ id: 'RouteFeatures' });

/** A record of `/types`. */
export const TypeCount = z
  .object({
    type: z.string().describe('The type, as `type` of `/search/nearby` takes it.'),
    count: z.number().int().min(0).describe('How many places have it (each once for a merged type).'),
    members: z.array(z.string()).optional().describe("A merged type's member types."),
  })
  .strict()
  .meta({ id: 'TypeCount' });

/** The one record of `/health`. */
export const HealthRecord = z
  .object({
    version: z.string().describe("The package's version."),
    places: z.number().int().min(0).describe('The places of /search/nearby in the data.'),
    bounds: z
      .tuple([z.number(), z.number(), z.number(), z.number()])
      .nullable()
      .meta({ description: '[west, south, east, north] around the data, degrees; null for empty data.', minItems: 4, maxItems: 4 }),
    dataDate: z.iso.datetime().nullable().describe("The data file's modification time, where the server knows it."),
    map: z.boolean().describe('Whether map tiles (and the styles) are served.'),
    pack: z
      .object({
        bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable().meta({
          description: 'The area it was cut to, [west, south, east, north] degrees; null for the whole data.',
          minItems: 4,
          maxItems: 4,
        }),
        region: z.string().optional().describe('The named region the area is (kathmandu-valley, pokhara).'),
        modes: z
          .array(z.enum(MODES))
          .describe('The modes it routes; /directions, /matrix, /isochrone and nearby by time refuse others with a 400.'),
        routing: z.boolean().describe('Whether it has the road graph.'),
        search: z.boolean().describe('Whether it has the text index of /search.'),
      })
      .strict()
      .optional()
      .describe('Only when the data is a pack (a snapshot of one area, or of some parts): what it holds.'),
  })
  .strict()
  .meta({ id: 'Health' });

/** How many records a 200 envelope holds. */
export interface Count {
  min?: number;
  max?: number;
}

/** The 200 envelope of a route answering `record`s: `{timestamp, status: 200, message: 'Success', data}`. */
export function envelopeOf<R extends z.ZodType>(record: R, { min, max }: Count = {}) {
  let data = z.array(record);
  if (min !== undefined) data = data.min(min);
  if (max !== undefined) data = data.max(max);
  return z
    .object({
      timestamp: Timestamp,
      status: z.literal(200),
      message: z.literal('Success'),
      data,
    })
    .strict();
}

/** Every response's envelope, errors included. */
export const Envelope = z
  .object({
    timestamp: Timestamp,
    status: z.number().int().min(100).max(599).describe('Equals the HTTP status.'),
    message: z.string().min(1).describe('`Success` on 2xx, else what went wrong.'),
    data: z.array(z.unknown()),
  })
  .strict()
  .meta({ id: 'Envelope' });

/** The envelope of an error: a status from 400, its message, no records. */
export const ErrorEnvelope = Envelope.extend({
  status: z.number().int().min(400).max(599).describe('Equals the HTTP status.'),
  message: z
    .string()
    .min(1)
    // JSON Schema's `not`, which zod has no check for: whatever went wrong, it is not a success
    .meta({ description: 'What went wrong, naming the offending parameter.', not: { const: 'Success' } }),
  data: z.array(z.unknown()).max(0),
}).meta({ id: 'ErrorEnvelope' });

/** The error envelope of exactly `status`. */
export const errorEnvelopeOf = (status: number) => ErrorEnvelope.extend({ status: z.literal(status) });

/** The envelope of a preflight: a success with no records. */
export const EmptyEnvelope = envelopeOf(z.unknown(), { max: 0 });

/**
 * The GeoJSON answer of a route whose records have the given schema: a FeatureCollection with the
 * envelope's other fields as foreign members; each feature's properties are the record's fields
 * without `geometry`, tags as an object, `centroid` only with `geometry=full`.
 */
export function featuresOf(record: typeof Place | typeof NearbyPlace | typeof ReversePlace, { min, max }: Count = {}) {
  const properties = (record as typeof Place)
    .omit({ geometry: true, tags: true, centroid: true })
    .extend({
      centroid: Centroid.optional(),
      tags: z.record(z.string(), z.string()).describe('Every tag as `key: value`.'),
    })
    .strict();
  let features = z.array(
    z
      .object({
        type: z.literal('Feature'),
        id: z.number().int().min(0).describe('The `placeId`.'),
        geometry: Geometry.describe("The record's geometry, or with `geometry=centroid` a Point at its centroid."),
        properties,
      })
      .strict(),
  );
  if (min !== undefined) features = features.min(min);
  if (max !== undefined) features = features.max(max);
  return z
    .object({
      type: z.literal('FeatureCollection'),
      timestamp: Timestamp,
      status: z.literal(200),
      message: z.literal('Success'),
      features,
    })
    .strict()
    .describe(
      'GeoJSON (RFC 7946), `format=geojson`: one Feature per record, in the same order; `timestamp`, `status` and `message` as in the envelope.',
    );
}

/** A place record as JSON carries it. */
export type WirePlaceRecord = z.infer<typeof Place>;
/** A nearby record as JSON carries it. */
export type WireNearbyPlace = z.infer<typeof NearbyPlace>;
/** A reverse record as JSON carries it. */
export type WireReversePlace = z.infer<typeof ReversePlace>;
/** A search hit as JSON carries it. */
export type WireSuggestion = z.infer<typeof Suggestion>;
/** A route as JSON carries it. */
export type WireRoute = z.infer<typeof Route>;
/** A `/matrix` record on the wire. */
export type WireMatrix = z.infer<typeof Matrix>;
/** A `/types` record. */
export type WireTypeCount = z.infer<typeof TypeCount>;
/** The `/health` record. */
export type HealthInfo = z.infer<typeof HealthRecord>;
