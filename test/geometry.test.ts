/**
 * Geometry, centroids and load statistics on the core fixture, against shapes rebuilt from
 * osm-read's nodes and ways and centroids by triangle fans.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { nearby } from '../src/index.js';
import type { NearbyPlace, PlaceIndex } from '../src/index.js';
import { ALL, allRecords, engine, expected } from './support/fixture.js';
import type { ExpectedPlace, ExpectedPlaces, Pos } from './support/places.js';
import { centroidOf, centroidTolerance } from './support/centroid.js';
import { readRaw, type RawData } from './support/raw.js';
import { npt } from './support/hours.js';

const AT = npt('2026-01-17T12:00');

let index: PlaceIndex;
let raw: RawData;
let exp: ExpectedPlaces;
let records: Map<number, NearbyPlace>;

beforeAll(async () => {
  index = await engine();
  raw = await readRaw();
  exp = await expected();
  records = allRecords(index, exp.places);
});

/** Twice the signed area of a closed ring in lon/lat: > 0 counter-clockwise. */
function signed2(ring: Pos[]): number {
  let s = 0;
  for (let i = 0; i + 1 < ring.length; i++) s += (ring[i + 1][0] - ring[i][0]) * (ring[i + 1][1] + ring[i][1]);
  return -s;
}

/** A ring without its closing point, rotated to start at its smallest vertex, counter-clockwise. */
function canonRing(ring: Pos[]): string {
  let r = ring.slice(0, -1);
  if (signed2(ring) < 0) r = r.reverse();
  let k = 0;
  for (let i = 1; i < r.length; i++) if (r[i][0] < r[k][0] || (r[i][0] === r[k][0] && r[i][1] < r[k][1])) k = i;
  return JSON.stringify([...r.slice(k), ...r.slice(0, k)]);
}

function canonPolys(polys: Pos[][][]): string[] {
  return polys.map((p) => [canonRing(p[0]), ...p.slice(1).map(canonRing).sort()].join('|')).sort();
}

function record(p: ExpectedPlace): NearbyPlace {
  const r = records.get(p.placeId);
  if (!r) throw new Error(`no record for place ${p.placeId}`);
  return r;
}

function reachable(): ExpectedPlace[] {
  return exp.places.filter((p) => p.types.length > 0);
}

describe('geometry: node → Point, area way → Polygon, other way → LineString, multipolygon → MultiPolygon', () => {
  it('every place has the kind and the coordinates of the raw object', () => {
    const wrong: string[] = [];
    for (const p of reachable()) {
      const g = record(p).geometry;
      const e = p.geometry;
      let ok: boolean;
      if (g.type !== e.type) ok = false;
      else if (e.type === 'Point' || e.type === 'LineString') ok = JSON.stringify(g.coordinates) === JSON.stringify(e.coordinates);
      else if (e.type === 'Polygon') {
        // the way's ring as it is, or reversed for RFC 7946 winding
        const ring = JSON.stringify(g.coordinates);
        ok = ring === JSON.stringify(e.coordinates) || ring === JSON.stringify([e.coordinates[0].slice().reverse()]);
      } else ok = JSON.stringify(canonPolys(g.coordinates as Pos[][][])) === JSON.stringify(canonPolys(e.coordinates));
      if (!ok)
        wrong.push(`${p.kind === 1 ? 'way' : p.kind === 2 ? 'relation' : 'node'} ${p.osmId}: ${JSON.stringify(g)} vs ${JSON.stringify(e)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('rings follow RFC 7946: outer counter-clockwise, holes clockwise, closed', () => {
    let holes = 0;
    for (const r of records.values()) {
      const g = r.geometry;
      const polys = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
      for (const poly of polys) {
        poly.forEach((ring, k) => {
          expect(ring.length).toBeGreaterThanOrEqual(4);
          expect(ring[0]).toEqual(ring[ring.length - 1]);
          expect(Math.sign(signed2(ring)), `ring ${k} of place ${r.placeId}`).toBe(k === 0 ? 1 : -1);
          if (k > 0) holes++;
        });
      }
    }
    expect(holes).toBeGreaterThan(10);
  });

  it('schools are Polygons and MultiPolygons here (and two cut-off LineStrings)', () => {
    const kinds = new Map<string, number>();
    for (const r of nearby(index, { type: 'school', lat: 27.7083, lon: 85.3206, limit: ALL, at: AT })) {
      kinds.set(r.geometry.type, (kinds.get(r.geometry.type) ?? 0) + 1);
    }
    const want = new Map<string, number>();
    for (const p of exp.places) if (p.types.includes('school')) want.set(p.geometry.type, (want.get(p.geometry.type) ?? 0) + 1);
    expect(kinds).toEqual(want);
    expect(kinds.get('Polygon')).toBeGreaterThan(100);
    expect(kinds.get('MultiPolygon')).toBe(4);
  });

  it('an open way is a LineString: way 648652480 (office=government on a highway=service)', () => {
    const p = exp.byId.get(648652480 * 4 + 1)!;
    expect(p).toBeDefined();
    const r = record(p);
    expect(r.geometry.type).toBe('LineString');
    const way = raw.way.get(648652480)!;
    expect(r.geometry.coordinates).toEqual(way.refs.map((id) => [raw.node.get(id)!.lon, raw.node.get(id)!.lat]));
  });

  it('a closed linear way is a LineString: way 24758025 (museum drawn as barrier=wall)', () => {
    const r = record(exp.byId.get(24758025 * 4 + 1)!);
    expect(r.geometry.type).toBe('LineString');
  });

  it('a multipolygon keeps its holes: relation 2025798 (a school with two courtyards)', () => {
    const r = record(exp.byId.get(2025798 * 4 + 2)!);
    expect(r.geometry.type).toBe('MultiPolygon');
    const polys = r.geometry.coordinates as Pos[][][];
    expect(polys.length).toBe(1);
    expect(polys[0].length).toBe(3);
  });

  it('a multipolygon whose outer is listed after its inners: relation 10953874 (Bir Hospital, 6 holes)', () => {
    const r = record(exp.byId.get(10953874 * 4 + 2)!);
    const polys = r.geometry.coordinates as Pos[][][];
    expect(polys.length).toBe(1);
    expect(polys[0].length).toBe(7);
    const outer = raw.way.get(199973024)!;
    expect(canonRing(polys[0][0])).toBe(canonRing(outer.refs.map((id) => [raw.node.get(id)!.lon, raw.node.get(id)!.lat])));
  });
});

describe('incomplete ways and relations: built from what exists, counted in stats, never thrown', () => {
  it('a closed area way missing nodes keeps its present nodes as a re-closed ring', () => {
    // way 163341071 (Ratnapark Micro Bus Station): 8 refs, 2 missing, 5 distinct present
    const way = raw.way.get(163341071)!;
    const present = way.refs.filter((id) => raw.node.has(id));
    expect(way.refs.length - present.length).toBe(2);
    const r = record(exp.byId.get(163341071 * 4 + 1)!);
    expect(r.geometry.type).toBe('Polygon');
    const ring = (r.geometry.coordinates as Pos[][])[0];
    const distinct = [...new Set(present)];
    expect(ring.length).toBe(distinct.length + 1);
    expect(canonRing(ring)).toBe(canonRing([...distinct, distinct[0]].map((id) => [raw.node.get(id)!.lon, raw.node.get(id)!.lat])));
  });

  it('a closed area way left with fewer than 3 distinct nodes becomes a LineString', () => {
    // way 184128909 (Mahendra Ratna Campus): 5 refs, 3 missing
    const way = raw.way.get(184128909)!;
    const present = way.refs.filter((id) => raw.node.has(id));
    expect(present.length).toBe(2);
    const r = record(exp.byId.get(184128909 * 4 + 1)!);
    expect(r.geometry).toEqual({ type: 'LineString', coordinates: present.map((id) => [raw.node.get(id)!.lon, raw.node.get(id)!.lat]) });
  });

  it('a way with fewer than 2 present nodes is no place', () => {
    // way 349703477 (office=it, 0 of 5 nodes) and way 501579199 (place_of_worship, 1 of 5)
    for (const [id, type, present] of [
      [349703477, 'it', 0],
      [501579199, 'place_of_worship', 1],
    ] as const) {
      const way = raw.way.get(id)!;
      expect(way.refs.filter((n) => raw.node.has(n)).length).toBe(present);
      const got = nearby(index, { type, lat: 27.7083, lon: 85.3206, limit: ALL, at: AT });
      expect(got.some((r) => r.osmId === id && r.placeId % 4 === 1)).toBe(false);
    }
  });

  it('stats count what was read, built, partial and skipped', () => {
    const s = index.stats;
    expect(s.nodes).toBe(raw.nodes.length);
    expect(s.ways).toBe(raw.ways.length);
    expect(s.relations).toBe(raw.relations.length);
    expect([s.nodes, s.ways, s.relations]).toEqual([148_164, 31_907, 146]);
    const count = (t: string) => exp.places.filter((p) => p.geometry.type === t).length;
    expect(s.points).toBe(count('Point'));
    expect(s.lineStrings).toBe(count('LineString'));
    expect(s.polygons).toBe(count('Polygon'));
    expect(s.multiPolygons).toBe(count('MultiPolygon'));
    expect(index.size).toBe(exp.places.length);
    expect(s.points + s.lineStrings + s.polygons + s.multiPolygons).toBe(index.size);
    expect(s.partial).toBe(exp.places.filter((p) => p.partial).length);
    expect(s.skippedWays).toBe(exp.skippedWays);
    expect(s.skippedRelations).toBe(exp.skippedRelations);
    expect(s.skippedWays).toBe(2);
  });
});

/** True when `v` is a multiple of 1e-7 (the engine rounds centroids to OSM's grid). */
function onGrid(v: number): boolean {
  return Math.abs(v * 1e7 - Math.round(v * 1e7)) < 1e-6;
}

describe('centroid: a point itself, area-weighted for polygons (holes subtracted), length-weighted for lines; rounded to 1e-7', () => {
  it('for every place', () => {
    const wrong: string[] = [];
    for (const p of reachable()) {
      const r = record(p);
      const c = centroidOf(p.geometry);
      const tol = centroidTolerance(p.geometry);
      if (
        Math.abs(r.centroid.lat - c.lat) > tol ||
        Math.abs(r.centroid.lon - c.lon) > tol ||
        !onGrid(r.centroid.lat) ||
        !onGrid(r.centroid.lon)
      ) {
        wrong.push(`place ${p.placeId} (${p.geometry.type}): ${JSON.stringify(r.centroid)} vs ${JSON.stringify(c)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a point is its own centroid, exactly', () => {
    for (const p of reachable()) {
      if (p.geometry.type !== 'Point') continue;
      expect(record(p).centroid).toEqual({ lon: p.geometry.coordinates[0], lat: p.geometry.coordinates[1] });
    }
  });

  it('a two-node line: the midpoint', () => {
    // way 184128909: the two nodes left of a cut-off campus outline
    const r = record(exp.byId.get(184128909 * 4 + 1)!);
    const [[x1, y1], [x2, y2]] = r.geometry.coordinates as Pos[];
    expect(Math.abs(r.centroid.lon - (x1 + x2) / 2)).toBeLessThanOrEqual(0.5e-7 + 1e-12);
    expect(Math.abs(r.centroid.lat - (y1 + y2) / 2)).toBeLessThanOrEqual(0.5e-7 + 1e-12);
  });

  it('a zero-length line: the mean of its vertices', () => {
    // way 840034976 (restaurant): only its first = last node is in the extract
    const way = raw.way.get(840034976)!;
    const present = way.refs.filter((id) => raw.node.has(id));
    expect(new Set(present).size).toBe(1);
    const r = record(exp.byId.get(840034976 * 4 + 1)!);
    const n = raw.node.get(present[0])!;
    expect(r.centroid).toEqual({ lat: n.lat, lon: n.lon });
  });

  it('a polygon with holes weighs the holes out', () => {
    // relation 2025798: the centroid with holes differs from the outer ring's own centroid
    const p = exp.byId.get(2025798 * 4 + 2)!;
    const r = record(p);
    const g = p.geometry as { type: 'MultiPolygon'; coordinates: Pos[][][] };
    const outerOnly = centroidOf({ type: 'Polygon', coordinates: [g.coordinates[0][0]] });
    const withHoles = centroidOf(g);
    expect(Math.abs(outerOnly.lon - withHoles.lon) + Math.abs(outerOnly.lat - withHoles.lat)).toBeGreaterThan(1e-6);
    expect(Math.abs(r.centroid.lon - withHoles.lon)).toBeLessThanOrEqual(0.5e-7 + 1e-9);
    expect(Math.abs(r.centroid.lat - withHoles.lat)).toBeLessThanOrEqual(0.5e-7 + 1e-9);
  });
});
