/**
 * A PMTiles archive on the local disk, for the `pmtiles` reader (its own `FileSource`
 * is the browser's File API): byte ranges read with positioned reads on one open file.
 */
import { open, type FileHandle } from 'node:fs/promises';
import type { RangeResponse, Source } from 'pmtiles';

/**
 * A `pmtiles` `Source` over a file. Call `close` when done.
 *
 * @example
 * const archive = new PMTiles(new FileSource('nepal.pmtiles'));
 * const tile = await archive.getZxy(14, 12061, 6852);
 */
export class FileSource implements Source {
  private handle: Promise<FileHandle> | undefined;

  constructor(readonly path: string) {}

  /** The key `pmtiles` caches directories under. */
  getKey(): string {
    return this.path;
  }

  /** Reads `length` bytes at `offset` (fewer at the end of the file). */
  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    this.handle ??= open(this.path, 'r');
    const f = await this.handle;
    const buf = new Uint8Array(length);
    const { bytesRead } = await f.read(buf, 0, length, offset);
    // a whole read is handed over as is: no copy of a tile of megabytes
    return { data: bytesRead === length ? buf.buffer : buf.buffer.slice(0, bytesRead) };
  }

  /** Closes the file. */
  async close(): Promise<void> {
    const h = this.handle;
    this.handle = undefined;
    if (h) await (await h).close();
  }
}
