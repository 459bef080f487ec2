import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { PbfError } from '../errors.js';
import { scanFrames, readHeader, describeSkipped, bufferSource, readFile, type ByteSource, type Frame } from './frames.js';
import { inflateBlob } from './blob.js';
import { decodeFrames } from './decode.js';
import type { Block, Keep } from './block.js';

/** A PBF file split into its frames, its header checked, ready to decode. */
export interface PbfFile {
  /** The file's path, or `<buffer>`: what errors name. */
  file: string;
  /** Its size in bytes. */
  size: number;
  /** Its bytes, read blob by blob as they are decoded (a path), or the bytes given. */
  source: ByteSource;
  /** The `OSMData` blobs, in file order. */
  data: Frame[];
  /** Bytes up to the end of the header blob. */
  headerEnd: number;
  /** Blobs of unknown type, skipped (see `describeSkipped`). */
  skipped: ReturnType<typeof scanFrames>['skipped'];
  /** Closes the file (`readBlocks` does once it is read); nothing for bytes. */
  close(): Promise<void>;
}

/**
 * Opens a PBF (a path or its bytes), splits it into frames and checks that the
 * header asks for nothing this reader lacks. A file is not read whole: its frames'
 * headers now, each blob when it is decoded. Rejects with `PbfError` naming the file;
 * with `strict`, also when it has blobs of unknown type (skipped otherwise).
 */
export async function openPbf(source: string | Uint8Array, strict = false): Promise<PbfFile> {
  const file = typeof source === 'string' ? source : '<buffer>';
  let src: ByteSource;
  let close = async (): Promise<void> => {};
  if (typeof source === 'string') {
    try {
      const { handle, size } = await openRegular(source);
      src = fileSource(handle, size);
      close = () => handle.close();
    } catch (err) {
      throw new PbfError(file, cannotRead(err), { cause: err, code: (err as NodeJS.ErrnoException).code });
    }
  } else if (source instanceof Uint8Array) {
    src = bufferSource(source);
  } else {
    throw new PbfError('<unknown>', 'source must be a file path or a Uint8Array');
  }
  try {
    const frames = scanFrames(src);
    const h = frames.header;
    readHeader(inflateBlob(src.read(h.offset, h.length)), h);
    if (strict && frames.skipped.length) {
      throw new Error(`${describeSkipped(frames.skipped)}: strict loading refuses a file whose data it would skip`);
    }
    return { file, size: src.size, source: src, data: frames.data, headerEnd: h.offset + h.length, skipped: frames.skipped, close };
  } catch (err) {
    await close();
    throw new PbfError(file, (err as Error).message, { cause: err, code: (err as NodeJS.ErrnoException).code });
  }
}

// The bytes of an open regular file of `size` bytes, read where asked. Why not the whole
// file at once: at Nepal scale that is 400 MB held to the end of the decoding, at its peak.
function fileSource(handle: FileHandle, size: number): ByteSource {
  return { size, fd: handle.fd, read: (at, n) => readFile(handle.fd, at, n) };
}

/**
 * Decodes the data blobs of `pbf` on `workers` threads, keeping the tags `keep` asks for,
 * and hands each block to `take(seq, block)` in file order; then closes the file. A bad blob,
 * a file cut short meanwhile, or a `take` that throws, rejects with `PbfError` naming the file.
 */
export async function readBlocks(pbf: PbfFile, workers: number, keep: Keep, take: (seq: number, block: Block) => void): Promise<void> {
  try {
    await decodeFrames(pbf.source, pbf.data, workers, take, keep);
  } catch (err) {
    throw new PbfError(pbf.file, (err as Error).message, { cause: err, code: (err as NodeJS.ErrnoException).code });
  } finally {
    await pbf.close();
  }
}

/** The code of `openRegular`'s error for a file that is not a regular file (a pipe, a device, a socket). */
export const NOT_REGULAR = 'ENOTREG';

/**
 * Opens a file for reading, refusing anything but a regular file before any read: a FIFO
 * would block (the open itself, without O_NONBLOCK, until a writer comes), and a device such
 * as /dev/zero never ends. Resolves with the open handle and the file's size, which is all a
 * load reads (a file that grows meanwhile is read to that size). Rejects with the system's
 * error (`ENOENT`, `EACCES`, `EISDIR`), or one of code `NOT_REGULAR` saying what the file is.
 */
export async function openRegular(path: string): Promise<{ handle: FileHandle; size: number }> {
  // O_NONBLOCK: opening a FIFO returns at once (to be refused below); no effect on regular files
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = await handle.stat();
    if (st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    if (!st.isFile()) {
      const what = st.isFIFO()
        ? 'a named pipe'
        : st.isCharacterDevice()
          ? 'a character device'
          : st.isBlockDevice()
            ? 'a block device'
            : st.isSocket()
              ? 'a socket'
              : 'not a file';
      throw Object.assign(new Error(`is ${what}, not a regular file`), { code: NOT_REGULAR });
    }
    return { handle, size: st.size };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/**
 * Reads `size` bytes from `at` of an open file into a buffer of its own, in as few calls as
 * the system allows; fewer when the file ends sooner.
 */
export async function readAt(handle: FileHandle, at: number, size: number): Promise<Uint8Array> {
  // unpooled and unzeroed: every byte is read over
  const buf = Buffer.allocUnsafeSlow(size);
  let n = 0;
  while (n < size) {
    const { bytesRead } = await handle.read(buf, n, size - n, at + n);
    if (bytesRead === 0) break;
    n += bytesRead;
  }
  return n === size ? buf : buf.subarray(0, n);
}

/** Why a file could not be read, in the words of a load error. */
export function cannotRead(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e.code === NOT_REGULAR) return `${e.message}: only regular files are read`;
  return e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'is a directory' : `cannot read (${e.message})`;
}
