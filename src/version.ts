/** The package's version, as package.json says it (test/package.test.ts keeps them equal): the HTTP app runs where no file can be read. */
export const VERSION = '0.1.0';
