/**
 * Google's encoded polyline (precision 5), written straight from a route's flat
 * coordinate lists. @mapbox/polyline encodes the same bytes, but from an array of
 * `[lat, lon]` pairs and by string concatenation: for routes of thousands of
 * vertices that allocation was a good part of a route's time. Its tests compare
 * the two, value for value.
 */

const FACTOR = 1e5;

/** A coordinate in whole 1e-5 degrees, rounded as Google's algorithm (Python 2) rounds: halves away from zero. */
export function round5(v: number): number {
  return Math.floor(Math.abs(v * FACTOR) + 0.5) * (v >= 0 ? 1 : -1);
}

/**
 * The encoded polyline of points `lat[i], lon[i]` (degrees), and the points as it
 * decodes them (whole 1e-5 degrees) in `lat5`, `lon5`.
 */
export function encodePolyline(lat: readonly number[], lon: readonly number[]): { encoded: string; lat5: Int32Array; lon5: Int32Array } {
  const n = lat.length;
  const lat5 = new Int32Array(n),
    lon5 = new Int32Array(n);
  // at most 6 bytes per value of a Nepal-sized delta, 11 for any
  let out = new Uint8Array(Math.max(16, n * 12));
  let pos = 0;
  let pLat = 0,
    pLon = 0;
  for (let i = 0; i < n; i++) {
    const a = round5(lat[i]),
      b = round5(lon[i]);
    lat5[i] = a;
    lon5[i] = b;
    if (pos + 24 > out.length) {
      const next = new Uint8Array(out.length * 2);
      next.set(out);
      out = next;
    }
    pos = value(out, pos, a - pLat);
    pos = value(out, pos, b - pLon);
    pLat = a;
    pLon = b;
  }
  return { encoded: new TextDecoder().decode(out.subarray(0, pos)), lat5, lon5 };
}

// One signed delta: zigzag, then 5-bit groups, low first, each + 63, 0x20 set on all but the last.
// Integer operators: a delta of whole 1e-5 degrees is at most 3.6e7 in magnitude, so the zigzag
// stays far below 2^31.
function value(out: Uint8Array, pos: number, d: number): number {
  let v = d < 0 ? ~(d << 1) : d << 1;
  while (v >= 0x20) {
    out[pos++] = (0x20 | (v & 0x1f)) + 63;
    v >>= 5;
  }
  out[pos++] = v + 63;
  return pos;
}
