/**
 * A PMTiles v3 archive of vector tiles on disk, read with the `pmtiles` package through the
 * file `Source` of src/tiles: the header and directories come from its cache, tiles from single reads.
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { Compression, findTile, PMTiles, TileType, zxyToTileId, type Header } from 'pmtiles';
import { FileSource } from '../tiles/file-source.js';
import { isTile } from './zxy.js';

export { isTile, MAX_TILE_ZOOM } from './zxy.js';

/** A tiles archive could not be opened or read: missing, not PMTiles, truncated or of the wrong kind. */
export class TileArchiveError extends Error {
  readonly file: string;
  constructor(file: string, message: string) {
    super(`${file}: ${message}`);
    this.name = 'TileArchiveError';
    this.file = file;
  }
}

/** One vector layer of the archive's metadata, as TileJSON 3.0 lists it. */
export interface VectorLayer {
  id: string;
  fields: Record<string, string>;
  minzoom?: number;
  maxzoom?: number;
  description?: string;
}

/** A tile's bytes as served: gzip-compressed MVT, and a strong ETag that changes with the bytes. */
export interface StoredTile {
  data: Uint8Array;
  etag: string;
}

/**
 * A PMTiles archive of MVT tiles, opened once and read by many requests.
 *
 * @example
 * const archive = await TileArchive.open('kathmandu.pmtiles');
 * const tile = await archive.tile(14, 12055, 6868); // gzip MVT and its ETag, or undefined
 */
export class TileArchive {
  /** The archive's header: zooms, bounds, centre, compression. */
  readonly header: Header;
  /** The vector layers its metadata lists. */
  readonly vectorLayers: VectorLayer[];
  /** The rest of its metadata (name, attribution, …). */
  readonly metadata: Record<string, unknown>;
  readonly file: string;
  private readonly pmtiles: PMTiles;
  private readonly source: FileSource;
  private readonly tag: string;

  private constructor(file: string, pmtiles: PMTiles, source: FileSource, header: Header, metadata: Record<string, unknown>, tag: string) {
    this.file = file;
    this.pmtiles = pmtiles;
    this.source = source;
    this.header = header;
    this.metadata = metadata;
    this.vectorLayers = metadata.vector_layers as VectorLayer[];
    this.tag = tag;
  }

  /**
   * Opens and checks an archive: PMTiles v3 of MVT tiles, gzip-compressed or not, whose sections
   * lie inside the file and whose metadata lists its vector layers.
   * @throws {TileArchiveError} naming the file and what is wrong with it
   */
  static async open(file: string): Promise<TileArchive> {
    let size: number;
    let mtime: number;
    try {
      const st = await stat(file);
      if (st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
      size = st.size;
      mtime = st.mtimeMs;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new TileArchiveError(file, code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : `cannot read: ${(err as Error).message}`);
    }
    const source = new FileSource(file);
    try {
      const pmtiles = new PMTiles(source);
      const head = new Uint8Array((await source.getBytes(0, 127)).data);
      if (head.length < 127 || head[0] !== 0x50 || head[1] !== 0x4d) {
        throw new TileArchiveError(file, head.length < 127 && head[0] === 0x50 ? 'truncated PMTiles header' : 'not a PMTiles archive (no PMTiles magic bytes)');
      }
      if (head[7] !== 3) throw new TileArchiveError(file, `PMTiles spec version ${head[7]}; this server reads version 3`);
      const header = await pmtiles.getHeader().catch((err: Error) => {
        throw err instanceof TileArchiveError ? err : new TileArchiveError(file, `bad PMTiles header or root directory: ${err.message}`);
      });
      const sections: [string, number, number][] = [
        ['root directory', header.rootDirectoryOffset, header.rootDirectoryLength],
        ['metadata', header.jsonMetadataOffset, header.jsonMetadataLength],
        ['leaf directories', header.leafDirectoryOffset, header.leafDirectoryLength ?? 0],
        ['tile data', header.tileDataOffset, header.tileDataLength ?? 0],
      ];
      for (const [what, offset, length] of sections) {
        if (offset + length > size) throw new TileArchiveError(file, `truncated: its ${what} ends at byte ${offset + length} of a ${size}-byte file`);
      }
      if (header.tileType !== TileType.Mvt) throw new TileArchiveError(file, `holds ${TileType[header.tileType] ?? 'unknown'} tiles; this server serves vector (MVT) tiles`);
      if (header.tileCompression !== Compression.Gzip && header.tileCompression !== Compression.None) {
        throw new TileArchiveError(file, `tiles compressed with ${Compression[header.tileCompression] ?? 'an unknown method'}; this server reads gzip or uncompressed tiles`);
      }
      let metadata: unknown;
      try {
        metadata = await pmtiles.getMetadata();
      } catch (err) {
        throw err instanceof TileArchiveError ? err : new TileArchiveError(file, `unreadable metadata: ${(err as Error).message}`);
      }
      if (typeof metadata !== 'object' || metadata === null || !Array.isArray((metadata as Record<string, unknown>).vector_layers)) {
        throw new TileArchiveError(file, 'its metadata lists no vector_layers');
      }
      const tag = createHash('sha256').update(`${size}:${mtime}:`).update(head).digest('base64url').slice(0, 12);
      return new TileArchive(file, pmtiles, source, header, metadata as Record<string, unknown>, tag);
    } catch (err) {
      await source.close();
      throw err;
    }
  }

  /**
   * The stored tile z/x/y, gzip-compressed (the archive's own bytes when it stores gzip: no
   * inflate and deflate per request), or `undefined` where the archive has none (outside the data,
   * outside its zooms).
   * @throws {RangeError} when z/x/y is not a tile (callers check with `isTile`)
   */
  async tile(z: number, x: number, y: number): Promise<StoredTile | undefined> {
    if (!isTile(z, x, y)) throw new RangeError(`not a tile: ${z}/${x}/${y}`);
    const { header } = this;
    if (z < header.minZoom || z > header.maxZoom) return undefined;
    const id = zxyToTileId(z, x, y);
    // PMTiles' own getZxy() inflates what it reads; serving the stored gzip bytes needs the same
    // directory walk (root, then at most three leaf levels) ending at the raw range instead.
    let offset = header.rootDirectoryOffset;
    let length = header.rootDirectoryLength;
    for (let depth = 0; depth <= 3; depth++) {
      const entries = await this.pmtiles.cache.getDirectory(this.source, offset, length, header);
      const entry = findTile(entries, id);
      if (!entry) return undefined;
      if (entry.runLength > 0) {
        const start = header.tileDataOffset + entry.offset;
        let data = new Uint8Array((await this.source.getBytes(start, entry.length)).data);
        if (data.length < entry.length) throw new TileArchiveError(this.file, `truncated: tile ${z}/${x}/${y} ends past the end of the file`);
        if (header.tileCompression === Compression.None) data = gzipSync(data);
        return { data, etag: `"${this.tag}-${entry.offset.toString(36)}-${entry.length.toString(36)}"` };
      }
      offset = header.leafDirectoryOffset + entry.offset;
      length = entry.length;
    }
    throw new TileArchiveError(this.file, `directories nest deeper than PMTiles allows, looking up ${z}/${x}/${y}`);
  }

  /** Closes the file. */
  async close(): Promise<void> {
    await this.source.close();
  }
}
