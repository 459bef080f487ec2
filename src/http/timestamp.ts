const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Nepal Time's offset from UTC in milliseconds: +05:45 all year, Nepal has no daylight saving. */
export const NPT_OFFSET_MS = (5 * 60 + 45) * 60_000;

const pad = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * An instant as Nepal Time, written like Java's `Date.toString()` with the zone set to NPT:
 * `Sat Nov 21 21:50:03 NPT 2026`.
 * The wall clock comes from arithmetic on the UTC instant (the `getUTC*` fields of the shifted
 * instant), so the host's `TZ` never enters into it.
 * @param ms milliseconds since the epoch (e.g. `Date.now()`)
 */
export function nptTimestamp(ms: number): string {
  const d = new Date(Math.floor(ms) + NPT_OFFSET_MS);
  if (Number.isNaN(d.getTime())) throw new RangeError(`nptTimestamp: not a valid instant: ${ms}`);
  const year = d.getUTCFullYear();
  return (
    `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} NPT ` +
    // Java writes at least four digits of the year.
    (year >= 0 ? String(year).padStart(4, '0') : String(year))
  );
}
