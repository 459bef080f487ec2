// `npm run bench:data [-- --force]`: writes Nepal-scale benchmark PBFs into bench/data/ by
// replicating the real Kathmandu fixture as tiles across Nepal. Deterministic: same input, same bytes.
//
//   nepal.osm.pbf        100 full copies of the fixture (~15M nodes, ~3M ways, ~500k places)
//   places-10k.osm.pbf   copies of the fixture's places only (with the ways and nodes they need),
//   places-100k.osm.pbf  as many as give about 10k / 100k / 1M places
//   places-1m.osm.pbf
//
// Copy k shifts every id by k * 2^34 (the fixture's ids are below 2^34), so ids stay unique,
// sorted type-then-id and below 2^51 (placeId = osmId * 4 + kind stays below 2^53), and moves
// the tile by a whole number of tile sizes: copy 0 is the fixture itself, in place.
// Each file gets a sidecar `<file>.json` with the generator version, counts and tile centres;
// a file whose sidecar has this version and its size is skipped unless --force.
//
// The tiles of nepal.osm.pbf form one road network: neighbouring tiles are joined by two-way
// `highway=trunk` ways (a minimum spanning tree over the tile centres, plus each tile's two
// nearest neighbours), each from the fixture's road node farthest toward the other tile to
// the one farthest back, with a node every ~1 km. Their ids come after the last copy's
// (copies * 2^34 + i), so the file stays sorted.
//
// `--scale S` also writes nepal-xS.osm.pbf with round(100 * S) tiles, joined the same way:
// `--scale 3.1` gives ~415 MB, the size of a real Nepal extract. Not made by default.

import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { PbfWriter, type MemberType, type Tags } from './pbf-writer.js';
import { decodeHeader, readFrames, readOsm } from './read-osm.js';
import { NEPAL_OUTLINE, insideNepal } from './nepal-outline.js';

/** Bump when the output changes, so stale files are rebuilt. */
export const VERSION = 2;

const FIXTURE = fileURLToPath(new URL('../fixtures/kathmandu-core_2026-01-10.osm.pbf', import.meta.url));
const OUT_DIR = fileURLToPath(new URL('../bench/data/', import.meta.url));
const ID_STRIDE = 2 ** 34;
const NEPAL_COPIES = 100;
/** Road classes a join may start from, when two-way and open to cars. */
const JOIN_FROM = new Set(['trunk', 'primary', 'secondary', 'tertiary', 'unclassified', 'residential']);
/** Spacing of a join's nodes, metres. */
const JOIN_STEP = 1000;
const PLACE_TARGETS: [string, number][] = [
  ['places-10k.osm.pbf', 10_000],
  ['places-100k.osm.pbf', 100_000],
  ['places-1m.osm.pbf', 1_000_000],
];

// The engine's feature keys (common.md): a node, way or multipolygon relation carrying one is a place.
const FEATURE_KEYS = new Set([
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
]);

/** The fixture in flat arrays; only tags and relations stay objects. */
interface Source {
  nodeIds: Float64Array;
  lats: Int32Array;
  lons: Int32Array;
  nodeTags: (Tags | undefined)[];
  wayIds: Float64Array;
  /** Refs of way i: refs[refStart[i] .. refStart[i + 1]). */
  refStart: Uint32Array;
  refs: Float64Array;
  wayTags: Tags[];
  relations: { id: number; members: { type: MemberType; ref: number; role: string }[]; tags: Tags }[];
  /** Fixture bbox in 1e-7 degrees. */
  minLat: number;
  minLon: number;
  maxLat: number;
  maxLon: number;
  replicationTimestamp: number;
}

/** Which of the source's objects a file replicates. */
interface Selection {
  nodes: Uint8Array;
  ways: Uint8Array;
  relations: Uint8Array;
  nodeCount: number;
  wayCount: number;
  relationCount: number;
  /** Places among the selected objects, per copy. */
  places: number;
}

/** What a sidecar records. */
interface Summary {
  version: number;
  file: string;
  copies: number;
  nodes: number;
  ways: number;
  relations: number;
  places: number;
  bytes: number;
  seconds: number;
  /** Centre of each copy's tile, `[lon, lat]` degrees, copy 0 first. */
  centres: [number, number][];
  /** Roads joining the tiles (nepal files only): ways, their new nodes, their length in km. */
  joins?: { ways: number; nodes: number; km: number };
}

/** The roads joining tiles, ready to write after the copies. */
interface Joins {
  nodes: { id: number; lat: number; lon: number }[];
  ways: { id: number; refs: number[]; tags: Tags }[];
  km: number;
}

async function readSource(path: string): Promise<Source> {
  const data = await readOsm(path);
  const { nodes, ways, relations } = data;
  const nodeIds = new Float64Array(nodes.length);
  const lats = new Int32Array(nodes.length);
  const lons = new Int32Array(nodes.length);
  const nodeTags: (Tags | undefined)[] = new Array(nodes.length);
  let minLat = Infinity,
    minLon = Infinity,
    maxLat = -Infinity,
    maxLon = -Infinity;
  nodes.forEach((n, i) => {
    nodeIds[i] = n.id;
    lats[i] = n.lat;
    lons[i] = n.lon;
    if (n.tags?.length) nodeTags[i] = n.tags;
    minLat = Math.min(minLat, n.lat);
    maxLat = Math.max(maxLat, n.lat);
    minLon = Math.min(minLon, n.lon);
    maxLon = Math.max(maxLon, n.lon);
  });
  const refStart = new Uint32Array(ways.length + 1);
  ways.forEach((w, i) => {
    refStart[i + 1] = refStart[i] + w.refs.length;
  });
  const refs = new Float64Array(refStart[ways.length]);
  ways.forEach((w, i) => refs.set(w.refs, refStart[i]));

  for (const ids of [nodeIds, Float64Array.from(ways, (w) => w.id), Float64Array.from(relations, (r) => r.id)]) {
    for (let i = 0; i < ids.length; i++) {
      // copies are laid out by id ranges: the fixture must be sorted and fit in one stride
      if (ids[i] < 0 || ids[i] >= ID_STRIDE || (i > 0 && ids[i] <= ids[i - 1])) {
        throw new Error(`${path}: ids must be sorted and in [0, 2^34), got ${ids[i]} at ${i}`);
      }
    }
  }
  const header = decodeHeader(readFrames(readFileSync(path))[0].data);
  return {
    nodeIds,
    lats,
    lons,
    nodeTags,
    wayIds: Float64Array.from(ways, (w) => w.id),
    refStart,
    refs,
    wayTags: ways.map((w) => w.tags ?? []),
    relations: relations.map((r) => ({ id: r.id, members: [...r.members], tags: r.tags ?? [] })),
    minLat,
    minLon,
    maxLat,
    maxLon,
    replicationTimestamp: header.replicationTimestamp,
  };
}

function hasFeature(tags: Tags | undefined, node: boolean): boolean {
  return !!tags && tags.some(([k]) => FEATURE_KEYS.has(k) || (node && k === 'highway'));
}

function isPlaceRelation(tags: Tags): boolean {
  return tags.some(([k, v]) => k === 'type' && v === 'multipolygon') && hasFeature(tags, false);
}

/** Everything, with its place count. */
function selectAll(src: Source): Selection {
  const s = selection(src, 1);
  s.places =
    src.nodeTags.filter((t) => hasFeature(t, true)).length +
    src.wayTags.filter((t) => hasFeature(t, false)).length +
    src.relations.filter((r) => isPlaceRelation(r.tags)).length;
  return s;
}

/** The places, the member ways of place relations, and the nodes those ways and places need. */
function selectPlaces(src: Source): Selection {
  const s = selection(src, 0);
  const wayIndex = new Map<number, number>();
  src.wayIds.forEach((id, i) => wayIndex.set(id, i));
  const nodeIndex = new Map<number, number>();
  src.nodeIds.forEach((id, i) => nodeIndex.set(id, i));

  src.nodeTags.forEach((t, i) => {
    if (hasFeature(t, true)) {
      s.nodes[i] = 1;
      s.places++;
    }
  });
  src.wayTags.forEach((t, i) => {
    if (hasFeature(t, false)) {
      s.ways[i] = 1;
      s.places++;
    }
  });
  src.relations.forEach((r, i) => {
    if (!isPlaceRelation(r.tags)) return;
    s.relations[i] = 1;
    s.places++;
    for (const m of r.members) {
      const w = m.type === 'way' ? wayIndex.get(m.ref) : undefined;
      if (w !== undefined) s.ways[w] = 1;
    }
  });
  s.ways.forEach((keep, w) => {
    if (!keep) return;
    for (let j = src.refStart[w]; j < src.refStart[w + 1]; j++) {
      const n = nodeIndex.get(src.refs[j]);
      if (n !== undefined) s.nodes[n] = 1;
    }
  });
  s.nodeCount = count(s.nodes);
  s.wayCount = count(s.ways);
  s.relationCount = count(s.relations);
  return s;
}

function selection(src: Source, fill: 0 | 1): Selection {
  const s = {
    nodes: new Uint8Array(src.nodeIds.length).fill(fill),
    ways: new Uint8Array(src.wayIds.length).fill(fill),
    relations: new Uint8Array(src.relations.length).fill(fill),
    nodeCount: 0,
    wayCount: 0,
    relationCount: 0,
    places: 0,
  };
  s.nodeCount = count(s.nodes);
  s.wayCount = count(s.ways);
  s.relationCount = count(s.relations);
  return s;
}

function count(a: Uint8Array): number {
  let n = 0;
  for (const v of a) n += v;
  return n;
}

/**
 * Tile offsets `[dLat, dLon]` in 1e-7 degrees: copy 0 stays in place, the others follow a
 * Halton (2, 3) sequence over Nepal's bounding box, which spreads them evenly without a random
 * seed, snapped to a lattice of tile-sized cells so tiles never overlap, and kept only when the
 * whole tile lies inside the outline.
 */
export function tileOffsets(src: Pick<Source, 'minLat' | 'minLon' | 'maxLat' | 'maxLon'>, n: number): [number, number][] {
  // a 10% gap between tiles keeps copies from touching
  const stepLat = Math.ceil((src.maxLat - src.minLat) * 1.1);
  const stepLon = Math.ceil((src.maxLon - src.minLon) * 1.1);
  const lons = NEPAL_OUTLINE.map((p) => p[0]);
  const lats = NEPAL_OUTLINE.map((p) => p[1]);
  const [west, east, south, north] = [Math.min(...lons), Math.max(...lons), Math.min(...lats), Math.max(...lats)];
  const used = new Set<string>(['0,0']);
  const out: [number, number][] = [[0, 0]];
  for (let h = 1; out.length < n; h++) {
    if (h > 1_000_000) throw new Error(`only ${out.length} of ${n} tiles fit inside the outline`);
    const lon = west + halton(h, 2) * (east - west);
    const lat = south + halton(h, 3) * (north - south);
    const i = Math.round((lat * 1e7 - src.minLat) / stepLat);
    const j = Math.round((lon * 1e7 - src.minLon) / stepLon);
    const key = `${i},${j}`;
    if (used.has(key)) continue;
    const dLat = i * stepLat,
      dLon = j * stepLon;
    const corners = [
      [src.minLon, src.minLat],
      [src.maxLon, src.minLat],
      [src.maxLon, src.maxLat],
      [src.minLon, src.maxLat],
    ];
    if (!corners.every(([x, y]) => insideNepal((x + dLon) / 1e7, (y + dLat) / 1e7))) continue;
    used.add(key);
    out.push([dLat, dLon]);
  }
  return out;
}

function halton(index: number, base: number): number {
  let f = 1,
    r = 0;
  for (let i = index; i > 0; i = Math.floor(i / base)) {
    f /= base;
    r += f * (i % base);
  }
  return r;
}

/**
 * The fixture's nodes a join may end at: on two-way car roads (JOIN_FROM, no oneway, no
 * roundabout, no access=no/private) in the largest network those roads form, so that every
 * join end reaches every other within a tile, by car both ways.
 */
function joinEnds(src: Source): Uint32Array {
  const index = new Map<number, number>();
  src.nodeIds.forEach((id, i) => index.set(id, i));
  const parent = Int32Array.from(src.nodeIds, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  const on = new Uint8Array(src.nodeIds.length);
  src.wayTags.forEach((tags, w) => {
    const tag = (k: string) => tags.find(([key]) => key === k)?.[1];
    const access = tag('motor_vehicle') ?? tag('access');
    if (
      !JOIN_FROM.has(tag('highway') ?? '') ||
      (tag('oneway') ?? 'no') !== 'no' ||
      tag('junction') === 'roundabout' ||
      access === 'no' ||
      access === 'private'
    )
      return;
    let prev = -1;
    for (let j = src.refStart[w]; j < src.refStart[w + 1]; j++) {
      const n = index.get(src.refs[j]);
      // a cut extract misses nodes: only consecutive present ones are joined
      if (n !== undefined && prev >= 0) {
        parent[find(n)] = find(prev);
        on[n] = on[prev] = 1;
      }
      prev = n ?? -1;
    }
  });
  const size = new Map<number, number>();
  for (let i = 0; i < on.length; i++) if (on[i]) size.set(find(i), (size.get(find(i)) ?? 0) + 1);
  let root = -1;
  for (const [r, k] of size) if (root < 0 || k > size.get(root)! || (k === size.get(root) && r < root)) root = r;
  const out: number[] = [];
  for (let i = 0; i < on.length; i++) if (on[i] && find(i) === root) out.push(i);
  return Uint32Array.from(out);
}

/** Which tiles to join: a minimum spanning tree over the centres (Prim), plus each tile's two nearest. */
export function joinPairs(centres: [number, number][]): [number, number][] {
  const n = centres.length;
  const d = (a: number, b: number) => {
    const k = Math.cos((((centres[a][1] + centres[b][1]) / 2) * Math.PI) / 180);
    return Math.hypot((centres[a][0] - centres[b][0]) * k, centres[a][1] - centres[b][1]);
  };
  const pairs = new Set<string>();
  const add = (a: number, b: number) => pairs.add(a < b ? `${a},${b}` : `${b},${a}`);
  const inTree = new Uint8Array(n),
    best = new Float64Array(n).fill(Infinity),
    via = new Int32Array(n).fill(-1);
  best[0] = 0;
  for (let k = 0; k < n; k++) {
    let u = -1;
    for (let v = 0; v < n; v++) if (!inTree[v] && (u < 0 || best[v] < best[u])) u = v;
    inTree[u] = 1;
    if (via[u] >= 0) add(via[u], u);
    for (let v = 0; v < n; v++)
      if (!inTree[v] && d(u, v) < best[v]) {
        best[v] = d(u, v);
        via[v] = u;
      }
  }
  for (let a = 0; a < n; a++) {
    const near = [...Array(n).keys()].filter((b) => b !== a).sort((x, y) => d(a, x) - d(a, y) || x - y);
    for (const b of near.slice(0, 2)) add(a, b);
  }
  return [...pairs].map((p) => p.split(',').map(Number) as [number, number]).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
}

/** The join roads between `tiles` (copies 0..tiles.length-1), their ids after the last copy's. */
function makeJoins(src: Source, tiles: [number, number][]): Joins {
  const ends = joinEnds(src);
  if (!ends.length) throw new Error('the fixture has no two-way road to join tiles with');
  const cLat = (src.minLat + src.maxLat) / 2,
    cLon = (src.minLon + src.maxLon) / 2;
  const centres = tiles.map(([dLat, dLon]) => [(cLon + dLon) / 1e7, (cLat + dLat) / 1e7] as [number, number]);
  const k = Math.cos(((cLat / 1e7) * Math.PI) / 180);
  /** The end node farthest toward direction (x, y) (x east, y north, equal-metre units), lowest index on ties. */
  const toward = (x: number, y: number): number => {
    let best = -1,
      score = -Infinity;
    for (const i of ends) {
      const s = (src.lons[i] - cLon) * k * x + (src.lats[i] - cLat) * y;
      if (s > score) {
        score = s;
        best = i;
      }
    }
    return best;
  };
  const base = tiles.length * ID_STRIDE;
  const joins: Joins = { nodes: [], ways: [], km: 0 };
  joinPairs(centres).forEach(([a, b], j) => {
    const x = (centres[b][0] - centres[a][0]) * k,
      y = centres[b][1] - centres[a][1];
    const from = toward(x, y),
      to = toward(-x, -y);
    const lat0 = src.lats[from] + tiles[a][0],
      lon0 = src.lons[from] + tiles[a][1];
    const lat1 = src.lats[to] + tiles[b][0],
      lon1 = src.lons[to] + tiles[b][1];
    const metres = Math.hypot((lon1 - lon0) * k, lat1 - lat0) * 0.0111195; // 1e-7 degree of latitude = 0.0111195 m
    const steps = Math.max(1, Math.round(metres / JOIN_STEP));
    const refs = [src.nodeIds[from] + a * ID_STRIDE];
    for (let i = 1; i < steps; i++) {
      const id = base + joins.nodes.length;
      joins.nodes.push({ id, lat: Math.round(lat0 + ((lat1 - lat0) * i) / steps), lon: Math.round(lon0 + ((lon1 - lon0) * i) / steps) });
      refs.push(id);
    }
    refs.push(src.nodeIds[to] + b * ID_STRIDE);
    joins.ways.push({
      id: base + j,
      refs,
      tags: [
        ['highway', 'trunk'],
        ['name', `Tile Link ${a}-${b}`],
        ['ref', `TL${j + 1}`],
      ],
    });
    joins.km += metres / 1000;
  });
  return joins;
}

/** Streams `tiles.length` shifted copies of the selection, sorted type-then-id, into `path`. */
async function writeCopies(
  src: Source,
  sel: Selection,
  tiles: [number, number][],
  path: string,
  log: (msg: string) => void,
  joins?: Joins,
): Promise<PbfWriter> {
  const bbox: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [dLat, dLon] of tiles) {
    bbox[0] = Math.min(bbox[0], src.minLon + dLon);
    bbox[1] = Math.min(bbox[1], src.minLat + dLat);
    bbox[2] = Math.max(bbox[2], src.maxLon + dLon);
    bbox[3] = Math.max(bbox[3], src.maxLat + dLat);
  }
  const w = new PbfWriter(path, {
    bbox,
    sorted: true,
    replicationTimestamp: src.replicationTimestamp,
    writingProgram: `nepal-places nepal-data v${VERSION}`,
    source: `${basename(FIXTURE)} replicated ${tiles.length}x across Nepal; © OpenStreetMap contributors, ODbL 1.0`,
  });
  const progress = (kind: string, k: number) => {
    if ((k + 1) % 25 === 0 || k + 1 === tiles.length) log(`  ${kind} ${k + 1}/${tiles.length} copies, ${(w.bytes / 1e6).toFixed(1)} MB`);
  };

  tiles.forEach(([dLat, dLon], k) => {
    const off = k * ID_STRIDE;
    for (let i = 0; i < src.nodeIds.length; i++) {
      if (!sel.nodes[i]) continue;
      w.node({ id: src.nodeIds[i] + off, lat: src.lats[i] + dLat, lon: src.lons[i] + dLon, tags: src.nodeTags[i] });
    }
    progress('nodes', k);
  });
  for (const n of joins?.nodes ?? []) w.node(n);
  const refs: number[] = [];
  tiles.forEach((_, k) => {
    const off = k * ID_STRIDE;
    for (let i = 0; i < src.wayIds.length; i++) {
      if (!sel.ways[i]) continue;
      refs.length = 0;
      for (let j = src.refStart[i]; j < src.refStart[i + 1]; j++) refs.push(src.refs[j] + off);
      w.way({ id: src.wayIds[i] + off, refs, tags: src.wayTags[i] });
    }
    progress('ways', k);
  });
  for (const way of joins?.ways ?? []) w.way(way);
  tiles.forEach((_, k) => {
    const off = k * ID_STRIDE;
    src.relations.forEach((r, i) => {
      if (!sel.relations[i]) return;
      w.relation({ id: r.id + off, members: r.members.map((m) => ({ ...m, ref: m.ref + off })), tags: r.tags });
    });
  });
  await w.close();
  return w;
}

function upToDate(path: string): Summary | null {
  const side = `${path}.json`;
  if (!existsSync(path) || !existsSync(side)) return null;
  try {
    const s = JSON.parse(readFileSync(side, 'utf8')) as Summary;
    return s.version === VERSION && s.bytes === statSync(path).size ? s : null;
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const usage = 'usage: nepal-data [--force] [--scale S]';
  const args = process.argv.slice(2);
  let force = false,
    scale: number | null = null;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--force') force = true;
    else if (args[i] === '--scale') {
      scale = Number(args[++i]);
      if (!(scale > 0 && scale <= 20)) throw new Error(`--scale takes a number in (0, 20], got ${args[i]} (${usage})`);
    } else throw new Error(`unknown argument ${args[i]} (${usage})`);
  }
  const t0 = performance.now();
  mkdirSync(OUT_DIR, { recursive: true });

  // target: places wanted (a place subset); null: whole copies, `copies` of them, joined by roads
  const jobs: { file: string; target: number | null; copies: number }[] = [
    { file: 'nepal.osm.pbf', target: null, copies: NEPAL_COPIES },
    ...PLACE_TARGETS.map(([file, target]) => ({ file, target, copies: 0 })),
  ];
  if (scale !== null) jobs.push({ file: `nepal-x${scale}.osm.pbf`, target: null, copies: Math.round(NEPAL_COPIES * scale) });
  const todo = jobs.filter((j) => force || !upToDate(join(OUT_DIR, j.file)));
  const summaries: Summary[] = [];
  for (const j of jobs) {
    const s = !todo.includes(j) && upToDate(join(OUT_DIR, j.file));
    if (s) {
      console.log(`${j.file}: up to date (generator v${VERSION}), skipped; --force rebuilds`);
      summaries.push(s);
    }
  }

  if (todo.length) {
    console.log(`reading ${basename(FIXTURE)} with osm-read ...`);
    const src = await readSource(FIXTURE);
    console.log(`  ${src.nodeIds.length} nodes, ${src.wayIds.length} ways, ${src.relations.length} relations in ${sec(t0)} s`);
    const all = selectAll(src);
    const places = selectPlaces(src);
    console.log(
      `  ${all.places} places; place subset: ${places.nodeCount} nodes, ${places.wayCount} ways, ${places.relationCount} relations`,
    );

    for (const j of todo) {
      const t1 = performance.now();
      const sel = j.target === null ? all : places;
      const copies = j.target === null ? j.copies : Math.max(1, Math.round(j.target / places.places));
      const tiles = tileOffsets(src, copies);
      const path = join(OUT_DIR, j.file);
      const joins = j.target === null ? makeJoins(src, tiles) : undefined;
      console.log(
        `${j.file}: ${copies} copies${joins ? `, joined by ${joins.ways.length} trunk roads (${Math.round(joins.km)} km)` : ''} ...`,
      );
      const w = await writeCopies(src, sel, tiles, `${path}.tmp`, console.log, joins);
      renameSync(`${path}.tmp`, path);
      const s: Summary = {
        version: VERSION,
        file: j.file,
        copies,
        ...w.counts,
        places: sel.places * copies,
        bytes: w.bytes,
        seconds: Number(sec(t1)),
        centres: tiles.map(([dLat, dLon]) => [(src.minLon + src.maxLon + 2 * dLon) / 2e7, (src.minLat + src.maxLat + 2 * dLat) / 2e7]),
        ...(joins && { joins: { ways: joins.ways.length, nodes: joins.nodes.length, km: Math.round(joins.km) } }),
      };
      writeFileSync(`${path}.json`, `${JSON.stringify(s, null, 1)}\n`);
      console.log(`  done in ${s.seconds} s`);
      summaries.push(s);
    }
  }

  console.log(
    `\n${'file'.padEnd(22)}${'copies'.padStart(7)}${'nodes'.padStart(12)}${'ways'.padStart(11)}${'relations'.padStart(11)}${'places'.padStart(10)}${'MB'.padStart(9)}${'s'.padStart(8)}`,
  );
  for (const s of jobs.map((j) => summaries.find((x) => x.file === j.file)!)) {
    console.log(
      `${s.file.padEnd(22)}${String(s.copies).padStart(7)}${String(s.nodes).padStart(12)}${String(s.ways).padStart(11)}` +
        `${String(s.relations).padStart(11)}${String(s.places).padStart(10)}${(s.bytes / 1e6).toFixed(1).padStart(9)}${s.seconds.toFixed(1).padStart(8)}`,
    );
  }
  for (const s of summaries) {
    if (s.joins)
      console.log(
        `${s.file}: its ${s.copies} tiles are one road network, joined by ${s.joins.ways} two-way trunk roads, ${s.joins.km} km, ${s.joins.nodes} new nodes (counted above)`,
      );
  }
  console.log(`total ${sec(t0)} s, in ${OUT_DIR}`);
}

function sec(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  });
}
