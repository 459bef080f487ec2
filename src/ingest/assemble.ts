import type { Contract, LoadStats, LoadTimings } from '../types.js';
import { PLACE, POINT, LINE, POLYGON, MULTIPOLYGON, type PlaceTable } from '../model/table.js';
import type { Area } from '../geom/areas.js';
import { buildTypeTrees } from '../index/type-trees.js';
import { PlaceIndex } from '../index/place-index.js';
import { Streets } from '../index/streets.js';
import { addressInput, computeAddresses, mergeAddresses, storeAddresses, type AddressInput, type AddressRun } from '../address/assign.js';
import { startThread } from '../load/thread.js';
import type { RoadGraph } from '../model/roads.js';
import { Router } from '../route/router.js';

/** How `assemble` works. */
export interface AssembleOptions {
  license: string;
  /** Compute addresses on a thread: `true` always, `false` never, undefined by the table's size. */
  threads?: boolean;
  /** Contract the road graph; `'auto'` (the default) by its size (`CONTRACT_NODES`). */
  contract?: Contract;
}

/** Junctions up to which a load contracts the road graph by default. */
export const CONTRACT_NODES = 20_000;

/**
 * Makes the `PlaceIndex` of what the builders produced: the place table's stats,
 * its addresses (from the table and the PBF's administrative areas), the type,
 * lookup, text and reverse indexes, and the router of the road graph. Adds each phase's milliseconds to `ms`.
 */
export async function assemble(
  table: PlaceTable,
  roads: RoadGraph | undefined,
  areas: Area[],
  stats: LoadStats,
  ms: LoadTimings,
  options: AssembleOptions,
): Promise<PlaceIndex> {
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
  // Addresses need the whole table but nothing of the indexes below: on a big table
  // most rows' are computed on a thread meanwhile and the rest here once the indexes are
  // built (the thread would finish long after them alone); on a small table all here (a
  // thread's start-up would cost more).
  let clock = performance.now();
  const started = clock;
  const input = addressInput(table, areas);
  const streets = new Streets(table);
  const threaded = options.threads ?? table.size >= THREAD_ROWS;
  const split = threaded ? Math.round(table.size * THREAD_SHARE) : 0;
  const addresses = threaded ? addressesOnThread(input, { from: 0, to: split }) : undefined;
  addresses?.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
  const types = buildTypeTrees(table);
  ms.types = Math.round(performance.now() - clock);
  clock = performance.now();
  const index = new PlaceIndex(table, types, streets, options.license, stats);
  ms.search = Math.round(performance.now() - clock);
  clock = performance.now();
  if (roads) {
    index.router = new Router(roads);
    const contract = options.contract ?? 'auto';
    if (contract === 'always' || (contract === 'auto' && roads.nodeLon.length <= CONTRACT_NODES)) index.router.contract();
  }
  ms.roads = Math.round(performance.now() - clock);
  const here = await computeAddresses(input, streets, { from: split, to: table.size });
  storeAddresses(table, mergeAddresses(addresses ? [await addresses, here] : [here], table.size));
  ms.addresses = Math.round(performance.now() - started);
  index.timings = ms;
  return index;
}

// Rows from which addresses are worth a thread by default (the Kathmandu fixture has
// 6,888); threads asked for with `workers` are used whatever the size.
const THREAD_ROWS = 50_000;

// The share of a big table's rows whose addresses the thread computes, so that both threads end
// together: at Nepal scale the main thread's type trees and router take about a sixth as long as
// all the addresses (413 MB: 3.3 of 20.7 s of CPU; 133 MB: 1.5 of 7), the rest of the index being
// made on first use.
const THREAD_SHARE = 0.6;

// Computes the addresses of a run of rows on a thread; if the thread fails, here.
function addressesOnThread(input: AddressInput, run: { from: number; to: number }): Promise<AddressRun> {
  return new Promise<AddressRun>((resolve, reject) => {
    const w = startThread(import.meta.url, '../address/worker');
    let settled = false;
    const fallback = () => {
      if (settled) return;
      settled = true;
      void w.terminate();
      computeAddresses(input, undefined, run).then(resolve, reject);
    };
    w.once('message', (m: { list?: AddressRun; error?: string }) => {
      if (!m.list) return fallback();
      settled = true;
      void w.terminate();
      resolve(m.list);
    });
    w.once('error', fallback);
    w.postMessage({ input, run });
  });
}
