/** The Kathmandu fixture loaded once per test file, and a key for tests. */
import { fileURLToPath } from 'node:url';
import { loadPbf, type PlaceIndex } from '../../src/index.js';
import type { Token } from '../../src/http/keys.js';

/** Path of the central Kathmandu fixture. */
export const CORE_PBF = fileURLToPath(new URL('../../fixtures/kathmandu-core_2026-01-10.osm.pbf', import.meta.url));

let core: Promise<PlaceIndex> | undefined;

/** The engine's index of the Kathmandu fixture, loaded once. */
export function coreIndex(): Promise<PlaceIndex> {
  return (core ??= loadPbf(CORE_PBF));
}

/** A token with a fresh key of the given letter (keys must be 16+ characters). */
export function token(fill: string, more: Partial<Token> = {}): Token {
  return { key: fill.repeat(24).slice(0, 24), allowedOrigins: '*', quota: { requests: 1_000_000, windowSeconds: 60 }, ...more };
}

/** Thamel, in the middle of the fixture. */
export const THAMEL = { lat: 27.7154, lon: 85.3123 };
