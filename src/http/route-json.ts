/**
 * The 200 envelope of `/directions`, written from `route()`'s routes: byte for byte
 * `JSON.stringify` of `envelope(200, undefined, routes, now)`.
 *
 * Why: a long route's encoded polyline is tens of KB of characters between `?` and `~`, a
 * backslash among them; `JSON.stringify` takes its slow path for a string it must escape, and
 * spent 4 ns a character on it, the time of the route's whole polyline encoding. Escaping the one
 * character that needs it with `replaceAll` is four times faster.
 */
import type { Route } from '../query/route.js';
import { envelope } from './envelope.js';
import type { Body } from './nearby-json.js';

const encoder = new TextEncoder();

/** The 200 envelope of `routes` at `now`, as JSON text. */
export function routesJson(routes: readonly Route[], now: number): string {
  // `…"data":[` before the records, `]}` after them
  const lead = JSON.stringify(envelope(200, undefined, [], now)).slice(0, -2);
  const records = routes.map(
    (r) =>
      // an encoded polyline holds characters 63 ('?') to 126 ('~') alone: of those JSON escapes the backslash only
      `{"encodedPolyline":"${r.encodedPolyline.replaceAll('\\', '\\\\')}","distanceInMeters":${JSON.stringify(r.distanceInMeters)},` +
      `"timeInMs":${JSON.stringify(r.timeInMs)},"routeWeight":${JSON.stringify(r.routeWeight)},` +
      `"instructionList":${JSON.stringify(r.instructionList)}}`,
  );
  return `${lead}${records.join(',')}]}`;
}

/** `routesJson` as UTF-8, to answer with `bytesAnswer` (its headers in a plain object, as the other written answers'). */
export function routesBody(routes: readonly Route[], now: number): Body {
  const text = routesJson(routes, now);
  return { bytes: encoder.encode(text), chars: text.length };
}
