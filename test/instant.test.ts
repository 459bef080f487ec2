/**
 * parseInstant: ISO 8601 only, and a time without an offset is Nepal Time (UTC+05:45)
 * whatever the host's time zone. Expected instants are worked out by hand as UTC.
 */
import { describe, expect, it } from 'vitest';
import { parseInstant } from '../src/index.js';

const utc = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0) => Date.UTC(y, mo - 1, d, h, mi, s, ms);

describe('a date and time without an offset is Nepal Time, 5 h 45 min ahead of UTC', () => {
  it.each([
    ['2026-11-21T22:10', utc(2026, 11, 21, 16, 25)],
    ['2026-11-21T22:10:30', utc(2026, 11, 21, 16, 25, 30)],
    ['2026-11-21T22:10:30.5', utc(2026, 11, 21, 16, 25, 30, 500)],
    ['2026-11-21T22:10:30.123456789', utc(2026, 11, 21, 16, 25, 30, 123)],
    ['2026-11-21T05:00', utc(2026, 11, 20, 23, 15)], // the day before in UTC
    ['2026-11-21', utc(2026, 11, 20, 18, 15)], // a date alone is its midnight
    ['2024-02-29T12:00', utc(2024, 2, 29, 6, 15)],
  ])('%s', (text, want) => {
    expect(parseInstant(text)?.getTime()).toBe(want);
  });

  it('the same whatever the host time zone says (TZ is read by Date, not by the parser)', () => {
    // a Date's local fields differ by zone; the parser must not use them
    expect(parseInstant('2026-07-01T00:00')?.toISOString()).toBe('2026-06-30T18:15:00.000Z');
  });
});

describe('an offset, when given, is used as written', () => {
  it.each([
    ['2026-11-21T16:25Z', utc(2026, 11, 21, 16, 25)],
    ['2026-11-21T22:10+05:45', utc(2026, 11, 21, 16, 25)],
    ['2026-11-21T22:10+0545', utc(2026, 11, 21, 16, 25)],
    ['2026-11-21T11:10-05:00', utc(2026, 11, 21, 16, 10)],
    ['2026-11-21T11:10-05', utc(2026, 11, 21, 16, 10)],
    ['2026-11-21T00:30:00+14:00', utc(2026, 11, 20, 10, 30)],
  ])('%s', (text, want) => {
    expect(parseInstant(text)?.getTime()).toBe(want);
  });
});

describe('anything that is not ISO 8601, or a date that does not exist, is refused', () => {
  it.each([
    'Nov 21 2026',
    '21/11/2026',
    '2026/11/21',
    '2026-11-21 22:10',
    '2026-11-21t22:10',
    '2026-11-21T22',
    '2026-11-21T2:10',
    '2026-11-21T22:10+5:45',
    '2026-11-21T22:10 +05:45',
    '2026-11-21T22:10+05:45 ',
    ' 2026-11-21',
    '2026-11-21Z',
    '2026-02-29',
    '2026-02-30',
    '2026-04-31',
    '2026-13-01',
    '2026-00-10',
    '2026-11-00',
    '2026-11-21T24:00',
    '2026-11-21T23:60',
    '2026-11-21T23:59:60',
    '2026-11-21T22:10+24:00',
    '2026-11-21T22:10+05:60',
    '1763742600000',
    '',
    'now',
    '+002026-11-21',
  ])('%j', (text) => {
    expect(parseInstant(text)).toBeUndefined();
  });
});
