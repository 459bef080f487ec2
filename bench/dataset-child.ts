// Sections 2–4 on one file, in a child process (see child.ts):
//
//   node --expose-gc --import tsx bench/dataset-child.ts NAME PARTS [CLASS...]
//
// NAME: fixture or a generated file (places-10k, places-100k, places-1m, nepal).
// PARTS: comma-separated memory, scaling, nearby; nearby runs the named classes
// (all when none are named). Prints one JSON line per result as it is made (a
// `DatasetLine`), so what was measured survives the child being killed, and a
// `begin` line before each class says which one was running when it was.

import { Baselines } from './baselines.js';
import { FIXTURE, GENERATED, generated, load, type Dataset } from './datasets.js';
import { measureMemory, type MemoryRow } from './memory.js';
import { measureClass, nearbyClasses, type NearbyRow } from './nearby.js';
import { measureScaling, type ScalingRow } from './scaling.js';
import { progress } from './load.js';

/** One line of a dataset child's output. */
export type DatasetLine =
  | { part: 'load'; ms: number; places: number }
  | { part: 'memory'; row: MemoryRow }
  | { part: 'scaling'; row: ScalingRow }
  | { part: 'begin'; class: string }
  | { part: 'nearby'; row: NearbyRow };

function emit(line: DatasetLine): void {
  process.stdout.write(JSON.stringify(line) + '\n');
}

async function main(): Promise<void> {
  const [name, partList = '', ...only] = process.argv.slice(2);
  const parts = new Set(partList.split(',').filter(Boolean));
  if (name !== 'fixture' && !(GENERATED as readonly string[]).includes(name)) throw new Error(`unknown dataset ${name}`);
  const d: Dataset | string = name === 'fixture' ? FIXTURE : generated(name as (typeof GENERATED)[number]);
  if (typeof d === 'string') throw new Error(d);
  progress(`${name}: loading`);
  const loaded = await load(d);
  emit({ part: 'load', ms: loaded.ms, places: loaded.index.size });
  if (parts.has('memory')) emit({ part: 'memory', row: measureMemory(name, loaded) });
  if (parts.has('scaling')) {
    progress(`${name}: scaling query`);
    emit({ part: 'scaling', row: measureScaling(name, loaded.index, d.centres) });
  }
  if (parts.has('nearby')) {
    const base = new Baselines(loaded.index);
    for (const cls of nearbyClasses(loaded.index, d.centres)) {
      if (only.length && !only.includes(cls.name)) continue;
      progress(`${name}: nearby ${cls.name}`);
      emit({ part: 'begin', class: cls.name });
      emit({ part: 'nearby', row: measureClass(name, loaded.index, base, cls) });
    }
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
