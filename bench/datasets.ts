// The files the bench reads: the real fixture (always there) and the generated
// Nepal-scale files (made by `npm run bench:data`, git-ignored).

import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A PBF the bench measures. */
export interface Dataset {
  /** Short name used in tables and in the JSON. */
  name: string;
  path: string;
  bytes: number;
}

const DATA_DIR = fileURLToPath(new URL('data/', import.meta.url));

/** The real central-Kathmandu extract. */
export const FIXTURE: Dataset = dataset(
  'fixture',
  fileURLToPath(new URL('../fixtures/kathmandu-core_2026-01-10.osm.pbf', import.meta.url)),
);

/** The generated files by name, smallest first. */
export const GENERATED = ['places-10k', 'places-100k', 'places-1m', 'nepal'] as const;

/** A generated file, or why it cannot be used (missing, or not the file its sidecar describes). */
export function generated(name: (typeof GENERATED)[number]): Dataset | string {
  const path = `${DATA_DIR}${name}.osm.pbf`;
  if (!existsSync(path)) return `${path} is missing`;
  if (!existsSync(`${path}.json`)) return `${path}.json (its sidecar) is missing`;
  const d = dataset(name, path);
  const side = JSON.parse(readFileSync(`${path}.json`, 'utf8')) as { bytes?: number };
  if (side.bytes !== d.bytes) return `${path} does not match its sidecar (${d.bytes} bytes, sidecar says ${side.bytes})`;
  return d;
}

/** How to make the generated files. */
export const MAKE_DATA = 'npm run bench:data   (writes bench/data/: nepal.osm.pbf ~133 MB and places-10k/100k/1m)';

function dataset(name: string, path: string): Dataset {
  return { name, path, bytes: existsSync(path) ? statSync(path).size : 0 };
}
