import { readFile } from 'node:fs/promises';
import { PbfError } from '../errors.js';
import type { LoadOptions, LoadStats, LoadTimings } from '../types.js';
import { scanFrames, readHeader, describeSkipped } from './frames.js';
import { inflateBlob } from './blob.js';
import { decodeFrames, defaultWorkers } from './decode.js';
import { Osm } from './osm.js';
import { buildPlaces, PlaceBuilder, PLACE, POINT, LINE, POLYGON, MULTIPOLYGON, type PlaceTable, type Sizes } from './places.js';
import { buildTypeTrees } from '../index/type-trees.js';
import { PlaceIndex } from '../index/place-index.js';
import { Streets } from '../index/streets.js';
import { osmAdminAreas } from '../address/admin.js';
import { addressInput, computeAddresses, storeAddresses, type AddressInput } from '../address/assign.js';
import { startThread } from './thread.js';

/** The license of OSM data, the default `license` of every record. */
export const OSM_LICENSE = '© OpenStreetMap contributors, ODbL 1.0';

/**
 * Loads an OSM PBF file (a path, or its bytes) into a `PlaceIndex`.
 * A missing, truncated, corrupt or non-PBF file rejects with `PbfError` naming it;
 * so does, with `strict`, a file with blobs of unknown type (counted in
 * `stats.skippedBlobs` otherwise).
 *
 * @example
 * const index = await loadPbf('nepal-latest.osm.pbf');
 */
export async function loadPbf(source: string | Uint8Array, options: LoadOptions = {}): Promise<PlaceIndex> {
  const file = typeof source === 'string' ? source : '<buffer>';
  let clock = performance.now();
  const lap = () => {
    const now = performance.now();
    const ms = now - clock;
    clock = now;
    return Math.round(ms);
  };
  let buf: Uint8Array;
  if (typeof source === 'string') {
    try {
      buf = await readFile(source);
    } catch (err) {
      throw new PbfError(file, cannotRead(err), { cause: err, code: (err as NodeJS.ErrnoException).code });
    }
  } else if (source instanceof Uint8Array) {
    buf = source;
  } else {
    throw new PbfError('<unknown>', 'source must be a file path or a Uint8Array');
  }

  const fail = (err: unknown): never => {
    throw new PbfError(file, (err as Error).message, { cause: err, code: (err as NodeJS.ErrnoException).code });
  };
  let frames: ReturnType<typeof scanFrames>;
  try {
    frames = scanFrames(buf);
    const h = frames.header;
    // read for its required features: a file that needs what this reader lacks is refused
    readHeader(inflateBlob(buf.subarray(h.offset, h.offset + h.length)), h);
  } catch (err) {
    return fail(err);
  }
  if (options.strict && frames.skipped.length) {
    fail(new Error(`${describeSkipped(frames.skipped)}: strict loading refuses a file whose data it would skip`));
  }

  const total = buf.length;
  let read = frames.header.offset + frames.header.length;
  const progress = options.onProgress;
  let objects = 0;
  progress?.({ bytesRead: read, bytesTotal: total, objects });
  const workers = options.workers ?? defaultWorkers(total);
  const stats: LoadStats = {
    nodes: 0, ways: 0, relations: 0, points: 0, lineStrings: 0, polygons: 0, multiPolygons: 0, partial: 0,
    skippedWays: 0, skippedRelations: 0, schedules: 0, badSchedules: 0, skippedBlobs: frames.skipped.length,
  };
  const ms: LoadTimings = { read: lap(), decode: 0, types: 0, addresses: 0, search: 0 };

  // Places are built from each block as it arrives, in file order, while the threads
  // decode the next ones. That holds while the file is sorted by type (nodes, ways,
  // relations), as extracts are; a file that is not gets built again at the end.
  const osm = new Osm();
  let builder: PlaceBuilder | undefined = new PlaceBuilder(osm, stats, guessSizes(total));
  let phase = 0; // 0 nodes, 1 ways, 2 relations
  await decodeFrames(buf, frames.data, workers, (seq, blk) => {
    osm.add(blk);
    read += frames.data[seq].length;
    objects += blk.nodeId.length + blk.wayId.length + blk.relId.length;
    progress?.({ bytesRead: Math.min(read, total), bytesTotal: total, objects });
    if (!builder) return;
    const kind = blk.relId.length ? 2 : blk.wayId.length ? 1 : 0;
    if ((blk.nodeId.length && phase > 0) || (blk.wayId.length && phase > 1)) {
      builder = undefined;
      return;
    }
    if (kind >= 1 && phase < 1) { osm.indexNodes(); phase = 1; }
    if (kind === 2 && phase < 2) { osm.indexWays(); phase = 2; }
    const bi = osm.blocks.length - 1;
    builder.nodes(blk, bi);
    builder.ways(blk, bi);
    builder.relations(blk, bi);
  }).catch(fail);
  Object.assign(stats, osm.counts());
  let table: PlaceTable;
  if (builder) table = builder.finish();
  else {
    Object.assign(stats, { partial: 0, skippedWays: 0, skippedRelations: 0 });
    table = buildPlaces(osm, stats);
  }
  for (let p = 0; p < table.size; p++) {
    if (table.what[p] !== PLACE) continue;
    const g = table.geom[p];
    if (g === POINT) stats.points++;
    else if (g === LINE) stats.lineStrings++;
    else if (g === POLYGON) stats.polygons++;
    else if (g === MULTIPOLYGON) stats.multiPolygons++;
  }
  stats.schedules = table.schedules.size + table.schedules.bad;
  stats.badSchedules = table.schedules.bad;
  ms.decode = lap();
  // Addresses need the whole table but nothing of the indexes below: on a big table
  // they are computed on a thread meanwhile, on a small one here (a thread's start-up
  // would cost more).
  const started = performance.now();
  const input = addressInput(table, osmAdminAreas(osm));
  const streets = new Streets(table);
  const threaded = workers > 0 && (options.workers !== undefined || table.size >= THREAD_ROWS);
  const addresses = threaded ? addressesOnThread(input) : computeAddresses(input, streets);
  addresses.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
  const types = buildTypeTrees(table);
  ms.types = lap();
  const index = new PlaceIndex(table, types, streets, options.license ?? OSM_LICENSE, stats);
  ms.search = lap();
  storeAddresses(table, await addresses);
  ms.addresses = Math.round(performance.now() - started);
  lap();
  index.timings = ms;
  progress?.({ bytesRead: total, bytesTotal: total, objects });
  return index;
}

/** Why a file could not be read, in the words of a load error. */
export function cannotRead(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'is a directory' : `cannot read (${e.message})`;
}

// Rows from which addresses are worth a thread by default (the Kathmandu fixture has
// 6,888); threads asked for with `workers` are used whatever the size.
const THREAD_ROWS = 50_000;

// Computes the addresses on a thread; if the thread fails, here.
function addressesOnThread(input: AddressInput): Promise<string[]> {
  return new Promise<string[]>((resolve, reject) => {
    const w = startThread(import.meta.url, '../address/worker');
    let settled = false;
    const fallback = () => {
      if (settled) return;
      settled = true;
      void w.terminate();
      computeAddresses(input).then(resolve, reject);
    };
    w.once('message', (m: { list?: string[]; error?: string }) => {
      if (!m.list) return fallback();
      settled = true;
      void w.terminate();
      resolve(m.list);
    });
    w.once('error', fallback);
    w.postMessage(input);
  });
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
  return { places: 1024 + Math.ceil(mb * PLACES_PER_MB), pairs: 8192 + Math.ceil(mb * PAIRS_PER_MB), refs: 8192 + Math.ceil(mb * REFS_PER_MB) };
}
