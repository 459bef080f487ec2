/**
 * The query subcommands (nearby, search, place, reverse): a command line in, the
 * data loaded, the answer printed as JSON on stdout. A new one is a module that calls
 * `queryCommand` and a line in src/cli.ts.
 */
import type { PlaceIndex } from '../index/place-index.js';
import { EXIT, guard, parseCommand, type Options } from './args.js';
import { DATA_HELP, DATA_OPTIONS, dataFile, openData } from './data.js';

/** What a query subcommand is made of. */
export interface QueryCommand<O extends Options, Q> {
  /** Its name on the command line. */
  name: string;
  /** The one-line usage, `usage: nepal-places NAME …`. */
  usage: string;
  /** What it prints, and its own options, for `--help` (the data options are added). */
  help: string;
  /** Its own options (`--data`, `--pbf`, `--strict` and `--help` are added). */
  options: O;
  /** Whether it takes positional arguments. */
  positionals?: boolean;
  /** The query, from the parsed command line. @throws {UsageError} */
  read(values: Record<string, string | boolean | undefined>, positionals: string[]): Q;
  /** The answer to print as JSON. @throws {InvalidQueryError | Failure} */
  answer(index: PlaceIndex, query: Q, file: string): unknown;
}

/** The `run` of a query subcommand: resolves with its exit code. */
export function queryCommand<O extends Options, Q>(c: QueryCommand<O, Q>): (argv: string[]) => Promise<number> {
  const options = { ...c.options, ...DATA_OPTIONS, help: { type: 'boolean', short: 'h' } } as const satisfies Options;
  return (argv) =>
    guard(c.name, async () => {
      let parsed;
      try {
        parsed = parseCommand(argv, options, c.positionals ?? false);
      } catch (err) {
        (err as Error).message += `; ${c.usage}`;
        throw err;
      }
      const values = parsed.values;
      if (values.help) {
        process.stdout.write(`${c.usage}\n\n${c.help}\n${DATA_HELP}\n  -h, --help    this help\n`);
        return EXIT.ok;
      }
      const file = dataFile(values as { data?: string; pbf?: string });
      const query = c.read(values, parsed.positionals);
      const index = await openData(c.name, file, { strict: values.strict === true });
      process.stdout.write(`${JSON.stringify(c.answer(index, query, file), null, 2)}\n`);
      return EXIT.ok;
    });
}
