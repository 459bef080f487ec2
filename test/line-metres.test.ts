/**
 * lineMetres(): the length of a line in whole 1e-5 degrees (a decoded polyline), segment by
 * segment, as @turf/distance measures it: the small-angle series it uses for short segments
 * and the plain formula it keeps for long ones must both agree with turf's own.
 */
import distance from '@turf/distance';
import { describe, expect, it } from 'vitest';
import { lineMetres } from '../src/geom/haversine.js';
import { random } from './support/random.js';

// turf in metres between two points in 1e-5 degrees. turf subtracts degrees (27.71540 - 27.71539):
// for a short segment that difference keeps only ~1e-11 of its value exact, hence the tolerance
const turf = (lat1: number, lon1: number, lat2: number, lon2: number) =>
  distance([lon1 / 1e5, lat1 / 1e5], [lon2 / 1e5, lat2 / 1e5], { units: 'kilometers' }) * 1000;

function check(lat5: number[], lon5: number[]) {
  const out = new Float64Array(lat5.length - 1);
  const total = lineMetres(Int32Array.from(lat5), Int32Array.from(lon5), out);
  let sum = 0;
  for (let i = 0; i + 1 < lat5.length; i++) {
    const want = turf(lat5[i]!, lon5[i]!, lat5[i + 1]!, lon5[i + 1]!);
    expect(Math.abs(out[i]! - want)).toBeLessThanOrEqual(1e-10 * Math.max(1, want));
    sum += want;
  }
  expect(Math.abs(total - sum)).toBeLessThanOrEqual(1e-10 * Math.max(1, sum));
}

describe('each segment is its haversine length (R = 6371.0088 km), as @turf/distance', () => {
  it('short segments of a street (the series): a walk of 2,000 steps of up to 200 m through Kathmandu', () => {
    const rnd = random(11);
    const lat = [2771540],
      lon = [8531230];
    for (let i = 0; i < 2000; i++) {
      lat.push(lat[i]! + Math.round((rnd() - 0.5) * 360));
      lon.push(lon[i]! + Math.round((rnd() - 0.5) * 400));
    }
    check(lat, lon);
  });

  it('long segments (the plain formula): across Nepal and around the globe', () => {
    check([2640000, 3040000, 2640000, -3300000, 8900000], [8010000, 8820000, 8820000, -7000000, 17900000]);
  });

  it('a segment on either side of where the series stops (about 25 km)', () => {
    check([2700000, 2722000, 2700000, 2723000, 2700000], [8500000, 8500000, 8500000, 8500000, 8500000]);
  });

  it('a repeated point is 0 m; a single point has no segment and length 0', () => {
    const out = new Float64Array(1);
    expect(lineMetres(Int32Array.from([2771540, 2771540]), Int32Array.from([8531230, 8531230]), out)).toBe(0);
    expect(out[0]).toBe(0);
    expect(lineMetres(Int32Array.from([2771540]), Int32Array.from([8531230]), new Float64Array(0))).toBe(0);
  });
});
