/**
 * How names and queries are compared: case- and accent-insensitive for Latin
 * script, exact for Devanagari. Names and queries go through the same fold, so
 * `Bālāju`, `BALAJU` and `balaju` are one word, and a Devanagari word typed in
 * composed or decomposed form is one word too.
 */

// Combining Diacritical Marks: the accents of Latin letters once decomposed. Devanagari's
// own vowel signs, virama and nukta lie in U+0900–U+097F and are kept: they are letters there.
const LATIN_MARKS = /[\u0300-\u036f]/g;
// Zero-width (non-)joiners and soft hyphens only shape how a word is drawn (Devanagari half
// forms, hyphenation); a user cannot type them, so they must not make a word unmatchable.
const INVISIBLE = /[\u00ad\u200c\u200d]/g;
const ASCII = /^[\x00-\x7f]*$/;

/** A word (or text) folded for matching: lower case, Latin accents removed, canonically composed. */
export function fold(s: string): string {
  if (ASCII.test(s)) return s.toLowerCase();
  return s.normalize('NFD').replace(LATIN_MARKS, '').replace(INVISIBLE, '').normalize('NFC').toLowerCase();
}

/** Letters of a folded word, counted as code points (a Devanagari vowel sign counts as one). */
export function letters(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
