/**
 * `nepal-places tiles`: a PBF in, a PMTiles archive of vector tiles out.
 *
 *   nepal-places tiles IN.osm.pbf -o OUT.pmtiles [--workers N] [--max-zoom Z] [--no-nepali] [--quiet]
 *
 * Progress and a summary go to stderr; the archive is written beside OUT and renamed
 * over it, so OUT is either the old file or the whole new one.
 */
import { stat, unlink } from 'node:fs/promises';
import { unlinkSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildTiles, temporaryPath, type ShapedStats, type TilesResult } from '../tiles/build.js';
import { PbfError } from '../errors.js';
import { MAX_ZOOM } from '../tiles/project.js';
import type { ZoomReport } from '../tiles/tiler.js';
import { outputProblem } from './output.js';
import { formatBytes, formatCount, formatDuration, Progress } from './progress.js';

const USAGE = 'usage: nepal-places tiles IN.osm.pbf -o OUT.pmtiles [--workers N] [--max-zoom Z] [--no-nepali] [--quiet]';

const HELP = `${USAGE}

Builds the vector tiles (Mapbox Vector Tiles, the Protomaps basemap layers) of an
OSM PBF, zoom 0 to 14, into one PMTiles archive that a map (MapLibre) reads.

  -o, --output FILE   the archive to write (required); replaced whole, never half-written
  --workers N         decoder threads, 0 decodes on the main thread (default: by file size and cores)
  --max-zoom Z        the highest zoom, 0 to ${MAX_ZOOM} (default ${MAX_ZOOM}; maps overzoom beyond)
  --no-nepali         leave out the shaped Nepali labels: a smaller archive for the English
                      styles only (the Nepali style then falls back to unshaped names)
  --quiet             print nothing but errors
  -h, --help          this help

Progress and a summary go to stderr. Exit codes: 0 written, 1 failed (an unreadable or
bad PBF, an unwritable output), 2 bad usage.`;

class UsageError extends Error {}

interface Args {
  input: string;
  output: string;
  quiet: boolean;
  workers?: number;
  maxZoom?: number;
  nepali: boolean;
}

/** Runs the subcommand; resolves with the exit code. */
export async function run(argv: string[]): Promise<number> {
  const t0 = performance.now();
  let args: Args | 'help';
  try {
    args = parse(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`nepal-places tiles: ${err.message}\n${USAGE}\n`);
    return 2;
  }
  if (args === 'help') {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const fail = (message: string) => {
    process.stderr.write(`nepal-places tiles: ${message}\n`);
    return 1;
  };
  const problem = await outputProblem(args.output);
  if (problem) return fail(`${args.output}: ${problem}`);

  const stderr = process.stderr;
  const mode = args.quiet ? 'none' : stderr.isTTY ? 'bar' : 'lines';
  const progress = new Progress(mode, stderr, 'read');
  const tmp = temporaryPath(args.output);
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
  let result: TilesResult;
  try {
    result = await buildTiles(args.input, args.output, {
      workers: args.workers,
      maxZoom: args.maxZoom,
      shape: args.nepali,
      onProgress: progress.update,
      onZoom: (r) => {
        if (mode !== 'none') {
          progress.end();
          stderr.write(`${zoomLine(r)}\n`);
        }
      },
    });
  } catch (err) {
    progress.end();
    await unlink(tmp).catch(() => {});
    if (err instanceof PbfError) return fail(err.message);
    const e = err as NodeJS.ErrnoException;
    if (e.code && e.syscall) return fail(`${args.output}: cannot write (${e.message})`);
    throw err;
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  }
  const pbfSize = (await stat(args.input)).size;
  if (!args.quiet) for (const line of summary(result, args.output, pbfSize, performance.now() - t0)) stderr.write(`${line}\n`);
  return 0;
}

/** One zoom's line: its tiles and the largest one. */
export function zoomLine(r: ZoomReport): string {
  const z = String(r.zoom).padStart(2);
  if (!r.tiles) return `tiles z${z}: none`;
  return `tiles z${z}: ${formatCount(r.tiles)} tiles, ${formatCount(r.features)} features, ${formatBytes(r.totalGzip)}; largest ${formatBytes(r.maxGzip)} gzipped (${formatBytes(r.maxBytes)} raw) at ${r.maxTile}`;
}

/** The closing lines of `tiles`. */
export function summary(r: TilesResult, output: string, pbfSize: number, ms: number): string[] {
  const a = r.archive;
  const [w, s, e, n] = r.bounds.map((v) => v.toFixed(4));
  return [
    `nepal-places tiles: wrote ${output}`,
    `  features  ${formatCount(r.features)} (${formatCount(r.skipped)} ways and relations without enough nodes in the extract skipped), bounds ${w},${s} to ${e},${n}`,
    `  tiles     ${formatCount(a.addressed)} tiles, ${formatCount(a.contents)} distinct, ${formatCount(a.entries)} directory entries, ${a.leaves} leaf directories`,
    `  archive   ${formatCount(a.bytes)} bytes (${formatBytes(a.bytes)}), ${(a.bytes / pbfSize).toFixed(2)}x the PBF's ${formatBytes(pbfSize)}`,
    ...(r.shaped ? [shapedLine(r.shaped)] : []),
    `  time      read ${formatDuration(r.timings.read)}, decode and features ${formatDuration(r.timings.features)}, tiles ${formatDuration(r.timings.tiles)}, total ${formatDuration(ms)}`,
  ];
}

// The Nepali names shaped for the Nepali style, and those left unshaped beyond the Private Use Area.
function shapedLine(s: ShapedStats): string {
  const left =
    s.overflow === 0
      ? 'none left unshaped'
      : `${formatCount(s.overflow)} left unshaped (their clusters beyond the 6,400 code points): drawn as MapLibre can`;
  return `  nepali    ${formatCount(s.names)} names shaped on ${formatCount(s.features)} features, ${formatCount(s.clusters)} clusters; ${left}`;
}

function parse(argv: string[]): Args | 'help' {
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        output: { type: 'string', short: 'o' },
        quiet: { type: 'boolean' },
        workers: { type: 'string' },
        'max-zoom': { type: 'string' },
        'no-nepali': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message.split('. ')[0]!.replace(/\.$/, ''));
  }
  if (values.help) return 'help';
  const input = positionals[0];
  if (input === undefined || input === '') throw new UsageError('no input PBF given');
  if (positionals.length > 1) throw new UsageError(`one input PBF, got ${positionals.length}: ${positionals.join(' ')}`);
  const output = values.output;
  if (output === undefined || output === '') throw new UsageError('-o/--output OUT.pmtiles is required');
  if (resolve(output) === resolve(input)) throw new UsageError('the output must not be the input');
  const int = (name: string, v: string | undefined, max: number): number | undefined => {
    if (v === undefined) return undefined;
    if (!/^\d+$/.test(v.trim()) || Number(v) > max) throw new UsageError(`--${name} must be an integer from 0 to ${max}, got '${v}'`);
    return Number(v);
  };
  return {
    input,
    output,
    quiet: values.quiet ?? false,
    workers: int('workers', values.workers, 64),
    maxZoom: int('max-zoom', values['max-zoom'], MAX_ZOOM),
    nepali: !values['no-nepali'],
  };
}
