/**
 * A server makes each mode's travel-time search, and attaches every place to each mode's roads,
 * before it answers: the first isochrone or nearby by travel time of a mode does not pay for it
 * (seconds at national scale).
 */
import { describe, expect, it } from 'vitest';
import { MODES } from '../src/osm/profile.js';
import { attachedMade, prepareTravel } from '../src/query/isochrone.js';
import { reachMade } from '../src/route/reach.js';
import { loadPbf } from '../src/index.js';
import { createApp } from '../src/http/app.js';
import { CORE } from './support/raw.js';
import { token } from './support/http-fixture.js';

describe('prepareTravel: every mode of the index is made ready', () => {
  it('made for each mode after it, none before', { timeout: 120_000 }, async () => {
    const index = await loadPbf(CORE); // its own: no other test's queries made anything for it
    const router = index.router!;
    // a fresh load: nothing made yet
    expect(MODES.map((_, m) => reachMade(router, m))).toEqual(MODES.map(() => false));
    expect(attachedMade(index)).toBe(false);
    prepareTravel(index);
    expect(MODES.map((_, m) => reachMade(router, m))).toEqual(MODES.map(() => true));
    // and every place attached to each mode's roads, where a query used to attach those it met
    expect(attachedMade(index)).toBe(true);
  });
});

describe('createApp: a server prepares before its first request', () => {
  it("the index's every mode is made once the app exists", { timeout: 120_000 }, async () => {
    const index = await loadPbf(CORE);
    expect(reachMade(index.router!, 0)).toBe(false);
    createApp({ index, tokens: [token('p')], log: () => {} });
    expect(MODES.map((_, m) => reachMade(index.router!, m))).toEqual(MODES.map(() => true));
  });
});
