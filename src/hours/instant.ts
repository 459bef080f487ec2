import { NPT_OFFSET_MS } from './schedules.js';

// ISO 8601 extended format, a calendar date with an optional time and offset. Written
// here rather than left to `new Date(text)`, which reads a time without an offset in
// the host's time zone (so the same command answered differently in Kathmandu and New
// York) and takes many forms that are not ISO 8601 at all ("Nov 21 2026", "2026/11/21").
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** How `parseInstant` takes an instant, in words for error messages. */
export const INSTANT_FORMAT =
  'an ISO 8601 date and time such as 2026-11-21T22:10 (Nepal Time when no offset is given), 2026-11-21T22:10+05:45 or 2026-11-21T16:25Z';

/**
 * Reads an ISO 8601 instant: `YYYY-MM-DD`, optionally `Thh:mm`, `:ss` and a fraction
 * of a second, and an offset (`Z`, `±hh:mm`, `±hhmm`, `±hh`). A date or time without
 * an offset is Nepal Time (UTC+05:45), whatever the host's time zone; a date alone is
 * its midnight. Returns undefined for anything else, including dates that do not
 * exist (2026-02-30, 25:00).
 *
 * @example
 * parseInstant('2026-11-21T22:10');        // 2026-11-21T16:25:00.000Z
 * parseInstant('2026-11-21T22:10-05:00');  // 2026-11-22T03:10:00.000Z
 * parseInstant('Nov 21 2026');             // undefined
 */
export function parseInstant(text: string): Date | undefined {
  const m = ISO.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m;
  const year = Number(y),
    month = Number(mo),
    day = Number(d),
    hour = Number(h),
    minute = Number(mi),
    second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 59) return undefined;
  let offset = NPT_OFFSET_MS;
  if (zone === 'Z') offset = 0;
  else if (zone) {
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2)),
      om = Number(digits.slice(2) || '0');
    if (oh > 23 || om > 59) return undefined;
    offset = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  // Date.UTC takes years 0-99 as 1900-1999; setUTCFullYear does not
  const wall = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, ms));
  wall.setUTCFullYear(year);
  return new Date(wall.getTime() - offset);
}

function daysIn(year: number, month: number): number {
  return month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}
