/**
 * What every subcommand shares: one rule of exit codes, strict option parsing that
 * takes negative numbers as values, and readers of numbers and instants that say
 * which option is wrong.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { InvalidQueryError, PbfError, SnapshotError } from '../errors.js';
import { INSTANT_FORMAT, parseInstant } from '../hours/instant.js';
import type { Lang } from '../osm/name.js';

/** Exit codes, the same in every subcommand: 0 done, 1 the data or the system failed, 2 bad usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** A bad command line: exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The data or the system failed (a file, a port, a server): exit code 1. */
export class Failure extends Error {
  override name = 'Failure';
}

/** The options of a subcommand, as `node:util` `parseArgs` takes them. */
export type Options = NonNullable<ParseArgsConfig['options']>;

/** A parsed command line: option values by name (no `multiple` options here), and the positional arguments. */
export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/**
 * `parseArgs`, strict, its long explanations cut to their first sentence, and with a
 * negative number taken as the value of the string option before it: `--lon -74`
 * (parseArgs alone refuses it as ambiguous, asking for `--lon=-74`).
 * @throws {UsageError}
 */
export function parseCommand(argv: string[], options: Options, allowPositionals = false): Parsed {
  try {
    const { values, positionals } = parseArgs({ args: joinNegatives(argv, options), options, strict: true, allowPositionals });
    return { values: values as Parsed['values'], positionals };
  } catch (err) {
    // parseArgs explains at length; its first sentence is the message
    throw new UsageError((err as Error).message.split('. ')[0]!.replace(/\.$/, ''));
  }
}

const NEGATIVE = /^-(?:\d|\.\d)/;

// `--name -74` → `--name=-74` for string options (and `-x -74` for their short names).
function joinNegatives(argv: string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const name = a.startsWith('--')
      ? a.slice(2)
      : /^-[^-]$/.test(a)
        ? Object.keys(options).find((k) => options[k]!.short === a[1])
        : undefined;
    const next = argv[i + 1];
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && NEGATIVE.test(next)) {
      out.push(`--${name}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/**
 * Runs a subcommand's body and turns what it throws into the exit code, with one line
 * on stderr: bad usage and bad query arguments 2 (`usage`, when given, follows on a
 * second line); a bad data file or another failure 1. Anything else is a bug and is
 * thrown on (the command prints it and exits 1).
 */
export async function guard(command: string, body: () => Promise<number>, usage?: string): Promise<number> {
  try {
    return await body();
  } catch (err) {
    const say = (line: string) => void process.stderr.write(`nepal-places ${command}: ${line}\n`);
    if (err instanceof UsageError || err instanceof InvalidQueryError) {
      say(err.message);
      if (usage) process.stderr.write(`${usage}\n`);
      return EXIT.usage;
    }
    if (err instanceof PbfError || err instanceof SnapshotError || err instanceof Failure) {
      say(err.message);
      return EXIT.failed;
    }
    throw err;
  }
}

/** A warning on stderr, which never changes the exit code. */
export function warn(command: string, line: string): void {
  process.stderr.write(`nepal-places ${command}: warning: ${line}\n`);
}

/** A number option (degrees): plain decimal notation, or a UsageError naming it. */
export function number(name: string, v: string): number {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${name} must be a number, got ${JSON.stringify(v)}`);
  return n;
}

/** A whole-number option, when given. */
export function count(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v.trim())) throw new UsageError(`--${name} must be a positive integer, got ${JSON.stringify(v)}`);
  return Number(v);
}

/** An instant option, when given: ISO 8601, Nepal Time without an offset. */
export function instant(name: string, v: string | undefined): Date | undefined {
  if (v === undefined) return undefined;
  const at = parseInstant(v);
  if (!at) throw new UsageError(`--${name} must be ${INSTANT_FORMAT}; got ${JSON.stringify(v)}`);
  return at;
}

/** A string option's value, when given. */
export function text(values: Parsed['values'], name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

/** A required string option's value. @throws {UsageError} */
export function need(values: Parsed['values'], name: string, usage: string): string {
  const v = text(values, name);
  if (v === undefined || v === '') throw new UsageError(`--${name} is required; ${usage}`);
  return v;
}

/** The `--lang` option of the commands that print names, and its help line. */
export const LANG_OPTION = { lang: { type: 'string' } } as const;
export const LANG_HELP = `  --lang L        en or ne: names, addresses (and directions) in English or Nepali
                  (default: the names as mapped, English directions)`;

/** `--lang` as given: the query checks it (another value is a bad query, exit code 2). */
export function lang(values: Record<string, string | boolean | undefined>): Lang | undefined {
  return text(values, 'lang') as Lang | undefined;
}
