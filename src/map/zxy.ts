/** Tile addresses and limits, for any runtime (no Node built-ins: the HTTP routes use them at the edge too). */

/** Deepest zoom the PMTiles tile id can address. */
export const MAX_TILE_ZOOM = 26;

/**
 * Largest tile served, inflated: 16 MiB. Real tiles are far smaller (the densest z14 tile of
 * Kathmandu is 567 kB raw; tippecanoe keeps tiles under 500 kB gzipped by default), and a
 * renderer spends seconds on a tile of a few MB; the limit leaves 30x headroom
 * while a damaged or hostile archive (a tile of a few kB that inflates to gigabytes) can make
 * the server spend no more than this per request.
 */
export const MAX_TILE_BYTES = 16 << 20;

/** Whether z/x/y names a tile: integers, 0 ≤ z ≤ 26, 0 ≤ x, y < 2^z. */
export function isTile(z: number, x: number, y: number): boolean {
  if (!Number.isInteger(z) || z < 0 || z > MAX_TILE_ZOOM) return false;
  const n = 2 ** z;
  return Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < n && y < n;
}

/**
 * What is wrong with tile address `z/x/y` (as written in a URL) for an archive of zooms
 * `minZoom..maxZoom`, or undefined when it names one of its tiles' places. Every coordinate
 * gets the same rule: decimal digits, in range; the message names the first one that breaks it.
 *
 * @example
 * tileProblem('15', '0', '0', { minZoom: 0, maxZoom: 14 }); // 'z must be an integer from 0 to 14 (…)'
 */
export function tileProblem(z: string, x: string, y: string, zooms: { minZoom: number; maxZoom: number }): string | undefined {
  const { minZoom, maxZoom } = zooms;
  const zn = integer(z);
  if (zn === undefined || zn < minZoom || zn > maxZoom) {
    return `z must be an integer from ${minZoom} to ${maxZoom}, the zooms of this server's tiles (maps overzoom z${maxZoom} tiles beyond)`;
  }
  const last = 2 ** zn - 1;
  for (const [name, s] of [
    ['x', x],
    ['y', y],
  ] as const) {
    const n = integer(s);
    if (n === undefined || n > last) return `${name} must be an integer from 0 to ${last} (2^z − 1) at z${zn}`;
  }
  return undefined;
}

// A coordinate written as decimal digits; longer than any tile coordinate is out of range (undefined).
function integer(s: string): number | undefined {
  return /^\d{1,9}$/.test(s) ? Number(s) : undefined;
}

/**
 * A stored tile that cannot be served: it inflates past the limit, is not valid gzip, or lies
 * past the end of its file. The archive is damaged (or hostile), not the request; the message
 * names the tile and the reason, never the file's path (it may reach a client).
 */
export class TileDataError extends Error {
  /** The tile, `z/x/y`. */
  readonly tile: string;
  /** What is wrong with it. */
  readonly reason: string;
  constructor(tile: string, reason: string) {
    super(`tile ${tile}: ${reason}`);
    this.name = 'TileDataError';
    this.tile = tile;
    this.reason = reason;
  }
}

/**
 * Inflates gzip `data` with Web APIs, stopping as soon as the output passes `limit` bytes: a
 * gzip bomb costs at most `limit` bytes and the time to inflate them.
 * @throws {TileDataError} past the limit, or when `data` is not valid gzip
 */
export async function gunzipLimited(data: Uint8Array, limit: number, tile: string): Promise<Uint8Array> {
  const reader = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip')).getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > limit) throw new TileDataError(tile, overLimit(limit));
      parts.push(value);
    }
  } catch (err) {
    await reader.cancel().catch(() => {});
    if (err instanceof TileDataError) throw err;
    throw new TileDataError(tile, `its bytes are not valid gzip (${(err as Error).message})`);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The reason of a tile over `limit` bytes. */
export function overLimit(limit: number): string {
  return `it inflates to more than ${bytes(limit)}, the limit of a tile`;
}

/** A byte count for a message: `16 MiB`, `4 KiB`, `123 bytes`. */
export function bytes(n: number): string {
  if (n >= 1 << 20 && n % (1 << 20) === 0) return `${n / (1 << 20)} MiB`;
  if (n >= 1 << 10 && n % (1 << 10) === 0) return `${n / (1 << 10)} KiB`;
  return `${n} bytes`;
}
