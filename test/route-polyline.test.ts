/** The route's own polyline encoder writes exactly what @mapbox/polyline writes. */
import { describe, it, expect } from 'vitest';
import polyline from '@mapbox/polyline';
import { encodePolyline } from '../src/route/polyline.js';
import { random } from './support/random.js';

describe('encodePolyline equals @mapbox/polyline at precision 5', () => {
  it('on random lines: Nepal, the whole globe, halves of 1e-5 and negative values', () => {
    const rnd = random(99);
    for (let t = 0; t < 300; t++) {
      const n = 1 + Math.floor(rnd() * 40);
      const wide = t % 3 === 0;
      const lat: number[] = [],
        lon: number[] = [];
      for (let i = 0; i < n; i++) {
        let a = wide ? rnd() * 180 - 90 : 26 + rnd() * 4.5,
          b = wide ? rnd() * 360 - 180 : 80 + rnd() * 8.2;
        // exact halves of the last place, which Google's rounding takes away from zero
        if (t % 5 === 0) {
          a = Math.round(a * 1e5) / 1e5 + 0.000005;
          b = -Math.round(b * 1e5) / 1e5 - 0.000005;
        }
        lat.push(a);
        lon.push(b);
      }
      const { encoded, lat5, lon5 } = encodePolyline(lat, lon);
      expect(encoded).toBe(
        polyline.encode(
          lat.map((v, i) => [v, lon[i]!]),
          5,
        ),
      );
      const decoded = polyline.decode(encoded, 5);
      expect(decoded.map(([a]) => a)).toEqual(Array.from(lat5, (v) => v / 1e5));
      expect(decoded.map(([, b]) => b)).toEqual(Array.from(lon5, (v) => v / 1e5));
    }
  });

  it('a single point and repeated points', () => {
    expect(encodePolyline([27.7], [85.3]).encoded).toBe(polyline.encode([[27.7, 85.3]], 5));
    expect(encodePolyline([27.7, 27.7, 27.7], [85.3, 85.3, 85.3]).encoded).toBe(
      polyline.encode(
        [
          [27.7, 85.3],
          [27.7, 85.3],
          [27.7, 85.3],
        ],
        5,
      ),
    );
  });
});
