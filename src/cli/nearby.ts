import { parseArgs } from 'node:util';
import { loadFile } from '../build/file.js';
import { nearby } from '../query/nearby.js';
import { DEFAULT_PBF } from '../data.js';
import { InvalidQueryError, PbfError, SnapshotError } from '../errors.js';

const usage = 'usage: nepal-places nearby --type T --lat LAT --lon LON [--radius KM] [--limit N] [--sort-by] [--is-open] [--at ISO-8601] [--data FILE]';

const help = `${usage}

Prints the JSON array of nearby() for the query.

  --data FILE   an OSM PBF or a snapshot (nepal-places build), told apart by its first
                bytes; --pbf FILE is the same (default: the bundled Kathmandu fixture)
  -h, --help    this help`;

/** A bad command line: one line on stderr, exit code 2. */
class UsageError extends Error {}

/**
 * `nepal-places nearby`: prints the JSON array of `nearby()` for the arguments.
 * `--data` (or its older name `--pbf`) is a PBF or a snapshot; without it, the bundled
 * Kathmandu fixture.
 */
export async function run(argv: string[]): Promise<number> {
  let q: Parameters<typeof nearby>[1];
  let file: string;
  try {
    const args = parse(argv);
    if (args === 'help') {
      process.stdout.write(`${help}\n`);
      return 0;
    }
    ({ q, file } = args);
  } catch (err) {
    process.stderr.write(`nepal-places nearby: ${(err as Error).message}\n`);
    return 2;
  }
  try {
    const index = await loadFile(file);
    process.stdout.write(`${JSON.stringify(nearby(index, q), null, 2)}\n`);
    return 0;
  } catch (err) {
    if (err instanceof InvalidQueryError || err instanceof PbfError || err instanceof SnapshotError) {
      process.stderr.write(`nepal-places nearby: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
}

function parse(argv: string[]) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        type: { type: 'string' }, lat: { type: 'string' }, lon: { type: 'string' },
        radius: { type: 'string' }, limit: { type: 'string' }, 'sort-by': { type: 'boolean' },
        'is-open': { type: 'boolean' }, at: { type: 'string' }, data: { type: 'string' }, pbf: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    throw new UsageError(`${(err as Error).message.split('\n')[0]}; ${usage}`);
  }
  if (values.help) return 'help';
  if (values.data !== undefined && values.pbf !== undefined) throw new UsageError('--pbf is another name for --data: give one of them');
  const file = values.data ?? values.pbf;
  if (file === '') throw new UsageError(`--${values.data !== undefined ? 'data' : 'pbf'} must name a file`);
  const need = (name: 'type' | 'lat' | 'lon') => {
    const v = values[name];
    if (v === undefined || v === '') throw new UsageError(`--${name} is required; ${usage}`);
    return v;
  };
  const num = (name: string, v: string) => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${name} must be a number, got ${JSON.stringify(v)}`);
    return n;
  };
  const int = (name: string, v: string | undefined) => {
    if (v === undefined) return undefined;
    if (!/^\d+$/.test(v.trim())) throw new UsageError(`--${name} must be a positive integer, got ${JSON.stringify(v)}`);
    return Number(v);
  };
  let at: Date | undefined;
  if (values.at !== undefined) {
    at = new Date(values.at);
    if (Number.isNaN(at.getTime())) throw new UsageError(`--at must be an ISO 8601 instant, got ${JSON.stringify(values.at)}`);
  }
  return {
    q: {
      type: need('type'), lat: num('lat', need('lat')), lon: num('lon', need('lon')),
      radius: int('radius', values.radius), limit: int('limit', values.limit),
      sortBy: values['sort-by'] ?? false, isOpen: values['is-open'] ?? false, at,
    },
    file: file ?? DEFAULT_PBF,
  };
}
