/** `nepal-places nearby`: the JSON array of `nearby()` for its options. */
import { nearby } from '../query/nearby.js';
import type { NearbyQuery } from '../types.js';
import { count, instant, lang, LANG_HELP, LANG_OPTION, need, number, text } from './args.js';
import { queryCommand } from './query.js';

const usage =
  'usage: nepal-places nearby --type T --lat LAT --lon LON [--radius KM] [--limit N] [--sort-by] [--is-open] [--at ISO-8601] [--lang en|ne] [--data FILE] [--strict]';

/** Runs the subcommand; resolves with the exit code. */
export const run = queryCommand({
  name: 'nearby',
  usage,
  help: `Prints the JSON array of nearby() for the query: places of a type near a point.

  --type T        a place type (cafe) or a merged type (eat)
  --lat, --lon    the point, degrees (negative numbers as they are: --lon -74)
  --radius KM     whole km (default 10)
  --limit N       at most N places (default 5)
  --sort-by       nearest first (default: best score first)
  --is-open       only places open at --at
  --at TIME       ISO 8601, e.g. 2026-11-21T22:10 (Nepal Time without an offset) or
                  2026-11-21T16:25Z (default: now)
${LANG_HELP}`,
  options: {
    type: { type: 'string' },
    lat: { type: 'string' },
    lon: { type: 'string' },
    radius: { type: 'string' },
    limit: { type: 'string' },
    'sort-by': { type: 'boolean' },
    'is-open': { type: 'boolean' },
    at: { type: 'string' },
    ...LANG_OPTION,
  },
  read(v): NearbyQuery {
    return {
      type: need(v, 'type', usage),
      lat: number('lat', need(v, 'lat', usage)),
      lon: number('lon', need(v, 'lon', usage)),
      radius: count('radius', text(v, 'radius')),
      limit: count('limit', text(v, 'limit')),
      sortBy: v['sort-by'] === true,
      isOpen: v['is-open'] === true,
      at: instant('at', text(v, 'at')),
      lang: lang(v),
    };
  },
  answer: (index, q) => nearby(index, q),
});
