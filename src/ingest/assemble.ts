import type { Contract, LoadStats, LoadTimings } from '../types.js';
import { PLACE, POINT, LINE, POLYGON, MULTIPOLYGON, type PlaceTable } from '../model/table.js';
import type { Area } from '../geom/areas.js';
import { buildTypeTrees } from '../index/type-trees.js';
import { PlaceIndex } from '../index/place-index.js';
import { Streets } from '../index/streets.js';
import { RowAddresses, computeAddresses, type AddressInput, type AddressRun } from '../address/assign.js';
import { nepalDistricts } from '../address/admin.js';
import { Later } from '../index/later.js';
import { startThread } from '../load/thread.js';
import type { RoadGraph } from '../model/roads.js';
import { Router } from '../route/router.js';

/** How `assemble` works. */
export interface AssembleOptions {
  license: string;
  /** Make the addresses on a thread too when `fillAddresses` makes them all: `true` always, `false` never, undefined by the table's size. */
  threads?: boolean;
  /** Contract the road graph; `'auto'` (the default) by its size (`CONTRACT_NODES`). */
  contract?: Contract;
}

/** Junctions up to which a load contracts the road graph by default. */
export const CONTRACT_NODES = 20_000;

/**
 * Makes the `PlaceIndex` of what the builders produced: the place table's stats, the type
 * indexes and the router of the road graph, the rest made on first use: the lookup, text and
 * reverse indexes, and each row's address (from the table and the PBF's administrative areas,
 * `RowAddresses`). Adds each phase's milliseconds to `ms`.
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
  let clock = performance.now();
  const types = buildTypeTrees(table);
  ms.types = Math.round(performance.now() - clock);
  clock = performance.now();
  const streets = new Later(() => new Streets(table));
  const index = new PlaceIndex(table, types, streets, options.license, stats);
  ms.search = Math.round(performance.now() - clock);
  clock = performance.now();
  if (roads) {
    index.router = new Router(roads);
    const contract = options.contract ?? 'auto';
    if (contract === 'always' || (contract === 'auto' && roads.nodeLon.length <= CONTRACT_NODES)) index.router.contract();
  }
  ms.roads = Math.round(performance.now() - clock);
  // each row's address is made when a query first returns it; `fillAddresses` makes them all
  table.pending = new RowAddresses(table, areas, await nepalDistricts(), () => streets.get(), options.threads);
  ms.addresses = 0;
  index.timings = ms;
  return index;
}

/**
 * Makes and stores every row's address of a load's index now (what `openWhole` and
 * `buildSnapshot` do on this thread alone): on two threads where the table is big, or the load's
 * `threads` says so (`AssembleOptions`).
 */
export async function fillAddresses(index: PlaceIndex): Promise<void> {
  const t = index.table;
  if (!(t.pending instanceof RowAddresses)) return t.pending?.fill();
  if (!(t.pending.threads ?? t.size >= THREAD_ROWS)) return t.pending.fill();
  await t.pending.fillWith(addressesOnThread, THREAD_SHARE);
}

// Rows from which addresses are worth a thread by default (the Kathmandu fixture has
// 6,888); threads asked for with `workers` are used whatever the size.
const THREAD_ROWS = 50_000;

// The share of a big table's rows whose addresses the thread computes, so that both end together
// (`fillAddresses` of a 133 MB load, two runs each: 0.45 3.9–4.0 s, 0.5 3.8, 0.55 3.5–3.7, 0.6 3.5–3.9, 0.65 3.8–4.5).
const THREAD_SHARE = 0.55;

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
