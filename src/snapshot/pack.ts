import { PlaceIndex, type PackInfo } from '../index/place-index.js';
import { buildTypeTrees } from '../index/type-trees.js';
import { Streets } from '../index/streets.js';
import { PlaceLookup } from '../index/lookup.js';
import { Landmarks } from '../index/landmarks.js';
import { Words } from '../search/words.js';
import { Schedules } from '../hours/schedules.js';
import { Router } from '../route/router.js';
import { contract } from '../route/ch.js';
import { COLUMNS, COLUMN_NAMES, LINE, MULTIPOLYGON, PLACE, POINT, POLYGON, type ColumnName, type PlaceTable } from '../model/table.js';
import { restrictionsOf, type RoadGraph } from '../model/roads.js';
import { MODES, MODE_SYNONYMS, type Mode } from '../osm/modes.js';
import { forwardBit } from '../osm/profile.js';

/** An area, `[west, south, east, north]` in degrees (WGS 84), as `--bbox W,S,E,N` gives it. */
export type Bbox = [number, number, number, number];

/** A named region of `--region`: its box and where the box comes from. */
export interface Region {
  bbox: Bbox;
  source: string;
}

/**
 * The named regions. Each box is the extent of districts in the district boundaries the package
 * ships (`dist/nepal-districts.bin`, from nepal-geojson: the Survey Department's 77 districts),
 * to the microdegree; test/pack.test.ts computes them again from that table.
 */
export const REGIONS: Readonly<Record<string, Region>> = {
  'kathmandu-valley': {
    bbox: [85.189567, 27.40303, 85.528541, 27.81681],
    source: 'the extent of the Kathmandu, Lalitpur and Bhaktapur districts',
  },
  pokhara: {
    bbox: [83.702751, 28.083997, 84.280487, 28.615503],
    source: 'the extent of Kaski district, whose seat Pokhara is',
  },
};

/** What part of an index a pack keeps (`buildSnapshot(index, options)`, `nepal-places build --bbox …`). */
export interface PackOptions {
  /** Only what lies in this box, `[west, south, east, north]` degrees. */
  bbox?: Bbox;
  /** Only what lies in this named region (`REGIONS`); not with `bbox`. */
  region?: string;
  /** Route only these modes (default: every mode the index routes). */
  modes?: string[];
  /** `false`: no road graph, no routing. */
  routing?: boolean;
  /** `false`: no text index, no `search`. */
  search?: boolean;
}

/** Pack options that are not valid: `option` names the first bad one. */
export class PackError extends Error {
  readonly option: keyof PackOptions;
  constructor(option: keyof PackOptions, message: string) {
    super(`${option}: ${message}`);
    this.name = 'PackError';
    this.option = option;
  }
}

/** Whether `options` ask for a pack (any option given), rather than the whole index. */
export function isPack(options: PackOptions | undefined): options is PackOptions {
  return !!options && (['bbox', 'region', 'modes', 'routing', 'search'] as const).some((k) => options[k] !== undefined);
}

/**
 * Checks pack options and resolves them into what the pack records: the area (a region's
 * box), the modes (synonyms resolved, in `MODES` order). Throws `PackError` naming the
 * first bad option: a box not of four finite numbers, out of range or with west past east
 * or south past north, an unknown region (listing the known ones), an unknown mode.
 */
export function checkPack(o: PackOptions): PackInfo {
  if (o === null || typeof o !== 'object') throw new PackError('bbox', 'the pack options must be an object');
  if (o.bbox !== undefined && o.region !== undefined) throw new PackError('region', 'give an area by bbox or by region, not both');
  let bbox: Bbox | null = null;
  let region: string | undefined;
  if (o.region !== undefined) {
    if (typeof o.region !== 'string' || !Object.hasOwn(REGIONS, o.region))
      throw new PackError('region', `unknown region ${JSON.stringify(o.region)}; the regions are ${Object.keys(REGIONS).join(', ')}`);
    region = o.region;
    bbox = [...REGIONS[o.region].bbox];
  } else if (o.bbox !== undefined) bbox = checkBbox(o.bbox);
  const bool = (name: 'routing' | 'search') => {
    const v = o[name];
    if (v !== undefined && typeof v !== 'boolean') throw new PackError(name, `must be true or false, got ${JSON.stringify(v)}`);
    return v !== false;
  };
  const routing = bool('routing');
  const search = bool('search');
  let modes: string[] = [...MODES];
  if (o.modes !== undefined) {
    if (!routing) throw new PackError('modes', 'a pack without routing routes no modes: ask for modes or for no routing, not both');
    if (!Array.isArray(o.modes) || o.modes.length === 0)
      throw new PackError('modes', `must be a list of one or more of ${MODES.join(', ')}, got ${JSON.stringify(o.modes)}`);
    const asked = new Set<Mode>();
    for (const m of o.modes) {
      const mode = typeof m === 'string' && Object.hasOwn(MODE_SYNONYMS, m) ? MODE_SYNONYMS[m] : m;
      if (!MODES.includes(mode as Mode))
        throw new PackError('modes', `unknown mode ${JSON.stringify(m)}; the modes are ${MODES.join(', ')}`);
      asked.add(mode as Mode);
    }
    modes = MODES.filter((m) => asked.has(m));
  }
  return { bbox, ...(region !== undefined && { region }), modes: routing ? modes : [], routing, search };
}

/** A box checked: four finite numbers, longitudes in -180..180, latitudes in -90..90, west ≤ east, south ≤ north. */
export function checkBbox(b: unknown): Bbox {
  if (!Array.isArray(b) || b.length !== 4 || !b.every((v) => typeof v === 'number' && Number.isFinite(v)))
    throw new PackError('bbox', `must be four numbers west, south, east, north (degrees), got ${JSON.stringify(b)}`);
  const [w, s, e, n] = b as Bbox;
  if (Math.abs(w) > 180 || Math.abs(e) > 180) throw new PackError('bbox', `longitudes must lie in -180..180, got west ${w}, east ${e}`);
  if (Math.abs(s) > 90 || Math.abs(n) > 90) throw new PackError('bbox', `latitudes must lie in -90..90, got south ${s}, north ${n}`);
  if (w > e) throw new PackError('bbox', `west ${w} is east of east ${e} (the order is west, south, east, north)`);
  if (s > n) throw new PackError('bbox', `south ${s} is north of north ${n} (the order is west, south, east, north)`);
  return [w, s, e, n];
}

/**
 * The pack of an index: a new index of what lies in the area, with the parts asked for.
 *
 * It is cut from the whole index rather than from the PBF, so that everything a place's record
 * is made of is as the whole index made it: its address (from streets within 100 m, localities
 * within 2 km and administrative areas, which may lie outside), its road speeds (from built-up
 * areas, which may straddle the edge). Kept:
 * - every row (place, locality, street, building) whose geometry's box meets the area, whole,
 *   with its address as computed over the whole data: a query wholly inside finds what the
 *   whole index finds there;
 * - every road edge (a stretch between two junctions) with a point or a segment in the area,
 *   whole (an edge of another mode too, its access cleared: instructions count the roads that
 *   meet at a junction): a road crossing the edge is cut at its first junction outside, so that
 *   a route inside runs over the same edges as the whole index's; and, so that a turn
 *   restriction binds as it does in the whole graph, every edge of a restriction one of whose
 *   edges is kept;
 * - per kept mode, the road graph and a contraction hierarchy of the pack's roads.
 * The text index, without `search: false`, indexes the pack's named rows alone (its word
 * statistics are the pack's: see docs/api.md, "Packs").
 */
export function packIndex(index: PlaceIndex, options: PackOptions): PlaceIndex {
  const info = checkPack(options);
  index.table.pending?.fill(); // each row's address as made over the whole data
  // a pack of a pack routes what the first routes at most
  const routed = index.pack?.modes;
  if (routed && options.modes !== undefined) {
    const missing = info.modes.filter((m) => !routed.includes(m));
    if (missing.length)
      throw new PackError('modes', `${missing.join(', ')} not routed by this index, a pack of ${routed.join(', ') || 'no modes'}`);
  }
  if (routed) info.modes = info.modes.filter((m) => routed.includes(m));
  const box = info.bbox;
  const t = index.table;
  const keep: number[] = [];
  for (let r = 0; r < t.size; r++) if (!box || rowMeets(t, r, box)) keep.push(r);
  const table = subsetTable(t, Uint32Array.from(keep));
  const stats = { ...index.stats, points: 0, lineStrings: 0, polygons: 0, multiPolygons: 0, roadNodes: 0, roadEdges: 0, restrictions: 0 };
  for (let r = 0; r < table.size; r++) {
    if (table.what[r] !== PLACE) continue;
    const g = table.geom[r];
    if (g === POINT) stats.points++;
    else if (g === LINE) stats.lineStrings++;
    else if (g === POLYGON) stats.polygons++;
    else if (g === MULTIPOLYGON) stats.multiPolygons++;
  }
  const words = info.search ? Words.build(table) : noWords();
  const out = new PlaceIndex(table, buildTypeTrees(table), new Streets(table), index.license, stats, {
    lookup: new PlaceLookup(table),
    words,
    landmarks: new Landmarks(table),
  });
  const modes = info.modes.map((m) => MODES.indexOf(m as Mode));
  const graph = info.routing && index.router ? subsetRoads(index.router.graph, box, modes) : undefined;
  if (graph) {
    stats.roadNodes = graph.nodeLon.length;
    stats.roadEdges = graph.edgeFrom.length;
    stats.restrictions = restrictionsOf(graph.restrictions).length;
    out.router = new Router(graph);
    for (const m of modes) out.router.hierarchies[m] = contract(out.router.modes[m].arcs);
  }
  // a whole index without roads gives a pack without them: it routes nothing
  out.pack = { ...info, routing: !!graph, modes: graph ? info.modes : [] };
  return out;
}

// Whether row r's geometry's box (its centroid, for a point) meets the box, in degrees.
function rowMeets(t: PlaceTable, r: number, [w, s, e, n]: Bbox): boolean {
  const c0 = t.coordStart[r],
    c1 = t.coordStart[r + 1];
  if (c0 === c1) return within(t.lon[r] / 1e7, t.lat[r] / 1e7, w, s, e, n);
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  for (let k = c0; k < c1; k += 2) {
    const x = t.coords[k],
      y = t.coords[k + 1];
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  return x0 / 1e7 <= e && x1 / 1e7 >= w && y0 / 1e7 <= n && y1 / 1e7 >= s;
}

function within(x: number, y: number, w: number, s: number, e: number, n: number): boolean {
  return x >= w && x <= e && y >= s && y <= n;
}

// Whether the segment (x0,y0)-(x1,y1) meets the box (Liang–Barsky clipping).
function segmentMeets(x0: number, y0: number, x1: number, y1: number, [w, s, e, n]: Bbox): boolean {
  let lo = 0,
    hi = 1;
  const dx = x1 - x0,
    dy = y1 - y0;
  const clip = (p: number, q: number): boolean => {
    if (p === 0) return q >= 0;
    const r = q / p;
    if (p < 0) {
      if (r > hi) return false;
      if (r > lo) lo = r;
    } else {
      if (r < lo) return false;
      if (r < hi) hi = r;
    }
    return true;
  };
  return clip(-dx, x0 - w) && clip(dx, e - x0) && clip(-dy, y0 - s) && clip(dy, n - y0);
}

/**
 * The rows `keep` (ascending) of a table, as a table of their own: each column's values of
 * those rows, the strings and schedules they use renumbered in their order of first use
 * (index 0 stays `''`).
 */
export function subsetTable(t: PlaceTable, keep: Uint32Array): PlaceTable {
  const n = keep.length;
  const strings: string[] = [''];
  const newString = new Int32Array(t.strings.length).fill(-1);
  newString[0] = 0;
  const str = (i: number) => {
    if (newString[i] < 0) newString[i] = strings.push(t.strings[i]) - 1;
    return newString[i];
  };
  const out: Partial<Record<ColumnName, PlaceTable[ColumnName]>> = {};
  for (let c = 0; c < COLUMN_NAMES.length; c++) {
    const name = COLUMN_NAMES[c];
    const col = COLUMNS[name];
    const src = t[name];
    if (col.size === 'rows') {
      const a = new col.type(n);
      for (let i = 0; i < n; i++) a[i] = src[keep[i]];
      out[name] = a;
    } else if (col.size === 'starts') {
      // `xStart[i]..xStart[i+1]` are row i's values in the column after it, by that column's unit
      // (a tag pair is two values)
      const dataName = COLUMN_NAMES[c + 1];
      const data = t[dataName];
      const unit = t.size && src[t.size] ? data.length / src[t.size] : 1;
      const start = new Uint32Array(n + 1);
      for (let i = 0; i < n; i++) start[i + 1] = start[i] + src[keep[i] + 1] - src[keep[i]];
      const values = new COLUMNS[dataName].type(start[n] * unit);
      for (let i = 0; i < n; i++) values.set(data.subarray(src[keep[i]] * unit, src[keep[i] + 1] * unit), start[i] * unit);
      out[name] = start;
      out[dataName] = values;
      c++;
    } else throw new Error(`column ${name} is neither per row nor after its starts`);
  }
  for (const name of COLUMN_NAMES) {
    if (!('strings' in COLUMNS[name])) continue;
    const a = out[name]!;
    for (let i = 0; i < a.length; i++) a[i] = str(a[i]);
  }
  // the schedules the kept rows use, in their order of first use
  const values: string[] = [];
  const newSchedule = new Map<number, number>();
  const hours = out.hours as Int32Array;
  for (let i = 0; i < n; i++) {
    const h = hours[i];
    if (h < 0) continue;
    let k = newSchedule.get(h);
    if (k === undefined) newSchedule.set(h, (k = values.push(t.schedules.values[h]) - 1));
    hours[i] = k;
  }
  return {
    ...(out as { [K in ColumnName]: PlaceTable[K] }),
    size: n,
    strings,
    schedules: Schedules.of(values, t.schedules.bad),
  };
}

/**
 * The road graph of a pack: the edges with a point or a segment in `box` (every edge with `box`
 * null), closed over the turn restrictions (an edge of a restriction one of whose edges is kept
 * is kept), their junctions, ways and strings, renumbered in their order; the access bits and
 * speeds of modes not in `modes` cleared, and restrictions binding only those dropped. Edges no
 * mode may use are kept too: instructions count the roads that meet at a junction. Undefined
 * when no edge is kept.
 */
export function subsetRoads(g: RoadGraph, box: Bbox | null, modes: number[]): RoadGraph | undefined {
  let mask = 0,
    modeBits = 0;
  for (const m of modes) {
    mask |= forwardBit(m) * 3;
    modeBits |= 1 << m;
  }
  const edges = g.edgeFrom.length;
  const kept = new Uint8Array(edges);
  const scaled: Bbox | null = box && [box[0] * 1e7, box[1] * 1e7, box[2] * 1e7, box[3] * 1e7];
  for (let e = 0; e < edges; e++) {
    if (!scaled) {
      kept[e] = 1;
      continue;
    }
    const c0 = 2 * g.coordStart[e],
      c1 = 2 * g.coordStart[e + 1];
    for (let k = c0; k + 2 < c1; k += 2) {
      if (segmentMeets(g.coords[k], g.coords[k + 1], g.coords[k + 2], g.coords[k + 3], scaled)) {
        kept[e] = 1;
        break;
      }
    }
  }
  const restrictions = restrictionsOf(g.restrictions).filter((r) => r.modes & modeBits);
  // a restriction half in the pack would bind otherwise than in the whole graph (an only-turn onto
  // a dropped edge would no longer forbid the others): its edges are kept whole, until none is added
  for (let added = true; added;) {
    added = false;
    for (const r of restrictions) {
      if (!r.keys.some((k) => kept[k >> 1]) || r.keys.every((k) => kept[k >> 1])) continue;
      for (const k of r.keys) kept[k >> 1] = 1;
      added = true;
    }
  }
  const newEdge = new Int32Array(edges).fill(-1);
  const newNode = new Int32Array(g.nodeLon.length).fill(-1);
  const newWay = new Int32Array(g.wayId.length).fill(-1);
  let ne = 0;
  for (let e = 0; e < edges; e++) {
    if (!kept[e]) continue;
    newEdge[e] = ne++;
    newNode[g.edgeFrom[e]] = newNode[g.edgeTo[e]] = 0;
    newWay[g.edgeWay[e]] = 0;
  }
  if (ne === 0) return undefined;
  const number = (a: Int32Array) => {
    let k = 0;
    for (let i = 0; i < a.length; i++) if (a[i] === 0) a[i] = k++;
    return k;
  };
  const nodes = number(newNode),
    ways = number(newWay);

  const nodeLon = new Int32Array(nodes),
    nodeLat = new Int32Array(nodes),
    nodeDelay = new Uint8Array(nodes);
  for (let v = 0; v < newNode.length; v++) {
    const k = newNode[v];
    if (k < 0) continue;
    nodeLon[k] = g.nodeLon[v];
    nodeLat[k] = g.nodeLat[v];
    nodeDelay[k] = g.nodeDelay[v] ?? 0;
  }
  const strings: string[] = [''];
  const newString = new Map<number, number>([[0, 0]]);
  const str = (i: number) => {
    let k = newString.get(i);
    if (k === undefined) newString.set(i, (k = strings.push(g.strings[i]) - 1));
    return k;
  };
  const wayId = new Float64Array(ways),
    wayName = new Uint32Array(ways),
    wayClass = new Uint32Array(ways),
    wayFlags = new Uint8Array(ways);
  for (let w = 0; w < newWay.length; w++) {
    const k = newWay[w];
    if (k < 0) continue;
    wayId[k] = g.wayId[w];
    wayName[k] = str(g.wayName[w]);
    wayClass[k] = str(g.wayClass[w]);
    wayFlags[k] = g.wayFlags[w];
  }
  const M = MODES.length;
  const edgeFrom = new Uint32Array(ne),
    edgeTo = new Uint32Array(ne),
    edgeAccess = new Uint8Array(ne),
    edgeKmh = new Float32Array(ne * M),
    edgeMeters = new Float64Array(ne),
    edgeWay = new Uint32Array(ne),
    coordStart = new Uint32Array(ne + 1);
  for (let e = 0; e < edges; e++) {
    const k = newEdge[e];
    if (k < 0) continue;
    coordStart[k + 1] = coordStart[k] + g.coordStart[e + 1] - g.coordStart[e];
  }
  const coords = new Int32Array(2 * coordStart[ne]);
  for (let e = 0; e < edges; e++) {
    const k = newEdge[e];
    if (k < 0) continue;
    edgeFrom[k] = newNode[g.edgeFrom[e]];
    edgeTo[k] = newNode[g.edgeTo[e]];
    edgeAccess[k] = g.edgeAccess[e] & mask;
    for (const m of modes) edgeKmh[k * M + m] = g.edgeKmh[e * M + m];
    edgeMeters[k] = g.edgeMeters[e];
    edgeWay[k] = newWay[g.edgeWay[e]];
    coords.set(g.coords.subarray(2 * g.coordStart[e], 2 * g.coordStart[e + 1]), 2 * coordStart[k]);
  }
  const rs: number[] = [];
  for (const r of restrictions) {
    if (!r.keys.every((k) => kept[k >> 1])) continue;
    rs.push(r.keys.length, r.kind | ((r.modes & modeBits) << 1));
    for (const key of r.keys) rs.push(newEdge[key >> 1] * 2 + (key & 1));
  }
  return {
    nodeLon,
    nodeLat,
    edgeFrom,
    edgeTo,
    edgeAccess,
    edgeKmh,
    edgeMeters,
    edgeWay,
    coordStart,
    coords,
    wayId,
    wayName,
    wayClass,
    wayFlags,
    strings,
    ...(g.profiles && { profiles: g.profiles }),
    nodeDelay,
    restrictions: Uint32Array.from(rs),
  };
}

// The text index of nothing: a pack without search.
function noWords(): Words {
  return new Words({
    sorted: [],
    sortedId: new Uint32Array(0),
    docRow: new Uint32Array(0),
    docLen: new Uint16Array(0),
    docOld: new Uint8Array(0),
    avgLen: 1,
    start: new Uint32Array(1),
    doc: new Uint32Array(0),
    tf: new Uint8Array(0),
  });
}
