/**
 * Every place is attached once to each mode's roads (at load, for nearby by travel time): where
 * it stands is what snapping it alone to the mode's roads gives, found by one search of the road
 * tree for all modes at once.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { PlaceIndex } from '../src/index.js';
import { MODES, forwardBit } from '../src/osm/profile.js';
import { snapFor, junctionAt } from '../src/route/seeds.js';
import { ATTACH_KM, attachedPlaces } from '../src/query/isochrone.js';
import { engine } from './support/fixture.js';

describe('Snapper.snapEach: per mask, what snap() with that mask alone gives', () => {
  let index: PlaceIndex;
  beforeAll(async () => {
    index = await engine();
  });

  it('the same edge, segment, point and offset (ties and all) at 2,000 points, near roads and up to 1.5 km off them', () => {
    const router = index.router!,
      g = router.graph;
    const masks = MODES.map((_, m) => forwardBit(m) * 3);
    let found = 0,
      none = 0;
    for (let i = 0; i < 2000; i++) {
      // a road point, pushed off it by up to 0.015° (some beyond any road a mode may use within 1 km)
      const c = (i * 7919) % (g.coords.length / 2);
      const lon = g.coords[2 * c] / 1e7 + (((i * 31) % 97) / 97 - 0.5) * (i % 3 ? 0.002 : 0.03),
        lat = g.coords[2 * c + 1] / 1e7 + (((i * 17) % 89) / 89 - 0.5) * (i % 3 ? 0.002 : 0.03);
      const each = router.snapper.snapEach(lon, lat, ATTACH_KM, (e) => g.edgeAccess[e], masks);
      MODES.forEach((_, m) => {
        const alone = snapFor(router, m, lat, lon, ATTACH_KM);
        expect(each[m]).toEqual(alone);
        if (alone) found++;
        else none++;
      });
    }
    expect(found).toBeGreaterThan(1000);
    expect(none).toBeGreaterThan(50); // points too far from a mode's roads are checked too
  });
});

describe('attachedPlaces: each place of every type where snapping it to the mode gives', () => {
  it('every place and mode of the fixture: its edge, offset and junction', async () => {
    const index = await engine();
    const router = index.router!,
      t = index.table;
    const a = attachedPlaces(index)!;
    expect(attachedPlaces(index)).toBe(a); // made once
    let places = 0,
      unattached = 0;
    const seen = new Set<number>();
    for (const tt of index.types.values()) {
      for (const p of tt.place) {
        if (seen.has(p)) continue;
        seen.add(p);
        places++;
        MODES.forEach((_, m) => {
          const s = snapFor(router, m, t.lat[p] / 1e7, t.lon[p] / 1e7, ATTACH_KM);
          if (!s) {
            unattached++;
            expect(a.edge[m][p]).toBe(-1);
            return;
          }
          expect([a.edge[m][p], a.offset[m][p], a.junction[m][p]]).toEqual([s.edge, s.offset, junctionAt(router, s)]);
        });
      }
    }
    expect(places).toBeGreaterThan(1000);
    // (every place of the fixture stands within 1 km of every mode's roads; the far case is snapEach's above)
    expect(unattached).toBe(0);
  });
});
