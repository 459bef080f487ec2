/** The data file of the query commands and `serve`: loaded, its skipped blobs warned about or, with --strict, refused. */
import { DEFAULT_PBF } from '../data.js';
import type { PlaceIndex } from '../index/place-index.js';
import { loadFile } from '../build/file.js';
import type { LoadStats } from '../types.js';
import { Failure, UsageError, warn, type Options } from './args.js';

/** The options that choose the data, for a command's `parseCommand`. */
export const DATA_OPTIONS = {
  data: { type: 'string' },
  pbf: { type: 'string' },
  strict: { type: 'boolean' },
} as const satisfies Options;

/** How `--help` describes them. */
export const DATA_HELP = `  --data FILE   an OSM PBF or a snapshot (nepal-places build), told apart by its first
                bytes; --pbf FILE is the same (default: the bundled Kathmandu fixture)
  --strict      refuse a PBF with blobs of unknown type (damaged data the format's
                rule would skip), and a snapshot built from one`;

/** The file the options name (the bundled fixture when none). @throws {UsageError} */
export function dataFile(values: { data?: string; pbf?: string }): string {
  if (values.data !== undefined && values.pbf !== undefined) throw new UsageError('--pbf is another name for --data: give one of them');
  const file = values.data ?? values.pbf;
  if (file === '') throw new UsageError(`--${values.data !== undefined ? 'data' : 'pbf'} must name a file`);
  return file ?? DEFAULT_PBF;
}

/**
 * Loads a PBF or a snapshot. Blobs of unknown type, which the format says to skip,
 * are mostly damage: a warning on stderr says how many, and `strict` refuses the file.
 * `contract`: a PBF's road graph gets its contraction hierarchies whatever its size (a
 * server's routes then take a millisecond at Nepal scale, for some 20 s more at start).
 * @throws {PbfError | SnapshotError | Failure}
 */
export async function openData(command: string, file: string, strict: boolean, contract?: boolean): Promise<PlaceIndex> {
  const index = await loadFile(file, { strict, contract });
  // a strict PBF load has refused such a file already; a snapshot keeps its PBF's count
  checkSkipped(command, file, index.stats, strict);
  return index;
}

/** Warns about skipped blobs, or with `strict` refuses them. @throws {Failure} */
export function checkSkipped(command: string, file: string, stats: LoadStats, strict: boolean): void {
  const n = stats.skippedBlobs;
  if (!n) return;
  const what = `${n} blob${n === 1 ? '' : 's'} of unknown type`;
  if (strict) throw new Failure(`${file}: built from a PBF with ${what} skipped; --strict refuses it`);
  warn(command, `${file}: ${what} skipped, so the places in ${n === 1 ? 'it are' : 'them are'} missing (damaged data?); --strict refuses such files`);
}
