/**
 * The tiler's geometry on hand-made shapes, every expected value worked out by hand:
 * band clipping of lines and rings, Douglas–Peucker, signed areas, MVT geometry
 * commands, and the world grid's tile edges.
 */
import { describe, expect, it } from 'vitest';
import { clipBand, emptyGeom, ringArea } from '../src/tiles/clip.js';
import { LINE, POINT, POLYGON } from '../src/tiles/features.js';
import { encodeGeometry } from '../src/tiles/mvt.js';
import { tileOf, tileSize, worldX, worldY, WORLD } from '../src/tiles/project.js';
import { simplifyRun } from '../src/tiles/simplify.js';

describe('clipBand cuts to a band of one axis', () => {
  it('cuts a line that leaves and comes back into two pieces, adding the crossing points', () => {
    // x: 0 → 20 → 0 → 20 along y = 0, 1, 2, 3; band 5..15
    const g = { coords: [0, 0, 20, 1, 0, 2, 20, 3], parts: [4] };
    const out = emptyGeom();
    clipBand(g, 5, 15, 0, false, out);
    // segment 1 crosses x=5 at y=0.25 and x=15 at y=0.75; segment 2 back at 15 (y=1.25) and 5 (y=1.75); segment 3 at 5 (2.25), 15 (2.75)
    expect(out.parts).toEqual([2, 2, 2]);
    expect(out.coords).toEqual([5, 0.25, 15, 0.75, 15, 1.25, 5, 1.75, 5, 2.25, 15, 2.75]);
  });

  it('keeps a line inside the band as it is, and drops one outside it', () => {
    const out = emptyGeom();
    clipBand({ coords: [6, 0, 7, 5, 8, 9], parts: [3] }, 5, 15, 0, false, out);
    expect(out).toEqual({ coords: [6, 0, 7, 5, 8, 9], parts: [3] });
    clipBand({ coords: [16, 0, 17, 5], parts: [2] }, 5, 15, 0, false, out);
    expect(out).toEqual({ coords: [], parts: [] });
  });

  it('cuts a square ring to the band, closed, running along the band edges', () => {
    // square 0..10 (closed), band y 2..5
    const g = { coords: [0, 0, 10, 0, 10, 10, 0, 10, 0, 0], parts: [5] };
    const out = emptyGeom();
    clipBand(g, 2, 5, 1, true, out);
    expect(out.parts).toEqual([5]);
    expect(out.coords).toEqual([10, 2, 10, 5, 0, 5, 0, 2, 10, 2]);
    expect(ringArea(out.coords, 0, 5)).toBe(2 * 30 * Math.sign(ringArea(g.coords, 0, 5)));
  });

  it('cuts a U-shaped ring through both arms (Sutherland–Hodgman keeps one ring)', () => {
    // a U: outer 0..30 x 0..20, notch 10..20 x 0..15 open at the top (y = 0 is up)
    const u = [0, 0, 10, 0, 10, 15, 20, 15, 20, 0, 30, 0, 30, 20, 0, 20, 0, 0];
    const out = emptyGeom();
    clipBand({ coords: u, parts: [9] }, 5, 10, 1, true, out);
    expect(out.parts).toHaveLength(1);
    // area inside the band: two arms of 10 x 5 each = 100, doubled and signed as the input
    expect(Math.abs(ringArea(out.coords, 0, out.parts[0]))).toBe(200);
  });
});

describe('simplifyRun is Douglas–Peucker', () => {
  it('drops vertices within the tolerance of the chord and keeps the one beyond', () => {
    // 0,0 → 5,0.5 → 10,0 → 15,3 → 20,0 at tolerance 1: (15,3) is 3 from the chord 0,0–20,0 and splits it;
    // on the chord 0,0–15,3 (length √234 = 15.3), (10,0) is |10·3|/15.3 = 1.96 away (kept), and
    // then (5,0.5) is 0.5 from 0,0–10,0 (dropped)
    const c = [0, 0, 5, 0.5, 10, 0, 15, 3, 20, 0];
    const keep = new Uint8Array(5);
    expect(simplifyRun(c, 0, 5, 1 * 1, keep)).toBe(4);
    expect(Array.from(keep)).toEqual([1, 0, 1, 1, 1]);
    // at tolerance 0.1, (5, 0.5) stays too
    expect(simplifyRun(c, 0, 5, 0.1 * 0.1, keep)).toBe(5);
  });
});

describe('MVT geometry commands', () => {
  const piece = (coords: number[], parts: number[]) => ({ feature: 0, coords, from: 0, parts, partFrom: 0, partTo: parts.length });
  it('encodes a point as MoveTo(1) and zig-zag deltas', () => {
    const out: number[] = [];
    encodeGeometry(POINT, piece([25, 17], [1]), out);
    expect(out).toEqual([9, 50, 34]); // the spec's own example
  });

  it('encodes two lines with deltas carried from one to the next', () => {
    const out: number[] = [];
    encodeGeometry(LINE, piece([2, 2, 2, 10, 10, 10, 1, 1, 3, 5], [3, 2]), out);
    expect(out).toEqual([9, 4, 4, 18, 0, 16, 16, 0, 9, 17, 17, 10, 4, 8]); // the spec's multi-linestring example
  });

  it('encodes a ring with ClosePath and without repeating its first vertex', () => {
    const out: number[] = [];
    encodeGeometry(POLYGON, piece([3, 6, 8, 12, 20, 34], [3]), out);
    expect(out).toEqual([9, 6, 12, 18, 10, 12, 24, 44, 15]); // the spec's polygon example
  });
});

describe('the world grid', () => {
  it('has tile edges on whole world units, and a coordinate on an edge in the tile east (south) of it', () => {
    expect(tileSize(14)).toBe(WORLD / 16384);
    expect(worldX(-180)).toBe(0);
    expect(worldX(0)).toBe(WORLD / 2);
    expect(worldY(0)).toBe(WORLD / 2);
    // 85.078125° is the west edge of z14 column 12064 (12064 · 360 / 2^14 − 180)
    expect(worldX(85.078125)).toBe(12064 * tileSize(14));
    expect(tileOf(worldX(85.078125), 14)).toBe(12064);
    expect(tileOf(worldX(85.0781249), 14)).toBe(12063);
    expect(tileOf(worldX(85.0781249), 10)).toBe(Math.floor(12063 / 16));
  });
});
