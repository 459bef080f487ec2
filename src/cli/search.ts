/** `nepal-places search`: the JSON array of `search()`'s suggestions for some words. */
import { search } from '../query/search.js';
import type { SearchQuery } from '../types.js';
import { count, lang, LANG_HELP, LANG_OPTION, number, text, UsageError } from './args.js';
import { queryCommand } from './query.js';

const usage =
  'usage: nepal-places search WORDS… [--limit N] [--lat LAT --lon LON [--radius KM]] [--type T] [--lang en|ne] [--data FILE] [--strict]';

/** Runs the subcommand; resolves with the exit code. */
export const run = queryCommand({
  name: 'search',
  usage,
  help: `Prints the JSON array of search() for the words: what a search box suggests.

  WORDS…          what the user typed (or --q TEXT), the last word possibly unfinished
  --limit N       at most N suggestions (default 10)
  --lat, --lon    nearer places first among equally good matches
  --radius KM     with --lat/--lon: only places within this many whole km
  --type T        only places of this type (cafe) or merged type (eat)
${LANG_HELP}`,
  options: {
    q: { type: 'string' },
    limit: { type: 'string' },
    lat: { type: 'string' },
    lon: { type: 'string' },
    radius: { type: 'string' },
    type: { type: 'string' },
    ...LANG_OPTION,
  },
  positionals: true,
  read(v, words): SearchQuery {
    const q = text(v, 'q');
    if (q !== undefined && words.length) throw new UsageError('give the words or --q, not both');
    const query: SearchQuery = { q: q ?? words.join(' ') };
    if (query.q.trim() === '') throw new UsageError(`no words to search for; ${usage}`);
    const limit = count('limit', text(v, 'limit'));
    if (limit !== undefined) query.limit = limit;
    const lat = text(v, 'lat'),
      lon = text(v, 'lon'),
      type = text(v, 'type');
    if (lat !== undefined) query.lat = number('lat', lat);
    if (lon !== undefined) query.lon = number('lon', lon);
    const radius = count('radius', text(v, 'radius'));
    if (radius !== undefined) query.radius = radius;
    if (type !== undefined) query.type = type;
    const l = lang(v);
    if (l !== undefined) query.lang = l;
    return query;
  },
  answer: (index, q) => search(index, q),
});
