/**
 * The map's features from decoded OSM blocks (decoded with every tag kept): each
 * tagged node, way and multipolygon becomes the features the tile schema gives it
 * (`tiles/schema.ts`), projected to world units into a `FeatureSink`. Built block by
 * block as the loader hands them over: nodes need nothing, ways need the nodes
 * indexed, relations the ways.
 */
import { TagReader, type Block, type TagRuns } from '../load/block.js';
import type { Osm } from '../load/osm.js';
import { assembleMultipolygon } from '../ingest/places.js';
import { isArea } from '../place/area.js';
import { ringArea } from './clip.js';
import { LINE, POINT, type FeatureInfo, type FeatureSink } from './features.js';
import { worldX, worldY } from './project.js';
import { peakFeature, placeFeature, poiFeature, reversed, shapeFeatures, type Tags } from './schema.js';

/** Counts of what was read and made. */
export interface MapStats {
  features: number;
  /** Ways and relations whose geometry could not be made (too few nodes in the extract). */
  skipped: number;
}

/** Turns decoded blocks into map features. */
export class MapFeatureBuilder {
  readonly stats: MapStats = { features: 0, skipped: 0 };
  private readonly tags: Tags = new Map();
  private readonly keys: string[] = [];
  private readonly vals: string[] = [];
  private readonly xy: number[] = [];
  private lon = 0;
  private lat = 0;

  constructor(
    private readonly osm: Osm,
    private readonly sink: FeatureSink,
  ) {}

  /** The features of block `blk`'s tagged nodes. */
  nodes(blk: Block): void {
    const runs = blk.nodeTags;
    for (let i = 0; i < runs.owner.length; i++) {
      this.read(blk, runs, i);
      const n = runs.owner[i];
      const id = blk.nodeBase + blk.nodeId[n];
      const point = [worldX(blk.nodeLon[n] / 1e7), worldY(blk.nodeLat[n] / 1e7)];
      for (const f of [poiFeature(this.tags, 0, id), placeFeature(this.tags, 0, id), peakFeature(this.tags)]) {
        if (f) this.add(f, point, [1]);
      }
    }
  }

  /** The features of block `blk`'s tagged ways (the nodes must be indexed). */
  ways(blk: Block): void {
    const runs = blk.wayTags;
    for (let i = 0; i < runs.owner.length; i++) {
      this.read(blk, runs, i);
      const w = runs.owner[i];
      const refs = blk.wayRef.subarray(blk.wayRefStart[w], blk.wayRefStart[w + 1]);
      const xy = this.xy;
      xy.length = 0;
      for (let j = 0; j < refs.length; j++) {
        if (!this.node(refs[j])) continue;
        const x = worldX(this.lon / 1e7),
          y = worldY(this.lat / 1e7);
        if (xy.length && xy[xy.length - 2] === x && xy[xy.length - 1] === y) continue;
        xy.push(x, y);
      }
      const id = blk.wayId[w];
      const closed = refs.length > 3 && refs[0] === refs[refs.length - 1];
      const area = closed && isArea(this.keys, this.vals);
      if (area && xy.length >= 6 && (xy[0] !== xy[xy.length - 2] || xy[1] !== xy[xy.length - 1])) xy.push(xy[0], xy[1]);
      const shapes = shapeFeatures(this.tags, area);
      const poi = poiFeature(this.tags, 1, id) ?? placeFeature(this.tags, 1, id);
      if ((area && xy.length < 8) || xy.length < 4) {
        if (shapes.length || poi) this.stats.skipped++;
        continue;
      }
      if (area) orient(xy, 0, xy.length / 2, true);
      else if (reversed(this.tags)) reverseRun(xy, 0, xy.length / 2);
      for (const f of shapes) this.add(f, xy, [xy.length / 2]);
      if (poi) this.add(poi, area ? polygonLabel(xy, [xy.length / 2]) : lineLabel(xy), [1]);
    }
  }

  /** The features of block `blk`'s multipolygons (the ways must be indexed). */
  relations(blk: Block): void {
    const runs = blk.relTags;
    for (let i = 0; i < runs.owner.length; i++) {
      this.read(blk, runs, i);
      if (this.tags.get('type') !== 'multipolygon') continue;
      const r = runs.owner[i];
      const id = blk.relId[r];
      const shapes = shapeFeatures(this.tags, true);
      const poi = poiFeature(this.tags, 2, id) ?? placeFeature(this.tags, 2, id);
      if (!shapes.length && !poi) continue;
      const mp = assembleMultipolygon(this.osm, blk, r);
      if (!mp) {
        this.stats.skipped++;
        continue;
      }
      const xy: number[] = [];
      const parts: number[] = [];
      for (const poly of mp.polygons) {
        poly.forEach((ring, k) => {
          const start = xy.length / 2;
          for (let j = 0; j < ring.length; j += 2) xy.push(worldX(ring[j] / 1e7), worldY(ring[j + 1] / 1e7));
          orient(xy, start, xy.length / 2, k === 0);
          parts.push(xy.length / 2 - start);
        });
      }
      for (const f of shapes) this.add(f, xy, parts);
      if (poi) this.add(poi, polygonLabel(xy, parts), [1]);
    }
  }

  // finds node `id` (its lon and lat in this.lon, this.lat) through the file's index, which
  // searches the block of the last one found first
  private node(id: number): boolean {
    const nodes = this.osm.nodes;
    if (!nodes.find(id)) return false;
    const b = this.osm.blocks[nodes.block];
    this.lon = b.nodeLon[nodes.index];
    this.lat = b.nodeLat[nodes.index];
    return true;
  }

  private add(f: FeatureInfo, xy: ArrayLike<number>, parts: ArrayLike<number>): void {
    if (f.type === POINT && xy.length !== 2) return;
    if (f.type === LINE && xy.length < 4) return;
    this.sink.add(f, xy, parts);
    this.stats.features++;
  }

  private readonly reader = new TagReader();

  // object i's tags, as the map and the parallel key and value lists
  private read(blk: Block, runs: TagRuns, i: number): void {
    const { tags, keys, vals } = this;
    tags.clear();
    keys.length = vals.length = 0;
    const reader = this.reader.on(runs, blk.strings).at(i);
    for (let j = 0; j < reader.count; j++) {
      const k = reader.key(j),
        v = reader.value(j);
      tags.set(k, v);
      keys.push(k);
      vals.push(v);
    }
  }
}

// winds ring from..to (vertex indexes) as MVT wants in y-down world units: outer rings
// positive, holes negative
function orient(xy: number[], from: number, to: number, outer: boolean): void {
  const s = ringArea(xy, from, to);
  if ((outer && s < 0) || (!outer && s > 0)) reverseRun(xy, from, to);
}

function reverseRun(c: number[], from: number, to: number): void {
  for (let i = from, j = to - 1; i < j; i++, j--) {
    const x = c[2 * i],
      y = c[2 * i + 1];
    c[2 * i] = c[2 * j];
    c[2 * i + 1] = c[2 * j + 1];
    c[2 * j] = x;
    c[2 * j + 1] = y;
  }
}

/** The area-weighted centroid of the outer rings (holes subtracted), or the first vertex of a degenerate one. */
export function polygonLabel(xy: number[], parts: ArrayLike<number>): number[] {
  let a = 0,
    cx = 0,
    cy = 0;
  let v = 0;
  const x0 = xy[0],
    y0 = xy[1];
  for (let k = 0; k < parts.length; k++) {
    const n = parts[k];
    for (let i = v; i + 1 < v + n; i++) {
      const ax = xy[2 * i] - x0,
        ay = xy[2 * i + 1] - y0,
        bx = xy[2 * i + 2] - x0,
        by = xy[2 * i + 3] - y0;
      const c = ax * by - bx * ay;
      a += c;
      cx += (ax + bx) * c;
      cy += (ay + by) * c;
    }
    v += n;
  }
  if (a === 0) return [x0, y0];
  return [Math.round(x0 + cx / (3 * a)), Math.round(y0 + cy / (3 * a))];
}

/** The point halfway along a line. */
export function lineLabel(xy: number[]): number[] {
  let total = 0;
  for (let i = 0; i + 3 < xy.length; i += 2) total += Math.hypot(xy[i + 2] - xy[i], xy[i + 3] - xy[i + 1]);
  let left = total / 2;
  for (let i = 0; i + 3 < xy.length; i += 2) {
    const d = Math.hypot(xy[i + 2] - xy[i], xy[i + 3] - xy[i + 1]);
    if (d >= left && d > 0) {
      const t = left / d;
      return [Math.round(xy[i] + (xy[i + 2] - xy[i]) * t), Math.round(xy[i + 1] + (xy[i + 3] - xy[i + 1]) * t)];
    }
    left -= d;
  }
  return [xy[0], xy[1]];
}
