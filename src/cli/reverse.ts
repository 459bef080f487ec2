/** `nepal-places reverse`: the JSON array of `reverse()`, what is at a point. */
import { reverse } from '../query/reverse.js';
import type { ReverseQuery } from '../types.js';
import { count, instant, lang, LANG_HELP, LANG_OPTION, need, number, text } from './args.js';
import { queryCommand } from './query.js';

const usage =
  'usage: nepal-places reverse --lat LAT --lon LON [--radius KM] [--limit N] [--at ISO-8601] [--lang en|ne] [--data FILE] [--strict]';

/** Runs the subcommand; resolves with the exit code. */
export const run = queryCommand({
  name: 'reverse',
  usage,
  help: `Prints the JSON array of reverse() for a point: the nearest named place, locality or
addressed building ([] when nothing is within the radius).

  --lat, --lon    the point, degrees
  --radius KM     how far to look, km, fractions allowed (default 0.5)
  --limit N       at most N places (default 1)
  --at TIME       when to tell whether they are open: ISO 8601, Nepal Time without an
                  offset (default: now)
${LANG_HELP}`,
  options: {
    lat: { type: 'string' },
    lon: { type: 'string' },
    radius: { type: 'string' },
    limit: { type: 'string' },
    at: { type: 'string' },
    ...LANG_OPTION,
  },
  read(v): ReverseQuery {
    const query: ReverseQuery = { lat: number('lat', need(v, 'lat', usage)), lon: number('lon', need(v, 'lon', usage)) };
    const radius = text(v, 'radius'),
      limit = count('limit', text(v, 'limit')),
      at = instant('at', text(v, 'at'));
    if (radius !== undefined) query.radius = number('radius', radius);
    if (limit !== undefined) query.limit = limit;
    if (at !== undefined) query.at = at;
    const l = lang(v);
    if (l !== undefined) query.lang = l;
    return query;
  },
  answer: (index, q) => reverse(index, q),
});
