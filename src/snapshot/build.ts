import type { PlaceIndex } from '../index/place-index.js';
import type { LoadStats } from '../types.js';
import { SectionWriter } from './sections.js';
import { flatbushData } from './flatbush.js';
import { writeRoads, type RoadMeta } from './roads.js';

/** The small fields of a snapshot, in its directory. */
export interface Meta {
  license: string;
  stats: LoadStats;
  /** Rows of the table. */
  rows: number;
  /** The parsed `opening_hours` values, by schedule index, and how many did not parse. */
  schedules: string[];
  badSchedules: number;
  /** The queryable types, in the index's order: their number of items, and where their KDBush lies in section `types`. */
  types: { name: string; items: number; at: number; bytes: number }[];
  /** Mean name length of the text index. */
  avgLen: number;
  /** The road graph's hierarchies (none in snapshots written before routing). */
  roads?: RoadMeta;
}

/**
 * Writes an index as a snapshot: one buffer that `fromSnapshot` turns back into an
 * index answering every query exactly as this one does.
 *
 * Spatial indexes are stored as their `data` buffers; coordinates stay the 1e-7
 * degree integers of the table; strings are the table's own deduplicated list.
 * Integer columns take the bytes their values need: string indexes the fewest whole
 * bytes that hold the largest, offsets and coordinates varint deltas. That keeps a
 * snapshot smaller than the PBF it came from, and quick to read. The road graph is
 * stored with a contraction hierarchy per mode, computed here if the index has
 * none yet (seconds to tens of seconds at Nepal scale): a snapshot routes fast.
 *
 * @example
 * writeFileSync('nepal.places', buildSnapshot(await loadPbf('nepal.osm.pbf')));
 */
export function buildSnapshot(index: PlaceIndex): Uint8Array {
  const t = index.table;
  const w = new SectionWriter();
  w.raw('osmId', t.osmId);
  w.raw('kind', t.kind);
  w.raw('lat', t.lat);
  w.raw('lon', t.lon);
  w.fixed('name', t.name);
  w.fixed('address', t.address);
  w.fixed('addressEn', t.addressEn);
  w.fixed('addressNe', t.addressNe);
  w.delta('tagStart', t.tagStart);
  w.fixed('tagKV', t.tagKV);
  w.delta('typeStart', t.typeStart);
  w.fixed('typeList', t.typeList);
  w.raw('geom', t.geom);
  w.raw('what', t.what);
  w.fixed('primary', t.primary);
  w.delta('shapeStart', t.shapeStart);
  w.varint('shape', t.shape);
  w.delta('coordStart', t.coordStart);
  w.delta2('coords', t.coords);
  w.raw('prominence', t.prominence);
  w.fixed(
    'hours',
    Int32Array.from(t.hours, (h) => h + 1),
  );
  w.strings('strings', t.strings);

  // the types' KDBush data, one after another at multiples of 8 (their coordinates are Int32)
  const types: Meta['types'] = [];
  const places: number[] = [],
    matched: number[] = [];
  let end = 0;
  for (const [name, tt] of index.types) {
    types.push({ name, items: tt.place.length, at: end, bytes: tt.tree.data.byteLength });
    end += (tt.tree.data.byteLength + 7) & ~7;
    for (let i = 0; i < tt.place.length; i++) {
      places.push(tt.place[i]);
      matched.push(tt.matched[i]);
    }
  }
  const trees = new Uint8Array(end);
  [...index.types.values()].forEach((tt, i) => trees.set(new Uint8Array(tt.tree.data), types[i].at));
  w.raw('types', trees);
  w.delta('typePlace', Uint32Array.from(places));
  w.fixed('typeMatched', Uint32Array.from(matched));

  w.delta('lookup', index.lookup.rows);

  const lm = index.landmarks;
  w.buffer('landmarks', lm.tree.data);
  if (lm.boxes) w.raw('landmarkBoxes', flatbushData(lm.boxes));
  w.raw('landmarkAreas', lm.areaM2);
  if (index.streets.tree) w.raw('streets', flatbushData(index.streets.tree));

  const words = index.words.data;
  w.strings('words', words.sorted);
  w.fixed('wordId', words.sortedId);
  w.delta('docRow', words.docRow);
  w.fixed('docLen', words.docLen);
  w.raw('docOld', words.docOld);
  w.delta('postingStart', words.start);
  w.delta('postingDoc', words.doc);
  w.raw('postingTf', words.tf);

  // routing's preprocessing happens here, once, rather than in every load
  let roads: RoadMeta | undefined;
  if (index.router) {
    index.router.contract();
    roads = writeRoads(w, index.router);
  }

  const meta: Meta = {
    license: index.license,
    stats: index.stats,
    rows: t.size,
    schedules: t.schedules.values,
    badSchedules: t.schedules.bad,
    types,
    avgLen: words.avgLen,
    roads,
  };
  return w.finish(meta);
}
