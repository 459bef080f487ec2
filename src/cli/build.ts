/**
 * `nepal-places build`: a PBF in, a snapshot out.
 *
 *   nepal-places build IN.osm.pbf -o OUT.places [--tiles OUT.pmtiles] [--bbox W,S,E,N | --region NAME] [--modes M,…] [--no-routing] [--no-search] [--workers N] [--license TEXT] [--strict] [--quiet] [--json]
 *
 * Progress and a summary go to stderr (stdout stays free for pipes, and for the
 * summary as JSON with --json); the snapshot is
 * written to a temporary file beside OUT and renamed over it, so OUT is either the old
 * file or the whole new one, never half of it. `--tiles` writes the map's vector tiles
 * too (`buildTiles`, as `nepal-places tiles` does), after the snapshot: a second decode
 * of the file, because the snapshot's loader keeps only the tags of places while the
 * map keeps every tag and node of the file, and holding both at once would add their
 * peak memory (1.7 and 2.2 GB at Nepal's scale) where one after the other peaks at the larger.
 * `--bbox`, `--region`, `--modes`, `--no-routing` and `--no-search` write a pack (`packIndex`):
 * the whole file is loaded, then the area and parts cut from it, so that addresses and road
 * speeds are those of the whole data.
 */
import { readFileSync, unlinkSync } from 'node:fs';
import { open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { DistrictTableError } from '../address/districts.js';
import { PbfError, ProfileError } from '../errors.js';
import { checkProfiles, type ProfilesDoc } from '../osm/profiles.js';
import type { PlaceIndex } from '../index/place-index.js';
import { loadPbf } from '../ingest/load.js';
import { fillAddresses } from '../ingest/assemble.js';
import { buildTiles, temporaryPath, type TilesResult } from '../tiles/build.js';
import { buildSnapshot } from '../snapshot/build.js';
import { checkBbox, checkPack, isPack, packIndex, PackError, REGIONS, type PackOptions } from '../snapshot/pack.js';
import type { PackInfo } from '../index/place-index.js';
import { MODES } from '../osm/modes.js';
import { sectionSizes } from '../snapshot/sections.js';
import { isSnapshot, MAGIC } from '../snapshot/format.js';
import { formatBytes, formatCount, formatDuration, Progress } from './progress.js';
import { EXIT, Failure, guard, parseCommand, UsageError, warn } from './args.js';
import { checkSkipped } from './data.js';
import { zoomLine } from './tiles.js';
import { outputProblem } from './output.js';

const USAGE =
  'usage: nepal-places build IN.osm.pbf -o OUT.places [--tiles OUT.pmtiles] [--bbox W,S,E,N | --region NAME] [--modes M,…] [--no-routing] [--no-search] [--workers N] [--license TEXT] [--profiles FILE] [--strict] [--quiet] [--json]';

const HELP = `${USAGE}

Loads an OSM PBF and writes it as a snapshot, which nearby, serve and loadFile()
read in a fraction of the PBF's load time.

  -o, --output FILE   the snapshot to write (required); replaced whole, never half-written
  --tiles FILE        the map's vector tiles too (a PMTiles archive, as nepal-places tiles
                      writes it); serve --data OUT.places finds OUT.pmtiles beside it
  --workers N         decoder threads, 0 decodes on the main thread (default: by file size and cores)
  --license TEXT      the license of every record (default: © OpenStreetMap contributors, ODbL 1.0)
  --profiles FILE     routing profiles, a JSON document (docs/routing.md, "Profiles"): the modes
                      it gives replace the shipped ones; checked before the PBF is read

A pack: a snapshot of one area, or of some parts (docs/cli.md, "Packs"):
  --bbox W,S,E,N      only what lies in this box (degrees: west, south, east, north); roads
                      crossing its edge are kept to their first junction outside
  --region NAME       only what lies in a named region: ${Object.keys(REGIONS).join(', ')}
  --modes M,…         route only these modes (of ${MODES.join(', ')})
  --no-routing        no road graph: no route, matrix, isochrone or nearby by travel time
  --no-search         no text index: no search
  --strict            refuse a PBF with blobs of unknown type (damaged data the format's
                      rule would skip; without --strict they are skipped with a warning)
  --quiet             print nothing but errors and warnings
  --json              the summary as one JSON object on stdout instead of lines on stderr
  -h, --help          this help

Progress and a summary go to stderr: a bar on a terminal, a line every tenth of the
file otherwise. Exit codes: 0 written, 1 failed (an unreadable or bad PBF, an
unwritable output), 2 bad usage.`;

/** Decoder threads beyond this are a typo, not a plan: the main thread's place building is the limit long before. */
const MAX_WORKERS = 64;

interface Args {
  input: string;
  output: string;
  tiles?: string;
  quiet: boolean;
  json: boolean;
  strict: boolean;
  workers?: number;
  license?: string;
  /** The profiles file's path, and its document once read and checked. */
  profilesFile?: string;
  profiles?: unknown;
  /** The pack asked for, checked; undefined for the whole file. */
  pack?: PackOptions;
}

/** Runs the subcommand; resolves with the exit code. */
export function run(argv: string[]): Promise<number> {
  return guard('build', () => build(argv), USAGE);
}

async function build(argv: string[]): Promise<number> {
  const t0 = performance.now();
  const args = parse(argv);
  if (args === 'help') {
    process.stdout.write(`${HELP}\n`);
    return EXIT.ok;
  }

  // Found out now rather than after a load of minutes.
  for (const file of [args.output, args.tiles]) {
    const problem = file === undefined ? undefined : await outputProblem(file);
    if (problem) throw new Failure(`${file}: ${problem}`);
  }
  if (args.profilesFile !== undefined) args.profiles = readProfiles(args.profilesFile);

  const stderr = process.stderr;
  const tty = stderr.isTTY && !args.quiet;
  // one line of what is going on, on a terminal only: a log gets the summary's times
  const status = (text: string) => void (tty && stderr.write(`\r${text}\x1b[K`));
  const progress = new Progress(args.quiet ? 'none' : stderr.isTTY ? 'bar' : 'lines', stderr, 'load');
  const t1 = performance.now();
  let index: PlaceIndex;
  try {
    index = await loadPbf(args.input, {
      onProgress: progress.update,
      workers: args.workers,
      license: args.license,
      strict: args.strict,
      profiles: args.profiles,
    });
  } catch (err) {
    progress.end();
    if (err instanceof PbfError && (await isSnapshotFile(args.input)))
      throw new Failure(`${args.input}: is a snapshot already; build reads an OSM PBF`);
    throw err;
  }
  progress.end();
  checkSkipped('build', args.input, index.stats, args.strict);
  const dups = index.stats.duplicates;
  if (dups)
    warn(
      'build',
      `${args.input}: ${dups} duplicate object${dups === 1 ? '' : 's'} (an id the file repeats, as merged extracts do): the last version of each kept`,
    );
  await fillAddresses(index); // on two threads: buildSnapshot would make them on this one
  const t2 = performance.now();
  let bytes: Uint8Array;
  status(args.pack ? 'cutting the pack…' : 'building the snapshot…');
  try {
    if (args.pack) index = cutPack(index, args.pack, args.input);
    status('building the snapshot…');
    bytes = buildSnapshot(index);
  } finally {
    status('');
  }
  const t3 = performance.now();
  status(`writing ${args.output}…`);
  try {
    await writeAtomically(args.output, bytes);
  } catch (err) {
    status('');
    throw new Failure(`${args.output}: cannot write (${(err as Error).message})`);
  }
  status('');
  const t4 = performance.now();
  const map = args.tiles === undefined ? undefined : await writeTiles(args, args.tiles);
  const t5 = performance.now();

  const pbfSize = (await stat(args.input)).size;
  const figures: BuildFigures = {
    output: args.output,
    size: bytes.length,
    sections: sectionSizes(bytes),
    pbfSize,
    load: t2 - t1,
    build: t3 - t2,
    write: t4 - t3,
    total: performance.now() - t0,
  };
  if (map) figures.tiles = { output: args.tiles!, tiles: map.archive.addressed, size: map.archive.bytes, ms: t5 - t4 };
  if (args.json) process.stdout.write(`${JSON.stringify(summaryJson(index, args.input, figures))}\n`);
  else if (!args.quiet) for (const line of summary(index, figures)) stderr.write(`${line}\n`);
  return EXIT.ok;
}

/**
 * The map of `--tiles`, from the same PBF, with its progress (a line per zoom) on stderr.
 * The archive is written beside `output` and renamed over it; Ctrl-C meanwhile removes it.
 */
async function writeTiles(args: Args, output: string): Promise<TilesResult> {
  const stderr = process.stderr;
  const mode = args.quiet ? 'none' : stderr.isTTY ? 'bar' : 'lines';
  const progress = new Progress(mode, stderr, 'tiles');
  const tmp = temporaryPath(output);
  const interrupted = (signal: NodeJS.Signals) => {
    try {
      unlinkSync(tmp);
    } catch {
      /* not there yet */
    }
    process.kill(process.pid, signal);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    return await buildTiles(args.input, output, {
      workers: args.workers,
      onProgress: progress.update,
      onZoom: (r) => void (mode !== 'none' && (progress.end(), stderr.write(`${zoomLine(r)}\n`))),
    });
  } catch (err) {
    progress.end();
    await unlink(tmp).catch(() => {});
    if (err instanceof PbfError || err instanceof DistrictTableError) throw new Failure(err.message);
    if ((err as NodeJS.ErrnoException).syscall) throw new Failure(`${output}: cannot write (${(err as Error).message})`);
    throw err;
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  }
}

// The pack of `options` cut from the whole index; a pack of nothing (a box beside the data, or
// swapped coordinates) fails rather than writes an empty snapshot.
function cutPack(index: PlaceIndex, options: PackOptions, input: string): PlaceIndex {
  const pack = packIndex(index, options);
  if (pack.table.size === 0 && !pack.router) {
    const b = index.bounds;
    const spans = b ? `; its data spans ${[b.west, b.south, b.east, b.north].map((v) => v.toFixed(4)).join(',')} (W,S,E,N)` : '';
    throw new Failure(`${input}: nothing of it lies in ${pack.pack!.region ?? 'the box'} ${pack.pack!.bbox!.join(',')}${spans}`);
  }
  return pack;
}

/** What `build --json` prints: one JSON object, the summary's figures as numbers. */
export interface BuildSummary {
  input: string;
  output: string;
  /** The places of `nearby` (rows kept only for search, reverse and addresses are not counted). */
  places: number;
  license: string;
  stats: PlaceIndex['stats'];
  /** Bytes of the snapshot and of the PBF. */
  size: number;
  pbfSize: number;
  /** Bytes of each section of the snapshot, by name, in file order (docs/snapshot-format.md). */
  sections: Record<string, number>;
  /** Wall milliseconds of each step (`tiles` with `--tiles`). */
  ms: { load: number; snapshot: number; write: number; tiles?: number; total: number };
  /** With `--tiles`: the archive written, its tiles and bytes. */
  tiles?: { output: string; tiles: number; size: number };
  /** The routing profiles the snapshot was built with (every mode), or null without roads. */
  profiles: ProfilesDoc | null;
  /** For a pack: what it holds (its box, region, modes, routing and search). */
  pack?: PackInfo;
}

/** The summary of `build --json`. */
export function summaryJson(index: PlaceIndex, input: string, f: BuildFigures): BuildSummary {
  const ms = (v: number) => Math.round(v);
  const t = f.tiles;
  return {
    input,
    output: f.output,
    places: index.size,
    license: index.license,
    stats: { ...index.stats },
    size: f.size,
    pbfSize: f.pbfSize,
    sections: Object.fromEntries(f.sections.map((s) => [s.name, s.bytes])),
    ms: { load: ms(f.load), snapshot: ms(f.build), write: ms(f.write), ...(t && { tiles: ms(t.ms) }), total: ms(f.total) },
    ...(t && { tiles: { output: t.output, tiles: t.tiles, size: t.size } }),
    profiles: index.router?.graph.profiles ?? null,
    ...(index.pack && { pack: index.pack }),
  };
}

/** What a summary reports beside the index: the files' sizes and the phases' wall milliseconds. */
export interface BuildFigures {
  output: string;
  size: number;
  /** The snapshot's sections and their bytes. */
  sections: { name: string; bytes: number }[];
  pbfSize: number;
  load: number;
  build: number;
  write: number;
  total: number;
  /** With `--tiles`: the archive, its tiles and bytes, and the milliseconds it took. */
  tiles?: { output: string; tiles: number; size: number; ms: number };
}

/**
 * The closing lines of `build`: what was written, the places by geometry kind, what
 * was skipped or incomplete, the sizes and the times.
 */
export function summary(index: PlaceIndex, f: BuildFigures): string[] {
  const s = index.stats;
  const n = formatCount;
  const ratio = f.pbfSize > 0 ? (f.size / f.pbfSize).toFixed(2) : '-';
  return [
    `nepal-places build: wrote ${f.output}`,
    `  places    ${n(index.size)}: ${n(s.points)} points, ${n(s.lineStrings)} lineStrings, ${n(s.polygons)} polygons, ${n(s.multiPolygons)} multiPolygons`,
    `  skipped   ${n(s.skippedWays)} ways, ${n(s.skippedRelations)} relations; ${n(s.partial)} partial; ${n(s.badSchedules)} bad opening_hours of ${n(s.schedules)}`,
    ...(index.pack ? [packLine(index.pack)] : []),
    `  snapshot  ${n(f.size)} bytes (${formatBytes(f.size)}), ${ratio}x the PBF's ${n(f.pbfSize)} bytes (${formatBytes(f.pbfSize)})`,
    ...(f.tiles
      ? [`  map       ${f.tiles.output}: ${n(f.tiles.tiles)} tiles, ${n(f.tiles.size)} bytes (${formatBytes(f.tiles.size)})`]
      : []),
    `  time      load ${formatDuration(f.load)}, snapshot ${formatDuration(f.build)}, write ${formatDuration(f.write)}${f.tiles ? `, tiles ${formatDuration(f.tiles.ms)}` : ''}, total ${formatDuration(f.total)}`,
  ];
}

// The summary's line of a pack: its area, its modes, whether it has search.
function packLine(p: PackInfo): string {
  const area = p.bbox ? `${p.region ? `${p.region} ` : ''}${p.bbox.join(',')}` : 'the whole data';
  const routes = p.routing ? `routes ${p.modes.join(', ')}` : 'no routing';
  return `  pack      ${area}; ${routes}; ${p.search ? 'search' : 'no search'}`;
}

function parse(argv: string[]): Args | 'help' {
  const { values: v, positionals } = parseCommand(
    argv,
    {
      output: { type: 'string', short: 'o' },
      tiles: { type: 'string' },
      quiet: { type: 'boolean' },
      json: { type: 'boolean' },
      strict: { type: 'boolean' },
      workers: { type: 'string' },
      license: { type: 'string' },
      profiles: { type: 'string' },
      bbox: { type: 'string' },
      region: { type: 'string' },
      modes: { type: 'string' },
      'no-routing': { type: 'boolean' },
      'no-search': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  const values = v as {
    output?: string;
    tiles?: string;
    quiet?: boolean;
    json?: boolean;
    strict?: boolean;
    workers?: string;
    license?: string;
    profiles?: string;
    bbox?: string;
    region?: string;
    modes?: string;
    'no-routing'?: boolean;
    'no-search'?: boolean;
    help?: boolean;
  };
  if (values.help) return 'help';
  const input = positionals[0];
  if (input === undefined || input === '') throw new UsageError('no input PBF given');
  if (positionals.length > 1) throw new UsageError(`one input PBF, got ${positionals.length}: ${positionals.join(' ')}`);
  const output = values.output;
  if (output === undefined || output === '') throw new UsageError('-o/--output OUT.places is required');
  if (resolve(output) === resolve(input)) throw new UsageError('the output must not be the input');
  const tiles = values.tiles;
  if (tiles === '') throw new UsageError('--tiles must name a file');
  if (tiles !== undefined && resolve(tiles) === resolve(input)) throw new UsageError('--tiles must not be the input');
  if (tiles !== undefined && resolve(tiles) === resolve(output)) throw new UsageError("--tiles must not be the snapshot's file");
  let workers: number | undefined;
  if (values.workers !== undefined) {
    const w = values.workers.trim();
    if (!/^\d+$/.test(w) || Number(w) > MAX_WORKERS)
      throw new UsageError(`--workers must be an integer from 0 to ${MAX_WORKERS}, got '${values.workers}'`);
    workers = Number(w);
  }
  if (values.license !== undefined && values.license.trim() === '') throw new UsageError('--license must not be empty');
  if (values.profiles === '') throw new UsageError('--profiles must name a file');
  const pack = packOptions(values);
  if (pack && tiles !== undefined)
    throw new UsageError(
      "--tiles makes the map of the whole file, not of a pack's area: write the tiles with a build without --bbox, --region, --modes, --no-routing or --no-search",
    );
  return {
    input,
    output,
    tiles,
    quiet: values.quiet ?? false,
    json: values.json ?? false,
    strict: values.strict ?? false,
    workers,
    license: values.license,
    profilesFile: values.profiles,
    pack,
  };
}

// The pack options of the command line, checked (a bad one is bad usage, named as its option);
// undefined when none is given.
function packOptions(v: {
  bbox?: string;
  region?: string;
  modes?: string;
  'no-routing'?: boolean;
  'no-search'?: boolean;
}): PackOptions | undefined {
  const o: PackOptions = {};
  if (v.bbox !== undefined) {
    const parts = v.bbox.split(',');
    if (parts.length !== 4 || !parts.every((p) => /^\s*[-+]?(\d+\.?\d*|\.\d+)\s*$/.test(p)))
      throw new UsageError(`--bbox must be four numbers W,S,E,N (degrees: west, south, east, north), got '${v.bbox}'`);
    o.bbox = parts.map(Number) as PackOptions['bbox'];
  }
  if (v.region !== undefined) o.region = v.region;
  if (v.modes !== undefined) o.modes = v.modes.split(',').map((m) => m.trim());
  if (v['no-routing']) o.routing = false;
  if (v['no-search']) o.search = false;
  if (!isPack(o)) return undefined;
  try {
    if (o.bbox) checkBbox(o.bbox);
    checkPack(o);
  } catch (err) {
    if (err instanceof PackError) throw new UsageError(`--${flag(err.option)}: ${err.message.slice(err.option.length + 2)}`);
    throw err;
  }
  return o;
}

// The command-line flag of a pack option.
function flag(option: keyof PackOptions): string {
  return option === 'routing' ? 'no-routing' : option === 'search' ? 'no-search' : option;
}

// The profiles file's document, checked: a file that cannot be read, is no JSON or is no valid
// profiles document fails the build before the PBF is read, naming the file and the field.
function readProfiles(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Failure(`${file}: cannot read the profiles: ${(err as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Failure(`${file}: the profiles are no JSON: ${(err as Error).message}`);
  }
  try {
    checkProfiles(doc);
  } catch (err) {
    if (err instanceof ProfileError) throw new Failure(`${file}: ${err.message}`);
    throw err;
  }
  return doc;
}

// Whether a file that failed as a PBF is a snapshot, a likely mix-up worth saying so.
async function isSnapshotFile(path: string): Promise<boolean> {
  try {
    const f = await open(path, 'r');
    try {
      const head = new Uint8Array(MAGIC.length);
      const { bytesRead } = await f.read(head, 0, head.length, 0);
      return isSnapshot(head.subarray(0, bytesRead));
    } finally {
      await f.close();
    }
  } catch {
    return false;
  }
}

/**
 * Writes `bytes` to a temporary file in `path`'s folder, flushes it to disk, and
 * renames it over `path` (a rename within one file system is atomic). On failure, or
 * on Ctrl-C meanwhile, the temporary file is removed.
 */
async function writeAtomically(path: string, bytes: Uint8Array): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const interrupted = (signal: NodeJS.Signals) => {
    void unlink(tmp)
      .catch(() => {})
      .finally(() => process.kill(process.pid, signal));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    const f = await open(tmp, 'w', 0o644);
    try {
      await f.writeFile(bytes);
      await f.sync();
    } finally {
      await f.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  }
}
