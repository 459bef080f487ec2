/**
 * The land and the administrative lines of Nepal, from the 77 district polygons of
 * nepal-geojson (MIT), as its compact table (src/address/districts.ts) has them: districts
 * share their vertices exactly, so an edge used by one district is the country's outline,
 * and an edge used by two is the line between them (a province boundary when their
 * provinces differ). Everything is cut to the data's extent: a map of an extract shows
 * land where the extract has data.
 */
import { nepalDistrictTable } from '../address/districts.js';
import { joinRings } from '../geom/rings.js';
import { clipBand, ringArea, type Geom } from './clip.js';
import { LINE, POLYGON, type FeatureSink } from './features.js';
import { worldX, worldY } from './project.js';

/** Admin levels as Protomaps' `kind_detail` of boundaries: country 2, province 4, district 6. */
export const COUNTRY = 2,
  PROVINCE = 4,
  DISTRICT = 6;

interface Edges {
  /** Vertex coordinates (world units) by vertex id. */
  xy: number[];
  outline: [number, number][];
  /** Shared edges, with the admin level of the line they draw. */
  shared: { a: number; b: number; level: number; pair: string }[];
}

// the districts' edges by how many districts use them
function edges(): Edges {
  // numeric keys: string keys for 110,000 vertices and edges took a second
  const ids = new Map<number, number>();
  const xy: number[] = [];
  const vertex = (lon: number, lat: number) => {
    const key = Math.round(lon * 1e6) * 1e8 + Math.round(lat * 1e6);
    let id = ids.get(key);
    if (id === undefined) {
      id = xy.length / 2;
      ids.set(key, id);
      xy.push(worldX(lon), worldY(lat));
    }
    return id;
  };
  const uses = new Map<number, { a: number; b: number; districts: number[] }>();
  const districts = nepalDistrictTable();
  districts.forEach((d, di) => {
    for (const ring of d.rings) {
      for (let i = 0; i + 3 < ring.length; i += 2) {
        const a = vertex(ring[i], ring[i + 1]),
          b = vertex(ring[i + 2], ring[i + 3]);
        if (a === b) continue;
        const key = a < b ? a * 2 ** 24 + b : b * 2 ** 24 + a;
        const e = uses.get(key);
        if (e) e.districts.push(di);
        else uses.set(key, { a, b, districts: [di] });
      }
    }
  });
  const outline: [number, number][] = [];
  const shared: Edges['shared'] = [];
  for (const e of uses.values()) {
    if (e.districts.length === 1) outline.push([e.a, e.b]);
    else {
      const [p, q] = e.districts;
      const level = districts[p].province !== districts[q].province ? PROVINCE : DISTRICT;
      shared.push({ a: e.a, b: e.b, level, pair: p < q ? `${p},${q}` : `${q},${p}` });
    }
  }
  return { xy, outline, shared };
}

// joins undirected edges into as few polylines as possible (closed ones end where they start)
function chains(list: [number, number][]): number[][] {
  const ends = new Map<number, number[]>();
  list.forEach(([a, b], i) => {
    for (const v of [a, b]) {
      const l = ends.get(v);
      if (l) l.push(i);
      else ends.set(v, [i]);
    }
  });
  const used = new Uint8Array(list.length);
  const out: number[][] = [];
  const extend = (line: number[]) => {
    for (;;) {
      const end = line[line.length - 1];
      const next = ends.get(end)?.find((i) => !used[i]);
      if (next === undefined) return;
      used[next] = 1;
      const [a, b] = list[next];
      line.push(a === end ? b : a);
      if (line[line.length - 1] === line[0]) return;
    }
  };
  for (let i = 0; i < list.length; i++) {
    if (used[i]) continue;
    used[i] = 1;
    const line = [list[i][0], list[i][1]];
    extend(line);
    if (line[0] !== line[line.length - 1]) {
      line.reverse();
      extend(line);
    }
    out.push(line);
  }
  return out;
}

/**
 * Adds the `earth` polygon (Nepal's outline cut to `box`, world units
 * `[minX, minY, maxX, maxY]`) and the country, province and district `boundaries`
 * inside `box` to `sink`.
 */
export function addEarth(sink: FeatureSink, box: [number, number, number, number]): void {
  const { xy, outline, shared } = edges();
  const toGeom = (lines: number[][]): Geom => {
    const g: Geom = { coords: [], parts: [] };
    for (const l of lines) {
      for (const v of l) g.coords.push(xy[2 * v], xy[2 * v + 1]);
      g.parts.push(l.length);
    }
    return g;
  };
  const cut = (g: Geom, polygon: boolean): Geom => {
    const a: Geom = { coords: [], parts: [] },
      b: Geom = { coords: [], parts: [] };
    clipBand(g, box[0], box[2], 0, polygon, a);
    clipBand(a, box[1], box[3], 1, polygon, b);
    return b;
  };

  // the outline's rings: the country, and any enclave hole (none today)
  const rings = joinRings(chains(outline)).rings;
  const land = toGeom(rings);
  // outer rings positive in y-down coordinates (MVT's winding), holes negative
  const starts: number[] = [];
  let v = 0;
  for (const n of land.parts) {
    starts.push(v);
    v += n;
  }
  const areas = land.parts.map((n, k) => ringArea(land.coords, starts[k], starts[k] + n));
  const country = areas.reduce((m, a, k) => (Math.abs(a) > Math.abs(areas[m]) ? k : m), 0);
  land.parts.forEach((n, k) => {
    const outer = k === country;
    if ((outer && areas[k] < 0) || (!outer && areas[k] > 0)) reverse(land.coords, starts[k], starts[k] + n);
  });
  const earth = cut(land, true);
  if (earth.parts.length) sink.add({ layer: 'earth', type: POLYGON, minZoom: 0, props: [['kind', 'earth']] }, earth.coords, earth.parts);

  const add = (g: Geom, level: number) => {
    const c = cut(g, false);
    if (!c.parts.length) return;
    const kind = level === COUNTRY ? 'country' : level === PROVINCE ? 'region' : 'county';
    const minZoom = level === COUNTRY ? 0 : level === PROVINCE ? 4 : 7;
    sink.add(
      {
        layer: 'boundaries',
        type: LINE,
        minZoom,
        props: [
          ['kind', kind],
          ['kind_detail', level],
          ['min_zoom', minZoom],
        ],
      },
      c.coords,
      c.parts,
    );
  };
  add(toGeom(rings), COUNTRY);
  // one line per pair of neighbouring districts
  const byPair = new Map<string, { level: number; edges: [number, number][] }>();
  for (const e of shared) {
    const p = byPair.get(e.pair);
    if (p) p.edges.push([e.a, e.b]);
    else byPair.set(e.pair, { level: e.level, edges: [[e.a, e.b]] });
  }
  for (const { level, edges: list } of byPair.values()) add(toGeom(chains(list)), level);
}

function reverse(c: number[], from: number, to: number): void {
  for (let i = from, j = to - 1; i < j; i++, j--) {
    const x = c[2 * i],
      y = c[2 * i + 1];
    c[2 * i] = c[2 * j];
    c[2 * i + 1] = c[2 * j + 1];
    c[2 * j] = x;
    c[2 * j + 1] = y;
  }
}
