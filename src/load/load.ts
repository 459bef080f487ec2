import { readFile } from 'node:fs/promises';
import { PbfError } from '../errors.js';
import type { LoadOptions, LoadStats } from '../types.js';
import { scanFrames, readHeader, type Header } from './frames.js';
import { inflateBlob } from './blob.js';
import { decodeFrames, defaultWorkers } from './decode.js';
import { Osm } from './osm.js';
import { buildPlaces, POINT, LINE, POLYGON, MULTIPOLYGON } from './places.js';
import { buildTypeTrees } from '../index/type-trees.js';
import { PlaceIndex } from '../index/place-index.js';

/** The license of OSM data, the default `license` of every record. */
export const OSM_LICENSE = '© OpenStreetMap contributors, ODbL 1.0';

/**
 * Loads an OSM PBF file (a path, or its bytes) into a `PlaceIndex`.
 * A missing, truncated, corrupt or non-PBF file rejects with `PbfError` naming it.
 *
 * @example
 * const index = await loadPbf('nepal-latest.osm.pbf');
 */
export async function loadPbf(source: string | Uint8Array, options: LoadOptions = {}): Promise<PlaceIndex> {
  const file = typeof source === 'string' ? source : '<buffer>';
  let buf: Uint8Array;
  if (typeof source === 'string') {
    try {
      buf = await readFile(source);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      throw new PbfError(file, e.code === 'ENOENT' ? 'no such file' : e.code === 'EISDIR' ? 'is a directory' : `cannot read (${e.message})`);
    }
  } else if (source instanceof Uint8Array) {
    buf = source;
  } else {
    throw new PbfError('<unknown>', 'source must be a file path or a Uint8Array');
  }

  const fail = (err: unknown): never => {
    throw new PbfError(file, (err as Error).message);
  };
  let frames: ReturnType<typeof scanFrames>;
  let header: Header;
  try {
    frames = scanFrames(buf);
    const h = frames.header;
    header = readHeader(inflateBlob(buf.subarray(h.offset, h.offset + h.length)), h);
  } catch (err) {
    return fail(err);
  }
  void header;

  const total = buf.length;
  let read = frames.header.offset + frames.header.length;
  const progress = options.onProgress;
  progress?.({ bytesRead: read, bytesTotal: total });
  const workers = options.workers ?? defaultWorkers(total);
  const blocks = await decodeFrames(buf, frames.data, workers, (f) => {
    read += f.length;
    progress?.({ bytesRead: Math.min(read, total), bytesTotal: total });
  }).catch(fail);

  const osm = new Osm(blocks);
  const stats: LoadStats = {
    nodes: osm.nodes.count, ways: osm.ways.count, relations: osm.relations,
    points: 0, lineStrings: 0, polygons: 0, multiPolygons: 0, partial: 0,
    skippedWays: 0, skippedRelations: 0, schedules: 0, badSchedules: 0,
  };
  const table = buildPlaces(osm, stats);
  for (let p = 0; p < table.size; p++) {
    const g = table.geom[p];
    if (g === POINT) stats.points++;
    else if (g === LINE) stats.lineStrings++;
    else if (g === POLYGON) stats.polygons++;
    else if (g === MULTIPOLYGON) stats.multiPolygons++;
  }
  stats.schedules = table.schedules.size + table.schedules.bad;
  stats.badSchedules = table.schedules.bad;
  progress?.({ bytesRead: total, bytesTotal: total });
  return new PlaceIndex(table, buildTypeTrees(table), options.license ?? OSM_LICENSE, stats);
}
