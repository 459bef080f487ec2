import { parseArgs } from 'node:util';
import { loadPbf } from '../load/load.js';
import { nearby } from '../query/nearby.js';
import { DEFAULT_PBF } from '../data.js';
import { InvalidQueryError, PbfError } from '../errors.js';

const usage = 'usage: nepal-places nearby --type T --lat LAT --lon LON [--radius KM] [--limit N] [--sort-by] [--is-open] [--at ISO-8601] [--pbf FILE]';

/** A bad command line: one line on stderr, exit code 2. */
class UsageError extends Error {}

/**
 * `nepal-places nearby`: prints the JSON array of `nearby()` for the arguments.
 * Without `--pbf` it reads the bundled Kathmandu fixture.
 */
export async function run(argv: string[]): Promise<number> {
  let q: Parameters<typeof nearby>[1];
  let file: string;
  try {
    ({ q, file } = parse(argv));
  } catch (err) {
    process.stderr.write(`nepal-places nearby: ${(err as Error).message}\n`);
    return 2;
  }
  try {
    const index = await loadPbf(file);
    process.stdout.write(`${JSON.stringify(nearby(index, q), null, 2)}\n`);
    return 0;
  } catch (err) {
    if (err instanceof InvalidQueryError || err instanceof PbfError) {
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
        'is-open': { type: 'boolean' }, at: { type: 'string' }, pbf: { type: 'string' },
      },
    }));
  } catch (err) {
    throw new UsageError(`${(err as Error).message.split('\n')[0]}; ${usage}`);
  }
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
    file: values.pbf ?? DEFAULT_PBF,
  };
}
