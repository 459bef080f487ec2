import { roadName } from '../osm/name.js';
import { TagReader, type Block } from '../load/block.js';
import type { Osm } from '../load/osm.js';
import { List } from '../model/list.js';
import { StringTable } from '../model/strings.js';
import {
  ROUNDABOUT,
  NO_TURN,
  ONLY_TURN,
  PUSH_FWD,
  PUSH_BWD,
  SIGNALS,
  STOP,
  GIVE_WAY,
  CROSSING,
  DELAY_FORWARD,
  DELAY_BACKWARD,
  destinationFlag,
  restrictionsOf,
  type RoadGraph,
} from '../model/roads.js';
import { restrictionRules } from '../osm/restriction.js';
import { delayOf } from '../osm/delay.js';
import { MODES, forwardBit, roadRuleKeys, roadRules, type RoadRules } from '../osm/profile.js';
import { DEFAULTS, type Profiles } from '../osm/profiles.js';
import { nodePasses, nodeRuleKeys } from '../osm/barrier.js';
import { isRoundabout } from '../osm/road.js';
import { kmTo } from '../geom/haversine.js';
import { BuiltUp } from './built-up.js';
import { areaChords } from './areas.js';

/** What the road builder kept and dropped. */
export interface RoadStats {
  /** Junction nodes and edges of the graph. */
  roadNodes: number;
  roadEdges: number;
  /** Turn restrictions obeyed, and those that could not be (a via way, a member outside the file, a bad shape). */
  restrictions: number;
  skippedRestrictions: number;
}

/** Builds the road graph of decoded OSM data at once (files not sorted by type). */
export function buildRoads(osm: Osm, profiles: Profiles = DEFAULTS): { graph: RoadGraph; stats: RoadStats } {
  osm.indexNodes();
  const rb = new RoadBuilder(osm, profiles);
  osm.blocks.forEach((b) => rb.ways(b));
  osm.blocks.forEach((b) => rb.relations(b));
  return rb.finish();
}

// the keys that make a way a road (or a ferry, a railway, a platform): `roadRules` says which modes may use it
const ROAD_KEYS: ReadonlySet<string> = new Set(['highway', 'route', 'railway', 'public_transport']);

/**
 * Turns the `highway` ways and turn restrictions of decoded blocks into a
 * `RoadGraph`, block by block as they arrive: a block's ways need the nodes
 * indexed (`osm.indexNodes`). Ways are split where they meet other roads; the
 * plain nodes between become their edge's geometry. Parts of a way whose nodes
 * the extract lacks are dropped, the parts that exist kept. A node a mode may not
 * pass (a barrier, access tags: src/osm/barrier.ts) splits its ways, and every
 * segment that meets it loses that mode's access: the mode cannot pass the node, and
 * the graph's format and searches stay as they are.
 */
export class RoadBuilder {
  private readonly osm: Osm;
  // the ordinal of a node is its place in the file: first ordinal of each block
  private first: Float64Array | undefined;
  // how many road ways use each node (by ordinal), saturating at 2
  private uses = new Uint8Array(0);
  // per road way
  private readonly wayId = new List(Float64Array, 1024);
  private readonly wayName = new List(Uint32Array, 1024);
  private readonly wayClass = new List(Uint32Array, 1024);
  private readonly wayFlags = new List(Uint8Array, 1024);
  private readonly wayAccess = new List(Uint8Array, 1024);
  // per road way and mode: km/h outside and inside built-up areas; a ferry's duration (s, 0: none); whether an area walked across
  private readonly wayKmh = new List(Float32Array, 4096);
  private readonly wayBuiltUpKmh = new List(Float32Array, 4096);
  private readonly waySeconds = new List(Float64Array, 1024);
  private readonly wayArea = new List(Uint8Array, 1024);
  private readonly wayRefStart = new List(Uint32Array, 1024);
  // per way node: its ordinal (-1: not in the file) and coordinates
  private readonly refOrd = new List(Int32Array, 8192);
  private readonly refLon = new List(Int32Array, 8192);
  private readonly refLat = new List(Int32Array, 8192);
  // turn restrictions by OSM ids, to resolve once the edges exist
  private readonly rawRestrictions: RawRestriction[] = [];
  // per node ordinal with a `highway` tag that delays traffic: its `RoadGraph.nodeDelay`
  private readonly delayAt = new Map<number, number>();
  private skipped = 0;
  private readonly strings = new StringTable();
  // per node ordinal with a barrier or access tags that close it to some mode: the access bits it takes away
  private readonly closed = new Map<number, number>();
  private readonly profiles: Profiles;
  private readonly builtUp: BuiltUp;
  // the keys `roadRules` reads, and its answer per distinct set of them (`rulesOf`)
  private readonly ruleKeys: Set<string>;
  // the keys a node's barrier and access rules read (`nodeRuleKeys`)
  private readonly nodeKeys: Set<string>;
  private readonly rules = new Map<string, RoadRules>();

  constructor(osm: Osm, profiles: Profiles = DEFAULTS) {
    this.osm = osm;
    this.profiles = profiles;
    this.ruleKeys = roadRuleKeys(profiles);
    this.nodeKeys = nodeRuleKeys(profiles.modes);
    this.builtUp = new BuiltUp(profiles.doc.builtUp);
    this.wayRefStart.push(0);
  }

  /** Adds the road ways of a block. */
  ways(blk: Block): void {
    const runs = blk.wayTags;
    if (runs.owner.length === 0) return;
    // per string of the block: 1 a key that makes a way a road, 2 `building`
    const role = Uint8Array.from(blk.strings, (k) => (ROAD_KEYS.has(k) ? 1 : k === 'building' ? 2 : 0));
    if (!role.includes(1) && !role.includes(2)) return;
    if (!this.first) this.ordinals();
    const tags = new TagReader(runs, blk.strings);
    const { get } = tags;
    const ruled = Uint8Array.from(blk.strings, (k) => (this.ruleKeys.has(k) ? 1 : 0));
    for (let i = 0; i < runs.owner.length; i++) {
      tags.at(i);
      let road = false,
        house = false;
      for (let j = 0; j < tags.count; j++) {
        const r = role[tags.keyIndex(j)];
        if (r === 1) road = true;
        else if (r === 2 && tags.value(j) !== 'no') house = true;
      }
      if (house && !road) {
        this.building(blk, runs.owner[i]);
        continue;
      }
      if (!road) continue;
      const rules = this.rulesOf(tags, ruled, blk.strings);
      if (rules.access === 0) continue;
      const w = runs.owner[i];
      this.wayId.push(blk.wayId[w]);
      this.wayName.push(this.strings.intern(roadName(get)));
      this.wayClass.push(this.strings.intern(rules.kind));
      let flags = isRoundabout(get) ? ROUNDABOUT : 0;
      for (let m = 0; m < MODES.length; m++) if (rules.destination & (1 << m)) flags |= destinationFlag(m);
      if (rules.push & 1) flags |= PUSH_FWD;
      if (rules.push & 2) flags |= PUSH_BWD;
      this.wayFlags.push(flags);
      this.wayAccess.push(rules.access);
      for (let m = 0; m < MODES.length; m++) {
        this.wayKmh.push(rules.kmh[m]);
        this.wayBuiltUpKmh.push(rules.builtUpKmh[m]);
      }
      this.waySeconds.push(rules.seconds ?? 0);
      this.wayArea.push(rules.area ? 1 : 0);
      this.refs(blk, w);
      this.wayRefStart.push(this.refOrd.length);
    }
  }

  // `roadRules` of the current way of `tags`, once per distinct set of the tags it reads
  // (`ruled[k]`: string k is such a key). Why: a file's road ways share a few thousand such sets,
  // and the rules, read per mode and direction, were a third of the stream's road work.
  private rulesOf(tags: TagReader, ruled: Uint8Array, strings: readonly string[]): RoadRules {
    let key = '';
    for (let j = 0; j < tags.count; j++) {
      const k = tags.keyIndex(j);
      if (ruled[k]) key += `${strings[k]}\u0000${tags.value(j)}\u0001`;
    }
    let rules = this.rules.get(key);
    if (!rules) {
      rules = roadRules(tags.get, this.profiles);
      this.rules.set(key, rules);
    }
    return rules;
  }

  /**
   * Adds the turn restrictions of a block: from way, a via node or one or more via ways, to
   * way; per mode `no_*` or `only_*` as src/osm/restriction.ts reads the tags. A relation of
   * another shape, or with a value that is neither, is skipped and counted.
   */
  relations(blk: Block): void {
    const runs = blk.relTags;
    const s = blk.strings;
    const tags = new TagReader(runs, s);
    for (let i = 0; i < runs.owner.length; i++) {
      if (tags.at(i).get('type') !== 'restriction') continue;
      const { kinds, unknown } = restrictionRules(tags.get, MODES);
      const r = runs.owner[i];
      let fromWay = -1,
        viaNode = -1,
        toWay = -1,
        bad = unknown;
      const viaWays: number[] = [];
      for (let m = blk.relMemStart[r]; m < blk.relMemStart[r + 1]; m++) {
        const role = s[blk.relMemRole[m]],
          type = blk.relMemType[m],
          ref = blk.relMemRef[m];
        if (role === 'from') {
          if (type !== 1 || fromWay >= 0) bad = true;
          fromWay = ref;
        } else if (role === 'to') {
          if (type !== 1 || toWay >= 0) bad = true;
          toWay = ref;
        } else if (role === 'via') {
          if (type === 0 && viaNode < 0 && viaWays.length === 0) viaNode = ref;
          else if (type === 1 && viaNode < 0) viaWays.push(ref);
          else bad = true;
        }
      }
      if (bad || fromWay < 0 || toWay < 0 || (viaNode < 0 && viaWays.length === 0)) {
        this.skipped++;
        continue;
      }
      // one record per kind, binding the modes of that kind
      for (const kind of [NO_TURN, ONLY_TURN]) {
        let modes = 0;
        kinds.forEach((k, m) => {
          if (k === kind) modes |= 1 << m;
        });
        if (modes) this.rawRestrictions.push({ fromWay, viaNode, viaWays, toWay, kind, modes });
      }
    }
  }

  /** The graph, with what was kept and dropped. */
  finish(): { graph: RoadGraph; stats: RoadStats } {
    if (!this.first) this.ordinals();
    const ord = this.refOrd.data,
      lon = this.refLon.data,
      lat = this.refLat.data;
    const starts = this.wayRefStart.data;
    const ways = this.wayId.length;
    const uses = this.uses;
    const vertexOf = new Int32Array(uses.length).fill(-1);
    const nodeLon = new List(Int32Array, 1024),
      nodeLat = new List(Int32Array, 1024);
    const vertex = (k: number): number => {
      const o = ord[k];
      if (vertexOf[o] < 0) {
        vertexOf[o] = nodeLon.length;
        nodeLon.push(lon[k]);
        nodeLat.push(lat[k]);
      }
      return vertexOf[o];
    };
    // Sized for the most a graph of these refs can have (an edge per ref, each ref's point twice,
    // areas' chords aside): never grown by doubling, whose dropped halves are a Nepal-scale load's
    // peak; pages never written cost no memory.
    const refs = this.refOrd.length + 16;
    const edgeFrom = new List(Uint32Array, refs),
      edgeTo = new List(Uint32Array, refs),
      edgeWay = new List(Uint32Array, refs);
    const edgeMeters = new List(Float64Array, refs),
      coordStart = new List(Uint32Array, refs),
      coords = new List(Int32Array, 4 * refs);
    coordStart.push(0);
    const cut = this.cutAtBarriers();
    const edgeCut = new List(Uint8Array, refs);
    for (let w = 0; w < ways; w++) {
      // each run of nodes present in the file is a piece of road of its own
      let k = starts[w];
      const end = starts[w + 1];
      while (k < end) {
        while (k < end && ord[k] < 0) k++;
        let last = k;
        while (last + 1 < end && ord[last + 1] >= 0) last++;
        if (last > k) {
          let from = vertex(k);
          let start = k;
          let meters = 0;
          coords.push(lon[k]);
          coords.push(lat[k]);
          for (let i = k + 1; i <= last; i++) {
            meters += 1000 * kmTo(lon[i - 1] / 1e7, lat[i - 1] / 1e7, lon[i], lat[i]);
            coords.push(lon[i]);
            coords.push(lat[i]);
            if (i < last && uses[ord[i]] < 2) continue;
            const to = vertex(i);
            edgeFrom.push(from);
            edgeTo.push(to);
            edgeWay.push(w);
            edgeCut.push((cut.get(ord[start]) ?? 0) | (cut.get(ord[i]) ?? 0));
            edgeMeters.push(meters);
            coordStart.push(coords.length / 2);
            if (i < last) {
              coords.push(lon[i]);
              coords.push(lat[i]);
            }
            from = to;
            start = i;
            meters = 0;
          }
        }
        k = last + 1;
      }
    }
    // areas walked across: a straight edge between each two of their junctions that sees the other
    const wayMetres = new Float64Array(ways);
    for (let e = 0; e < edgeFrom.length; e++) wayMetres[edgeWay.data[e]] += edgeMeters.data[e];
    for (let w = 0; w < ways; w++) {
      if (!this.wayArea.data[w]) continue;
      const ring: number[] = [];
      for (let k = starts[w]; k < starts[w + 1]; k++) ring.push(ord[k]);
      if (ring.length < 4 || ring[0] !== ring[ring.length - 1] || ring.some((o) => o < 0)) continue;
      const pts = ring.map((_, i) => [lon[starts[w] + i], lat[starts[w] + i]] as [number, number]);
      const isJunction = ring.map((o) => vertexOf[o] >= 0);
      for (const [a, b] of areaChords(pts, isJunction)) {
        const k = starts[w];
        edgeFrom.push(vertexOf[ring[a]]);
        edgeTo.push(vertexOf[ring[b]]);
        edgeWay.push(w);
        edgeCut.push((cut.get(ring[a]) ?? 0) | (cut.get(ring[b]) ?? 0));
        edgeMeters.push(1000 * kmTo(lon[k + a] / 1e7, lat[k + a] / 1e7, lon[k + b], lat[k + b]));
        for (const i of [k + a, k + b]) {
          coords.push(lon[i]);
          coords.push(lat[i]);
        }
        coordStart.push(coords.length / 2);
      }
    }
    const edges = edgeFrom.length;
    const n = MODES.length;
    const edgeAccess = new Uint8Array(edges),
      edgeKmh = new Float32Array(edges * n);
    const ew = edgeWay.data,
      from = edgeFrom.data,
      to = edgeTo.data,
      vLon = nodeLon.data,
      vLat = nodeLat.data;
    for (let e = 0; e < edges; e++) {
      const w = ew[e];
      edgeAccess[e] = this.wayAccess.data[w] & ~edgeCut.data[e];
      const seconds = this.waySeconds.data[w];
      // a ferry with a duration: its length over it, for every mode aboard
      const timed = seconds > 0 && wayMetres[w] > 0 ? (3.6 * wayMetres[w]) / seconds : 0;
      const town = !timed && this.builtUp.has((vLon[from[e]] + vLon[to[e]]) / 2, (vLat[from[e]] + vLat[to[e]]) / 2);
      const speeds = town ? this.wayBuiltUpKmh.data : this.wayKmh.data;
      for (let m = 0; m < n; m++) {
        const v = speeds[w * n + m];
        edgeKmh[e * n + m] = timed && v > 0 ? timed : v;
      }
    }
    const restrictions = this.restrictions(vertexOf, { edgeFrom: edgeFrom.data, edgeTo: edgeTo.data, edgeWay: edgeWay.data, edgeAccess });
    const nodeDelay = new Uint8Array(nodeLon.length);
    for (const [o, d] of this.delayAt) if (vertexOf[o] >= 0) nodeDelay[vertexOf[o]] = d;
    const graph: RoadGraph = {
      nodeLon: nodeLon.copy(),
      nodeLat: nodeLat.copy(),
      edgeFrom: edgeFrom.view(),
      edgeTo: edgeTo.view(),
      edgeAccess,
      edgeKmh,
      edgeMeters: edgeMeters.view(),
      edgeWay: edgeWay.view(),
      coordStart: coordStart.view(),
      coords: coords.view(),
      wayId: this.wayId.copy(),
      wayName: this.wayName.copy(),
      wayClass: this.wayClass.copy(),
      wayFlags: this.wayFlags.copy(),
      strings: this.strings.list,
      profiles: this.profiles.doc,
      nodeDelay,
      restrictions,
    };
    return {
      graph,
      stats: {
        roadNodes: graph.nodeLon.length,
        roadEdges: edges,
        restrictions: restrictionsOf(restrictions).length,
        skippedRestrictions: this.skipped,
      },
    };
  }

  // The barrier nodes with a passage to block (two or more road segments meet there), by
  // ordinal, with the bits they take away. Each becomes a junction, and so do its
  // neighbours along its ways: every segment that meets it is then an edge of its own.
  private cutAtBarriers(): Map<number, number> {
    const cut = new Map<number, number>();
    if (this.closed.size === 0) return cut;
    const ord = this.refOrd.data,
      starts = this.wayRefStart.data,
      uses = this.uses;
    const segments = new Map<number, number>();
    // where closed nodes lie along the ways, found in one pass over every ref: a node, and its neighbours on the way (-1: none)
    const at: number[] = [];
    for (let w = 0; w < this.wayId.length; w++) {
      for (let k = starts[w]; k < starts[w + 1]; k++) {
        const o = ord[k];
        if (o >= 0 && this.closed.has(o)) at.push(o, k > starts[w] ? ord[k - 1] : -1, k + 1 < starts[w + 1] ? ord[k + 1] : -1);
      }
    }
    const each = (fn: (o: number, prev: number, next: number) => void) => {
      for (let i = 0; i < at.length; i += 3) fn(at[i], at[i + 1], at[i + 2]);
    };
    each((o, prev, next) => segments.set(o, (segments.get(o) ?? 0) + (prev >= 0 ? 1 : 0) + (next >= 0 ? 1 : 0)));
    each((o, prev, next) => {
      if (segments.get(o)! < 2) return;
      cut.set(o, this.closed.get(o)!);
      uses[o] = 2;
      if (prev >= 0) uses[prev] = 2;
      if (next >= 0) uses[next] = 2;
    });
    return cut;
  }

  // Resolves the restrictions to directed edges (`RoadGraph.restrictions`). Skipped (and counted):
  // a member not among the file's roads, a via node that is no junction, members that do not
  // meet at exactly one junction each, and a from or to way that runs through its junction
  // both ways for the modes the restriction binds (which direction it means is not said).
  private restrictions(vertexOf: Int32Array, g: Pick<RoadGraph, 'edgeFrom' | 'edgeTo' | 'edgeWay' | 'edgeAccess'>): Uint32Array {
    const raw = this.rawRestrictions;
    if (raw.length === 0) return new Uint32Array(0);
    const wanted = new Map<number, number>();
    for (const r of raw) for (const id of [r.fromWay, r.toWay, ...r.viaWays]) wanted.set(id, -1);
    const ids = this.wayId.data;
    for (let w = 0; w < this.wayId.length; w++) if (wanted.has(ids[w])) wanted.set(ids[w], w);
    // the edges of the ways wanted, in order along each way
    const edgesOf = new Map<number, number[]>();
    for (let e = 0; e < g.edgeFrom.length; e++) {
      const w = g.edgeWay[e];
      if (!wanted.has(ids[w])) continue;
      const list = edgesOf.get(w);
      if (list) list.push(e);
      else edgesOf.set(w, [e]);
    }
    const out: number[] = [];
    const nodes = this.osm.nodes;
    for (const r of raw) {
      // per mode: which of a way's edges the restriction means can depend on the mode's one-ways
      const byKeys = new Map<string, { keys: number[]; modes: number }>();
      for (let m = 0; m < MODES.length; m++) {
        if (!(r.modes & (1 << m))) continue;
        const keys = resolve(
          r,
          m,
          (id) => wanted.get(id) ?? -1,
          (w) => edgesOf.get(w) ?? [],
          g,
          () => (nodes.find(r.viaNode) ? vertexOf[this.first![nodes.block] + nodes.index] : -1),
        );
        if (!keys) continue;
        const k = keys.join(',');
        const same = byKeys.get(k);
        if (same) same.modes |= 1 << m;
        else byKeys.set(k, { keys, modes: 1 << m });
      }
      if (byKeys.size === 0) this.skipped++;
      for (const { keys, modes } of byKeys.values()) out.push(keys.length, r.kind | (modes << 1), ...keys);
    }
    return Uint32Array.from(out);
  }

  /**
   * Numbers the nodes of the blocks so far (once: the nodes are all in when the ways begin) and
   * reads their barriers and delays, from their tags. `ways` does at its first road if not called.
   */
  nodesDone(): void {
    if (!this.first) this.ordinals();
  }

  // Ordinals of the nodes indexed so far: the blocks' first ordinals, and a use count per node.
  private ordinals(): void {
    const blocks = this.osm.blocks;
    this.first = new Float64Array(blocks.length + 1);
    for (let b = 0; b < blocks.length; b++) this.first[b + 1] = this.first[b] + blocks[b].nodeId.length;
    this.uses = new Uint8Array(this.first[blocks.length]);
    for (let b = 0; b < blocks.length; b++) {
      this.barriers(blocks[b], this.first[b]);
      this.delays(blocks[b], this.first[b]);
    }
  }

  // Records the nodes of a block whose `highway` tag delays traffic (signals, stop, give way,
  // crossing), by ordinal; each becomes a junction where it lies on a road, so that a route
  // passes it between two edges and pays its delay at that turn (src/route/turns.ts).
  private delays(blk: Block, first: number): void {
    const runs = blk.nodeTags;
    if (runs.owner.length === 0) return;
    const tags = new TagReader(runs, blk.strings);
    for (let i = 0; i < runs.owner.length; i++) {
      let hw: string | undefined, crossing: string | undefined, dir: string | undefined;
      tags.at(i);
      for (let j = 0; j < tags.count; j++) {
        const k = tags.key(j),
          v = tags.value(j);
        if (k === 'highway') hw = v;
        else if (k === 'crossing') crossing = v;
        else if (k === 'direction' || k === 'traffic_signals:direction') dir = v;
      }
      const d = delayOf(hw, crossing, dir);
      if (!d) continue;
      const kind = { signals: SIGNALS, stop: STOP, give_way: GIVE_WAY, crossing: CROSSING }[d.kind];
      this.delayAt.set(
        first + runs.owner[i],
        kind | (d.direction === 'forward' ? DELAY_FORWARD : d.direction === 'backward' ? DELAY_BACKWARD : 0),
      );
      this.uses[first + runs.owner[i]] = 2;
    }
  }

  // Records the nodes of a block that some mode may not pass (by ordinal).
  private barriers(blk: Block, first: number): void {
    const runs = blk.nodeTags;
    if (runs.owner.length === 0) return;
    const tags = new TagReader(runs, blk.strings);
    const { get } = tags;
    const ruled = Uint8Array.from(blk.strings, (k) => (this.nodeKeys.has(k) ? 1 : 0));
    for (let i = 0; i < runs.owner.length; i++) {
      tags.at(i);
      // a node without a barrier or an access key passes every mode (most tagged nodes: places, crossings)
      let any = false;
      for (let j = 0; j < tags.count && !any; j++) any = ruled[tags.keyIndex(j)] === 1;
      if (!any) continue;
      let bits = 0;
      this.profiles.modes.forEach((rules, m) => {
        if (!nodePasses(get, rules)) bits |= forwardBit(m) * 3;
      });
      if (bits) this.closed.set(first + runs.owner[i], bits);
    }
  }

  // Counts a building (a way tagged building=*) at its first node.
  private building(blk: Block, w: number): void {
    const nodes = this.osm.nodes;
    const k = blk.wayRefStart[w];
    if (k === blk.wayRefStart[w + 1] || !nodes.find(blk.wayRef[k])) return;
    const b = this.osm.blocks[nodes.block];
    if (!b) return;
    this.builtUp.add(b.nodeLon[nodes.index], b.nodeLat[nodes.index]);
  }

  // Appends way w's nodes: ordinal and coordinates, -1 for a node the file lacks.
  private refs(blk: Block, w: number): void {
    const nodes = this.osm.nodes;
    const first = this.first!;
    const uses = this.uses;
    const blocks = this.osm.blocks;
    const from = blk.wayRefStart[w],
      n = blk.wayRefStart[w + 1] - from;
    // room made once, then written straight: three pushes a node were a tenth of the stream's roads
    this.refOrd.reserve(n);
    this.refLon.reserve(n);
    this.refLat.reserve(n);
    const ord = this.refOrd.data,
      lon = this.refLon.data,
      lat = this.refLat.data;
    const s = this.refOrd.length;
    for (let i = 0; i < n; i++) {
      if (!nodes.find(blk.wayRef[from + i]) || nodes.block >= first.length - 1) {
        ord[s + i] = -1;
        lon[s + i] = lat[s + i] = 0;
        continue;
      }
      const b = blocks[nodes.block];
      const o = first[nodes.block] + nodes.index;
      ord[s + i] = o;
      lon[s + i] = b.nodeLon[nodes.index];
      lat[s + i] = b.nodeLat[nodes.index];
      if (uses[o] < 2) uses[o]++;
    }
    this.refOrd.length = this.refLon.length = this.refLat.length = s + n;
    // a road's ends are junctions even where nothing else meets them
    for (let k = s; k < this.refOrd.length; k++) {
      const o = this.refOrd.data[k];
      if (o < 0) continue;
      const edge = k === s || k === this.refOrd.length - 1 || this.refOrd.data[k - 1] < 0 || this.refOrd.data[k + 1] < 0;
      if (edge) uses[o] = 2;
    }
  }
}

/** A turn restriction by OSM ids, as read from its relation. */
interface RawRestriction {
  fromWay: number;
  /** The via node, or -1 where via ways (in order) lead from the from way to the to way. */
  viaNode: number;
  viaWays: number[];
  toWay: number;
  kind: number;
  /** Bit `1 << m`: binds mode m. */
  modes: number;
}

/**
 * A restriction's directed edges for mode `mode`: the from edge reaching its first junction, the
 * edges along its via ways, the to edge leaving the last; undefined where the members do not fit
 * together (see `RoadBuilder.restrictions`). `way(id)`: a road way's index (-1: none); `edges(w)`: its edges in
 * order; `viaJunction()`: the via node's junction (-1: none).
 */
function resolve(
  r: RawRestriction,
  mode: number,
  way: (id: number) => number,
  edges: (w: number) => number[],
  g: Pick<RoadGraph, 'edgeFrom' | 'edgeTo' | 'edgeAccess'>,
  viaJunction: () => number,
): number[] | undefined {
  const from = way(r.fromWay),
    to = way(r.toWay);
  const vias = r.viaWays.map(way);
  if (from < 0 || to < 0 || vias.some((w) => w < 0)) return undefined;
  // whether the mode may drive directed edge k
  const usable = (k: number) => (g.edgeAccess[k >> 1] & (forwardBit(mode) << (k & 1))) !== 0;
  // the junctions of a way (edge ends)
  const ends = (w: number) => {
    const set = new Set<number>();
    for (const e of edges(w)) set.add(g.edgeFrom[e]).add(g.edgeTo[e]);
    return set;
  };
  // the one junction two consecutive members share
  const meet = (a: number, b: number): number => {
    const ea = ends(a);
    const shared = [...ends(b)].filter((v) => ea.has(v));
    return shared.length === 1 ? shared[0] : -1;
  };
  // the one edge of way w reaching (into) or leaving junction v that the modes may drive
  const at = (w: number, v: number, into: boolean): number => {
    const found: number[] = [];
    for (const e of edges(w)) {
      if (g.edgeTo[e] === v) found.push(into ? 2 * e : 2 * e + 1);
      if (g.edgeFrom[e] === v) found.push(into ? 2 * e + 1 : 2 * e);
    }
    const ok = found.filter(usable);
    return ok.length === 1 ? ok[0] : -1;
  };
  const chain = [from, ...vias, to];
  const junctions: number[] = [];
  if (vias.length === 0) junctions.push(viaJunction());
  else for (let i = 0; i + 1 < chain.length; i++) junctions.push(meet(chain[i], chain[i + 1]));
  if (junctions.some((v) => v < 0)) return undefined;
  const first = at(from, junctions[0], true),
    last = at(to, junctions[junctions.length - 1], false);
  if (first < 0 || last < 0) return undefined;
  const keys = [first];
  // along each via way from the junction it is entered at to the one it is left at
  for (let i = 0; i < vias.length; i++) {
    const along = path(edges(vias[i]), junctions[i], junctions[i + 1], g);
    if (!along) return undefined;
    keys.push(...along);
  }
  keys.push(last);
  return keys;
}

// The directed edges of a way's edges (in order) from junction a to junction b, where each is
// on the way once and the stretch between them has no gap; undefined otherwise.
function path(list: number[], a: number, b: number, g: Pick<RoadGraph, 'edgeFrom' | 'edgeTo'>): number[] | undefined {
  const ia = list.filter((e) => g.edgeFrom[e] === a || g.edgeTo[e] === a).length;
  const ib = list.filter((e) => g.edgeFrom[e] === b || g.edgeTo[e] === b).length;
  if (a === b || ia === 0 || ib === 0 || ia > 2 || ib > 2) return undefined;
  const p = list.findIndex((e) => g.edgeFrom[e] === a),
    q = list.findIndex((e) => g.edgeTo[e] === b);
  if (p >= 0 && q >= p) {
    // along the way's order
    for (let i = p; i < q; i++) if (g.edgeTo[list[i]] !== g.edgeFrom[list[i + 1]]) return undefined;
    return list.slice(p, q + 1).map((e) => 2 * e);
  }
  const p2 = list.findIndex((e) => g.edgeTo[e] === a),
    q2 = list.findIndex((e) => g.edgeFrom[e] === b);
  if (p2 >= 0 && q2 >= 0 && q2 <= p2) {
    for (let i = q2; i < p2; i++) if (g.edgeTo[list[i]] !== g.edgeFrom[list[i + 1]]) return undefined;
    return list
      .slice(q2, p2 + 1)
      .reverse()
      .map((e) => 2 * e + 1);
  }
  return undefined;
}
