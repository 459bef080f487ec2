import { fileURLToPath } from 'node:url';

/**
 * The bundled default data: the Kathmandu fixture (© OpenStreetMap contributors,
 * ODbL 1.0), used when no file is given. Resolved from the package root, which is
 * one level above both `src/` and `dist/`.
 */
export const DEFAULT_PBF = fileURLToPath(new URL('../fixtures/kathmandu-core_2026-01-10.osm.pbf', import.meta.url));
