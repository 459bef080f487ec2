/**
 * Opening hours evaluated at Nepal Time (UTC+05:45, no DST) by the npm `opening_hours`
 * library, which reads a Date's local fields: we hand it a Date whose local wall clock is
 * Nepal's. Only valid for instants whose Nepal wall clock exists in the host's zone (tests
 * pick such instants; the child-process tests cover other zones).
 */
import opening_hours from 'opening_hours';

const NPT_MINUTES = 5 * 60 + 45;

/** The instant whose Nepal wall clock reads `yyyy-mm-ddThh:mm`. */
export function npt(wall: string): Date {
  return new Date(`${wall}:00+05:45`);
}

/** A Date whose local fields are Nepal's wall clock at `at`. */
export function nepalWallClock(at: Date): Date {
  const w = new Date(at.getTime() + NPT_MINUTES * 60_000);
  return new Date(
    w.getUTCFullYear(),
    w.getUTCMonth(),
    w.getUTCDate(),
    w.getUTCHours(),
    w.getUTCMinutes(),
    w.getUTCSeconds(),
    w.getUTCMilliseconds(),
  );
}

/** True when Nepal's wall clock at `at` exists in the host's zone (not skipped by a DST change). */
export function wallClockExists(at: Date): boolean {
  const w = new Date(at.getTime() + NPT_MINUTES * 60_000);
  const d = nepalWallClock(at);
  return d.getHours() === w.getUTCHours() && d.getMinutes() === w.getUTCMinutes() && d.getDate() === w.getUTCDate();
}

const parsed = new Map<string, opening_hours | null>();

/** The library's reading of a value with its defaults, or null when it does not parse; memoised. */
function parse(value: string): opening_hours | null {
  let oh = parsed.get(value);
  if (oh === undefined) {
    try {
      oh = new opening_hours(value);
    } catch {
      oh = null;
    }
    parsed.set(value, oh);
  }
  return oh;
}

/** True when `value` parses with the library's defaults. */
export function parses(value: string): boolean {
  return parse(value) !== null;
}

/** The contract's `open`: no tag or unparseable → false. */
export function openAt(value: string | undefined, at: Date): boolean {
  if (!wallClockExists(at)) throw new Error(`Nepal's wall clock at ${at.toISOString()} does not exist in this host's time zone`);
  const oh = value === undefined ? null : parse(value);
  return oh ? oh.getState(nepalWallClock(at)) : false;
}
