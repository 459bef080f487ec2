import { readFile } from 'node:fs/promises';
import { PbfError } from '../errors.js';
import { scanFrames, readHeader, describeSkipped, type Frame } from './frames.js';
import { inflateBlob } from './blob.js';
import { decodeFrames } from './decode.js';
import type { Block } from './block.js';

/** A PBF file split into its frames, its header checked, ready to decode. */
export interface PbfFile {
  /** The file's path, or `<buffer>`: what errors name. */
  file: string;
  bytes: Uint8Array;
  /** The `OSMData` blobs, in file order. */
  data: Frame[];
  /** Bytes up to the end of the header blob. */
  headerEnd: number;
  /** Blobs of unknown type, skipped (see `describeSkipped`). */
  skipped: ReturnType<typeof scanFrames>['skipped'];
}

/**
 * Reads a PBF (a path or its bytes), splits it into frames and checks that the
 * header asks for nothing this reader lacks. Rejects with `PbfError` naming the file;
 * with `strict`, also when it has blobs of unknown type (skipped otherwise).
 */
export async function openPbf(source: string | Uint8Array, strict = false): Promise<PbfFile> {
  const file = typeof source === 'string' ? source : '<buffer>';
  let bytes: Uint8Array;
  if (typeof source === 'string') {
    try {
      bytes = await readFile(source);
    } catch (err) {
      throw new PbfError(file, cannotRead(err), { cause: err, code: (err as NodeJS.ErrnoException).code });
    }
  } else if (source instanceof Uint8Array) {
    bytes = source;
  } else {
    throw new PbfError('<unknown>', 'source must be a file path or a Uint8Array');
  }
  try {
    const frames = scanFrames(bytes);
    const h = frames.header;
    readHeader(inflateBlob(bytes.subarray(h.offset, h.offset + h.length)), h);
    if (strict && frames.skipped.length) {
      throw new Error(`${describeSkipped(frames.skipped)}: strict loading refuses a file whose data it would skip`);
    }
    return { file, bytes, data: frames.data, headerEnd: h.offset + h.length, skipped: frames.skipped };
  } catch (err) {
    throw new PbfError(file, (err as Error).message, { cause: err, code: (err as NodeJS.ErrnoException).code });
  }
}

/**
 * Decodes the data blobs of `pbf` on `workers` threads and hands each block to
 * `take(seq, block)` in file order. A bad blob, or a `take` that throws, rejects
 * with `PbfError` naming the file.
 */
export async function readBlocks(pbf: PbfFile, workers: number, take: (seq: number, block: Block) => void): Promise<void> {
  try {
    await decodeFrames(pbf.bytes, pbf.data, workers, take);
  } catch (err) {
    throw new PbfError(pbf.file, (err as Error).message, { cause: err, code: (err as NodeJS.ErrnoException).code });
  }
}

/** Why a file could not be read, in the words of a load error. */
export function cannotRead(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'is a directory' : `cannot read (${e.message})`;
}
