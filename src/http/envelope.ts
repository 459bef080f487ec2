import type { NearbyPlace } from '../types.js';
import { nptTimestamp } from './timestamp.js';

/** How JSON carries a number that JSON cannot write: `"NaN"`, `"Infinity"`, `"-Infinity"`. */
export type NonFinite = 'NaN' | 'Infinity' | '-Infinity';

/** A `NearbyPlace` as JSON carries it: a score or distance that is not finite becomes a string. */
export type WirePlace = Omit<NearbyPlace, 'score' | 'radialDistanceInKm'> & {
  score: number | NonFinite;
  radialDistanceInKm: number | NonFinite;
};

/** The body of every response of API v1, errors included. */
export interface Envelope<T = unknown> {
  /** Server time in Nepal Time, e.g. `Sat Nov 21 21:50:03 NPT 2026`. */
  timestamp: string;
  /** Equals the HTTP status of the response. */
  status: number;
  /** `Success` on 2xx, else what went wrong, naming the offending parameter. */
  message: string;
  /** The records; always an array, empty on errors. */
  data: T[];
}

/** The message of every 2xx envelope. */
export const SUCCESS = 'Success';

/**
 * Builds an envelope. `message` defaults to `Success` for 2xx statuses.
 * @param now milliseconds since the epoch, for the timestamp
 */
export function envelope<T>(status: number, message: string | undefined, data: T[], now: number): Envelope<T> {
  return { timestamp: nptTimestamp(now), status, message: message ?? SUCCESS, data };
}

/**
 * A record ready for JSON: JSON has no NaN, and `JSON.stringify` would silently write `null`,
 * so a score of NaN is written as the string `"NaN"` (likewise the infinities, and the distance).
 * Only these two fields come out of floating-point arithmetic; the rest are ids, coordinates
 * and strings, so the hot path checks two numbers instead of walking every value.
 */
export function toWire(place: NearbyPlace): WirePlace {
  const { score, radialDistanceInKm: km } = place;
  if (Number.isFinite(score) && Number.isFinite(km)) return place;
  return { ...place, score: wireNumber(score), radialDistanceInKm: wireNumber(km) };
}

/** A number as JSON carries it: itself when finite, else `"NaN"`, `"Infinity"` or `"-Infinity"`. */
export function wireNumber(n: number): number | NonFinite {
  return Number.isFinite(n) ? n : (String(n) as NonFinite);
}
