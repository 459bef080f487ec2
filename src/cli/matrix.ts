/** `nepal-places matrix`: the JSON of `matrix()`, travel times and distances from many points to many. */
import { matrix, type MatrixQuery } from '../query/matrix.js';
import { RouteError } from '../errors.js';
import type { Mode } from '../osm/profile.js';
import { Failure, need, text } from './args.js';
import { queryCommand } from './query.js';

const usage = 'usage: nepal-places matrix --sources "LAT,LON;LAT,LON…" --destinations "LAT,LON;…" [--mode foot|bike|car] [--data FILE]';

/** Runs the subcommand; resolves with the exit code. */
export const run = queryCommand({
  name: 'matrix',
  usage,
  help: `Prints the JSON of matrix(): durations[i][j] (ms) and distances[i][j] (metres) from
each source to each destination by the mode, null where no road joins them, and where each
point snapped.

  --sources P;P…       the sources, "lat,lon" points separated by ";" (1,000 at most)
  --destinations P;P…  the destinations, likewise
  --mode M             foot (default), bike, car, or another mode of the profiles

A point farther than 1 km from any road the mode may use exits 1 with one line naming it.`,
  options: {
    sources: { type: 'string' },
    destinations: { type: 'string' },
    mode: { type: 'string' },
  },
  read(v): MatrixQuery {
    const list = (name: string) =>
      need(v, name, usage)
        .split(';')
        .map((p) => p.trim());
    return { sources: list('sources'), destinations: list('destinations'), mode: (text(v, 'mode') ?? 'foot') as Mode };
  },
  answer(index, q) {
    try {
      return matrix(index, q);
    } catch (err) {
      if (err instanceof RouteError) throw new Failure(err.message);
      throw err;
    }
  },
});
