/**
 * Writes Nepal's district table (src/address/districts.ts) from nepal-geojson, a dev dependency,
 * into dist/ (run by `npm run prepare`, before the map's assets, whose tiles draw Nepal's outline
 * from it). Nothing here is committed: the table is made again from the package on every build.
 *
 * Usage: node --import tsx scripts/districts.ts [OUT_FILE]
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import nepalGeojson from 'nepal-geojson';
import { DISTRICTS_FILE, encodeDistricts, type District } from '../src/address/districts.js';

/** The districts as nepal-geojson gives them, rings flattened to `[lon, lat, …]`. */
export function geojsonDistricts(): District[] {
  return nepalGeojson.districts().features.map((f) => ({
    name: f.properties.DISTRICT,
    province: f.properties.PROVINCE,
    rings: f.geometry.coordinates.map((r) => r.flat()),
  }));
}

/** Writes the table to `out` (beside it, then renamed: never half-written); resolves with its size in bytes. */
export async function writeDistricts(out = DISTRICTS_FILE): Promise<number> {
  const bytes = encodeDistricts(geojsonDistricts());
  await mkdir(dirname(out), { recursive: true });
  const tmp = `${out}.tmp-${process.pid}`;
  await writeFile(tmp, bytes);
  await rename(tmp, out);
  return bytes.length;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = process.argv[2] ?? DISTRICTS_FILE;
  const size = await writeDistricts(out);
  process.stderr.write(`districts: ${geojsonDistricts().length} districts, ${(size / 1024).toFixed(0)} KiB → ${out}\n`);
}
