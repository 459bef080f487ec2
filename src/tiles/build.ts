/**
 * `buildTiles`: an OSM PBF in, a PMTiles archive of vector tiles out. One decode of
 * the file through the loader (every tag kept), the map's features made from the
 * blocks as they arrive, then the tiles cut zoom by zoom and streamed into the
 * archive, which is written beside the output and renamed over it at the end.
 */
import { readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PbfError } from '../errors.js';
import type { LoadProgress } from '../types.js';
import { KEEP_ALL } from '../load/block.js';
import { inflateBlob } from '../load/blob.js';
import { decodeFrames, defaultWorkers } from '../load/decode.js';
import { readHeader, scanFrames } from '../load/frames.js';
import { cannotRead } from '../load/read.js';
import { Osm } from '../load/osm.js';
import { addEarth } from './earth.js';
import { FeatureSink, LAYERS, withProperty, type FeatureTable } from './features.js';
import { PmtilesWriter, type ArchiveStats } from './pmtiles.js';
import { LAYER_FIELDS } from './schema.js';
import { latOf, lonOf, MAX_ZOOM, worldX, worldY } from './project.js';
import { makeTiles, type ZoomReport } from './tiler.js';
import { hasDevanagari, Shaper, shapeLabels, SHAPED_KEY, type ShapedTable } from '../map/shape.js';
import { MapFeatureBuilder } from './map-features.js';

/** Options of `buildTiles`. */
export interface TilesOptions {
  /** Decoder threads; 0 decodes on this thread (default: by file size and cores). */
  workers?: number;
  /** The file's reading and decoding, as `loadPbf` reports it. */
  onProgress?: (p: LoadProgress) => void;
  /** After each zoom's tiles. */
  onZoom?: (r: ZoomReport) => void;
  /** Highest zoom (default 14). */
  maxZoom?: number;
  /** Attribution in the archive's metadata. */
  attribution?: string;
  /**
   * Write `pgf:name:ne`, the Nepali names shaped for the Nepali style (`src/map/shape.ts`), and
   * the table of their clusters in the metadata (default true).
   */
  shape?: boolean;
}

/** The Nepali labels `buildTiles` shaped. */
export interface ShapedStats {
  /** Distinct names shaped (each written on every feature that has it). */
  names: number;
  /** Features given a shaped name. */
  features: number;
  /** Distinct clusters, each a code point of the Private Use Area. */
  clusters: number;
  /** Distinct names left unshaped: they needed a cluster beyond the 6,400 code points. */
  overflow: number;
}

/** What `buildTiles` made, and how long each step took (ms). */
export interface TilesResult {
  features: number;
  skipped: number;
  zooms: ZoomReport[];
  archive: ArchiveStats;
  /** `[west, south, east, north]` of the data, degrees. */
  bounds: [number, number, number, number];
  /** The shaped Nepali labels (absent with `shape: false`). */
  shaped?: ShapedStats;
  timings: { read: number; features: number; tiles: number };
}

const ATTRIBUTION = '<a href="https://www.openstreetmap.org/copyright">© OpenStreetMap contributors</a>';

/** The temporary file an archive is written to before it is renamed to `output`. */
export function temporaryPath(output: string): string {
  return join(dirname(output), `.${basename(output)}.${process.pid}.tmp`);
}

/**
 * Builds the vector tiles of an OSM PBF into a PMTiles archive at `output`. A missing,
 * truncated, corrupt or non-PBF input rejects with `PbfError` naming it, and leaves
 * no output.
 *
 * @example
 * const r = await buildTiles('nepal.osm.pbf', 'nepal.pmtiles');
 * r.archive.bytes; // the archive's size
 */
export async function buildTiles(input: string, output: string, options: TilesOptions = {}): Promise<TilesResult> {
  let clock = performance.now();
  const lap = () => {
    const now = performance.now();
    const ms = now - clock;
    clock = now;
    return Math.round(ms);
  };
  // HarfBuzz's WebAssembly compiles on V8's background threads while the file is decoded
  const shaper = options.shape === false ? undefined : Shaper.load();
  shaper?.catch(() => {}); // a failure is thrown where it is awaited; a bad PBF fails first
  let buf: Uint8Array;
  try {
    buf = await readFile(input);
  } catch (err) {
    throw new PbfError(input, cannotRead(err));
  }
  const fail = (err: unknown): never => {
    throw new PbfError(input, (err as Error).message);
  };
  let frames: ReturnType<typeof scanFrames>;
  try {
    frames = scanFrames(buf);
    const h = frames.header;
    readHeader(inflateBlob(buf.subarray(h.offset, h.offset + h.length)), h);
  } catch (err) {
    return fail(err);
  }
  const read = lap();

  const total = buf.length;
  let done = frames.header.offset + frames.header.length;
  let objects = 0;
  options.onProgress?.({ bytesRead: done, bytesTotal: total, objects });
  const osm = new Osm();
  let sink = new FeatureSink();
  let builder = new MapFeatureBuilder(osm, sink);
  // built block by block while the file is sorted nodes, ways, relations (extracts
  // are); otherwise all at the end
  let phase = 0;
  let sorted = true;
  let lon0 = Infinity,
    lat0 = Infinity,
    lon1 = -Infinity,
    lat1 = -Infinity;
  await decodeFrames(
    buf,
    frames.data,
    options.workers ?? defaultWorkers(total),
    (seq, blk) => {
      osm.add(blk);
      done += frames.data[seq].length;
      objects += blk.nodeId.length + blk.wayId.length + blk.relId.length;
      options.onProgress?.({ bytesRead: Math.min(done, total - 1), bytesTotal: total, objects });
      for (let i = 0; i < blk.nodeLat.length; i++) {
        const lat = blk.nodeLat[i],
          lon = blk.nodeLon[i];
        if (lat < lat0) lat0 = lat;
        if (lat > lat1) lat1 = lat;
        if (lon < lon0) lon0 = lon;
        if (lon > lon1) lon1 = lon;
      }
      if (!sorted) return;
      if ((blk.nodeId.length && phase > 0) || (blk.wayId.length && phase > 1)) {
        sorted = false;
        return;
      }
      if (blk.wayId.length && phase < 1) {
        osm.indexNodes();
        phase = 1;
      }
      if (blk.relId.length && phase < 2) {
        osm.indexWays();
        phase = 2;
      }
      builder.nodes(blk);
      builder.ways(blk);
      builder.relations(blk);
    },
    KEEP_ALL,
  ).catch(fail);
  if (!sorted) {
    // start again on the whole file, now that every node and way is in
    sink = new FeatureSink();
    builder = new MapFeatureBuilder(osm, sink);
    osm.indexNodes();
    osm.indexWays();
    for (const b of osm.blocks) builder.nodes(b);
    for (const b of osm.blocks) builder.ways(b);
    for (const b of osm.blocks) builder.relations(b);
  }
  if (lat0 > lat1) throw new PbfError(input, 'no nodes: nothing to draw');
  const box: [number, number, number, number] = [worldX(lon0 / 1e7), worldY(lat1 / 1e7), worldX(lon1 / 1e7), worldY(lat0 / 1e7)];
  addEarth(sink, box);
  let table = sink.finish();
  let shaped: { stats: ShapedStats; table: ShapedTable } | undefined;
  if (shaper) ({ table, shaped } = shapeNames(table, await shaper));
  const features = lap();
  options.onProgress?.({ bytesRead: total, bytesTotal: total, objects });

  const maxZoom = options.maxZoom ?? MAX_ZOOM;
  const tmp = temporaryPath(output);
  const writer = new PmtilesWriter(tmp);
  let archive: ArchiveStats;
  let zooms: ZoomReport[];
  const bounds: [number, number, number, number] = [lonOf(box[0]), latOf(box[3]), lonOf(box[2]), latOf(box[1])];
  try {
    zooms = await makeTiles(table, (z, x, y, gz) => writer.add(z, x, y, gz), { maxZoom, onZoom: options.onZoom });
    const center: [number, number, number] = [(bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2, Math.min(maxZoom, 12)];
    archive = writer.finish(
      { minZoom: 0, maxZoom, bounds, center },
      {
        name: basename(input).replace(/\.osm\.pbf$|\.pbf$/, ''),
        format: 'pbf',
        type: 'baselayer',
        attribution: options.attribution ?? ATTRIBUTION,
        description: 'Protomaps basemap layers from OpenStreetMap, made by nepal-places',
        vector_layers: LAYERS.map((id) => ({ id, fields: { ...LAYER_FIELDS[id] }, minzoom: 0, maxzoom: maxZoom })),
        ...(shaped ? { [SHAPED_KEY]: shaped.table } : {}),
      },
    );
    await rename(tmp, output);
  } catch (err) {
    writer.close();
    await unlink(tmp).catch(() => {});
    throw err;
  }
  const tiles = lap();
  return {
    features: table.count,
    skipped: builder.stats.skipped,
    zooms,
    archive,
    bounds,
    ...(shaped ? { shaped: shaped.stats } : {}),
    timings: { read, features, tiles },
  };
}

/**
 * The features with `pgf:name:ne`: each feature's `name:ne`, or its `name` where that is in
 * Devanagari, shaped (each distinct name once). A name needing a cluster beyond the budget gets
 * none, and is counted.
 */
export function shapeNames(t: FeatureTable, shaper: Shaper): { table: FeatureTable; shaped: { stats: ShapedStats; table: ShapedTable } } {
  const ne = t.keys.indexOf('name:ne'),
    name = t.keys.indexOf('name');
  const source = new Int32Array(t.count).fill(-1);
  const uses = new Map<string, number>();
  for (let f = 0; f < t.count; f++) {
    let pick = -1;
    for (let k = t.propStart[f]; k < t.propStart[f + 1]; k++) {
      const key = t.props[2 * k],
        value = t.props[2 * k + 1];
      if (key === ne) pick = value;
      else if (key === name && pick < 0 && hasDevanagari(String(t.values[value]))) pick = value;
    }
    if (pick < 0) continue;
    source[f] = pick;
    const text = String(t.values[pick]);
    uses.set(text, (uses.get(text) ?? 0) + 1);
  }
  const { labels, table, overflow } = shapeLabels(uses.keys(), shaper, { weight: (text) => uses.get(text)! });
  let features = 0;
  const out = withProperty(t, 'pgf:name:ne', (f) => {
    const label = source[f]! < 0 ? undefined : labels.get(String(t.values[source[f]!]));
    if (label !== undefined) features++;
    return label;
  });
  return { table: out, shaped: { stats: { names: labels.size - overflow, features, clusters: table.clusters.length, overflow }, table } };
}
