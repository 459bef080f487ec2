/**
 * The fixtures as plain objects, read by `osm-read`: a PBF reader that shares no code with
 * the engine, so expectations computed from it are independent of the loader under test.
 */
import { fileURLToPath } from 'node:url';
import osmread from 'osm-read';

/** A tag as `[key, value]`, in the file's order. */
export type RawTag = [string, string];

/** A node: id, degrees (exact multiples of 1e-7, as stored), and the same as 1e-7 integers. */
export interface RawNode {
  id: number;
  lat: number;
  lon: number;
  lat7: number;
  lon7: number;
  tags: RawTag[];
}

/** A way: id, its node refs as written (some may be missing from the file), tags. */
export interface RawWay {
  id: number;
  refs: number[];
  tags: RawTag[];
}

/** A relation member. */
export interface RawMember {
  type: 'node' | 'way' | 'relation';
  ref: number;
  role: string;
}

/** A relation: id, members in order, tags. */
export interface RawRelation {
  id: number;
  members: RawMember[];
  tags: RawTag[];
}

/** Everything in one file, in file order, with lookups by id. */
export interface RawData {
  file: string;
  nodes: RawNode[];
  ways: RawWay[];
  relations: RawRelation[];
  node: Map<number, RawNode>;
  way: Map<number, RawWay>;
  relation: Map<number, RawRelation>;
}

/** The bundled core fixture. */
export const CORE = fileURLToPath(new URL('../../fixtures/kathmandu-core_2026-01-10.osm.pbf', import.meta.url));
/** The 2014 transit fixture. */
export const TRANSIT = fileURLToPath(new URL('../../fixtures/kathmandu-valley-transit_2014-03-13.osm.pbf', import.meta.url));

const cache = new Map<string, Promise<RawData>>();

/** Reads a PBF with osm-read once per process; later calls share the result. */
export function readRaw(file: string = CORE): Promise<RawData> {
  let data = cache.get(file);
  if (!data) {
    data = parse(file);
    cache.set(file, data);
  }
  return data;
}

interface OsmReadTags {
  [key: string]: string;
}

// osm-read hands tags over as an object. Objects keep insertion (= file) order for string
// keys but move integer-like keys ("1", "42") to the front, which would silently reorder
// tags; no such key exists in our fixtures, and we refuse to guess if one ever appears.
function tagList(tags: OsmReadTags | undefined, what: string): RawTag[] {
  const list: RawTag[] = [];
  for (const key in tags) {
    if (/^(0|[1-9]\d*)$/.test(key) && Number(key) < 2 ** 32 - 1) {
      throw new Error(`${what} has the integer-like tag key "${key}": osm-read cannot keep its file order`);
    }
    list.push([key, tags[key]]);
  }
  return list;
}

function toId(s: string): number {
  const n = Number(s);
  if (!Number.isSafeInteger(n)) throw new Error(`unsafe id ${s}`);
  return n;
}

function parse(file: string): Promise<RawData> {
  const data: RawData = {
    file,
    nodes: [],
    ways: [],
    relations: [],
    node: new Map(),
    way: new Map(),
    relation: new Map(),
  };
  return new Promise((resolve, reject) => {
    osmread.parse({
      filePath: file,
      format: 'pbf',
      node(n: { id: string; lat: number; lon: number; tags?: OsmReadTags }) {
        // osm-read computes (offset + granularity * v) / 1e9 from exact integers, so with the
        // default granularity the double is already the nearest one to v * 1e-7; check it.
        const lat7 = Math.round(n.lat * 1e7);
        const lon7 = Math.round(n.lon * 1e7);
        if (lat7 / 1e7 !== n.lat || lon7 / 1e7 !== n.lon) {
          reject(new Error(`node ${n.id}: ${n.lat},${n.lon} is not a multiple of 1e-7`));
          return;
        }
        const node: RawNode = { id: toId(n.id), lat: n.lat, lon: n.lon, lat7, lon7, tags: tagList(n.tags, `node ${n.id}`) };
        data.nodes.push(node);
        data.node.set(node.id, node);
      },
      way(w: { id: string; nodeRefs: string[]; tags?: OsmReadTags }) {
        const way: RawWay = { id: toId(w.id), refs: w.nodeRefs.map(toId), tags: tagList(w.tags, `way ${w.id}`) };
        data.ways.push(way);
        data.way.set(way.id, way);
      },
      relation(r: { id: string; members: { type: RawMember['type']; ref: string; role: string }[]; tags?: OsmReadTags }) {
        const relation: RawRelation = {
          id: toId(r.id),
          members: r.members.map((m) => ({ type: m.type, ref: toId(m.ref), role: m.role })),
          tags: tagList(r.tags, `relation ${r.id}`),
        };
        data.relations.push(relation);
        data.relation.set(relation.id, relation);
      },
      endDocument() {
        resolve(data);
      },
      error(err: unknown) {
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    });
  });
}

/** The value of `key` among `tags`, or undefined. */
export function tag(tags: RawTag[], key: string): string | undefined {
  for (const [k, v] of tags) if (k === key) return v;
  return undefined;
}
