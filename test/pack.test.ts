/**
 * Packs: a snapshot of one area (`buildSnapshot(index, { bbox })`, `build --bbox`/`--region`) or
 * of some parts (`modes`, `routing: false`, `search: false`). Every expected value comes from the
 * whole index, loaded separately from the same fixture: a pack answers a query wholly inside its
 * area as the whole index does.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import polyline from '@mapbox/polyline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildSnapshot,
  fromSnapshot,
  InvalidQueryError,
  isochrone,
  loadFile,
  loadPbf,
  matrix,
  nearby,
  PackError,
  packIndex,
  place,
  REGIONS,
  reverse,
  route,
  search,
  type Bbox,
  type PlaceIndex,
} from '../src/index.js';
import { sectionSizes } from '../src/snapshot/sections.js';
import { nepalDistrictTable } from '../src/address/districts.js';
import { CORE } from './support/raw.js';
import { cli } from './support/cli.js';
import { startServer, type TestServer } from './support/http-server.js';
import { token } from './support/http-fixture.js';
import { directory, withDirectory } from './support/crafted.js';
import { ResponseValidator } from './support/http-schema.js';
import { SnapshotError } from '../src/errors.js';

/**
 * The west of the fixture (which spans 85.300-85.341 E, 27.701-27.716 N): Thamel, Chhetrapati,
 * Jyatha, cut at 85.322 E through the middle of the data. Its other sides lie beyond the data,
 * so that a circle of 1 km (nearby's and search's radius are whole km) fits inside.
 */
const BOX: Bbox = [85.296, 27.69, 85.322, 27.725];
const AT = new Date('2026-01-14T06:15:00Z'); // 12:00 in Nepal

/** The whole index, and a pack of BOX written and read back: two loads of the fixture. */
let whole: PlaceIndex;
let packed: PlaceIndex;
let packBytes: Uint8Array;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'np-pack-'));
  whole = await loadPbf(CORE);
  packBytes = buildSnapshot(await loadPbf(CORE), { bbox: BOX });
  packed = fromSnapshot(packBytes);
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Kilometres from a point to the nearest side of BOX (negative outside): a query of radius r is
// wholly inside when this exceeds r.
const R = 6371.0088;
function kmInside(lat: number, lon: number, [w, s, e, n]: Bbox = BOX): number {
  const rad = Math.PI / 180;
  const ns = Math.min(lat - s, n - lat) * rad * R;
  const we = Math.min(lon - w, e - lon) * rad * R * Math.cos(lat * rad);
  return Math.min(ns, we);
}

/** Points on a grid over BOX at least `km` (plus a metre) inside it. */
function gridInside(km: number, step = 0.001): [number, number][] {
  const out: [number, number][] = [];
  for (let lat = BOX[1]; lat <= BOX[3]; lat += step)
    for (let lon = BOX[0]; lon <= BOX[2]; lon += step) if (kmInside(lat, lon) > km + 0.001) out.push([lat, lon]);
  return out;
}

const inBox = ([lat, lon]: [number, number]) => lat >= BOX[1] && lat <= BOX[3] && lon >= BOX[0] && lon <= BOX[2];

/** Two points inside whose whole-index route by `mode` stays inside (the first such pair of a grid). */
function pairInside(mode: 'foot' | 'car'): [[number, number], [number, number]] {
  const points = gridInside(0.05, 0.002);
  for (let i = 0; i < points.length; i++) {
    const a = points[i],
      b = points[points.length - 1 - i];
    try {
      const r = route(whole, { points: [a, b], mode });
      if (r[0].distanceInMeters > 500 && polyline.decode(r[0].encodedPolyline, 5).every(inBox)) return [a, b];
    } catch {
      // no route of the mode near one of them: the next pair
    }
  }
  throw new Error(`no ${mode} route inside the box`);
}

describe('a pack holds its area alone', () => {
  it('fewer places than the whole index, every one of them answered by place() as the whole index answers it', () => {
    expect(packed.size).toBeGreaterThan(500);
    expect(packed.size).toBeLessThan(whole.size);
    expect(packed.pack).toEqual({ bbox: BOX, modes: ['foot', 'bike', 'car', 'motorbike'], routing: true, search: true });
    expect(whole.pack).toBeUndefined();
    const t = packed.table;
    for (let r = 0; r < t.size; r++) {
      const id = t.osmId[r] * 4 + t.kind[r];
      expect(place(packed, id, { at: AT })).toEqual(place(whole, id, { at: AT }));
    }
  });

  it('a place far outside the area is not in the pack', () => {
    // the whole index's places whose centroid lies 300 m or more east of the box
    const far = nearby(whole, { type: 'eat', lat: 27.708, lon: 85.336, radius: 1, limit: 100 }).filter(
      (p) => p.centroid.lon > BOX[2] + 0.003,
    );
    expect(far.length).toBeGreaterThan(0);
    for (const p of far) {
      expect(p.centroid.lon).toBeGreaterThan(BOX[2] + 0.003);
      expect(place(packed, p.placeId)).toBeUndefined();
    }
  });
});

describe('nearby wholly inside answers as the whole index', () => {
  it('every type of the pack, around points whose circle lies inside the area, by score and by distance', () => {
    const points = gridInside(1, 0.001);
    expect(points.length).toBeGreaterThan(10);
    let answered = 0;
    for (const type of packed.types.keys()) {
      for (const [lat, lon] of points) {
        for (const sortBy of [false, true]) {
          const q = { type, lat, lon, radius: 1, limit: 100, sortBy, at: AT };
          const got = nearby(packed, q);
          expect(got).toEqual(nearby(whole, q));
          answered += got.length;
        }
      }
    }
    expect(answered).toBeGreaterThan(1000);
  });

  it('a circle crossing the edge is not promised: outside the area the pack has less', () => {
    // the check above would catch a pack that kept everything; this one shows the pack does not
    const q = { type: 'eat', lat: 27.708, lon: BOX[2], radius: 1, limit: 100, sortBy: true, at: AT };
    const kept = new Set(nearby(packed, q).map((p) => p.placeId));
    const missing = nearby(whole, q).filter((p) => !kept.has(p.placeId));
    expect(missing.length).toBeGreaterThan(10);
    for (const p of missing) expect(p.centroid.lon).toBeGreaterThan(BOX[2]);
  });
});

describe('reverse wholly inside answers as the whole index', () => {
  it('at points whose default reach (0.5 km) lies inside, and at 0.1 km with more landmarks', () => {
    for (const [radius, limit] of [
      [undefined, undefined],
      [0.1, 10],
    ] as const) {
      const points = gridInside(radius ?? 0.5, 0.0005);
      expect(points.length).toBeGreaterThan(100);
      let found = 0;
      for (const [lat, lon] of points) {
        const q = { lat, lon, radius, limit };
        const got = reverse(packed, q);
        expect(got).toEqual(reverse(whole, q));
        found += got.length;
      }
      expect(found).toBeGreaterThan(points.length / 2);
    }
  });
});

describe('search wholly inside finds the same places as the whole index', () => {
  // The pack's text index is its own corpus: its word statistics (how rare a word is) are the
  // area's, so scores and the order of hits of equal relevance may differ; the hits may not.
  it('the same hits, with the same records but their scores, for words of names inside, within a radius inside', () => {
    const t = packed.table;
    const asked = new Set<string>();
    let hits = 0;
    for (let r = 0; r < t.size && asked.size < 150; r++) {
      const name = t.strings[t.name[r]];
      const lat = t.lat[r] / 1e7,
        lon = t.lon[r] / 1e7;
      const word = name.split(/\s+/)[0];
      if (word.length < 3 || asked.has(word) || kmInside(lat, lon) < 1.001) continue;
      asked.add(word);
      for (const q of [word, word.slice(0, 3)]) {
        const query = { q, lat, lon, radius: 1, limit: 100 };
        const strip = (list: ReturnType<typeof search>) => list.map(({ score: _, ...rest }) => rest).sort((a, b) => a.placeId - b.placeId);
        const expected = search(whole, query);
        // a list cut at the limit is cut by rank, which word statistics move: only whole lists compare
        if (expected.length === query.limit) continue;
        const got = strip(search(packed, query));
        expect(got).toEqual(strip(expected));
        hits += got.length;
      }
    }
    expect(asked.size).toBeGreaterThan(50);
    expect(hits).toBeGreaterThan(200);
  });
});

describe('roads crossing the edge are kept to their first junction outside', () => {
  it('every stretch of road between junctions with a point inside is in the pack whole; some reach outside', () => {
    const key = (g: NonNullable<PlaceIndex['router']>['graph'], e: number) =>
      g.coords.slice(2 * g.coordStart[e], 2 * g.coordStart[e + 1]).join(',');
    const g = whole.router!.graph,
      p = packed.router!.graph;
    const inPack = new Set<string>();
    for (let e = 0; e < p.edgeFrom.length; e++) inPack.add(key(p, e));
    let inside = 0,
      crossing = 0;
    for (let e = 0; e < g.edgeFrom.length; e++) {
      const pts: [number, number][] = [];
      for (let k = 2 * g.coordStart[e]; k < 2 * g.coordStart[e + 1]; k += 2) pts.push([g.coords[k + 1] / 1e7, g.coords[k] / 1e7]);
      if (!pts.some(inBox)) continue;
      inside++;
      if (!pts.every(inBox)) crossing++;
      expect(inPack.has(key(g, e))).toBe(true);
    }
    expect(inside).toBeGreaterThan(500);
    expect(crossing).toBeGreaterThan(5);
    expect(p.edgeFrom.length).toBeLessThan(g.edgeFrom.length);
  });
});

describe('a route wholly inside is the whole index’s route', () => {
  // "Wholly inside": the whole index's route lies in the area. A shortest path between two points
  // inside may leave it; the pack, holding the roads to their first junction outside, is not
  // promised that one.
  it('by every mode, for pairs of points inside whose whole-index route stays inside', () => {
    const points = gridInside(0.05, 0.0025);
    let compared = 0,
      left = 0;
    for (const mode of ['foot', 'bike', 'car', 'motorbike'] as const) {
      for (let i = 0; i < points.length; i += 3) {
        const j = (i * 7 + 5) % points.length;
        if (i === j) continue;
        const q = { points: [points[i], points[j]], mode, instructions: true };
        let expected;
        try {
          expected = route(whole, q);
        } catch {
          continue; // no route in the whole index either (a point far from the mode's roads)
        }
        if (!polyline.decode(expected[0].encodedPolyline, 5).every(inBox)) {
          left++;
          continue;
        }
        expect(route(packed, q)).toEqual(expected);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(40);
    // the rule is not vacuous: some whole-index routes between points inside do leave the area
    expect(left).toBeGreaterThan(0);
  });

  it('a matrix between points inside equals the whole index’s where its routes stay inside', () => {
    const points = gridInside(0.05, 0.004).slice(0, 8);
    const q = { sources: points, destinations: points, mode: 'car' as const };
    const got = matrix(packed, q),
      expected = matrix(whole, q);
    let same = 0;
    for (let i = 0; i < points.length; i++)
      for (let j = 0; j < points.length; j++) {
        let r;
        try {
          r = route(whole, { points: [points[i], points[j]], mode: 'car' });
        } catch {
          // no car route between them in the whole index, nor then in the pack, which holds less
          expect([got.durations[i][j], expected.durations[i][j]]).toEqual([null, null]);
          continue;
        }
        if (!polyline.decode(r[0].encodedPolyline, 5).every(inBox)) continue;
        expect(got.durations[i][j]).toBe(expected.durations[i][j]);
        expect(got.distances[i][j]).toBe(expected.distances[i][j]);
        same++;
      }
    expect(same).toBeGreaterThan(10);
  });
});

describe('modes leaves the other modes out', () => {
  let cf: PlaceIndex;
  let bytes: Uint8Array;
  beforeAll(() => {
    bytes = buildSnapshot(whole, { bbox: BOX, modes: ['car', 'foot'] });
    cf = fromSnapshot(bytes);
  });

  it('stores the hierarchies of the modes asked for alone, and routes them as the whole index', () => {
    const names = sectionSizes(bytes).map((s) => s.name);
    for (const m of [0, 2]) expect(names.some((n) => n.startsWith(`ch${m}`))).toBe(true); // foot, car
    for (const m of [1, 3]) expect(names.some((n) => n.startsWith(`ch${m}`))).toBe(false); // bike, motorbike
    expect(cf.pack?.modes).toEqual(['foot', 'car']);
    const q = { points: pairInside('car'), mode: 'car' as const, instructions: true };
    const expected = route(whole, q);
    expect(polyline.decode(expected[0].encodedPolyline, 5).every(inBox)).toBe(true);
    expect(route(cf, q)).toEqual(expected);
  });

  it('another mode is refused, naming the modes it has, by route, matrix, isochrone and nearby by time', () => {
    const [a, b] = pairInside('car');
    const calls = [
      () => route(cf, { points: [a, b], mode: 'bike' }),
      () => matrix(cf, { sources: [a], destinations: [b], mode: 'motorbike' }),
      () => isochrone(cf, { lat: a[0], lon: a[1], mode: 'bike', minutes: [5] }),
      () => nearby(cf, { type: 'eat', lat: a[0], lon: a[1], by: 'time', mode: 'bike', minutes: 5 }),
    ];
    for (const call of calls) {
      expect(call).toThrow(InvalidQueryError);
      expect(call).toThrow(/not routed by this data.*the available modes are foot, car/);
    }
  });

  it('over HTTP, a 400 naming the modes it has; /health says what the pack holds', async () => {
    const key = token('p');
    let server: TestServer | undefined;
    try {
      server = await startServer({ index: cf, tokens: [key], log: () => {} });
      const [a, b] = pairInside('car');
      const res = await server.request(`/api/v1/directions?points[]=${a.join(',')}&points[]=${b.join(',')}&mode=bike&key=${key.key}`);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(/the available modes are foot, car/);
      const ok = await server.request(`/api/v1/directions?points[]=${a.join(',')}&points[]=${b.join(',')}&mode=car&key=${key.key}`);
      expect(ok.status).toBe(200);
      // /health says what the pack holds, as its OpenAPI document describes it
      const health = await server.request('/api/v1/health');
      expect(health.body.data[0].pack).toEqual({ bbox: BOX, modes: ['foot', 'car'], routing: true, search: true });
      const doc = (await server.request('/api/v1/openapi.json')).body;
      expect(new ResponseValidator(doc).errors('/health', 'get', 200, health.body)).toEqual([]);
    } finally {
      await server?.close();
    }
  });
});

describe('routing: false leaves the roads out', () => {
  let bare: PlaceIndex;
  let bytes: Uint8Array;
  beforeAll(() => {
    bytes = buildSnapshot(whole, { bbox: BOX, routing: false });
    bare = fromSnapshot(bytes);
  });

  it('no road section, and every routing query refused saying the pack has no routing', () => {
    const names = sectionSizes(bytes).map((s) => s.name);
    expect(names).not.toContain('edgeFrom');
    expect(names.some((n) => n.startsWith('ch'))).toBe(false);
    expect(bytes.length).toBeLessThan(packBytes.length);
    expect(bare.router).toBeUndefined();
    expect(bare.pack).toEqual({ bbox: BOX, modes: [], routing: false, search: true });
    const [a, b] = pairInside('car');
    const calls = [
      () => route(bare, { points: [a, b], mode: 'foot' }),
      () => matrix(bare, { sources: [a], destinations: [b], mode: 'car' }),
      () => isochrone(bare, { lat: a[0], lon: a[1], mode: 'foot', minutes: [5] }),
      () => nearby(bare, { type: 'eat', lat: a[0], lon: a[1], by: 'time', mode: 'foot', minutes: 5 }),
    ];
    for (const call of calls) {
      expect(call).toThrow(InvalidQueryError);
      expect(call).toThrow(/a pack without routing/);
    }
  });

  it('nearby, search, place and reverse answer as in the full pack', () => {
    const [lat, lon] = gridInside(1)[10];
    expect(nearby(bare, { type: 'eat', lat, lon, radius: 1, at: AT })).toEqual(
      nearby(packed, { type: 'eat', lat, lon, radius: 1, at: AT }),
    );
    expect(reverse(bare, { lat, lon })).toEqual(reverse(packed, { lat, lon }));
    expect(search(bare, { q: 'thamel', lat, lon })).toEqual(search(packed, { q: 'thamel', lat, lon }));
  });
});

describe('search: false leaves the text index out', () => {
  let dumb: PlaceIndex;
  let bytes: Uint8Array;
  beforeAll(() => {
    bytes = buildSnapshot(whole, { bbox: BOX, search: false });
    dumb = fromSnapshot(bytes);
  });

  it('no postings, and search refused saying the pack has no text index', () => {
    const size = Object.fromEntries(sectionSizes(bytes).map((s) => [s.name, s.bytes]));
    const full = Object.fromEntries(sectionSizes(packBytes).map((s) => [s.name, s.bytes]));
    expect(full.postingDoc).toBeGreaterThan(1000);
    expect(size.postingDoc ?? 0).toBe(0);
    expect(dumb.pack?.search).toBe(false);
    expect(() => search(dumb, { q: 'thamel' })).toThrow(InvalidQueryError);
    expect(() => search(dumb, { q: 'thamel' })).toThrow(/a pack without a text index/);
  });

  it('reverse, with its addresses, nearby, place and route answer as in the full pack', () => {
    for (const [lat, lon] of gridInside(0.5, 0.001))
      expect(reverse(dumb, { lat, lon, limit: 5 })).toEqual(reverse(packed, { lat, lon, limit: 5 }));
    const [a, b] = pairInside('car');
    expect(route(dumb, { points: [a, b], mode: 'car' })).toEqual(route(packed, { points: [a, b], mode: 'car' }));
  });
});

describe('a pack records what it holds, and a reader checks the record', () => {
  it('meta.pack round-trips; a record that lies about the pack is refused as corrupted', () => {
    const bytes = buildSnapshot(whole, { bbox: BOX, modes: ['car', 'foot'], search: false });
    const { dir } = directory(bytes);
    expect(dir.meta.pack).toEqual({ bbox: BOX, modes: ['foot', 'car'], routing: true, search: false });
    expect(fromSnapshot(bytes).pack).toEqual(dir.meta.pack);
    const lies = [
      { ...(dir.meta.pack as object), modes: ['foot', 'car', 'bike'] }, // no bike hierarchy
      { ...(dir.meta.pack as object), routing: false },
      { ...(dir.meta.pack as object), bbox: [1, 2, 3] },
      { ...(dir.meta.pack as object), modes: ['plane'] },
      'everything',
    ];
    for (const pack of lies) {
      const crafted = withDirectory(bytes, JSON.stringify({ ...dir, meta: { ...dir.meta, pack } }));
      expect(() => fromSnapshot(crafted)).toThrow(SnapshotError);
      expect(() => fromSnapshot(crafted)).toThrow(
        expect.objectContaining({ problem: 'corrupted', message: expect.stringMatching(/pack/) }),
      );
    }
  });
});

describe('the pack options are checked', () => {
  const bad: [object, RegExp][] = [
    [{ bbox: [85.4, 27.7, 85.3, 27.8] }, /bbox: west 85.4 is east of east 85.3/],
    [{ bbox: [85.3, 27.8, 85.4, 27.7] }, /bbox: south 27.8 is north of north 27.7/],
    [{ bbox: [185, 27, 186, 28] }, /bbox: longitudes must lie in -180..180/],
    [{ bbox: [85, -91, 86, 28] }, /bbox: latitudes must lie in -90..90/],
    [{ bbox: [85, 27, 86] }, /bbox: must be four numbers/],
    [{ bbox: [85, 27, 86, NaN] }, /bbox: must be four numbers/],
    [{ region: 'pokara' }, /region: unknown region "pokara"; the regions are kathmandu-valley, pokhara/],
    [{ region: 'pokhara', bbox: BOX }, /region: .*not both/],
    [{ modes: ['car', 'plane'] }, /modes: unknown mode "plane"; the modes are foot, bike, car, motorbike/],
    [{ modes: [] }, /modes: must be a list of one or more/],
    [{ modes: ['car'], routing: false }, /modes: .*not both/],
    [{ search: 'no' }, /search: must be true or false/],
  ];
  it.each(bad)('%j is refused with a PackError naming the option', (options, message) => {
    expect(() => packIndex(whole, options)).toThrow(PackError);
    expect(() => buildSnapshot(whole, options)).toThrow(message);
  });

  it('a pack of a pack routes no mode the first does not', () => {
    const carFoot = packIndex(whole, { bbox: BOX, modes: ['car', 'foot'] });
    expect(() => packIndex(carFoot, { modes: ['bike'] })).toThrow(/modes: bike not routed by this index, a pack of foot, car/);
    expect(packIndex(carFoot, { bbox: [85.3, 27.7, 85.31, 27.71] }).pack?.modes).toEqual(['foot', 'car']);
  });

  it('no option is the whole index: buildSnapshot(index, {}) writes what buildSnapshot(index) does', () => {
    expect(buildSnapshot(whole, {})).toEqual(buildSnapshot(whole));
  });
});

describe('the named regions are the districts’ extents', () => {
  // computed again here from the district boundaries the package ships
  const extent = (names: string[]): Bbox => {
    let w = Infinity,
      s = Infinity,
      e = -Infinity,
      n = -Infinity;
    const districts = nepalDistrictTable().filter((d) => names.includes(d.name));
    expect(districts.length).toBe(names.length);
    for (const d of districts)
      for (const ring of d.rings)
        for (let i = 0; i < ring.length; i += 2) {
          w = Math.min(w, ring[i]);
          e = Math.max(e, ring[i]);
          s = Math.min(s, ring[i + 1]);
          n = Math.max(n, ring[i + 1]);
        }
    return [w, s, e, n];
  };
  it('kathmandu-valley: Kathmandu, Lalitpur and Bhaktapur; pokhara: Kaski', () => {
    expect(Object.keys(REGIONS)).toEqual(['kathmandu-valley', 'pokhara']);
    expect(REGIONS['kathmandu-valley'].bbox).toEqual(extent(['KATHMANDU', 'LALITPUR', 'BHAKTAPUR']));
    expect(REGIONS.pokhara.bbox).toEqual(extent(['KASKI']));
  });

  it('a region pack of the fixture (all of it in the valley) holds every place of the whole index', () => {
    const valley = fromSnapshot(buildSnapshot(whole, { region: 'kathmandu-valley', routing: false }));
    expect(valley.size).toBe(whole.size);
    expect(valley.pack).toEqual({
      bbox: REGIONS['kathmandu-valley'].bbox,
      region: 'kathmandu-valley',
      modes: [],
      routing: false,
      search: true,
    });
  });
});

describe('build --bbox, --region, --modes, --no-routing, --no-search', () => {
  it('writes a pack that a fresh process opens and answers as the whole index; --json records it', async () => {
    const out = join(dir, 'west.places');
    const run = await cli('build', CORE, '-o', out, '--bbox', BOX.join(','), '--modes', 'car,foot', '--no-search', '--json');
    expect(run.stderr).not.toMatch(/error|warning/i);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary.pack).toEqual({ bbox: BOX, modes: ['foot', 'car'], routing: true, search: false });
    expect(summary.places).toBe(packed.size);
    expect(summary.size).toBe((await readFile(out)).length);
    const opened = await loadFile(out);
    expect(opened.pack).toEqual(summary.pack);
    const [lat, lon] = gridInside(0.5)[5];
    expect(reverse(opened, { lat, lon, limit: 3 })).toEqual(reverse(whole, { lat, lon, limit: 3 }));
    const [la, lo] = gridInside(1)[0];
    expect(nearby(opened, { type: 'eat', lat: la, lon: lo, at: AT })).toEqual(nearby(whole, { type: 'eat', lat: la, lon: lo, at: AT }));
    // the command-line query reads the pack too, and says what it lacks
    const q = await cli('search', '--data', out, 'thamel');
    expect(q.code).toBe(2);
    expect(q.stderr).toMatch(/a pack without a text index/);
  }, 60_000);

  it('the summary names the pack', async () => {
    const run = await cli('build', CORE, '-o', join(dir, 'valley.places'), '--region', 'kathmandu-valley', '--no-routing');
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/\n {2}pack {6}kathmandu-valley 85\.189567,27\.40303,85\.528541,27\.81681; no routing; search\n/);
  }, 60_000);

  const usage: [string[], RegExp][] = [
    [['--bbox', '85.4,27.7,85.3,27.8'], /--bbox: west 85.4 is east of east 85.3/],
    [['--bbox', '85.3,27.7,85.4'], /--bbox must be four numbers W,S,E,N/],
    [['--bbox', '85.3,27.7,85.4,north'], /--bbox must be four numbers W,S,E,N/],
    [['--bbox', '-200,27.7,85.4,27.8'], /--bbox: longitudes must lie in -180..180/],
    [['--region', 'everest'], /--region: unknown region "everest"; the regions are kathmandu-valley, pokhara/],
    [['--modes', 'car,boat'], /--modes: unknown mode "boat"/],
    [['--modes', 'car', '--no-routing'], /--modes: .*not both/],
    [['--region', 'pokhara', '--tiles', 'x.pmtiles'], /--tiles makes the map of the whole file/],
  ];
  it.each(usage)('%j is bad usage (exit 2) saying why, before the PBF is read', async (args, message) => {
    const out = join(dir, 'bad.places');
    const run = await cli('build', CORE, '-o', out, ...args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/^load /m);
  });

  it('an area holding nothing of the file fails (exit 1) showing where its data lies', async () => {
    const run = await cli('build', CORE, '-o', join(dir, 'empty.places'), '--region', 'pokhara', '--quiet');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /nothing of it lies in pokhara 83\.702751,28\.083997,84\.280487,28\.615503; its data spans 85\.30\d\d,27\.70\d\d,85\.34\d\d,27\.71\d\d/,
    );
  }, 60_000);
});
