import type Flatbush from 'flatbush';
import type { TreeFrom } from '../geom/boxes.js';
import { ROUNDABOUT, type RoadGraph } from '../model/roads.js';
import { MODES, forwardBit } from '../osm/profile.js';
import { Snapper } from './snap.js';
import { modeGraph, openJunctions, type ModeGraph } from './modes.js';
import { contract, Hierarchy, type HierarchyData, type ContractOptions } from './ch.js';
import { BiDijkstra } from './dijkstra.js';
import { bearings, turnCostsOf, type TurnCosts } from './turns.js';
import { lazyItems } from './lazy.js';
import type { Ends, Path } from './ends.js';
import type { AlternativeOptions } from './alternatives.js';

/**
 * Most nodes a search without a hierarchy settles for one leg (alternatives included): some
 * 50 ms of one core, a trip of tens of km through a city's streets. Past it `route()` refuses
 * the leg rather than hold a server for a second; a contracted index routes any distance in
 * a millisecond.
 */
export const PLAIN_SETTLED = 50_000;

/** What answers a mode's queries: a contraction hierarchy, or a bidirectional Dijkstra. */
export interface Search {
  route(sources: Ends, targets: Ends): Path | null;
  alternatives(sources: Ends, targets: Ends, options?: AlternativeOptions): Path[];
}

/**
 * Everything routing needs of an index: the road graph, each mode's graph, the
 * snapping index, and each mode's search. A snapshot's router comes with
 * contraction hierarchies (made by `contract()` when the snapshot is written); a
 * router fresh from a PBF searches with a bidirectional Dijkstra until contracted.
 */
export class Router {
  readonly graph: RoadGraph;
  readonly snapper: Snapper;
  /** Per mode, its graph, made on its first read unless the constructor was given `modes`. */
  readonly modes: ModeGraph[];
  /** Per mode, its hierarchy once contracted (likewise). */
  readonly hierarchies: (Hierarchy | undefined)[];
  /** Per mode, whether its hierarchy is still to be made on first use, and whether there will be one. */
  private readonly waiting: boolean[] = MODES.map(() => false);
  private readonly planned: boolean[] = MODES.map(() => false);
  /** Per junction: how many edge ends meet there (any mode). */
  readonly degree: Uint8Array;
  /** Per mode: its turn costs, read (and checked) once from the graph's profiles rather than per query. */
  readonly turnCosts: readonly TurnCosts[];
  private readonly plain: (BiDijkstra | undefined)[] = [];
  /** Most nodes a search without a hierarchy settles per leg (read when a mode's search is made). */
  plainLimit = PLAIN_SETTLED;
  private readonly metres: (Float64Array | undefined)[] = [];
  private readonly edges: (Uint32Array | undefined)[] = [];

  /**
   * A router over `graph`; `tree` (or how a snapshot makes it, see `Snapper`) and `hierarchies` are what a snapshot stored of them (data is
   * checked by `Hierarchy.from`, a `Hierarchy` taken as it is). `modes`: the graph's per-mode graphs,
   * made already (by a thread that read the same snapshot), instead of making them again; else each
   * mode's graph is made on its first use (`lazyItems`). `later`: each mode's hierarchy by
   * `later.hierarchy` (where `later.has` says there is one), made on the mode's first use too (a snapshot's reader).
   */
  constructor(
    graph: RoadGraph,
    tree?: Flatbush | TreeFrom,
    hierarchies?: (HierarchyData | Hierarchy | undefined)[],
    options: { modes?: ModeGraph[]; later?: { has: readonly boolean[]; hierarchy: (m: number, mg: ModeGraph) => Hierarchy } } = {},
  ) {
    this.graph = graph;
    this.turnCosts = MODES.map((_, m) => turnCostsOf(graph, m));
    this.snapper = new Snapper(graph, tree);
    let angles: ReturnType<typeof bearings> | undefined; // trigonometry per edge end: once for all modes
    const make = (m: number) => modeGraph(graph, m, (angles ??= bearings(graph)));
    const later = options.later;
    // made on first use unless given: a PBF load, like a snapshot's open, then costs no mode's graph
    this.modes = options.modes ?? lazyItems(MODES.length, make);
    if (later) {
      MODES.forEach((_, m) => {
        this.waiting[m] = true;
        this.planned[m] = !!later.has[m];
      });
      this.hierarchies = lazyItems(
        MODES.length,
        (m) => (later.has[m] ? later.hierarchy(m, this.modes[m]) : undefined),
        (m) => (this.waiting[m] = false),
      );
    } else
      this.hierarchies = MODES.map((_, m) => {
        const h = hierarchies?.[m];
        return h instanceof Hierarchy ? h : h ? Hierarchy.from(this.modes[m].arcs, h) : undefined;
      });
    const degree = new Uint8Array(graph.nodeLon.length);
    for (let e = 0; e < graph.edgeFrom.length; e++) {
      const a = graph.edgeFrom[e],
        b = graph.edgeTo[e];
      if (degree[a] < 255) degree[a]++;
      if (degree[b] < 255) degree[b]++;
    }
    this.degree = degree;
    // the edges at each junction, for the exits of roundabouts
    const start = new Uint32Array(degree.length + 1);
    for (let e = 0; e < graph.edgeFrom.length; e++) {
      start[graph.edgeFrom[e] + 1]++;
      start[graph.edgeTo[e] + 1]++;
    }
    for (let v = 0; v < degree.length; v++) start[v + 1] += start[v];
    const fill = start.slice(0, degree.length);
    const at = new Uint32Array(start[degree.length]);
    for (let e = 0; e < graph.edgeFrom.length; e++) {
      at[fill[graph.edgeFrom[e]]++] = e;
      at[fill[graph.edgeTo[e]]++] = e;
    }
    this.incidence = { start, at };
  }

  /** Per junction v: the edges that meet there are `at[start[v] .. start[v + 1]]` (a loop edge twice). */
  readonly incidence: { start: Uint32Array; at: Uint32Array };
  private readonly opens: (Uint8Array | undefined | null)[] = [];

  /** `openJunctions` of mode `m`, made on first use. */
  open(m: number): Uint8Array | undefined {
    if (this.opens[m] === undefined) this.opens[m] = openJunctions(this.graph, m) ?? null;
    return this.opens[m] ?? undefined;
  }

  /** Whether mode `m` may leave junction `v` by a road that is no roundabout: an exit, where it passes a roundabout. */
  isExit(m: number, v: number): boolean {
    const g = this.graph,
      { start, at } = this.incidence;
    const fwd = forwardBit(m);
    for (let k = start[v]; k < start[v + 1]; k++) {
      const e = at[k];
      if (g.wayFlags[g.edgeWay[e]] & ROUNDABOUT) continue;
      if ((g.edgeFrom[e] === v && g.edgeAccess[e] & fwd) || (g.edgeTo[e] === v && g.edgeAccess[e] & (fwd << 1))) return true;
    }
    return false;
  }

  /** Contracts every mode's graph not contracted yet (what `buildSnapshot` does: tens of seconds at Nepal scale). */
  contract(options: ContractOptions = {}): void {
    this.modes.forEach((mg, m) => {
      this.hierarchies[m] ??= contract(mg.arcs, options);
    });
  }

  /** Whether every mode has its hierarchy (made, or to be made on first use). */
  get contracted(): boolean {
    return MODES.every((_, m) => this.has(m));
  }

  /** Whether mode `m` has a hierarchy, made or to be made on its first use (without making it). */
  has(m: number): boolean {
    return this.waiting[m] ? this.planned[m] : !!this.hierarchies[m];
  }

  /** Per arc of mode `m`: the length of the edge it turns onto, metres (what alternatives share is measured in). */
  arcMetres(m: number): Float64Array {
    const mg = this.modes[m];
    return (this.metres[m] ??= Float64Array.from(mg.arcs.to, (u) => this.graph.edgeMeters[mg.key[u] >> 1]));
  }

  /** Per arc of mode `m`: the edge it turns onto (what alternatives share is counted by). */
  arcEdges(m: number): Uint32Array {
    const mg = this.modes[m];
    return (this.edges[m] ??= Uint32Array.from(mg.arcs.to, (u) => mg.key[u] >> 1));
  }

  /** The search of mode `m`: its hierarchy, else a bidirectional Dijkstra (made on first use). */
  search(m: number): Search {
    return this.hierarchies[m] ?? (this.plain[m] ??= new BiDijkstra(this.modes[m].arcs, this.plainLimit));
  }
}
