/**
 * The travel modes: their names, in the order of their bits in `ACCESS` (`profile.ts`) and of
 * their graphs. A module of its own so that the profiles document and the rules that read it
 * both import it without importing each other.
 */
/** Travel modes, in the order of their bits in `ACCESS`. */
export const MODES = ['foot', 'bike', 'car', 'motorbike'] as const;

/** A travel mode. */
export type Mode = (typeof MODES)[number];

/** Other names a mode is asked by (`motorcycle`, OSM's key, for `motorbike`). */
export const MODE_SYNONYMS: Readonly<Record<string, Mode>> = { motorcycle: 'motorbike' };
