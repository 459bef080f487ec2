/**
 * Nepal's 77 district polygons as a compact table, written at build time (`npm run districts`,
 * part of `npm run prepare`) from the nepal-geojson package (MIT), a dev dependency: at run
 * time that package would bring some 150 packages (brfs, escodegen…) for 550 kB of data.
 *
 * The file: `NPDT`, a format byte, the length of a JSON header (4 bytes, little-endian), the
 * header `{ names, provinces, rings }` (district names and province numbers as nepal-geojson
 * has them, and each district's ring lengths in vertices), then every ring's vertices as
 * microdegree varints, each a zigzag delta from the same axis of the vertex before
 * (`src/snapshot/varint.ts`, stride 2). nepal-geojson's coordinates are exact microdegrees,
 * so `n / 1e6` gives back its very numbers.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readVarints, varintSize, writeVarints } from '../snapshot/varint.js';

/** Where `npm run districts` writes the table: `dist/` of the package, from `src/address/` and `dist/address/` alike. */
export const DISTRICTS_FILE = fileURLToPath(new URL('../../dist/nepal-districts.bin', import.meta.url));

/** One district: its name and province number as nepal-geojson gives them, its rings as flat `[lon, lat, …]` degrees. */
export interface District {
  name: string;
  province: number;
  rings: number[][];
}

/** A district table that is missing or not one. */
export class DistrictTableError extends Error {
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`${file}: ${problem}`);
    this.name = 'DistrictTableError';
  }
}

const MAGIC = [0x4e, 0x50, 0x44, 0x54]; // NPDT
const FORMAT = 1;
const SCALE = 1e6;

/** The table's bytes for `districts` (whose coordinates must be whole microdegrees). */
export function encodeDistricts(districts: District[]): Uint8Array {
  const coords: number[] = [];
  for (const d of districts) {
    for (const r of d.rings) {
      for (const c of r) {
        const n = Math.round(c * SCALE);
        if (n / SCALE !== c) throw new RangeError(`${d.name}: ${c} is not a whole number of microdegrees`);
        coords.push(n);
      }
    }
  }
  const header = new TextEncoder().encode(
    JSON.stringify({
      names: districts.map((d) => d.name),
      provinces: districts.map((d) => d.province),
      rings: districts.map((d) => d.rings.map((r) => r.length / 2)),
    }),
  );
  const start = MAGIC.length + 1 + 4 + header.length;
  const out = new Uint8Array(start + varintSize(coords, 2));
  out.set(MAGIC);
  out[MAGIC.length] = FORMAT;
  new DataView(out.buffer).setUint32(MAGIC.length + 1, header.length, true);
  out.set(header, MAGIC.length + 5);
  writeVarints(coords, 2, out, start);
  return out;
}

/**
 * The districts of a table's bytes.
 * @throws {DistrictTableError} when the bytes are not a whole table of this format
 */
export function decodeDistricts(bytes: Uint8Array, file = 'district table'): District[] {
  const bad = (problem: string) => new DistrictTableError(file, problem);
  if (bytes.length < MAGIC.length + 5 || MAGIC.some((b, i) => bytes[i] !== b)) throw bad('not a district table');
  if (bytes[MAGIC.length] !== FORMAT) throw bad(`format ${bytes[MAGIC.length]}, this version reads ${FORMAT}`);
  const size = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(MAGIC.length + 1, true);
  const start = MAGIC.length + 5 + size;
  if (start > bytes.length) throw bad('cut short in its header');
  let head: { names: string[]; provinces: number[]; rings: number[][] };
  try {
    head = JSON.parse(new TextDecoder().decode(bytes.subarray(MAGIC.length + 5, start)));
  } catch {
    throw bad('its header is not JSON');
  }
  const n = head.names?.length;
  if (
    !Array.isArray(head.names) ||
    !Array.isArray(head.provinces) ||
    !Array.isArray(head.rings) ||
    head.provinces.length !== n ||
    head.rings.length !== n
  ) {
    throw bad('its header is not a list of districts');
  }
  const total = head.rings.flat().reduce((s, k) => s + k, 0);
  const xy = new Int32Array(2 * total);
  if (!readVarints(bytes, start, bytes.length, xy, 2)) throw bad('its coordinates are cut short or padded');
  let at = 0;
  return head.names.map((name, i) => ({
    name,
    province: head.provinces[i],
    rings: head.rings[i].map((k) => {
      const ring = Array.from(xy.subarray(at, at + 2 * k), (v) => v / SCALE);
      at += 2 * k;
      return ring;
    }),
  }));
}

let table: District[] | undefined;

/**
 * The districts of `npm run districts`' table, read once per process.
 * @throws {DistrictTableError} when it is missing (not built) or damaged
 */
export function nepalDistrictTable(): District[] {
  if (table) return table;
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(DISTRICTS_FILE);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new DistrictTableError(
      DISTRICTS_FILE,
      code === 'ENOENT'
        ? 'missing: it is built with the package (npm run districts, part of npm install in a clone)'
        : `cannot be read (${code})`,
    );
  }
  return (table = decodeDistricts(bytes, DISTRICTS_FILE));
}
