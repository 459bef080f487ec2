/**
 * The `/directions` answer's text (src/http/route-json.ts) against `JSON.stringify` of the same
 * envelope: routes of the core fixture with and without steps, in both languages, and polylines
 * made to hold every character an encoded polyline may, the backslash most of all.
 */
import { describe, expect, it } from 'vitest';
import { route, type Route } from '../src/query/route.js';
import { envelope } from '../src/http/envelope.js';
import { routesJson } from '../src/http/route-json.js';
import { coreIndex } from './support/http-fixture.js';
import { random } from './support/random.js';

const NOW = Date.UTC(2026, 10, 27, 1, 2, 3);
const same = (routes: Route[]) => expect(routesJson(routes, NOW)).toBe(JSON.stringify(envelope(200, undefined, routes, NOW)));

describe("routesJson writes byte for byte JSON.stringify's envelope of route()'s routes", () => {
  it('routes of the core fixture: each mode, steps or none, English and Nepali, alternatives', async () => {
    const index = await coreIndex();
    const points: [number, number][] = [
      [27.7154, 85.3123],
      [27.709, 85.329],
    ];
    let backslashes = 0;
    for (const mode of ['foot', 'bike', 'car', 'motorbike'] as const) {
      for (const instructions of [false, true]) {
        for (const lang of [undefined, 'ne', 'en'] as const) {
          const routes = route(index, { points, mode, instructions, lang, alternatives: true });
          backslashes += routes.filter((r) => r.encodedPolyline.includes('\\')).length;
          same(routes);
        }
      }
    }
    // the case the writer exists for: the fixture's routes must have met it
    expect(backslashes).toBeGreaterThan(0);
  });

  it('every character a polyline holds, numbers of every kind, no routes at all', () => {
    const rnd = random(3);
    const chars = Array.from({ length: 64 }, (_, i) => String.fromCharCode(63 + i)).join('');
    const routes: Route[] = Array.from({ length: 5 }, (_, k) => ({
      encodedPolyline: chars + Array.from({ length: 200 }, () => chars[Math.floor(rnd() * 64)]).join('') + '\\\\',
      distanceInMeters: [0, 1234.5678901234, 1e21, 5e-7, 42][k],
      timeInMs: [0, 1, 123456789, 2 ** 53, 7][k],
      routeWeight: [0, 0.001, 86400.5, 1e-7, 3][k],
      instructionList: k % 2 ? null : [],
    }));
    same(routes);
    same([]);
  });
});
