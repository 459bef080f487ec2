#!/usr/bin/env node
/**
 * The `nepal-places` command. Each subcommand lives in its own module under `src/cli/`,
 * whose `run(argv)` resolves with the exit code; adding one is that module and a line
 * below. Exit codes are the same everywhere: 0 done, 1 the data or the system failed,
 * 2 bad usage.
 */
import { readFileSync } from 'node:fs';

type Command = { about: string; load: () => Promise<{ run: (argv: string[]) => Promise<number> }> };

const commands: Record<string, Command> = {
  nearby: { about: 'places of a type near a point', load: () => import('./cli/nearby.js') },
  search: { about: 'what a search box suggests for some words', load: () => import('./cli/search.js') },
  place: { about: 'the record of one placeId', load: () => import('./cli/place.js') },
  reverse: { about: 'what is at a point', load: () => import('./cli/reverse.js') },
  types: { about: 'the types nearby takes, with counts', load: () => import('./cli/types.js') },
  route: { about: 'directions between points, on foot, by bike or by car', load: () => import('./cli/route.js') },
  matrix: { about: 'travel times and distances from many points to many', load: () => import('./cli/matrix.js') },
  isochrone: { about: 'where one gets from a point within some minutes (GeoJSON)', load: () => import('./cli/isochrone.js') },
  build: { about: 'an OSM PBF in, a snapshot out (loads in a fraction of the time)', load: () => import('./cli/build.js') },
  serve: { about: 'the API v1 over HTTP', load: () => import('./cli/serve.js') },
  tiles: { about: 'an OSM PBF in, vector tiles (PMTiles) out', load: () => import('./cli/tiles.js') },
};

const usage = 'usage: nepal-places <command> [options]   (nepal-places <command> --help for its options)';

function help(): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  return [
    usage,
    '',
    'An in-memory geospatial engine for Nepal: OSM PBF or snapshot in, places out.',
    '',
    'commands:',
    ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.about}`),
    '',
    'options:',
    '  -h, --help   this help (also: nepal-places help [command])',
    '  --version    the version',
    '',
    'Exit codes: 0 done, 1 the data or the system failed, 2 bad usage.',
  ].join('\n');
}

// package.json is one level above both src/ and dist/
function version(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || (name === 'help' && rest.length === 0)) {
    process.stdout.write(`${help()}\n`);
    return 0;
  }
  if (name === '--version') {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  if (name === 'help') return main([rest[0]!, '--help']);
  const command = name === undefined ? undefined : Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    process.stderr.write(
      `nepal-places: ${name === undefined ? 'no command given' : `unknown command '${name}'`}\n${usage}\ncommands: ${Object.keys(commands).join(', ')}\n`,
    );
    return 2;
  }
  return (await command.load()).run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`nepal-places: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
