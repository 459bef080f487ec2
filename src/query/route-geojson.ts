import polyline from '@mapbox/polyline';
import type { Instruction } from '../route/instructions.js';
import type { Route } from './route.js';
import { MODE_SYNONYMS } from '../osm/profile.js';

/** One route as a GeoJSON Feature: its line and its figures. */
export interface RouteFeature {
  type: 'Feature';
  properties: {
    /** 0 for the best route, then the alternatives in order. */
    rank: number;
    /** The mode, a synonym given as its name (`motorcycle`: `motorbike`). */
    mode: string;
    distanceInMeters: number;
    timeInMs: number;
    routeWeight: number;
    /** Only when the route was asked with instructions. */
    instructionList?: Instruction[];
  };
  geometry: { type: 'LineString'; coordinates: [number, number][] };
}

/** Routes as a GeoJSON FeatureCollection (RFC 7946). */
export interface RouteFeatureCollection {
  type: 'FeatureCollection';
  features: RouteFeature[];
}

/**
 * The routes of `route()` as a GeoJSON FeatureCollection, best first: one LineString per route,
 * the vertices of its `encodedPolyline` as `[lon, lat]`, and its distance, time, weight and (when
 * asked) instructions as properties. What the CLI's `route --geojson` and `/directions?format=geojson` answer.
 *
 * @example
 * routesToGeoJSON(route(index, { points: ['27.7154,85.3123', '27.7090,85.3290'], mode: 'car' }), { mode: 'car' });
 */
export function routesToGeoJSON(routes: readonly Route[], { mode }: { mode: string }): RouteFeatureCollection {
  mode = MODE_SYNONYMS[mode] ?? mode;
  return {
    type: 'FeatureCollection',
    features: routes.map((r, rank) => ({
      type: 'Feature',
      properties: {
        rank,
        mode,
        distanceInMeters: r.distanceInMeters,
        timeInMs: r.timeInMs,
        routeWeight: r.routeWeight,
        ...(r.instructionList ? { instructionList: r.instructionList } : {}),
      },
      geometry: {
        type: 'LineString',
        coordinates: polyline.decode(r.encodedPolyline, 5).map(([lat, lon]) => [lon, lat] as [number, number]),
      },
    })),
  };
}
