/**
 * Every endpoint of API v1 with an envelope, declared once: path, description, query parameters
 * (`schema.ts`) and 200 answer (`records.ts`). Each route module registers its handler under its
 * declaration (`api.keyed(nearbyEndpoint(limits), …)`), and `openapi.ts` generates the document's
 * operations from `keyedEndpoints()` and `openEndpoints()`, so the two cannot drift apart.
 * The map's resources (tiles, styles, fonts, sprites) are described in `openapi-map.ts`.
 */
import { z } from '@hono/zod-openapi';
import { GEOJSON } from './geojson.js';
import { capsText } from './schema.js';
import { keyed, type KeyedEndpoint, type OpenEndpoint } from './endpoint.js';
import {
  envelopeOf,
  featuresOf,
  HealthRecord,
  Isochrone,
  Matrix,
  NearbyPlace,
  Place,
  ReversePlace,
  Route,
  RouteFeatures,
  Suggestion,
  TypeCount,
} from './records.js';
import {
  directionsSchema,
  isochroneSchema,
  matrixBody,
  matrixSchema,
  nearbySchema,
  placeSchema,
  reverseSchema,
  searchSchema,
  typesSchema,
  type QueryLimits,
} from './schema.js';

/** `GET /search/nearby`. */
export const nearbyEndpoint = ({ maxLimit, ...limits }: QueryLimits) =>
  keyed({
    path: '/search/nearby',
    operationId: 'searchNearby',
    summary: 'Places of a type near a point',
    description:
      'Places of `type` whose centroid lies within `radius` km of (`lat`, `lon`), best score first ' +
      '(or nearest first with `sortBy=true`).',
    query: nearbySchema({ maxLimit, ...limits }),
    ok: { description: 'The places, at most `limit` of them (possibly none).', schema: envelopeOf(NearbyPlace, { max: maxLimit }) },
    geojson: featuresOf(NearbyPlace, { max: maxLimit }),
  });

/** `GET /places`. */
export const placeEndpoint = () =>
  keyed({
    path: '/places',
    operationId: 'place',
    summary: 'One place by its placeId',
    description:
      'The place, locality, street or building with this `placeId` (as a search or nearby record gave it), in a one-element `data`.',
    query: placeSchema(),
    ok: { description: 'The place.', schema: envelopeOf(Place, { min: 1, max: 1 }) },
    geojson: featuresOf(Place, { min: 1, max: 1 }),
    notFound: 'No place has this placeId.',
  });

/** `GET /search`. */
export const searchEndpoint = (limits: QueryLimits) =>
  keyed({
    path: '/search',
    operationId: 'search',
    summary: 'Keyword search, as a search box suggests',
    description:
      'Places, localities, streets and buildings whose names (`name`, `name:en`, `name:ne`, `alt_name`, `old_name`) match ' +
      'every word of `q`, each word as a prefix, case- and accent-insensitively, with one typo allowed in words of five ' +
      'letters or more. Ranked by text relevance, then prominence, then (with `lat`/`lon`) nearness; `radius` filters ' +
      'by distance, `type` by type.',
    query: searchSchema(limits),
    ok: {
      description: 'The suggestions, at most `limit` of them (possibly none).',
      schema: envelopeOf(Suggestion, { max: limits.maxLimit }),
    },
  });

/** `GET /types`. */
export const typesEndpoint = () =>
  keyed({
    path: '/types',
    operationId: 'types',
    summary: 'The types /search/nearby takes',
    description:
      'Every type of the data served and every merged type (with its `members`), with how many places have it, ' +
      'most first: what `type` of `/search/nearby` accepts. An unknown type there is a 400 that suggests the nearest.',
    query: typesSchema(),
    ok: { description: 'The types.', schema: envelopeOf(TypeCount) },
  });

/** `GET /reverse`. */
export const reverseEndpoint = (limits: QueryLimits) =>
  keyed({
    path: '/reverse',
    operationId: 'reverse',
    summary: 'What is at a point',
    description:
      'The named places, localities and addressed buildings nearest to (`lat`, `lon`) within `radius` km, one that ' +
      'contains the point first; a named street only when none is within reach.',
    query: reverseSchema(limits),
    ok: {
      description: 'The places, nearest first, at most `limit` of them.',
      schema: envelopeOf(ReversePlace, { min: 1, max: limits.maxLimit }),
    },
    geojson: featuresOf(ReversePlace, { min: 1, max: limits.maxLimit }),
    notFound: 'Nothing within `radius` km of the point.',
  });

/** `GET /directions`. */
export const directionsEndpoint = () =>
  keyed({
    path: '/directions',
    operationId: 'directions',
    summary: 'Routes through two or more points',
    description:
      'The best route through `points` in order for `mode` (foot: the shortest walk; bike; car: the fastest legal drive, ' +
      'obeying one-ways, access and turn restrictions), then with `alternatives=true` (two points only) up to two more that ' +
      'share at most about 70% of its length and cost at most 1.4 times it. Each point snaps to the nearest road the mode ' +
      'may use within 1 km; the route starts and ends at the snapped points.',
    query: directionsSchema(),
    ok: { description: 'The routes, best first.', schema: envelopeOf(Route, { min: 1, max: 3 }) },
    geojson: RouteFeatures,
    notFound: 'A point lies farther than 1 km from every road the mode may use, or no road of the mode joins two points.',
  });

/** `GET /matrix` (an extension beyond API v1). */
export const matrixEndpoint = () =>
  keyed({
    path: '/matrix',
    operationId: 'matrix',
    summary: 'Travel times and distances from many points to many (extension)',
    description:
      '**Extension, not part of API v1.** For `mode`, the travel time (ms) and distance (metres) from each of `sources[]` to ' +
      'each of `destinations[]`, as `/directions` would route them (each point snapped to the nearest road the mode may use ' +
      'within 1 km), null where no road joins them; one record in `data`. At most 100 sources and 100 destinations (a 400 says so). ' +
      'For lists too long for a URL, `POST` the same arguments as a JSON body.',
    query: matrixSchema(),
    ok: { description: 'The matrix.', schema: envelopeOf(Matrix, { min: 1, max: 1 }) },
    extension: true,
    body: { description: 'The sources, destinations and mode.', schema: matrixBody() },
    notFound: 'A point lies farther than 1 km from every road the mode may use (the message names it, e.g. `sources[3]`).',
  });

/** `GET /isochrone` (an extension beyond API v1): GeoJSON itself, not an envelope. */
export const isochroneEndpoint = () =>
  keyed({
    path: '/isochrone',
    operationId: 'isochrone',
    summary: 'Where one gets from a point within so many minutes (extension)',
    description:
      '**Extension, not part of API v1.** For `mode`, what is reached from (`lat`, `lon`) within each of `minutes`: a GeoJSON ' +
      'FeatureCollection (`application/geo+json`, not an envelope; refusals are envelopes) of one MultiPolygon per contour, ' +
      'largest first, with holes where the network does not reach in time. The point snaps to the nearest road the mode may ' +
      `use within 1 km. At most 4 contours, each at most ${capsText()}.`,
    query: isochroneSchema(),
    ok: { description: 'The contours.', schema: Isochrone, media: GEOJSON },
    extension: true,
    notFound: 'The point lies farther than 1 km from every road the mode may use.',
  });

/** `GET /health` (public). */
export const healthEndpoint: OpenEndpoint = {
  path: '/health',
  operationId: 'health',
  summary: 'Health check (public, no key, not counted)',
  description:
    "For load balancers: a 200 envelope while the instance serves; no key, no quota. Its one record says what it serves: the version, the places, the data's extent and date, whether a map, and of a pack what it holds.",
  ok: { description: 'Up.', schema: envelopeOf(HealthRecord, { min: 1, max: 1 }) },
};

/** `GET /openapi.json` (public). */
export const openapiEndpoint: OpenEndpoint = {
  path: '/openapi.json',
  operationId: 'openapi',
  summary: 'This document (public, no key)',
  ok: { description: 'The OpenAPI 3.1 document.', schema: z.object({ openapi: z.string() }).loose() },
};

/** Every keyed endpoint with an envelope, in the document's order. */
export function keyedEndpoints(limits: QueryLimits): KeyedEndpoint[] {
  return [
    nearbyEndpoint(limits),
    placeEndpoint(),
    searchEndpoint(limits),
    typesEndpoint(),
    reverseEndpoint(limits),
    directionsEndpoint(),
    matrixEndpoint(),
    isochroneEndpoint(),
  ];
}

/** The public endpoints, in the document's order. */
export function openEndpoints(): OpenEndpoint[] {
  return [healthEndpoint, openapiEndpoint];
}
