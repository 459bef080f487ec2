/**
 * Child-process probe for the time-zone tests: loads the core fixture, asks nearby() the
 * same questions at fixed instants, prints the answers as JSON. Run as
 * `TZ=… node --import tsx test/support/nearby-at.ts`.
 */
import { loadPbf, nearby } from '../../src/index.js';
import { pathToFileURL } from 'node:url';
import { CORE } from './raw.js';

/** Fixed instants, in an order that also moves backwards (schedule caches must not care). */
export const INSTANTS = [
  '2026-01-17T01:30:00+05:45', // Saturday night, inside ranges across midnight
  '2026-01-16T05:00:00+05:45', // Friday dawn
  '2026-01-17T12:00:00+05:45', // Saturday noon: Su-Fr places are off
  '2026-03-08T02:30:00+05:45', // this wall clock does not exist in New York (DST starts 02:00)
  '2026-01-17T03:00:00+05:45', // end of a 15:00-03:00 range
  '2026-11-01T01:30:00+05:45', // this wall clock happens twice in New York (DST ends 02:00)
  '2026-01-18T19:30:00+05:45', // Sunday evening
];

/** Types whose places carry the hand-checked schedules. */
export const TYPES = ['pub', 'bar', 'restaurant', 'bank', 'night_life', 'eat', 'hotel', 'clothes'];

const CENTER = { lat: 27.7083, lon: 85.3206 };

async function main(): Promise<void> {
  const index = await loadPbf(CORE);
  const out: Record<string, unknown> = { tz: Intl.DateTimeFormat().resolvedOptions().timeZone };
  for (const iso of INSTANTS) {
    const at = new Date(iso);
    const states: [number, boolean][] = [];
    const open: Record<string, unknown> = {};
    for (const type of TYPES) {
      for (const r of nearby(index, { type, ...CENTER, radius: 10, limit: 1_000_000, at })) states.push([r.placeId, r.open]);
      open[type] = nearby(index, { type, ...CENTER, limit: 10, isOpen: true, at });
    }
    out[iso] = { states, open };
  }
  process.stdout.write(JSON.stringify(out));
}

// run only as a script, not when the test imports the instants
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
