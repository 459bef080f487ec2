import { PbfReader as Pbf } from 'pbf';
import { inflateSync } from 'node:zlib';

/**
 * The largest uncompressed blob the format allows (fileformat.proto: `raw_size` "MUST
 * be less than 32 MiB"). A larger claim is refused before anything is allocated, and
 * no blob inflates past it whatever its header says: a zlib bomb (1 MiB that inflates
 * to 1 GiB) costs at most this much memory per decoder thread.
 */
export const MAX_RAW_SIZE = 32 * 1024 * 1024;

/** A blob that cannot be decompressed; `code` is zlib's or Node's (`Z_DATA_ERROR`, `ERR_BUFFER_TOO_LARGE`), when it gave one. */
export class BlobError extends Error {
  readonly code?: string;
  constructor(message: string, options: { cause?: unknown; code?: string } = {}) {
    super(message, { cause: options.cause });
    this.name = 'BlobError';
    if (options.code !== undefined) this.code = options.code;
  }
}

/**
 * Returns the decompressed payload of a `Blob` message (raw or zlib; the only two
 * compressions osmium, osmosis and the planet dumps write by default).
 * Throws `BlobError`.
 */
export function inflateBlob(bytes: Uint8Array): Uint8Array {
  let raw: Uint8Array | undefined;
  let zlib: Uint8Array | undefined;
  let rawSize = -1;
  let other = 0;
  new Pbf(bytes).readFields((tag, _: unknown, pbf) => {
    if (tag === 1) raw = pbf.readBytes();
    else if (tag === 2) rawSize = pbf.readVarint();
    else if (tag === 3) zlib = pbf.readBytes();
    else if (tag >= 4 && tag <= 7) other = tag; // readFields skips what we leave unread
  }, null);
  if (raw) return raw;
  if (!zlib) {
    const names: Record<number, string> = { 4: 'lzma', 5: 'bzip2', 6: 'lz4', 7: 'zstd' };
    throw new BlobError(other ? `unsupported blob compression ${names[other]}` : 'blob has no data');
  }
  if (rawSize > MAX_RAW_SIZE) throw new BlobError(`blob claims ${rawSize} bytes uncompressed, more than the format's 32 MiB`);
  // raw_size is optional: without it, the format's cap is the limit
  const limit = rawSize >= 0 ? rawSize : MAX_RAW_SIZE;
  let out: Uint8Array;
  try {
    // one output chunk of the announced size (no chunk list to join afterwards), and
    // not one byte more than that: zlib stops there instead of allocating the rest
    out = inflateSync(zlib, { maxOutputLength: Math.max(1, limit), ...(rawSize > 0 ? { chunkSize: Math.max(64, rawSize) } : {}) });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ERR_BUFFER_TOO_LARGE') {
      throw new BlobError(`blob inflates to more than ${rawSize >= 0 ? `the ${rawSize} bytes its header says` : "the format's 32 MiB"}`, {
        cause: err,
        code: e.code,
      });
    }
    throw new BlobError(`corrupt zlib data (${e.message})`, { cause: err, code: e.code });
  }
  if (rawSize >= 0 && out.length !== rawSize) throw new BlobError(`blob inflates to ${out.length} bytes, header says ${rawSize}`);
  return out;
}
