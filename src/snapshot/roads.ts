import type { RoadGraph } from '../model/roads.js';
import { Router } from '../route/router.js';
import { Hierarchy } from '../route/ch.js';
import type { Handover, SectionWriter, SectionReader } from './sections.js';
import { headOf, modeGraph, tailOf, timeOf, type ModeGraph } from '../route/modes.js';
import { bearings } from '../route/turns.js';
import { restrictionsOf } from '../model/roads.js';
import { MODES, forwardBit } from '../osm/profile.js';
import type { ProfilesDoc } from '../osm/profiles.js';
import type { BoxOf } from '../geom/boxes.js';

/** The largest arc weight (ms) the searches' Uint32 weights hold. */
const MAX_WEIGHT = 0xffffffff;

/** What the directory says of the roads: per mode, whether its hierarchy is stored and its weights' type. */
export interface RoadMeta {
  /** Per mode: its hierarchy's weights' type (see `readRoads`); null where none is stored. */
  hierarchies: ({ weight: 'u32' | 'f64' } | null)[];
  /** The routing profiles document the graph was built with. */
  profiles?: ProfilesDoc;
}

/**
 * Writes a router's road graph, snapping index and contraction hierarchies. The
 * hierarchies' arrays are stored as they are, each number in the bits that hold the
 * largest (slot offsets as varint deltas): a snapshot's router decodes them, and
 * recomputes nothing.
 */
export function writeRoads(w: SectionWriter, router: Router): RoadMeta {
  const g = router.graph;
  // each array in the encoding that fits its values (docs/snapshot-format.md): node ids and
  // string indexes bit-packed, ascending ids and offsets as deltas, coordinates as deltas
  // along each chain; deflated on top where the encoded bytes still repeat (access bits, edges
  // of one way in a row, two points an edge, a few classes and flags): half or less
  w.put('roadNodeLon', g.nodeLon, 'delta');
  w.put('roadNodeLat', g.nodeLat, 'delta');
  w.put('edgeFrom', g.edgeFrom, 'bits');
  w.put('edgeTo', g.edgeTo, 'bits');
  w.put('edgeAccess', g.edgeAccess, { enc: 'bits', deflate: true });
  // an edge's speeds in every mode follow from its way's class and place: a few tens of distinct
  // tuples, each stored once, then an index of a few bits per edge
  w.put('edgeKmh', g.edgeKmh, { enc: 'dict', group: MODES.length });
  w.put('edgeMeters', g.edgeMeters, 'raw');
  w.put('edgeWay', g.edgeWay, { enc: 'delta', deflate: true });
  w.put('edgeCoordStart', g.coordStart, { enc: 'delta', deflate: true });
  w.put('edgeCoords', g.coords, 'delta2');
  w.put('roadWayId', g.wayId, 'delta');
  w.put('roadWayName', g.wayName, 'bits');
  w.put('roadWayClass', g.wayClass, { enc: 'bits', deflate: true });
  w.put('roadWayFlags', g.wayFlags, { enc: 'bits', deflate: true });
  w.strings('roadStrings', g.strings);
  w.put('roadNodeDelay', g.nodeDelay, { enc: 'bits', deflate: true });
  w.put('restrictions', g.restrictions, 'bits');
  if (router.snapper.tree) w.flatbush('roadTree', router.snapper.tree);
  const meta: RoadMeta = { hierarchies: [], profiles: g.profiles };
  router.hierarchies.forEach((h, m) => {
    if (!h) {
      meta.hierarchies.push(null);
      return;
    }
    // What cannot be derived (CompactHierarchy): the order, a permutation, bit-packed; the
    // slot ranges and the counts of slots that lead to each rank, as counts of a few bits,
    // deflated (they repeat: 6.6 MB of them deflate to 2.6 at Nepal scale, inflated in ms); and
    // a few bits per slot, from which the reader derives every slot's head, weight and halves
    const c = h.compactData();
    w.put(`ch${m}rank`, c.rank, 'bits');
    w.put(`ch${m}first`, c.first, { enc: 'steps', deflate: true });
    w.put(
      `ch${m}outs`,
      c.mid.map((v, r) => v - c.first[r]),
      { enc: 'bits', deflate: true },
    );
    w.put(`ch${m}outTo`, c.outTo, { enc: 'steps', deflate: true });
    w.put(`ch${m}inTo`, c.inTo, { enc: 'steps', deflate: true });
    w.put(`ch${m}slots`, c.slots, 'raw');
    meta.hierarchies.push({ weight: h.data().weight instanceof Float64Array ? 'f64' : 'u32' });
  });
  return meta;
}

/**
 * Reads what `writeRoads` wrote back into a router, in steps (see `snapshotSteps`); throws RangeError
 * where the arrays do not fit together. Given the per-mode graphs a thread made of these very bytes
 * (`options.proven`), it takes them and their hierarchies as they are, unchecked.
 */
export function* readRoads(
  r: SectionReader,
  meta: RoadMeta,
  options: { keep?: Handover; proven?: Handover } = {},
): Generator<string, Router> {
  const strings = yield* r.stringSteps('roadStrings');
  const g: RoadGraph = {
    nodeLon: r.ints('roadNodeLon', Int32Array),
    nodeLat: r.ints('roadNodeLat', Int32Array),
    edgeFrom: r.ints('edgeFrom', Uint32Array),
    edgeTo: r.ints('edgeTo', Uint32Array),
    edgeAccess: r.raw('edgeAccess', Uint8Array),
    edgeKmh: r.array('edgeKmh', Float32Array),
    edgeMeters: r.raw('edgeMeters', Float64Array),
    edgeWay: r.ints('edgeWay', Uint32Array),
    coordStart: r.ints('edgeCoordStart', Uint32Array),
    coords: r.ints('edgeCoords', Int32Array),
    wayId: r.raw('roadWayId', Float64Array),
    wayName: r.ints('roadWayName', Uint32Array, strings.length),
    wayClass: r.ints('roadWayClass', Uint32Array, strings.length),
    wayFlags: r.raw('roadWayFlags', Uint8Array),
    profiles: meta?.profiles,
    strings,
    nodeDelay: r.has('roadNodeDelay') ? r.raw('roadNodeDelay', Uint8Array) : new Uint8Array(0),
    restrictions: r.ints('restrictions', Uint32Array),
  };
  yield 'road graph';
  if (!r.proven) {
    checkGraph(g);
    yield 'road graph checked';
  }
  // the snapping tree by its ids, each run's box computed from the graph (`Snapper`'s rule)
  const tree = r.has('roadTree.ids') ? (items: number, box: BoxOf) => r.flatbush('roadTree', items, box) : undefined;
  if (!Array.isArray(meta?.hierarchies)) throw new RangeError('the directory lacks the roads');
  if (meta.hierarchies.length > MODES.length)
    throw new RangeError(`the directory lists ${meta.hierarchies.length} hierarchies, for ${MODES.length} modes`);
  for (const [m, h] of meta.hierarchies.entries())
    if (h && h.weight !== 'u32' && h.weight !== 'f64') throw new RangeError(`the hierarchy of mode ${m} has weights of no known type`);
  // A plain read makes each mode's graph and hierarchy on the mode's first use: most of the
  // open's time otherwise, for modes an app may never route by. A hierarchy that does not fit
  // its stream is then refused as `corrupted` by that first use. A thread's read for a handover
  // (`keep`), and a reader given what it made (`proven`), make them all now.
  if (!r.proven && !options.keep) {
    const has = MODES.map((_, m) => !!meta.hierarchies[m]);
    const hierarchy = (m: number, mg: ModeGraph): Hierarchy => {
      try {
        return hierarchyOf(r, m, mg, meta.hierarchies[m]!.weight);
      } catch (err) {
        throw err instanceof RangeError ? r.fail('corrupted', err.message) : err;
      }
    };
    return new Router(g, tree, undefined, { later: { has, hierarchy } });
  }
  // each mode's graph, which its hierarchy is derived over (a proven reader's are this graph's)
  let modes: ModeGraph[] | undefined = r.proven ? options.proven?.modes : undefined;
  if (!modes) {
    const angles = bearings(g); // trigonometry per edge end: once for all modes
    modes = [];
    for (let m = 0; m < MODES.length; m++) {
      modes.push(modeGraph(g, m, angles));
      yield `mode graph ${m}`;
    }
  }
  if (meta.hierarchies.length > modes.length)
    throw new RangeError(`the directory lists ${meta.hierarchies.length} hierarchies, for ${modes.length} modes`);
  const hierarchies: Hierarchy[] = [];
  for (const [m, h] of meta.hierarchies.entries()) {
    if (!h) continue;
    hierarchies[m] = hierarchyOf(r, m, modes[m], h.weight);
    yield `hierarchy ${m}`;
  }
  const router = new Router(g, tree, hierarchies, { modes });
  if (options.keep) options.keep.modes = router.modes;
  return router;
}

/**
 * Mode m's hierarchy as `writeRoads` stored it: its heads, weights and halves derived over the
 * mode's graph (`Hierarchy.fromCompact`, which refuses what does not fit), and kept for a
 * handover, or taken as a proven reader handed them over.
 */
function hierarchyOf(r: SectionReader, m: number, mg: ModeGraph, type: 'u32' | 'f64'): Hierarchy {
  const { arcs } = mg;
  const rank = r.ints(`ch${m}rank`, Uint32Array, arcs.n);
  const first = r.ints(`ch${m}first`, Uint32Array);
  // out-slots counted per rank; a sum past 2^32 wraps below its rank's first, which is refused
  const mid = r.decoded(`ch${m}mid`, Uint32Array, () => r.ints(`ch${m}outs`, Uint32Array).map((v, i) => first[i] + v));
  const outTo = r.ints(`ch${m}outTo`, Uint32Array),
    inTo = r.ints(`ch${m}inTo`, Uint32Array),
    slots = r.array(`ch${m}slots`, Uint32Array);
  let made: Hierarchy | undefined;
  const derived = () => (made ??= Hierarchy.fromCompact(arcs, { rank, first, mid, outTo, inTo, slots })).data();
  const head = r.decoded(`ch${m}head`, Uint32Array, () => derived().head);
  const ab = r.decoded(`ch${m}ab`, Uint32Array, () => derived().ab);
  const wrong = () => new RangeError(`the weights of mode ${m}'s hierarchy are not the ${type} the directory says`);
  const weight =
    type === 'f64'
      ? r.decoded(`ch${m}weight`, Float64Array, () => {
          const w = derived().weight;
          if (!(w instanceof Float64Array)) throw wrong();
          return w;
        })
      : r.decoded(`ch${m}weight`, Uint32Array, () => {
          const w = derived().weight;
          if (!(w instanceof Uint32Array)) throw wrong();
          return w;
        });
  // a proven reader's arrays were derived by the thread that handed them over
  return made ?? new Hierarchy(arcs, { rank, first, mid, head, weight, ab });
}

// A file written wrong must not index out of range: every node, edge, way and string
// reference is checked, linearly.
function checkGraph(g: RoadGraph): void {
  const nodes = g.nodeLon.length,
    edges = g.edgeFrom.length,
    ways = g.wayId.length;
  if (g.nodeLat.length !== nodes) throw new RangeError('road node columns differ in length');
  for (const c of [g.edgeTo, g.edgeAccess, g.edgeMeters, g.edgeWay])
    if (c.length !== edges) throw new RangeError('edge columns differ in length');
  if (g.edgeKmh.length !== edges * MODES.length) throw new RangeError('edge speeds are not one per edge and mode');
  for (const c of [g.wayName, g.wayClass, g.wayFlags]) if (c.length !== ways) throw new RangeError('road way columns differ in length');
  const s = g.coordStart;
  if (s.length !== edges + 1 || s[0] !== 0 || 2 * s[edges] !== g.coords.length)
    throw new RangeError('edge geometry does not fit its coordinates');
  for (let e = 0; e < edges; e++) {
    if (g.edgeFrom[e] >= nodes || g.edgeTo[e] >= nodes || g.edgeWay[e] >= ways)
      throw new RangeError(`edge ${e} refers past the nodes or ways`);
    if (s[e + 1] < s[e] + 2) throw new RangeError(`edge ${e} has fewer than two points`);
    // a route's line joins its edges' geometries end to start: each must begin and end at its nodes
    const a = 2 * s[e],
      z = 2 * s[e + 1] - 2;
    const from = g.edgeFrom[e],
      to = g.edgeTo[e];
    if (
      g.coords[a] !== g.nodeLon[from] ||
      g.coords[a + 1] !== g.nodeLat[from] ||
      g.coords[z] !== g.nodeLon[to] ||
      g.coords[z + 1] !== g.nodeLat[to]
    )
      throw new RangeError(`edge ${e}'s geometry does not run from its node to its node`);
    // every mode's weight is a whole number of ms below 2^32, summed exactly by the searches:
    // an infinite or NaN length or speed, or a car speed of 0 on a car's road, would make
    // one that is not, and every route over it an error
    const metres = g.edgeMeters[e];
    if (!(metres >= 0 && metres < Infinity)) throw new RangeError(`edge ${e} is ${metres} m long`);
    for (let m = 0; m < MODES.length; m++) {
      const fwd = forwardBit(m),
        kmh = g.edgeKmh[e * MODES.length + m];
      if (!(kmh >= 0 && kmh < Infinity) || (kmh === 0 && g.edgeAccess[e] & (fwd * 3)))
        throw new RangeError(`edge ${e} has a ${MODES[m]} speed of ${kmh} km/h`);
      for (const back of [false, true])
        if (g.edgeAccess[e] & (back ? fwd << 1 : fwd) && !(timeOf(g, m, e, metres, back) <= MAX_WEIGHT))
          throw new RangeError(`edge ${e} takes ${MODES[m]} too long (${metres} m at ${kmh} km/h)`);
    }
  }
  if (g.nodeDelay.length !== nodes) throw new RangeError('road node delays are not one per junction');
  // each restriction a chain of directed edges, each leaving the junction the one before reaches
  for (const { keys } of restrictionsOf(g.restrictions)) {
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] >= 2 * edges) throw new RangeError('a restriction refers past the edges');
      if (i > 0 && tailOf(g, keys[i]) !== headOf(g, keys[i - 1])) throw new RangeError('a restriction is no chain of edges');
    }
  }
}
