import type { PlaceTable } from '../model/table.js';
import { InvalidQueryError } from '../errors.js';
import type { PlaceIndex } from '../index/place-index.js';
import type { RoadGraph } from '../model/roads.js';
import type { Instruction } from '../route/instructions.js';
import { isLang, LANGS, nameIn, roadName, textIn, type Lang, type TagReader } from '../osm/name.js';
import { placeId } from '../osm/id.js';
import { nepaliText, SIGNS } from '../lang/directions.js';

/** A record's name fields: `name`, and with a language whether it is a transliteration. */
export interface NameFields {
  name: string;
  /** Present with a `lang`: whether `name` was transliterated from the other script (no name in the language asked for). */
  nameTransliterated?: boolean;
}

/**
 * Checks an optional `lang` argument: undefined (the names as mapped) or one of `LANGS`.
 * @throws {InvalidQueryError} naming `lang`
 */
export function checkLang(v: unknown): Lang | undefined {
  if (v === undefined || isLang(v)) return v;
  throw new InvalidQueryError('lang', `must be one of ${LANGS.join(', ')}, got ${typeof v === 'string' ? JSON.stringify(v) : String(v)}`);
}

/** A `TagReader` over the tags of table row `row`. */
export function rowTags(t: PlaceTable, row: number): TagReader {
  return (key) => {
    for (let k = t.tagStart[row]; k < t.tagStart[row + 1]; k++) if (t.strings[t.tagKV[2 * k]] === key) return t.strings[t.tagKV[2 * k + 1]];
    return undefined;
  };
}

/** Row `row`'s name fields in `lang` (`osm/name.ts`); without a language its stored name, as mapped. */
export function nameFields(t: PlaceTable, row: number, lang: Lang | undefined): NameFields {
  if (lang === undefined) return { name: t.strings[t.name[row]] };
  const n = nameIn(rowTags(t, row), lang);
  return { name: n.name, nameTransliterated: n.transliterated };
}

/** Row `row`'s address in `lang` (`address/assign.ts`), made now if the table has it pending; without a language the address of the names as mapped. */
export function addressIn(t: PlaceTable, row: number, lang: Lang | undefined): string {
  if (t.pending) return t.pending.text(row, lang === 'ne' ? 2 : lang === 'en' ? 1 : 0);
  const col = lang === 'ne' ? t.addressNe : lang === 'en' ? t.addressEn : t.address;
  return t.strings[col[row]];
}

/** How a route's steps are said in a language: its roads' names, and the texts. */
export interface StepWords {
  /** Road way `way`'s name in the language (`roadName` of `osm/name.ts` over its tags), memoised for one route query. */
  street(way: number): string;
  /** The steps with their texts in the language (Nepali templates: `lang/directions.ts`; English: as written). */
  say(steps: Instruction[]): Instruction[];
}

/**
 * The `StepWords` of one route query in `lang` (undefined without one: the names as mapped,
 * English texts). A road's tags are those of its way's row in the place table (a named road is
 * a street row); a road without a row (named by `ref` alone) keeps its name, in the language's
 * script.
 */
export function stepWords(index: PlaceIndex, g: RoadGraph, lang: Lang | undefined): StepWords | undefined {
  if (lang === undefined) return undefined;
  const t = index.table;
  const names = new Map<number, string>(); // per query: a route passes a way's edges one after another
  return {
    street(way) {
      let name = names.get(way);
      if (name === undefined) {
        const row = index.lookup.row(placeId(g.wayId[way], 1));
        name = row >= 0 ? roadName(rowTags(t, row), lang) : textIn(g.strings[g.wayName[way]], lang);
        names.set(way, name);
      }
      return name;
    },
    say(steps) {
      if (lang !== 'ne') return steps;
      let via = 0;
      steps.forEach((s, i) => {
        if (s.sign === SIGNS.via) via++;
        const pushed = (s as { pushed?: boolean }).pushed === true;
        s.text = nepaliText({ sign: s.sign, name: s.name, exitNumber: s.exitNumber, via, first: i === 0, pushed });
      });
      return steps;
    },
  };
}
