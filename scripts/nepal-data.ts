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

import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { PbfWriter, type MemberType, type Tags } from './pbf-writer.js';
import { decodeHeader, readFrames, readOsm } from './read-osm.js';
import { NEPAL_OUTLINE, insideNepal } from './nepal-outline.js';

/** Bump when the output changes, so stale files are rebuilt. */
export const VERSION = 1;

const FIXTURE = fileURLToPath(new URL('../fixtures/kathmandu-core_2026-01-10.osm.pbf', import.meta.url));
const OUT_DIR = fileURLToPath(new URL('../bench/data/', import.meta.url));
const ID_STRIDE = 2 ** 34;
const NEPAL_COPIES = 100;
const PLACE_TARGETS: [string, number][] = [['places-10k.osm.pbf', 10_000], ['places-100k.osm.pbf', 100_000], ['places-1m.osm.pbf', 1_000_000]];

// The engine's feature keys (common.md): a node, way or multipolygon relation carrying one is a place.
const FEATURE_KEYS = new Set(['amenity', 'shop', 'tourism', 'leisure', 'healthcare', 'office', 'craft',
  'historic', 'public_transport', 'railway', 'aeroway', 'emergency']);

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
  minLat: number; minLon: number; maxLat: number; maxLon: number;
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
}

async function readSource(path: string): Promise<Source> {
  const data = await readOsm(path);
  const { nodes, ways, relations } = data;
  const nodeIds = new Float64Array(nodes.length);
  const lats = new Int32Array(nodes.length);
  const lons = new Int32Array(nodes.length);
  const nodeTags: (Tags | undefined)[] = new Array(nodes.length);
  let minLat = Infinity, minLon = Infinity, maxLat = -Infinity, maxLon = -Infinity;
  nodes.forEach((n, i) => {
    nodeIds[i] = n.id;
    lats[i] = n.lat;
    lons[i] = n.lon;
    if (n.tags?.length) nodeTags[i] = n.tags;
    minLat = Math.min(minLat, n.lat); maxLat = Math.max(maxLat, n.lat);
    minLon = Math.min(minLon, n.lon); maxLon = Math.max(maxLon, n.lon);
  });
  const refStart = new Uint32Array(ways.length + 1);
  ways.forEach((w, i) => { refStart[i + 1] = refStart[i] + w.refs.length; });
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
    nodeIds, lats, lons, nodeTags,
    wayIds: Float64Array.from(ways, (w) => w.id), refStart, refs, wayTags: ways.map((w) => w.tags ?? []),
    relations: relations.map((r) => ({ id: r.id, members: [...r.members], tags: r.tags ?? [] })),
    minLat, minLon, maxLat, maxLon,
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
  s.places = src.nodeTags.filter((t) => hasFeature(t, true)).length +
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

  src.nodeTags.forEach((t, i) => { if (hasFeature(t, true)) { s.nodes[i] = 1; s.places++; } });
  src.wayTags.forEach((t, i) => { if (hasFeature(t, false)) { s.ways[i] = 1; s.places++; } });
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
    nodeCount: 0, wayCount: 0, relationCount: 0, places: 0,
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
    const dLat = i * stepLat, dLon = j * stepLon;
    const corners = [[src.minLon, src.minLat], [src.maxLon, src.minLat], [src.maxLon, src.maxLat], [src.minLon, src.maxLat]];
    if (!corners.every(([x, y]) => insideNepal((x + dLon) / 1e7, (y + dLat) / 1e7))) continue;
    used.add(key);
    out.push([dLat, dLon]);
  }
  return out;
}

function halton(index: number, base: number): number {
  let f = 1, r = 0;
  for (let i = index; i > 0; i = Math.floor(i / base)) {
    f /= base;
    r += f * (i % base);
  }
  return r;
}

/** Streams `tiles.length` shifted copies of the selection, sorted type-then-id, into `path`. */
async function writeCopies(src: Source, sel: Selection, tiles: [number, number][], path: string, log: (msg: string) => void): Promise<PbfWriter> {
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
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a !== '--force');
  if (unknown.length) throw new Error(`unknown argument ${unknown[0]} (usage: nepal-data [--force])`);
  const force = args.includes('--force');
  const t0 = performance.now();
  mkdirSync(OUT_DIR, { recursive: true });

  const jobs: { file: string; target: number | null }[] = [{ file: 'nepal.osm.pbf', target: null },
    ...PLACE_TARGETS.map(([file, target]) => ({ file, target }))];
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
    console.log(`  ${all.places} places; place subset: ${places.nodeCount} nodes, ${places.wayCount} ways, ${places.relationCount} relations`);

    for (const j of todo) {
      const t1 = performance.now();
      const sel = j.target === null ? all : places;
      const copies = j.target === null ? NEPAL_COPIES : Math.max(1, Math.round(j.target / places.places));
      const tiles = tileOffsets(src, copies);
      const path = join(OUT_DIR, j.file);
      console.log(`${j.file}: ${copies} copies ...`);
      const w = await writeCopies(src, sel, tiles, `${path}.tmp`, console.log);
      renameSync(`${path}.tmp`, path);
      const s: Summary = {
        version: VERSION,
        file: j.file,
        copies,
        ...w.counts,
        places: sel.places * copies,
        bytes: w.bytes,
        seconds: Number(sec(t1)),
        centres: tiles.map(([dLat, dLon]) => [
          (src.minLon + src.maxLon + 2 * dLon) / 2e7,
          (src.minLat + src.maxLat + 2 * dLat) / 2e7,
        ]),
      };
      writeFileSync(`${path}.json`, `${JSON.stringify(s, null, 1)}\n`);
      console.log(`  done in ${s.seconds} s`);
      summaries.push(s);
    }
  }

  console.log(`\n${'file'.padEnd(22)}${'copies'.padStart(7)}${'nodes'.padStart(12)}${'ways'.padStart(11)}${'relations'.padStart(11)}${'places'.padStart(10)}${'MB'.padStart(9)}${'s'.padStart(8)}`);
  for (const s of jobs.map((j) => summaries.find((x) => x.file === j.file)!)) {
    console.log(`${s.file.padEnd(22)}${String(s.copies).padStart(7)}${String(s.nodes).padStart(12)}${String(s.ways).padStart(11)}` +
      `${String(s.relations).padStart(11)}${String(s.places).padStart(10)}${(s.bytes / 1e6).toFixed(1).padStart(9)}${s.seconds.toFixed(1).padStart(8)}`);
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
