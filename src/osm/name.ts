import { scriptOf, toDevanagari, toLatin } from '../lang/translit.js';
import { GLOSSARY } from '../lang/glossary.js';

/**
 * Which name tag is read, for every name an answer shows: places, streets, localities,
 * administrative areas and the roads of directions. Without a language, the names as mapped
 * (`placeName`, `labelName`); with one, `nameIn` (see there).
 */

/** The languages an answer can be asked in: English (Latin letters) and Nepali (Devanagari). */
export type Lang = 'en' | 'ne';

/** Every `Lang`, in the order docs and errors list them. */
export const LANGS: readonly Lang[] = ['en', 'ne'];

/** Whether `v` is a `Lang`. */
export function isLang(v: unknown): v is Lang {
  return v === 'en' || v === 'ne';
}

/** A tag's value on one object, or undefined where it has none. */
export type TagReader = (key: string) => string | undefined;

/** A name in a language: the text (`''` for none), and whether it is a transliteration from the other script. */
export interface LangName {
  name: string;
  transliterated: boolean;
}

const given = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';

/** A `TagReader` over parallel key and value lists. */
export function tagReader(keys: readonly string[], values: readonly string[]): TagReader {
  return (key) => {
    const i = keys.indexOf(key);
    return i < 0 ? undefined : values[i];
  };
}

/** A place's display name without a language: `name`, else `name:en`, else `name:ne`, else `""` (a blank value counts as absent). */
export function placeName(keys: readonly string[], values: readonly string[]): string {
  return defaultName(tagReader(keys, values));
}

/** `placeName` over a `TagReader`. */
export function defaultName(get: TagReader): string {
  for (const want of ['name', 'name:en', 'name:ne']) {
    const v = get(want);
    // the value as mapped; a blank one counts as absent
    if (given(v)) return v;
  }
  return '';
}

/**
 * The label of a street, a locality or an administrative area in an address without a
 * language: `name:en`, else `name`, else `name:ne`, else `""`.
 */
export function labelName(get: TagReader): string {
  return get('name:en') || get('name') || get('name:ne') || '';
}

/**
 * A road's name in directions: without a language its label (`labelName`), else its name in
 * `lang` (`nameIn`); else its `ref` (`H02`, the same in every language), else `""`.
 */
export function roadName(get: TagReader, lang?: Lang): string {
  return (lang === undefined ? labelName(get) : nameIn(get, lang).name) || get('ref') || '';
}

/**
 * A name in `lang`: `name:<lang>`, unless it is written in the other script (a mistagged
 * `name:ne=Bhandari Marga`); else `name` when it is written in that language's script
 * (Devanagari for `ne`, Latin letters for `en`) or in neither (digits, another script); else
 * the name there is (`name`, else the other language's `name:*`, else a mistagged
 * `name:<lang>`) transliterated into the script asked for (`lang/translit.ts`),
 * `transliterated: true`. `''` when the object has no name.
 *
 * @example
 * nameIn(tagReader(['name'], ['Thamel']), 'ne'); // => { name: 'थमेल', transliterated: true }
 */
export function nameIn(get: TagReader, lang: Lang): LangName {
  const other = otherScript(lang);
  const own = get(`name:${lang}`);
  if (given(own) && scriptOf(own) !== other) return { name: own, transliterated: false };
  const name = get('name');
  if (given(name) && scriptOf(name) !== other) return { name, transliterated: false };
  const twin = get(`name:${lang === 'ne' ? 'en' : 'ne'}`);
  const source = given(name) ? name : given(twin) ? twin : own;
  if (!given(source)) return { name: '', transliterated: false };
  return { name: transliterate(source, lang), transliterated: true };
}

/**
 * Free text (an `addr:*` value) in `lang`'s script: a value that gives itself in both scripts
 * ("Ram Shah Path (पुतलीसडक)", "पुतलीसडक / Putalisadak") is the part in that script; else as it is
 * when written in that script or in neither, else transliterated.
 */
export function textIn(text: string, lang: Lang): string {
  const both = BILINGUAL.exec(text);
  if (both) {
    const parts = [both[1] ?? both[3], both[2] ?? both[4]];
    const scripts = parts.map(onlyScript);
    // one part in each script; "Kathmandu (North)" is one value, not two
    if (scripts.includes('deva') && scripts.includes('latin')) return parts[scripts.indexOf(lang === 'ne' ? 'deva' : 'latin')];
  }
  return scriptOf(text) === otherScript(lang) ? transliterate(text, lang) : text;
}

// "A (B)" or "A / B": how mappers write one value in two scripts
const BILINGUAL = /^\s*(?:([^()]+?)\s*\(([^()]+)\)|([^/]+?)\s+\/\s+([^/]+?))\s*$/;

// The one script a text is written in: Devanagari with no Latin letter, or Latin letters and no Devanagari.
function onlyScript(s: string): 'deva' | 'latin' | undefined {
  const deva = scriptOf(s) === 'deva',
    latin = /[A-Za-z]/.test(s);
  return deva && !latin ? 'deva' : latin && !deva ? 'latin' : undefined;
}

const otherScript = (lang: Lang) => (lang === 'ne' ? 'latin' : 'deva');

// Romanized Nepali words the glossary spells in Devanagari (marg, sadak, chowk, mandir): written
// so rather than letter by letter (मार्ग, not मर्ग). Its English words are translations, not
// spellings, and are left to the letters.
const SPELLED = new Map<string, string>();
for (const [nepali, ...others] of Object.values(GLOSSARY)) for (const o of others) if (/^[a-z]+$/.test(o)) SPELLED.set(o, nepali);

function transliterate(s: string, lang: Lang): string {
  if (lang === 'en') return toLatin(s);
  return toDevanagari(s.replace(/[A-Za-z]+/g, (w) => SPELLED.get(w.toLowerCase()) ?? w));
}
