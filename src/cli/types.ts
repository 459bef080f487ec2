/** `nepal-places types`: every type `nearby` accepts for the data, with how many places have it. */
import { types } from '../query/types.js';
import { UsageError } from './args.js';
import { queryCommand } from './query.js';

const usage = 'usage: nepal-places types [--data FILE] [--strict]';

/** Runs the subcommand; resolves with the exit code. */
export const run = queryCommand({
  name: 'types',
  usage,
  help: `Prints the JSON of types(): every type of the data and every merged type (with its
members), with how many places have it, most first. These are what nearby's --type takes.`,
  options: {},
  positionals: true,
  read(_v, args) {
    if (args.length !== 0) throw new UsageError(`no arguments, got ${args.length}; ${usage}`);
    return {};
  },
  answer(index) {
    return types(index);
  },
});
