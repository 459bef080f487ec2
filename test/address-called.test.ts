/**
 * CalledNames: the street or locality an `addr:street` / `addr:place` value names is, of the
 * rows of that kind with that name (any of `name`, `name:en`, `name:ne`; case and surrounding
 * spaces aside), the nearest to the point within the distance, by @turf/distance; of equally
 * near ones the one met last (names met list by list, each list in row order). Checked against
 * a whole scan measured by turf, for names held by few rows and by many (the second are
 * searched by latitude band), with ties, rows on the band's edge, near a pole and across the
 * antimeridian.
 */
import distance from '@turf/distance';
import { describe, expect, it } from 'vitest';
import { CalledNames } from '../src/address/called.js';
import { LOCALITY, STREET } from '../src/model/table.js';
import { random } from './support/random.js';

interface Rows {
  what: Uint8Array;
  lon: Int32Array;
  lat: Int32Array;
  names: string[][];
}

// the whole scan: every row met, in the documented order, measured by turf
function expected(rows: Rows, value: string, lon: number, lat: number, what: number, maxKm: number): number {
  const key = value.trim().toLowerCase();
  let best = -1,
    bestKm = Infinity;
  for (const list of rows.names) {
    list.forEach((n, r) => {
      if (!n || n.trim().toLowerCase() !== key || rows.what[r] !== what) return;
      const km = distance([lon, lat], [rows.lon[r] / 1e7, rows.lat[r] / 1e7], { units: 'kilometers' });
      if (km <= maxKm && km <= bestKm) {
        best = r;
        bestKm = km;
      }
    });
  }
  return best;
}

function table(n: number): Rows {
  return {
    what: new Uint8Array(n),
    lon: new Int32Array(n),
    lat: new Int32Array(n),
    names: [[], [], []].map(() => new Array<string>(n).fill('')),
  };
}

describe('the nearest row of a kind holding a name, within the distance; the last met of equals', () => {
  it('3,000 rows of 12 names (some held by a handful, some by hundreds) across Nepal, 3,000 queries', () => {
    const rnd = random(7);
    const pool = [
      'Main Road',
      'Ring Road',
      'Thamel Marg',
      'Bhatbhateni',
      'Naya Bazar',
      'Chowk',
      'Tole',
      'Gali',
      'Pul',
      'Hatiya',
      'Bato',
      'Path',
    ];
    // the first four are common, the rest rare
    const pick = () => pool[rnd() < 0.8 ? Math.floor(rnd() * 4) : 4 + Math.floor(rnd() * 8)];
    const n = 3000;
    const rows = table(n);
    const centres = Array.from({ length: 30 }, () => [80.5 + rnd() * 7.5, 26.5 + rnd() * 3.5]);
    for (let r = 0; r < n; r++) {
      rows.what[r] = rnd() < 0.7 ? STREET : LOCALITY;
      // a third of the rows share the point of the row before: ties
      if (r > 0 && rnd() < 0.3) {
        rows.lon[r] = rows.lon[r - 1];
        rows.lat[r] = rows.lat[r - 1];
      } else {
        const [x, y] = centres[Math.floor(rnd() * centres.length)];
        rows.lon[r] = Math.round((x + (rnd() - 0.5) * 0.2) * 1e7);
        rows.lat[r] = Math.round((y + (rnd() - 0.5) * 0.2) * 1e7);
      }
      rows.names[0][r] = rnd() < 0.9 ? pick() : '';
      if (rnd() < 0.3) rows.names[1][r] = pick().toUpperCase();
      if (rnd() < 0.2) rows.names[2][r] = `  ${pick()} `;
    }
    const names = new CalledNames(rows, rows.names);
    // the same names given for the rows holding any alone, with those rows (as `AddressInput.named` gives them)
    const held = Uint32Array.from(rows.names[0].keys()).filter((r) => rows.names.some((l) => l[r]));
    expect(held.length).toBeLessThan(n);
    const compact = new CalledNames(
      rows,
      rows.names.map((l) => Array.from(held, (r) => l[r])),
      held,
    );
    let found = 0;
    for (let q = 0; q < 3000; q++) {
      const r = Math.floor(rnd() * n);
      // near a row (a tie when on it), or anywhere
      const near = rnd() < 0.8,
        on = rnd() < 0.3;
      const lon = near ? rows.lon[r] / 1e7 + (on ? 0 : (rnd() - 0.5) * 0.1) : 80.5 + rnd() * 7.5;
      const lat = near ? rows.lat[r] / 1e7 + (on ? 0 : (rnd() - 0.5) * 0.1) : 26.5 + rnd() * 3.5;
      const value = rnd() < 0.5 ? pick().toLowerCase() : pick();
      const what = rnd() < 0.5 ? STREET : LOCALITY;
      const want = expected(rows, value, lon, lat, what, 5);
      expect(names.nearest(value, lon, lat, what, 5)).toBe(want);
      expect(compact.nearest(value, lon, lat, what, 5)).toBe(want);
      if (want >= 0) found++;
    }
    expect(found).toBeGreaterThan(1000);
  });

  it('rows just inside and just outside the distance, north and south of the point', () => {
    // 40 rows of one name on a meridian, 1 m apart around 5 km either side of the point
    const rows = table(40);
    const lat = 27.7;
    const deg = 5 / (6371.0088 * (Math.PI / 180));
    for (let r = 0; r < 40; r++) {
      const side = r % 2 ? 1 : -1;
      rows.what[r] = STREET;
      rows.lon[r] = 853000000;
      rows.lat[r] = Math.round((lat + side * (deg + (Math.floor(r / 2) - 10) * 1e-5)) * 1e7);
      rows.names[0][r] = 'Edge Marg';
    }
    const names = new CalledNames(rows, rows.names);
    for (const maxKm of [4.99, 4.999, 5, 5.001, 5.01]) {
      const want = expected(rows, 'Edge Marg', 85.3, lat, STREET, maxKm);
      expect(names.nearest('Edge Marg', 85.3, lat, STREET, maxKm)).toBe(want);
    }
    expect(expected(rows, 'Edge Marg', 85.3, lat, STREET, 5)).toBeGreaterThanOrEqual(0);
  });

  it('near a pole and across the antimeridian, where a short way is a long way in longitude', () => {
    const rows = table(60);
    for (let r = 0; r < 60; r++) {
      rows.what[r] = LOCALITY;
      rows.names[0][r] = 'Far';
      if (r < 30) {
        // around the pole: every longitude
        rows.lon[r] = Math.round((-180 + r * 12) * 1e7);
        rows.lat[r] = Math.round((89.98 + (r % 3) * 0.005) * 1e7);
      } else {
        // either side of the antimeridian
        rows.lon[r] = Math.round((r % 2 ? 179.99 : -179.99) * 1e7) + (r - 30) * 1000;
        rows.lat[r] = Math.round((10 + (r - 30) * 0.001) * 1e7);
      }
    }
    const names = new CalledNames(rows, rows.names);
    for (const [lon, lat] of [
      [0, 89.99],
      [97, 89.995],
      [-179.999, 10.01],
      [179.999, 10.02],
      [180, 10],
    ]) {
      const want = expected(rows, 'far', lon, lat, LOCALITY, 5);
      expect(want).toBeGreaterThanOrEqual(0);
      expect(names.nearest('far', lon, lat, LOCALITY, 5)).toBe(want);
    }
  });

  it('none: a name no row holds, or rows of the other kind', () => {
    const rows = table(20);
    for (let r = 0; r < 20; r++) {
      rows.what[r] = STREET;
      rows.lon[r] = 853000000 + r;
      rows.lat[r] = 277000000;
      rows.names[0][r] = 'Only Street';
    }
    const names = new CalledNames(rows, rows.names);
    expect(names.nearest('Other', 85.3, 27.7, STREET, 5)).toBe(-1);
    expect(names.nearest('Only Street', 85.3, 27.7, LOCALITY, 5)).toBe(-1);
    expect(names.nearest('only street', 85.3000019, 27.7, STREET, 5)).toBe(19);
  });
});
