/**
 * The vector tiles of the Kathmandu fixture, decoded with @mapbox/vector-tile and
 * checked against the OSM input read independently with osm-read: roads carry their
 * class and (English) name, every place is a POI with its placeId, buildings keep
 * their footprint inside their tile, and the layers are the ones the
 * @protomaps/basemaps style draws.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VectorTile, type VectorTileFeature } from '@mapbox/vector-tile';
import { layers, namedFlavor } from '@protomaps/basemaps';
import { PbfReader } from 'pbf';
import { PMTiles } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTiles, type TilesResult } from '../src/tiles/build.js';
import { FileSource } from '../src/map/file-source.js';
import { CORE, readRaw, tag, type RawData, type RawTag, type RawWay } from './support/raw.js';
import { random } from './support/random.js';

const dir = mkdtempSync(join(tmpdir(), 'tiles-'));
const out = join(dir, 'ktm.pmtiles');
let raw: RawData;
let result: TilesResult;
let source: FileSource;
let archive: PMTiles;

beforeAll(async () => {
  [raw, result] = await Promise.all([readRaw(CORE), buildTiles(CORE, out, { workers: 0 })]);
  source = new FileSource(out);
  archive = new PMTiles(source);
}, 120_000);
afterAll(async () => {
  await source?.close();
  rmSync(dir, { recursive: true, force: true });
});

// How far a drawn vertex may lie from the true position, in tile units at z14: half a
// unit of rounding to the tile grid, plus half a unit of the world grid (2^30, a
// sixteenth of a z14 tile unit) the features are stored on first
const ROUND = 0.5 + 0.5 / 16;
// and how far a line may pass from a vertex that simplification (1 unit at z14) dropped
const SIMPLIFIED = 1 + 2 * Math.SQRT2 * ROUND;

function segmentDistance(px: number, py: number, a: { x: number; y: number }, b: { x: number; y: number }): number {
  const dx = b.x - a.x,
    dy = b.y - a.y;
  const t = dx || dy ? Math.max(0, Math.min(1, ((px - a.x) * dx + (py - a.y) * dy) / (dx * dx + dy * dy))) : 0;
  return Math.hypot(a.x + t * dx - px, a.y + t * dy - py);
}

// slippy-map tile math, the OSM wiki's formulas, apart from src/tiles/project.ts
function tileXY(lon: number, lat: number, z: number): { x: number; y: number; fx: number; fy: number } {
  const n = 2 ** z;
  const fx = ((lon + 180) / 360) * n;
  const r = (lat * Math.PI) / 180;
  const fy = ((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n;
  return { x: Math.floor(fx), y: Math.floor(fy), fx, fy };
}

const tiles = new Map<string, VectorTile | null>();
async function tile(z: number, x: number, y: number): Promise<VectorTile | null> {
  const key = `${z}/${x}/${y}`;
  if (!tiles.has(key)) {
    const r = await archive.getZxy(z, x, y);
    tiles.set(key, r ? new VectorTile(new PbfReader(new Uint8Array(r.data))) : null);
  }
  return tiles.get(key)!;
}

function features(t: VectorTile | null, layer: string): VectorTileFeature[] {
  const l = t?.layers[layer];
  if (!l) return [];
  return Array.from({ length: l.length }, (_, i) => l.feature(i));
}

// every z14 tile of the archive's bounds
async function allTop(): Promise<{ x: number; y: number; t: VectorTile }[]> {
  const h = await archive.getHeader();
  const a = tileXY(h.minLon, h.maxLat, 14),
    b = tileXY(h.maxLon, h.minLat, 14);
  const list = [];
  for (let x = a.x; x <= b.x; x++)
    for (let y = a.y; y <= b.y; y++) {
      const t = await tile(14, x, y);
      if (t) list.push({ x, y, t });
    }
  return list;
}

const ROAD_CLASS: Record<string, string> = {
  motorway: 'highway',
  trunk: 'major_road',
  primary: 'major_road',
  secondary: 'major_road',
  tertiary: 'major_road',
  primary_link: 'major_road',
  secondary_link: 'major_road',
  tertiary_link: 'major_road',
  residential: 'minor_road',
  unclassified: 'minor_road',
  service: 'minor_road',
  living_street: 'minor_road',
  footway: 'path',
  path: 'path',
  steps: 'path',
  pedestrian: 'path',
  cycleway: 'path',
  track: 'path',
};

// the README's place rule, restated: a feature key, or `highway` on a node
const FEATURE_KEYS = [
  'amenity',
  'shop',
  'tourism',
  'leisure',
  'healthcare',
  'office',
  'craft',
  'historic',
  'public_transport',
  'railway',
  'aeroway',
  'emergency',
];
function isPlaceRaw(tags: RawTag[], kind: number): boolean {
  return tags.some(([k]) => FEATURE_KEYS.includes(k) || (kind === 0 && k === 'highway'));
}

describe('the archive covers the data, zoom 0 to 14', () => {
  it('says so in its header and metadata, with the eleven Protomaps layers', async () => {
    const h = await archive.getHeader();
    expect(h).toMatchObject({ minZoom: 0, maxZoom: 14, tileType: 1, tileCompression: 2, clustered: true });
    let lat0 = 90,
      lat1 = -90,
      lon0 = 180,
      lon1 = -180;
    for (const n of raw.nodes) {
      lat0 = Math.min(lat0, n.lat);
      lat1 = Math.max(lat1, n.lat);
      lon0 = Math.min(lon0, n.lon);
      lon1 = Math.max(lon1, n.lon);
    }
    expect(h.minLon).toBeCloseTo(lon0, 5);
    expect(h.maxLon).toBeCloseTo(lon1, 5);
    expect(h.minLat).toBeCloseTo(lat0, 5);
    expect(h.maxLat).toBeCloseTo(lat1, 5);
    const meta = (await archive.getMetadata()) as { vector_layers: { id: string }[]; attribution: string };
    expect(meta.vector_layers.map((l) => l.id).sort()).toEqual([
      'boundaries',
      'buildings',
      'earth',
      'landcover',
      'landuse',
      'natural',
      'places',
      'pois',
      'roads',
      'transit',
      'water',
    ]);
    expect(meta.attribution).toContain('OpenStreetMap contributors');
  });

  it('has a tile at every zoom over the centre of the data, each a valid gzipped MVT', async () => {
    const h = await archive.getHeader();
    for (let z = 0; z <= 14; z++) {
      const { x, y } = tileXY(85.3175, 27.708, z);
      const r = await archive.getZxy(z, x, y);
      if (z >= 4) expect(r, `z${z}`).toBeDefined();
      if (!r) continue;
      const t = new VectorTile(new PbfReader(new Uint8Array(r.data)));
      for (const l of Object.values(t.layers)) expect(l.extent).toBe(4096);
      expect(Object.keys(t.layers)).toContain('earth');
    }
    // stored gzipped: the tile data starts with the gzip magic and inflates to an MVT
    const head = new Uint8Array((await source.getBytes(h.tileDataOffset, 64 * 1024)).data);
    expect(Array.from(head.subarray(0, 2))).toEqual([0x1f, 0x8b]);
  });
});

describe('roads carry their class and name, English where name:en exists', () => {
  it('finds 40 random named roads, and 10 with a name:en of their own, by name and class in the z14 tile of one of their nodes', async () => {
    const named = raw.ways.filter(
      (w) =>
        ROAD_CLASS[tag(w.tags, 'highway') ?? ''] && (tag(w.tags, 'name') || tag(w.tags, 'name:en')) && w.refs.every((r) => raw.node.has(r)),
    );
    const english = named.filter((w) => tag(w.tags, 'name:en') && tag(w.tags, 'name') && tag(w.tags, 'name:en') !== tag(w.tags, 'name'));
    expect(named.length).toBeGreaterThan(100);
    expect(english.length).toBeGreaterThan(10);
    const rand = random(11);
    const sample = [...Array.from({ length: 40 }, () => named[Math.floor(rand() * named.length)]), ...english.slice(0, 10)];
    for (const w of sample) {
      const expected = tag(w.tags, 'name:en') ?? tag(w.tags, 'name');
      const n = raw.node.get(w.refs[Math.floor(w.refs.length / 2)])!;
      const { x, y, fx, fy } = tileXY(n.lon, n.lat, 14);
      const roads = features(await tile(14, x, y), 'roads').filter(
        (f) => f.properties.name === expected && f.properties.kind === ROAD_CLASS[tag(w.tags, 'highway')!],
      );
      expect(roads.length, `way ${w.id} ${expected}`).toBeGreaterThan(0);
      expect(roads[0].properties.kind_detail).toBe(tag(w.tags, 'highway') === 'service' ? 'service' : tag(w.tags, 'highway'));
      // one of them passes through the node (to a tile unit, 0.5 m here)
      const px = (fx - x) * 4096,
        py = (fy - y) * 4096;
      const near = roads.some((f) =>
        f.loadGeometry().some((line) => line.some((p, i) => i + 1 < line.length && segmentDistance(px, py, p, line[i + 1]) <= SIMPLIFIED)),
      );
      expect(near, `way ${w.id} through node ${n.id}`).toBe(true);
      if (tag(w.tags, 'name:en')) expect(roads.some((f) => f.properties['name:en'] === tag(w.tags, 'name:en'))).toBe(true);
    }
  });

  it('marks one-way streets and writes them in their direction of travel', async () => {
    const oneways = raw.ways.filter(
      (w) =>
        tag(w.tags, 'oneway') === 'yes' &&
        ROAD_CLASS[tag(w.tags, 'highway') ?? ''] &&
        w.refs.length >= 2 &&
        w.refs.every((r) => raw.node.has(r)),
    );
    expect(oneways.length).toBeGreaterThan(10);
    for (const w of oneways.slice(0, 15)) {
      const a = raw.node.get(w.refs[0])!,
        b = raw.node.get(w.refs[1])!;
      const ta = tileXY(a.lon, a.lat, 14),
        tb = tileXY(b.lon, b.lat, 14);
      if (ta.x !== tb.x || ta.y !== tb.y) continue;
      const ax = (ta.fx - ta.x) * 4096,
        ay = (ta.fy - ta.y) * 4096,
        bx = (tb.fx - tb.x) * 4096,
        by = (tb.fy - tb.y) * 4096;
      const roads = features(await tile(14, ta.x, ta.y), 'roads').filter((f) => f.properties.oneway === 'yes');
      // a feature with a vertex at a, whose next vertex lies toward b
      const found = roads.some((f) =>
        f
          .loadGeometry()
          .some((line) =>
            line.some(
              (p, i) =>
                Math.abs(p.x - ax) <= ROUND &&
                Math.abs(p.y - ay) <= ROUND &&
                i + 1 < line.length &&
                (line[i + 1].x - p.x) * (bx - ax) + (line[i + 1].y - p.y) * (by - ay) > 0,
            ),
          ),
      );
      expect(found, `oneway way ${w.id}`).toBe(true);
    }
  });
});

describe('every place is a POI carrying its placeId', () => {
  it('puts every place node in the z14 tile of its position, at its position', async () => {
    const places = raw.nodes.filter((n) => isPlaceRaw(n.tags, 0));
    expect(places.length).toBeGreaterThan(1000);
    for (const n of places) {
      const { x, y, fx, fy } = tileXY(n.lon, n.lat, 14);
      const pois = features(await tile(14, x, y), 'pois').filter((f) => f.properties.placeId === n.id * 4);
      expect(pois.length, `node ${n.id}`).toBe(1);
      const [p] = pois[0].loadGeometry()[0];
      expect(Math.abs(p.x - (fx - x) * 4096)).toBeLessThanOrEqual(ROUND);
      expect(Math.abs(p.y - (fy - y) * 4096)).toBeLessThanOrEqual(ROUND);
      const name = tag(n.tags, 'name:en') ?? tag(n.tags, 'name') ?? tag(n.tags, 'name:ne');
      expect(pois[0].properties.name).toBe(name);
    }
  });

  it('has a POI for every place way and multipolygon whose nodes are all in the extract', async () => {
    const ids = new Set<number>();
    for (const { t } of await allTop()) for (const f of features(t, 'pois')) ids.add(f.properties.placeId as number);
    const complete = (w: RawWay) => w.refs.every((r) => raw.node.has(r));
    const ways = raw.ways.filter((w) => isPlaceRaw(w.tags, 1) && complete(w) && new Set(w.refs).size >= 2);
    expect(ways.length).toBeGreaterThan(500);
    for (const w of ways) expect(ids.has(w.id * 4 + 1), `way ${w.id}`).toBe(true);
    const rels = raw.relations.filter(
      (r) =>
        isPlaceRaw(r.tags, 2) &&
        tag(r.tags, 'type') === 'multipolygon' &&
        r.members.every((m) => m.type === 'way' && raw.way.has(m.ref) && complete(raw.way.get(m.ref)!)),
    );
    for (const r of rels) expect(ids.has(r.id * 4 + 2), `relation ${r.id}`).toBe(true);
    // and nothing that is not a place gets a placeId of a way
    const placeWays = new Set(raw.ways.filter((w) => isPlaceRaw(w.tags, 1)).map((w) => w.id * 4 + 1));
    for (const id of ids) if (id % 4 === 1) expect(placeWays.has(id), `placeId ${id}`).toBe(true);
  });
});

describe('buildings keep their footprint inside their tile', () => {
  it('draws 50 random buildings that lie inside one z14 tile with their own vertices', async () => {
    const rand = random(3);
    const inside: { w: RawWay; x: number; y: number; pts: [number, number][] }[] = [];
    for (const w of raw.ways) {
      if (!tag(w.tags, 'building') || w.refs[0] !== w.refs[w.refs.length - 1] || !w.refs.every((r) => raw.node.has(r))) continue;
      const pts = w.refs.map((r) => {
        const n = raw.node.get(r)!;
        return tileXY(n.lon, n.lat, 14);
      });
      if (pts.some((p) => p.x !== pts[0].x || p.y !== pts[0].y)) continue;
      inside.push({ w, x: pts[0].x, y: pts[0].y, pts: pts.map((p) => [(p.fx - p.x) * 4096, (p.fy - p.y) * 4096]) });
    }
    expect(inside.length).toBeGreaterThan(1000);
    for (let k = 0; k < 50; k++) {
      const b = inside[Math.floor(rand() * inside.length)];
      const xs = b.pts.map((p) => p[0]),
        ys = b.pts.map((p) => p[1]);
      const box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
      const match = features(await tile(14, b.x, b.y), 'buildings').find((f) => {
        const ring = f.loadGeometry()[0];
        const rx = ring.map((p) => p.x),
          ry = ring.map((p) => p.y);
        return (
          Math.abs(Math.min(...rx) - box[0]) <= SIMPLIFIED &&
          Math.abs(Math.max(...rx) - box[2]) <= SIMPLIFIED &&
          Math.abs(Math.min(...ry) - box[1]) <= SIMPLIFIED &&
          Math.abs(Math.max(...ry) - box[3]) <= SIMPLIFIED
        );
      });
      expect(match, `building way ${b.w.id}`).toBeDefined();
      // every vertex drawn is one of the building's own, rounded to the tile grid
      for (const p of match!.loadGeometry()[0])
        expect(b.pts.some(([x, y]) => Math.abs(x - p.x) <= ROUND && Math.abs(y - p.y) <= ROUND)).toBe(true);
      expect(match!.type).toBe(3);
      expect(match!.properties.kind).toBe('building');
      for (const p of match!.loadGeometry()[0]) {
        expect(p.x).toBeGreaterThanOrEqual(0);
        expect(p.x).toBeLessThanOrEqual(4096);
      }
    }
  });

  it('gives buildings their tagged height, or 3 m per level', async () => {
    const tall = raw.ways.filter(
      (w) =>
        tag(w.tags, 'building') &&
        (tag(w.tags, 'height') || tag(w.tags, 'building:levels')) &&
        /^\d+(\.\d+)?$/.test(tag(w.tags, 'height') ?? tag(w.tags, 'building:levels')!) &&
        w.refs.every((r) => raw.node.has(r)),
    );
    expect(tall.length).toBeGreaterThan(5);
    for (const w of tall.slice(0, 20)) {
      const h = tag(w.tags, 'height') !== undefined ? Number(tag(w.tags, 'height')) : Number(tag(w.tags, 'building:levels')) * 3;
      const n = raw.node.get(w.refs[0])!;
      const { x, y } = tileXY(n.lon, n.lat, 14);
      const heights = features(await tile(14, x, y), 'buildings').map((f) => f.properties.height);
      expect(heights, `way ${w.id}`).toContain(Math.round(h * 10) / 10);
    }
  });
});

describe('the layers are what @protomaps/basemaps draws', () => {
  // the kinds a style layer filters on: ["in", "kind", ...] / ["==", "kind", k] / ["in", ["get", "kind"], ["literal", [...]]]
  function kinds(filter: unknown): string[] {
    const out: string[] = [];
    const walk = (e: unknown) => {
      if (!Array.isArray(e)) return;
      if ((e[0] === 'in' || e[0] === '==') && e[1] === 'kind') out.push(...e.slice(2));
      else if (
        e[0] === 'in' &&
        Array.isArray(e[1]) &&
        e[1][0] === 'get' &&
        e[1][1] === 'kind' &&
        Array.isArray(e[2]) &&
        e[2][0] === 'literal'
      )
        out.push(...e[2][1]);
      else e.forEach(walk);
    };
    walk(filter);
    return out;
  }

  it('has features for the style layers of a city: earth, roads, buildings, pois, places, parks, water', async () => {
    const style = layers('protomaps', namedFlavor('light'), { lang: 'en' });
    const top = await allTop();
    const present = new Map<string, Set<string>>();
    for (const { t } of top)
      for (const [name, l] of Object.entries(t.layers)) {
        const s = present.get(name) ?? new Set();
        for (let i = 0; i < l.length; i++) s.add(String(l.feature(i).properties.kind));
        present.set(name, s);
      }
    const wanted = [
      'earth',
      'landuse_park',
      'water',
      'roads_minor',
      'roads_major',
      'roads_other',
      'buildings',
      'pois',
      'places_locality',
      'places_subplace',
      'landuse_hospital',
      'landuse_school',
    ];
    for (const id of wanted) {
      const l = style.find((s) => s.id === id) as { 'source-layer': string; filter?: unknown } | undefined;
      expect(l, id).toBeDefined();
      const have = present.get(l!['source-layer']);
      expect(have, `${id}: layer ${l!['source-layer']}`).toBeDefined();
      const ks = kinds(l!.filter);
      if (ks.length)
        expect(
          ks.some((k) => have!.has(k)),
          `${id}: one of ${ks.join(',')}`,
        ).toBe(true);
    }
    // every source layer the style reads is one the archive declares
    const meta = (await archive.getMetadata()) as { vector_layers: { id: string }[] };
    const declared = new Set(meta.vector_layers.map((v) => v.id));
    for (const s of style) if ('source-layer' in s) expect(declared.has(s['source-layer'] as string), s.id).toBe(true);
  });
});

describe('places carry the population_rank the styles size their labels by', () => {
  it('every place has a rank from 1 to 18; a tagged population gets one step per break it reaches', async () => {
    // Protomaps' breaks, counted from the bottom: 1 below 200 people, one more for each reached
    const breaks = [200, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 5e6, 1e7, 2e7, 5e7, 1e8, 1e9];
    let places = 0,
      withPopulation = 0;
    for (const { t } of await allTop()) {
      const l = t.layers.places;
      for (let i = 0; l && i < l.length; i++) {
        const p = l.feature(i).properties;
        places++;
        expect(
          Number.isInteger(p.population_rank) && (p.population_rank as number) >= 1 && (p.population_rank as number) <= 18,
          JSON.stringify(p),
        ).toBe(true);
        if (typeof p.population === 'number') {
          withPopulation++;
          expect(p.population_rank, String(p.name)).toBe(1 + breaks.filter((b) => (p.population as number) >= b).length);
        }
      }
    }
    expect(places).toBeGreaterThan(0);
    expect(withPopulation).toBeGreaterThan(0);
  });
});

describe('tiles stay small enough to load on a phone', () => {
  it('keeps every tile of the densest city at most 500 kB at z14 and 250 kB below (gzipped, as stored)', () => {
    for (const r of result.zooms) {
      expect(r.maxGzip, `z${r.zoom} ${r.maxTile}`).toBeLessThanOrEqual(r.zoom === 14 ? 500_000 : 250_000);
    }
  });
});
