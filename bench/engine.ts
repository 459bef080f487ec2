// Which build of the engine a bench child measures.

import { existsSync } from 'node:fs';
import * as src from '../src/index.js';

/**
 * The engine as users run it: the built `dist/` (what `npm install` makes), whose decoder
 * threads start as plain JS; the TypeScript sources only when there is no build, where
 * each thread first boots tsx (a second or so on a big file).
 */
export async function engine(): Promise<typeof src> {
  const dist = new URL('../dist/index.js', import.meta.url);
  return existsSync(dist) ? ((await import(dist.href)) as typeof src) : src;
}
