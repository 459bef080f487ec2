import type { Contract, LoadOptions, LoadProgress, LoadStats, LoadTimings } from '../types.js';
import { openPbf, readBlocks } from '../load/read.js';
import { PLACE_KEEP } from '../osm/place.js';
import { defaultWorkers } from '../load/decode.js';
import { Osm } from '../load/osm.js';
import type { Block } from '../load/block.js';
import { IdOrder } from '../load/ids.js';
import type { PlaceIndex } from '../index/place-index.js';
import { buildPlaces, PlaceBuilder } from './places.js';
import { buildRoads, RoadBuilder } from './roads.js';
import type { PlaceTable, Sizes } from '../model/table.js';
import type { RoadGraph } from '../model/roads.js';
import type { Area } from '../geom/areas.js';
import { osmAdminAreas } from './admin.js';
import { assemble } from './assemble.js';
import { dropDuplicates } from './duplicates.js';
import { DEFAULTS, checkProfiles, compileProfiles, type Profiles } from '../osm/profiles.js';

/** The license of OSM data, the default `license` of every record. */
export const OSM_LICENSE = '© OpenStreetMap contributors, ODbL 1.0';

/** The values of `LoadOptions.contract`. */
const CONTRACTS: readonly unknown[] = ['auto', 'always', 'never'] satisfies Contract[];

/**
 * Loads an OSM PBF file (a path, or its bytes) into a `PlaceIndex`.
 * A missing, truncated, corrupt or non-PBF file rejects with `PbfError` naming it;
 * so does, with `strict`, a file with blobs of unknown type (counted in
 * `stats.skippedBlobs` otherwise). Of objects whose id the file repeats, the last
 * version is kept (as osmium does), the others counted in `stats.duplicates`.
 *
 * @example
 * const index = await loadPbf('nepal-latest.osm.pbf');
 */
export async function loadPbf(source: string | Uint8Array, options: LoadOptions = {}): Promise<PlaceIndex> {
  const clock = lapClock();
  // a bad profiles document fails before any work, naming its field
  const profiles = options.profiles === undefined ? DEFAULTS : compileProfiles(checkProfiles(options.profiles));
  if (options.contract !== undefined && !CONTRACTS.includes(options.contract))
    throw new TypeError(`loadPbf: contract must be 'auto', 'always' or 'never', got ${JSON.stringify(options.contract)}`);
  const stats: LoadStats = {
    nodes: 0,
    ways: 0,
    relations: 0,
    points: 0,
    lineStrings: 0,
    polygons: 0,
    multiPolygons: 0,
    partial: 0,
    skippedWays: 0,
    skippedRelations: 0,
    schedules: 0,
    badSchedules: 0,
    skippedBlobs: 0,
    roadNodes: 0,
    roadEdges: 0,
    restrictions: 0,
    skippedRestrictions: 0,
    duplicates: 0,
  };
  const ms: LoadTimings = { read: 0, decode: 0, types: 0, addresses: 0, search: 0, roads: 0 };
  const built = await ingest(source, { options, profiles, stats, ms, clock });
  ms.decode = clock();
  const workers = built.workers;
  const index = await assemble(built.table, built.graph, built.areas, stats, ms, {
    license: options.license ?? OSM_LICENSE,
    contract: options.contract,
    threads: workers > 0 && options.workers !== undefined ? true : workers > 0 ? undefined : false,
  });
  options.onProgress?.({ bytesRead: built.bytes, bytesTotal: built.bytes, objects: built.objects });
  return index;
}

/** What `ingest` makes of a PBF: the model, the decoder threads it used, and the counts the last progress report gives. */
interface Ingested {
  table: PlaceTable;
  workers: number;
  graph: RoadGraph | undefined;
  areas: Area[];
  bytes: number;
  objects: number;
}

/**
 * Reads and decodes a PBF and builds the place table, the road graph and the administrative
 * areas, filling `stats` and `ms.read`. A function of its own, the file opened in it, so that
 * the decoded file (every node, way and relation: most of a load's peak memory) is garbage by
 * the time `assemble` builds the indexes; held in `loadPbf`'s frame it would live to its end.
 */
async function ingest(
  source: string | Uint8Array,
  o: { options: LoadOptions; profiles: Profiles; stats: LoadStats; ms: LoadTimings; clock: () => number },
  keepStrings = false,
  shownBefore = -1,
): Promise<Ingested> {
  const { stats, profiles } = o;
  Object.assign(stats, { partial: 0, skippedWays: 0, skippedRelations: 0 }); // counted again by a second reading
  const onProgress = o.options.onProgress;
  // a second reading (below) reports nothing until it is past where the first one got: progress never goes back
  let shown = shownBefore;
  const progress = (p: LoadProgress) => {
    if (p.bytesRead < shown) return;
    shown = p.bytesRead;
    onProgress?.(p);
  };
  const pbf = await openPbf(source, o.options.strict);
  const workers = o.options.workers ?? defaultWorkers(pbf.size);
  const withRoads = o.options.roads !== false;
  const total = pbf.size;
  let read = pbf.headerEnd;
  let objects = 0;
  stats.skippedBlobs = pbf.skipped.length;
  if (!keepStrings) o.ms.read = o.clock();
  progress({ bytesRead: read, bytesTotal: total, objects });

  // The builders take each block as it arrives, in file order, while the threads
  // decode the next ones. That holds while the file is sorted by type (nodes, ways,
  // relations), as extracts are; a file that is not gets built again at the end.
  const osm = new Osm();
  let places: PlaceBuilder | undefined = new PlaceBuilder(osm, stats, guessSizes(total));
  let roads: RoadBuilder | undefined = withRoads ? new RoadBuilder(osm, profiles) : undefined;
  let phase = 0; // 0 nodes, 1 ways, 2 relations
  // While the file reads as sorted (by type, then id, each id once), the string tables of its node
  // and way blocks are let go once the builders have taken them: nothing reads them after, and held
  // (tens of millions of strings at Nepal scale) they cost the garbage collector a tenth of the load.
  // A file found otherwise on the way, whose blocks are built again at the end, is read again keeping them.
  const order = new IdOrder();
  let dropped = false;
  const letGo = (b: Block) => {
    if (b.relId.length) return; // relations' are read at the end (administrative areas)
    b.strings = [];
    dropped = true;
  };
  try {
    await readBlocks(pbf, workers, PLACE_KEEP, (seq, blk) => {
      osm.add(blk);
      read += pbf.data[seq].length;
      objects += blk.nodeId.length + blk.wayId.length + blk.relId.length;
      progress({ bytesRead: Math.min(read, total), bytesTotal: total, objects });
      if (!places) return;
      if ((blk.nodeId.length && phase > 0) || (blk.wayId.length && phase > 1)) {
        if (dropped) throw AGAIN;
        places = roads = undefined;
        return;
      }
      const kind = blk.relId.length ? 2 : blk.wayId.length ? 1 : 0;
      if (kind >= 1 && phase < 1) {
        osm.indexNodes();
        roads?.nodesDone();
        phase = 1;
        // the node blocks' strings: read until now by the road builder, for its barriers
        if (!keepStrings) for (const b of osm.blocks) if (b !== blk) letGo(b);
      }
      if (kind === 2 && phase < 2) {
        osm.indexWays();
        phase = 2;
      }
      const bi = osm.blocks.length - 1;
      places.nodes(blk, bi);
      places.ways(blk, bi);
      places.relations(blk, bi);
      roads?.ways(blk);
      roads?.relations(blk);
      if (keepStrings) return;
      if (!order.next(blk)) {
        if (dropped) throw AGAIN;
        keepStrings = true;
      } else if (phase > 0) letGo(blk);
    });
  } catch (err) {
    if ((err as Error).cause !== AGAIN) throw err;
    return ingest(source, o, true, shown);
  }
  // repeated ids (merged extracts): the last version of each object is kept, and what the
  // stream built of the earlier ones is built again without them
  stats.duplicates = dropDuplicates(osm.blocks, { nodes: osm.nodes, ways: osm.ways });
  if (stats.duplicates) places = roads = undefined;
  Object.assign(stats, osm.counts());
  let table: PlaceTable;
  if (places) table = places.finish();
  else {
    Object.assign(stats, { partial: 0, skippedWays: 0, skippedRelations: 0 });
    table = buildPlaces(osm, stats);
  }
  const network = !withRoads ? undefined : roads ? roads.finish() : buildRoads(osm, profiles);
  if (network) Object.assign(stats, network.stats);
  return { table, workers, graph: network?.graph, areas: osmAdminAreas(osm), bytes: total, objects };
}

// What the stream throws to read the file again, keeping every block's strings (`ingest`).
const AGAIN = new Error('the file is not sorted: read again');

// Milliseconds since the previous call (or since the clock was made), rounded.
function lapClock(): () => number {
  let clock = performance.now();
  return () => {
    const now = performance.now();
    const ms = now - clock;
    clock = now;
    return Math.round(ms);
  };
}

// central Kathmandu's kept objects per MiB of PBF, doubled
const PLACES_PER_MB = 9000;
const PAIRS_PER_MB = 36000;
const REFS_PER_MB = 10000;

// Starting capacities of the place table for a file of `bytes` bytes, at twice the
// density of central Kathmandu, the densest data we know; the table grows past them
// if need be. Unused capacity costs address space, not memory, until written.
function guessSizes(bytes: number): Sizes {
  const mb = bytes / (1 << 20);
  return {
    places: 1024 + Math.ceil(mb * PLACES_PER_MB),
    pairs: 8192 + Math.ceil(mb * PAIRS_PER_MB),
    refs: 8192 + Math.ceil(mb * REFS_PER_MB),
  };
}
