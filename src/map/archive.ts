/**
 * A PMTiles v3 archive of vector tiles on disk, read with the `pmtiles` package through the
 * file `Source` of src/tiles: the header and directories come from its cache, tiles from single reads.
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import { createGunzip, gzip as gzipCallback } from 'node:zlib';
import { Compression, findTile, PMTiles, TileType, zxyToTileId, type Entry, type Header } from 'pmtiles';
import { FileSource } from './file-source.js';
import { bytes, isTile, MAX_TILE_BYTES, MAX_TILE_ZOOM, overLimit, TileDataError } from './zxy.js';

export { isTile, MAX_TILE_BYTES, MAX_TILE_ZOOM, TileDataError } from './zxy.js';

const gzip = promisify(gzipCallback);

/** Options of `TileArchive.open`. */
export interface TileArchiveOptions {
  /** Largest tile served, inflated, in bytes (default `MAX_TILE_BYTES`, 16 MiB); a larger one is a `TileDataError`. */
  maxTileBytes?: number;
  /** Bytes of gzipped tiles an archive of uncompressed tiles keeps, most recently served first (default 64 MiB). */
  cacheBytes?: number;
}

/** How a tile cache is used. */
export interface CacheStats {
  /** Tiles held now, and their bytes. */
  tiles: number;
  bytes: number;
  /** Requests answered from it, and tiles made (gzipped) for it. */
  hits: number;
  misses: number;
}

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
  /** Largest tile served, inflated, in bytes. */
  readonly maxTileBytes: number;
  private readonly pmtiles: PMTiles;
  private readonly source: FileSource;
  private readonly tag: string;
  // an uncompressed archive's tiles, gzipped (by offset and length in the tile data)
  private readonly gzipped: Memo<Uint8Array>;
  // gzips at a time: all cores but one, so that the main thread keeps one to answer on
  private readonly gzips = new Gate(Math.max(1, availableParallelism() - 1));
  // a gzip archive's tiles checked to inflate within the limit (by offset and length in the tile data)
  private readonly checked = new Memo<number>(0, () => 0);

  private constructor(
    file: string,
    pmtiles: PMTiles,
    source: FileSource,
    header: Header,
    metadata: Record<string, unknown>,
    tag: string,
    options: Required<TileArchiveOptions>,
  ) {
    this.file = file;
    this.pmtiles = pmtiles;
    this.source = source;
    this.header = header;
    this.metadata = metadata;
    this.vectorLayers = metadata.vector_layers as VectorLayer[];
    this.tag = tag;
    this.maxTileBytes = options.maxTileBytes;
    this.gzipped = new Memo(options.cacheBytes, (d) => d.length);
  }

  /**
   * Opens and checks an archive: PMTiles v3 of MVT tiles, gzip-compressed or not, whose sections
   * lie inside the file and whose metadata lists its vector layers.
   * @throws {TileArchiveError} naming the file and what is wrong with it
   */
  static async open(file: string, options: TileArchiveOptions = {}): Promise<TileArchive> {
    const { maxTileBytes = MAX_TILE_BYTES, cacheBytes = 64 << 20 } = options;
    for (const [what, n] of [
      ['maxTileBytes', maxTileBytes],
      ['cacheBytes', cacheBytes],
    ] as const) {
      if (!Number.isSafeInteger(n) || n < (what === 'cacheBytes' ? 0 : 1))
        throw new TypeError(`TileArchive.open: ${what} must be a ${what === 'cacheBytes' ? 'non-negative' : 'positive'} integer, got ${n}`);
    }
    let size: number;
    let mtime: number;
    try {
      const st = await stat(file);
      if (st.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
      size = st.size;
      mtime = st.mtimeMs;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new TileArchiveError(
        file,
        code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : `cannot read: ${(err as Error).message}`,
      );
    }
    const source = new FileSource(file);
    try {
      const pmtiles = new PMTiles(source);
      const head = new Uint8Array((await source.getBytes(0, 127)).data);
      if (head.length < 127 || head[0] !== 0x50 || head[1] !== 0x4d) {
        throw new TileArchiveError(
          file,
          head.length < 127 && head[0] === 0x50 ? 'truncated PMTiles header' : 'not a PMTiles archive (no PMTiles magic bytes)',
        );
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
        if (offset + length > size)
          throw new TileArchiveError(file, `truncated: its ${what} ends at byte ${offset + length} of a ${size}-byte file`);
      }
      if (header.minZoom > header.maxZoom || header.maxZoom > MAX_TILE_ZOOM) {
        throw new TileArchiveError(
          file,
          `its zooms ${header.minZoom} to ${header.maxZoom} are not PMTiles zooms (0 to ${MAX_TILE_ZOOM}, the least first)`,
        );
      }
      if (header.tileType !== TileType.Mvt)
        throw new TileArchiveError(file, `holds ${TileType[header.tileType] ?? 'unknown'} tiles; this server serves vector (MVT) tiles`);
      if (header.tileCompression !== Compression.Gzip && header.tileCompression !== Compression.None) {
        throw new TileArchiveError(
          file,
          `tiles compressed with ${Compression[header.tileCompression] ?? 'an unknown method'}; this server reads gzip or uncompressed tiles`,
        );
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
      return new TileArchive(file, pmtiles, source, header, metadata as Record<string, unknown>, tag, { maxTileBytes, cacheBytes });
    } catch (err) {
      await source.close();
      throw err;
    }
  }

  /**
   * The stored tile z/x/y, gzip-compressed, or `undefined` where the archive has none (outside
   * the data, outside its zooms). A gzip archive's own bytes are served (no inflate and deflate
   * per request), once each checked to inflate to at most `maxTileBytes`; an uncompressed
   * archive's tiles are gzipped on zlib's threads, once each while they stay in the cache.
   * @throws {RangeError} when z/x/y is not a tile (callers check with `isTile`)
   * @throws {TileDataError} when the tile cannot be served: over `maxTileBytes`, not valid gzip,
   * past the end of the file, or its directory is unreadable
   */
  async tile(z: number, x: number, y: number): Promise<StoredTile | undefined> {
    if (!isTile(z, x, y)) throw new RangeError(`not a tile: ${z}/${x}/${y}`);
    const { header } = this;
    if (z < header.minZoom || z > header.maxZoom) return undefined;
    const name = `${z}/${x}/${y}`;
    const entry = await this.find(zxyToTileId(z, x, y), name);
    if (!entry) return undefined;
    // A directory may claim any length: nothing longer than the gzip of a tile at the limit is read.
    const plain = header.tileCompression === Compression.None;
    const longest = plain ? this.maxTileBytes : gzipBound(this.maxTileBytes);
    if (entry.length > longest)
      throw new TileDataError(
        name,
        `it is stored in ${entry.length} bytes, more than a tile of ${bytes(this.maxTileBytes)}, the limit, can take`,
      );
    const etag = `"${this.tag}-${entry.offset.toString(36)}-${entry.length.toString(36)}"`;
    // by its bytes' place: a hostile directory may give two tiles one offset and two lengths
    const key = `${entry.offset}:${entry.length}`;
    if (plain) {
      // read inside the gate: the tiles waiting for it hold no bytes yet
      const data = await this.gzipped.get(key, () => this.gzips.run(async () => gzip(await this.read(entry, name))));
      return { data, etag };
    }
    const data = await this.read(entry, name);
    await this.checked.get(key, () => inflatedSize(data, this.maxTileBytes, name));
    return { data, etag };
  }

  /** How the cache of gzipped tiles of an uncompressed archive is used (all zero for a gzip archive). */
  get cacheStats(): CacheStats {
    return this.gzipped.stats();
  }

  // The directory entry of tile `id`: root, then at most three leaf levels, as PMTiles' own
  // getZxy() walks them (that one inflates what it reads; the stored bytes are what is served).
  private async find(id: number, name: string): Promise<Entry | undefined> {
    const { header } = this;
    let offset = header.rootDirectoryOffset;
    let length = header.rootDirectoryLength;
    for (let depth = 0; depth <= 3; depth++) {
      let entries: Entry[];
      try {
        entries = await this.pmtiles.cache.getDirectory(this.source, offset, length, header);
      } catch (err) {
        throw new TileDataError(name, `its directory is unreadable (${(err as Error).message})`);
      }
      const entry = findTile(entries, id);
      if (!entry || entry.runLength > 0) return entry ?? undefined;
      offset = header.leafDirectoryOffset + entry.offset;
      length = entry.length;
    }
    throw new TileDataError(name, 'its directories nest deeper than PMTiles allows');
  }

  private async read(entry: Entry, name: string): Promise<Uint8Array> {
    const data = new Uint8Array((await this.source.getBytes(this.header.tileDataOffset + entry.offset, entry.length)).data);
    if (data.length < entry.length) throw new TileDataError(name, 'it ends past the end of the file (the archive is truncated)');
    return data;
  }

  /** Closes the file. */
  async close(): Promise<void> {
    await this.source.close();
  }
}

/** The longest gzip of `size` bytes: zlib's deflateBound() for a gzip stream (stored blocks at worst). */
function gzipBound(size: number): number {
  return size + (size >> 12) + (size >> 14) + (size >> 25) + 13 + 18;
}

/**
 * How many bytes gzip `data` inflates to, counted as zlib's threads inflate it and given up past
 * `limit`: a gzip bomb costs one chunk of memory and the time to inflate `limit` bytes.
 * @throws {TileDataError} past the limit, or when `data` is not valid gzip
 */
function inflatedSize(data: Uint8Array, limit: number, tile: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const inflate = createGunzip({ chunkSize: 64 << 10 });
    let size = 0;
    inflate.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        inflate.destroy();
        reject(new TileDataError(tile, overLimit(limit)));
      }
    });
    inflate.on('end', () => resolve(size));
    inflate.on('error', (err) => reject(new TileDataError(tile, `its bytes are not valid gzip (${err.message})`)));
    inflate.end(data);
  });
}

/**
 * Values made once per key and kept while they fit: at most `budget` bytes (by `sizeOf`) and
 * `MEMO_ENTRIES` keys, the least recently used dropped first. Concurrent requests for a key
 * share one making; a `TileDataError` is kept like a value (the bytes will not change).
 */
class Memo<V> {
  private readonly done = new Map<string, { value?: V; error?: TileDataError; size: number }>();
  private readonly making = new Map<string, Promise<V>>();
  private bytes = 0;
  private hits = 0;
  private misses = 0;

  constructor(
    readonly budget: number,
    readonly sizeOf: (value: V) => number,
  ) {}

  async get(key: string, make: () => Promise<V>): Promise<V> {
    const held = this.done.get(key);
    if (held) {
      this.hits++;
      this.done.delete(key); // most recently used: last in the map's order
      this.done.set(key, held);
      if (held.error) throw held.error;
      return held.value as V;
    }
    let pending = this.making.get(key);
    if (pending) {
      this.hits++;
      return pending;
    }
    this.misses++;
    pending = make();
    this.making.set(key, pending);
    try {
      const value = await pending;
      this.keep(key, { value, size: this.sizeOf(value) });
      return value;
    } catch (err) {
      if (err instanceof TileDataError) this.keep(key, { error: err, size: 0 });
      throw err;
    } finally {
      this.making.delete(key);
    }
  }

  stats(): CacheStats {
    return { tiles: this.done.size, bytes: this.bytes, hits: this.hits, misses: this.misses };
  }

  private keep(key: string, item: { value?: V; error?: TileDataError; size: number }): void {
    if (item.size > this.budget) return;
    this.done.set(key, item);
    this.bytes += item.size;
    for (const [k, old] of this.done) {
      if (this.bytes <= this.budget && this.done.size <= MEMO_ENTRIES) break;
      this.done.delete(k);
      this.bytes -= old.size;
    }
  }
}

/** Runs at most `size` tasks at a time, the others in the order they come. */
class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next)
        next(); // the slot passes on as it is
      else this.running--;
    }
  }
}

// Keys a memo holds at most: a Nepal archive has about 44,000 distinct tiles.
const MEMO_ENTRIES = 1 << 16;
