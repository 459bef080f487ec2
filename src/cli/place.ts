/** `nepal-places place`: the JSON record of one placeId. */
import { place } from '../query/place.js';
import { Failure, instant, lang, LANG_HELP, LANG_OPTION, text, UsageError } from './args.js';
import { queryCommand } from './query.js';

const usage = 'usage: nepal-places place PLACEID [--at ISO-8601] [--lang en|ne] [--data FILE] [--strict]';

/** Runs the subcommand; resolves with the exit code. */
export const run = queryCommand({
  name: 'place',
  usage,
  help: `Prints the JSON record of place() for a placeId (osmId * 4 + kind, as nearby, search
and reverse print it). A placeId the data does not hold is exit code 1.

  --at TIME       when to tell whether it is open: ISO 8601, Nepal Time without an
                  offset (default: now)
${LANG_HELP}`,
  options: { at: { type: 'string' }, ...LANG_OPTION },
  positionals: true,
  read(v, args) {
    if (args.length !== 1) throw new UsageError(`one placeId, got ${args.length}; ${usage}`);
    const s = args[0]!;
    const id = /^\d{1,16}$/.test(s) ? Number(s) : NaN;
    if (!Number.isSafeInteger(id)) throw new UsageError(`the placeId must be a whole number from 0, got ${JSON.stringify(s)}`);
    return { id, at: instant('at', text(v, 'at')), lang: lang(v) };
  },
  answer(index, { id, at, lang }, file) {
    const found = place(index, id, { ...(at ? { at } : {}), ...(lang ? { lang } : {}) });
    if (!found) throw new Failure(`no place with placeId ${id} in ${file}`);
    return found;
  },
});
