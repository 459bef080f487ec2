import distance from '@turf/distance';
import { beforeAll, describe, expect, it } from 'vitest';
import { reverse, place, InvalidQueryError, type PlaceIndex } from '../src/index.js';
import { engine, expected } from './support/fixture.js';
import { readRaw, tag, type RawData, type RawNode } from './support/raw.js';
import type { ExpectedPlaces, Pos } from './support/places.js';
import { centroidOf } from './support/centroid.js';
import { displayName } from './support/names.js';

const at = new Date('2026-01-14T06:15:00Z');

let index: PlaceIndex;
let raw: RawData;
let exp: ExpectedPlaces;
/** Every closed way's ring (present nodes), tagged or not: whatever might contain a point. */
let rings: { id: number; ring: Pos[]; box: [number, number, number, number] }[];

beforeAll(async () => {
  [index, raw, exp] = await Promise.all([engine(), readRaw(), expected()]);
  rings = [];
  for (const w of raw.ways) {
    if (w.refs.length < 4 || w.refs[0] !== w.refs[w.refs.length - 1]) continue;
    const ring = w.refs.filter((id) => raw.node.has(id)).map((id): Pos => [raw.node.get(id)!.lon, raw.node.get(id)!.lat]);
    const xs = ring.map((p) => p[0]),
      ys = ring.map((p) => p[1]);
    if (ring.length >= 4) rings.push({ id: w.id, ring, box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] });
  }
}, 60_000);

const km = (a: { lat: number; lon: number }, b: { lat: number; lon: number }) => distance([a.lon, a.lat], [b.lon, b.lat]);

/** Ray casting, as independent of the engine's as a few lines can be. */
function inside(p: Pos, ring: Pos[]): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i],
      [xj, yj] = ring[j];
    if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}
const containedBy = (p: Pos) =>
  rings.filter((r) => p[0] >= r.box[0] && p[1] >= r.box[1] && p[0] <= r.box[2] && p[1] <= r.box[3] && inside(p, r.ring)).map((r) => r.id);
// within about `kmMax` (a quick test in degrees first; 0.01° is over 900 m here)
const near = (a: { lat: number; lon: number }, b: { lat: number; lon: number }, kmMax: number) =>
  Math.abs(a.lat - b.lat) < 0.01 && Math.abs(a.lon - b.lon) < 0.01 && km(a, b) <= kmMax;

describe("reverse(): a POI node's exact coordinate returns that POI", () => {
  it('every named place node whose coordinate no other tagged node shares', () => {
    const byCoord = new Map<string, RawNode[]>();
    for (const n of raw.nodes) {
      if (!n.tags.length) continue;
      const k = `${n.lat7},${n.lon7}`;
      byCoord.set(k, [...(byCoord.get(k) ?? []), n]);
    }
    let checked = 0;
    const wrong: unknown[] = [];
    for (const p of exp.places) {
      if (p.kind !== 0 || p.name === '') continue;
      const n = raw.node.get(p.osmId)!;
      if (byCoord.get(`${n.lat7},${n.lon7}`)!.length > 1) continue;
      const r = reverse(index, { lat: n.lat, lon: n.lon, at });
      if (r.length !== 1 || r[0].placeId !== p.placeId || r[0].radialDistanceInKm !== 0)
        wrong.push({ want: p.placeId, name: p.name, got: r.map((x) => [x.placeId, x.name]) });
      checked++;
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(checked).toBeGreaterThan(3000);
  });

  it('even when the node is a vertex of a named street: the place, not the street', () => {
    const streetNodes = new Set<number>();
    for (const w of raw.ways) if (tag(w.tags, 'highway') && displayName(w.tags)) for (const id of w.refs) streetNodes.add(id);
    const onStreet = exp.places.filter((p) => p.kind === 0 && p.name !== '' && streetNodes.has(p.osmId));
    expect(onStreet.length).toBeGreaterThan(5);
    for (const p of onStreet) {
      const n = raw.node.get(p.osmId)!;
      const r = reverse(index, { lat: n.lat, lon: n.lon, limit: 5 });
      expect(r[0].radialDistanceInKm).toBe(0);
      expect(r.every((x) => x.placeId % 4 === 0 || tag(raw.way.get((x.placeId - 1) / 4)?.tags ?? [], 'highway') === undefined)).toBe(true);
    }
  });

  it('the record is place() of the same id, plus the distance to its centroid', () => {
    const p = exp.places.find((x) => x.kind === 0 && x.name === 'Thamel Chowk')!;
    const n = raw.node.get(p.osmId)!;
    const [r] = reverse(index, { lat: n.lat + 0.00001, lon: n.lon, radius: 0.01, at });
    expect(r.placeId).toBe(p.placeId);
    const { radialDistanceInKm, ...rest } = r;
    expect(rest).toEqual(place(index, p.placeId, { at }));
    expect(radialDistanceInKm).toBeCloseTo(km({ lat: n.lat + 0.00001, lon: n.lon }, n), 9);
    expect(radialDistanceInKm).toBeGreaterThan(0.001);
  });
});

describe('reverse(): a point inside an area answers the area, however far its centroid', () => {
  // named place polygons (one ring) and test points in them that no other closed way contains
  function cases(): { id: number; name: string; point: Pos; centroid: { lat: number; lon: number } }[] {
    const out = [];
    for (const p of exp.places) {
      if (p.name === '' || p.geometry.type !== 'Polygon' || p.geometry.coordinates.length !== 1 || p.kind !== 1) continue;
      const ring = p.geometry.coordinates[0];
      const c = centroidOf(p.geometry);
      // a point a tenth of the way from the first vertex towards the centroid, and the centroid itself
      for (const point of [
        [ring[0][0] + (c.lon - ring[0][0]) * 0.1, ring[0][1] + (c.lat - ring[0][1]) * 0.1],
        [c.lon, c.lat],
      ] as Pos[]) {
        if (!inside(point, ring)) continue;
        const others = containedBy(point).filter((id) => id !== p.osmId);
        if (others.length) continue;
        out.push({ id: p.placeId, name: p.name, point, centroid: c });
      }
      if (out.length >= 60) break;
    }
    return out;
  }

  it('with the default radius and with a radius far smaller than the area', () => {
    const all = cases();
    expect(all.length).toBeGreaterThan(20);
    const wrong: unknown[] = [];
    let far = 0;
    for (const c of all) {
      const at = { lat: c.point[1], lon: c.point[0] };
      for (const radius of [0.5, 0.001]) {
        const [r] = reverse(index, { ...at, radius });
        if (r?.placeId !== c.id) wrong.push({ want: c.id, name: c.name, radius, got: r && [r.placeId, r.name] });
        else if (Math.abs(r.radialDistanceInKm - km(at, c.centroid)) > 1e-3)
          wrong.push({ distance: r.radialDistanceInKm, want: km(at, c.centroid) });
        if (r && r.radialDistanceInKm > radius) far++;
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(far).toBeGreaterThan(10);
  });
});

describe('reverse(): a bare street only when no landmark is within reach', () => {
  // vertices of exactly one way, a named street, in no closed way, more than 30 m from named
  // nodes and 60 m from named ways (by the mean of their nodes: a margin for the centroid)
  let memo: { node: RawNode; way: number }[] | undefined;
  function streetPoints(): { node: RawNode; way: number }[] {
    if (memo) return memo;
    const radius = 0.01;
    const uses = new Map<number, number>();
    for (const w of raw.ways) for (const id of new Set(w.refs)) uses.set(id, (uses.get(id) ?? 0) + 1);
    const named = raw.nodes.filter((n) => displayName(n.tags) !== '' || tag(n.tags, 'place') !== undefined);
    // named ways other than streets, by the mean of their nodes (a generous margin covers the centroid)
    const namedWays = raw.ways
      .filter((w) => displayName(w.tags) !== '' && !tag(w.tags, 'highway'))
      .map((w) => {
        const ns = w.refs.map((id) => raw.node.get(id)).filter((n): n is RawNode => !!n);
        return ns.length
          ? { lat: ns.reduce((s, n) => s + n.lat, 0) / ns.length, lon: ns.reduce((s, n) => s + n.lon, 0) / ns.length }
          : undefined;
      })
      .filter((c) => c !== undefined);
    const out = [];
    for (const w of raw.ways) {
      if (!tag(w.tags, 'highway') || !displayName(w.tags)) continue;
      for (const id of w.refs.slice(1, -1)) {
        const n = raw.node.get(id);
        if (!n || uses.get(id) !== 1 || n.tags.length) continue;
        if (containedBy([n.lon, n.lat]).length) continue;
        if (named.some((m) => near(m, n, radius + 0.02))) continue;
        if (namedWays.some((c) => near(c!, n, radius + 0.05))) continue;
        out.push({ node: n, way: w.id });
        break;
      }
      if (out.length >= 25) break;
    }
    return (memo = out);
  }

  it("on a street's vertex with nothing else within 10 m: that street", () => {
    const pts = streetPoints();
    expect(pts.length).toBeGreaterThan(10);
    for (const { node, way } of pts) {
      const r = reverse(index, { lat: node.lat, lon: node.lon, radius: 0.01, limit: 3, at });
      expect(r.map((x) => x.placeId)).toEqual([way * 4 + 1]);
      expect(r[0].name).toBe(displayName(raw.way.get(way)!.tags));
      expect(r[0].radialDistanceInKm).toBeCloseTo(km(node, place(index, way * 4 + 1)!.centroid), 9);
    }
  });

  it('the same points with a radius reaching a named node: a landmark, not the street', () => {
    const pts = streetPoints();
    let checked = 0;
    for (const { node, way } of pts) {
      const near = exp.places
        .filter((p) => p.kind === 0 && p.name !== '')
        .map((p) => km(node, raw.node.get(p.osmId)!))
        .sort((a, b) => a - b)[0];
      if (near > 0.3) continue;
      const [r] = reverse(index, { lat: node.lat, lon: node.lon, radius: near + 0.001 });
      expect(r.placeId).not.toBe(way * 4 + 1);
      expect(r.radialDistanceInKm).toBeLessThanOrEqual(near + 1e-9);
      checked++;
    }
    expect(checked).toBeGreaterThan(5);
  });
});

describe('reverse(): radius and limit', () => {
  it('nothing within the radius: []', () => {
    expect(reverse(index, { lat: 0, lon: 0 })).toEqual([]);
    expect(reverse(index, { lat: 27.65, lon: 85.32, radius: 0.5 })).toEqual([]);
  });

  it('limit: the nearest landmarks, nearest first, all within the radius', () => {
    const p = exp.places.find((x) => x.kind === 0 && x.name === 'Thamel Chowk')!;
    const n = raw.node.get(p.osmId)!;
    const r = reverse(index, { lat: n.lat, lon: n.lon, radius: 0.2, limit: 8 });
    expect(r.length).toBe(8);
    expect(r[0].placeId).toBe(p.placeId);
    expect(containedBy([n.lon, n.lat])).toEqual([]);
    for (let i = 0; i < r.length; i++) {
      expect(r[i].radialDistanceInKm).toBeCloseTo(km(n, r[i].centroid), 9);
      expect(r[i].radialDistanceInKm).toBeLessThanOrEqual(0.2);
      if (i) expect(r[i].radialDistanceInKm).toBeGreaterThanOrEqual(r[i - 1].radialDistanceInKm);
      expect(r[i].name !== '' || r[i].tags.some((t) => t.startsWith('building|'))).toBe(true);
    }
    expect(reverse(index, { lat: n.lat, lon: n.lon, radius: 0.2, limit: 3 })).toEqual(r.slice(0, 3));
  });

  it('the default radius is 0.5 km, and fractions are fine', () => {
    const far = { lat: 27.7160104 + 0.004, lon: 85.32 }; // north of the extract, about 450 m from its edge
    const r = reverse(index, far);
    const wide = reverse(index, { ...far, radius: 0.5 });
    expect(r).toEqual(wide);
    expect(reverse(index, { ...far, radius: 0.05 })).toEqual([]);
  });
});

describe('reverse(): bad arguments throw InvalidQueryError naming the parameter', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['lat', { lon: 85.3 }],
    ['lat', { lat: 91, lon: 85.3 }],
    ['lon', { lat: 27.7 }],
    ['lon', { lat: 27.7, lon: '85.3' }],
    ['radius', { lat: 27.7, lon: 85.3, radius: 0 }],
    ['radius', { lat: 27.7, lon: 85.3, radius: -1 }],
    ['radius', { lat: 27.7, lon: 85.3, radius: NaN }],
    ['radius', { lat: 27.7, lon: 85.3, radius: Infinity }],
    ['radius', { lat: 27.7, lon: 85.3, radius: '1' }],
    ['limit', { lat: 27.7, lon: 85.3, limit: 0 }],
    ['limit', { lat: 27.7, lon: 85.3, limit: 1.5 }],
    ['at', { lat: 27.7, lon: 85.3, at: new Date(NaN) }],
    ['query', null as never],
  ];
  it.each(cases)('%s: %j', (param, query) => {
    let err: unknown;
    try {
      reverse(index, query as never);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InvalidQueryError);
    expect((err as InvalidQueryError).param).toBe(param);
  });
});
