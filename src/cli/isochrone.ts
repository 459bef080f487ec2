/** `nepal-places isochrone`: the GeoJSON of `isochrone()`, where one gets from a point within some minutes. */
import { isochrone, type IsochroneQuery } from '../query/isochrone.js';
import { RouteError } from '../errors.js';
import type { Mode } from '../osm/profile.js';
import { Failure, need, text, UsageError } from './args.js';
import { queryCommand } from './query.js';

const usage = 'usage: nepal-places isochrone --lat LAT --lon LON --minutes M[,M…] [--mode foot|bike|car] [--data FILE]';

/** Runs the subcommand; resolves with the exit code. */
export const run = queryCommand({
  name: 'isochrone',
  usage,
  help: `Prints the GeoJSON FeatureCollection of isochrone(): one MultiPolygon per contour,
largest first, each with its minutes, holes where the roads do not reach in time.

  --lat, --lon   the start, degrees
  --minutes M    the contours in whole minutes, "5,10,15" (4 at most; foot 120, others 60 at most)
  --mode M       foot (default), bike, car, or another mode of the profiles

A point farther than 1 km from any road the mode may use exits 1 with one line saying so.`,
  options: {
    lat: { type: 'string' },
    lon: { type: 'string' },
    minutes: { type: 'string' },
    mode: { type: 'string' },
  },
  read(v): IsochroneQuery {
    const num = (name: string) => {
      const s = need(v, name, usage);
      if (!/^\s*[-+]?(\d+\.?\d*|\.\d+)\s*$/.test(s)) throw new UsageError(`--${name} must be a number, got ${JSON.stringify(s)}; ${usage}`);
      return Number(s);
    };
    const minutes = need(v, 'minutes', usage)
      .split(',')
      .map((s) => (/^\s*\d+\s*$/.test(s) ? Number(s) : NaN));
    return { lat: num('lat'), lon: num('lon'), minutes, mode: (text(v, 'mode') ?? 'foot') as Mode };
  },
  answer(index, q) {
    try {
      return isochrone(index, q);
    } catch (err) {
      if (err instanceof RouteError) throw new Failure(err.message);
      throw err;
    }
  },
});
