/**
 * nepal-places: an embedded, in-memory geospatial engine for Nepal.
 * OSM PBF in, the API v1's nearby places out. Everything of `nepal-places/core`,
 * plus what reads files (Node only).
 */
export * from './core.js';
export { loadPbf, OSM_LICENSE } from './ingest/load.js';
export { loadFile, loadSnapshot } from './ingest/file.js';
export { DEFAULT_PBF } from './data.js';
export type { LoadOptions, LoadProgress } from './types.js';
export { ProfileError } from './errors.js';
export { checkProfiles, type ProfilesDoc, type ProfileDoc } from './osm/profiles.js';
export { DEFAULT_PROFILES } from './osm/default-profiles.js';
