/**
 * Squares and platforms walked across: inside a closed area way (`area=yes`, a platform), a
 * walker goes straight from where one path meets its outline to where another does, not only
 * round the edge. Each two junctions of the outline that see each other (the straight line
 * between them stays inside: it crosses no side and its midpoint lies within) are joined.
 */
import { inRing } from '../geom/measure.js';

/**
 * Outlines with more junctions than this are walked round only: the pairs grow with the
 * square of the junctions, and an area met by this many paths is a network of its own in OSM.
 */
export const MAX_AREA_JUNCTIONS = 24;
/** Outlines with more points than this are walked round only (each chord is checked against every side). */
export const MAX_AREA_POINTS = 1000;

/**
 * The chords of a closed ring (`pts` in any planar-enough unit, first point repeated last):
 * pairs of indexes `[a, b]` (a < b, both junctions) joined by a straight line inside the ring,
 * not already neighbours along the outline's straight sides.
 */
export function areaChords(pts: readonly (readonly [number, number])[], isJunction: readonly boolean[]): [number, number][] {
  const n = pts.length - 1; // the last point repeats the first
  const js: number[] = [];
  for (let i = 0; i < n; i++) if (isJunction[i]) js.push(i);
  if (js.length < 2 || js.length > MAX_AREA_JUNCTIONS || n > MAX_AREA_POINTS) return [];
  const flat: number[] = [];
  for (const [x, y] of pts) flat.push(x, y);
  const out: [number, number][] = [];
  for (let i = 0; i < js.length; i++)
    for (let j = i + 1; j < js.length; j++) {
      const a = js[i],
        b = js[j];
      // neighbours along one straight side: the outline is the chord already
      if (b - a === 1 || (a === 0 && b === n - 1)) continue;
      if (sees(pts, flat, a, b, n)) out.push([a, b]);
    }
  return out;
}

// Whether the segment from point a to point b stays inside the ring: it crosses no side
// (touching one at a or b is fine) and its midpoint is inside.
function sees(pts: readonly (readonly [number, number])[], flat: number[], a: number, b: number, n: number): boolean {
  const [ax, ay] = pts[a],
    [bx, by] = pts[b];
  if (!inRing((ax + bx) / 2, (ay + by) / 2, flat)) return false;
  for (let i = 0; i < n; i++) {
    const k = i + 1;
    if (i === a || k === a || i === b || k === b || (k === n && (a === 0 || b === 0))) continue;
    if (crosses(ax, ay, bx, by, pts[i][0], pts[i][1], pts[k][0], pts[k][1])) return false;
  }
  return true;
}

// Whether segments p1p2 and p3p4 intersect (touching counts).
function crosses(x1: number, y1: number, x2: number, y2: number, x3: number, y3: number, x4: number, y4: number): boolean {
  const d1 = side(x3, y3, x4, y4, x1, y1),
    d2 = side(x3, y3, x4, y4, x2, y2),
    d3 = side(x1, y1, x2, y2, x3, y3),
    d4 = side(x1, y1, x2, y2, x4, y4);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  return (
    (d1 === 0 && on(x3, y3, x4, y4, x1, y1)) ||
    (d2 === 0 && on(x3, y3, x4, y4, x2, y2)) ||
    (d3 === 0 && on(x1, y1, x2, y2, x3, y3)) ||
    (d4 === 0 && on(x1, y1, x2, y2, x4, y4))
  );
}

function side(ax: number, ay: number, bx: number, by: number, px: number, py: number): number {
  return Math.sign((bx - ax) * (py - ay) - (by - ay) * (px - ax));
}

function on(ax: number, ay: number, bx: number, by: number, px: number, py: number): boolean {
  return Math.min(ax, bx) <= px && px <= Math.max(ax, bx) && Math.min(ay, by) <= py && py <= Math.max(ay, by);
}
