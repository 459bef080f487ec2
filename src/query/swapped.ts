/**
 * Points given as `lon,lat` instead of `lat,lon`: the commonest mistake with a map API (GeoJSON
 * and most GIS write longitude first). Both readings are usually valid coordinates, so without
 * this check a swapped query answers an empty list or "6,656 km apart" and the caller never
 * learns why.
 */
import type { PlaceIndex } from '../index/place-index.js';
import { within } from '../index/bounds.js';
import { InvalidQueryError, type QueryParam } from '../errors.js';

/**
 * Throws `InvalidQueryError` naming `param` when (`lat`, `lon`) lies outside the data (grown by
 * `marginKm`) while the swapped reading (`lon`, `lat`) lies in it: the message says that points
 * are latitude first and shows the swapped reading. `what` names the point in the message
 * (e.g. `point 2`); by default the message speaks of `lat` and `lon`.
 */
export function checkNotSwapped(
  index: PlaceIndex,
  lat: number,
  lon: number,
  options: { param?: QueryParam; marginKm: number; what?: string },
): void {
  const b = index.bounds;
  if (!b || Math.abs(lon) > 90) return; // a longitude past ±90 is no latitude: nothing to swap
  if (within(b, lat, lon, options.marginKm) || !within(b, lon, lat, options.marginKm)) return;
  const param = options.param ?? 'lat';
  const given = options.what ? `${options.what} (${lat},${lon})` : `lat=${lat}, lon=${lon}`;
  const swapped = options.what ? `${lon},${lat}` : `lat=${lon}, lon=${lat}`;
  const order = options.what ? 'points are lat,lon (latitude first)' : 'lat is the latitude (north-south), lon the longitude (east-west)';
  throw new InvalidQueryError(param, `${given} lies outside the data, but swapped (${swapped}) it lies in it: ${order}`);
}
