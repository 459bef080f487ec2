/** `nepal-places route`: the JSON of `route()` between points, or its lines as GeoJSON. */
import { route, type Route, type RouteQuery } from '../query/route.js';
import { RouteError } from '../errors.js';
import type { Mode } from '../osm/profile.js';
import { Failure, lang, LANG_HELP, LANG_OPTION, need, text } from './args.js';
import { queryCommand } from './query.js';
import { routesToGeoJSON } from '../query/route-geojson.js';

const usage =
  'usage: nepal-places route --from LAT,LON --to LAT,LON [--via LAT,LON …] [--mode foot|bike|car|motorbike] [--instructions] [--alternatives] [--geojson] [--lang en|ne] [--data FILE] [--strict]';

/** Runs the subcommand; resolves with the exit code. */
export const run = queryCommand({
  name: 'route',
  usage,
  help: `Prints the JSON array of route() from --from to --to, through each --via in order:
the best route first, with --alternatives up to two more.

  --from, --to    the ends, "lat,lon" in degrees (negative numbers as they are)
  --via LAT,LON   a point to pass on the way; repeat for several (25 points at most)
  --mode M        foot (default: the shortest walk), bike, car or motorbike (motorcycle:
                  the same; the fastest legal ride)
  --instructions  turn-by-turn steps in instructionList
  --alternatives  up to two alternatives (no --via)
  --geojson       a GeoJSON FeatureCollection of the route lines instead, one LineString
                  Feature per route with its distance, time and weight, for map tools

${LANG_HELP}

A point farther than 1 km from any road the mode may use, or points no road joins,
exit 1 with one line saying which.`,
  options: {
    from: { type: 'string' },
    to: { type: 'string' },
    via: { type: 'string', multiple: true },
    mode: { type: 'string' },
    instructions: { type: 'boolean' },
    alternatives: { type: 'boolean' },
    geojson: { type: 'boolean' },
    ...LANG_OPTION,
  },
  read(v): RouteQuery & { geojson: boolean } {
    const via = (v.via as unknown as string[] | undefined) ?? [];
    return {
      points: [need(v, 'from', usage), ...via, need(v, 'to', usage)],
      mode: (text(v, 'mode') ?? 'foot') as Mode | 'motorcycle',
      instructions: v.instructions === true,
      alternatives: v.alternatives === true,
      geojson: v.geojson === true,
      lang: lang(v),
    };
  },
  answer(index, { geojson, ...q }) {
    let routes: Route[];
    try {
      routes = route(index, q);
    } catch (err) {
      if (err instanceof RouteError) throw new Failure(err.message);
      throw err;
    }
    return geojson ? routesToGeoJSON(routes, { mode: q.mode ?? 'foot' }) : routes;
  },
});
