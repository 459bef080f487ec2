import type { PlaceIndex } from '../index/place-index.js';
import type { LoadStats } from '../types.js';
import { SectionWriter } from './sections.js';
import { COLUMNS, COLUMN_NAMES, likeColumn, type Column } from '../model/table.js';
import { writeRoads, type RoadMeta } from './roads.js';
import { isPack, packIndex, type PackOptions } from './pack.js';
import type { PackInfo } from '../index/place-index.js';
import { MODES, type Mode } from '../osm/modes.js';
import { contract } from '../route/ch.js';

/** The small fields of a snapshot, in its directory. */
export interface Meta {
  license: string;
  stats: LoadStats;
  /** Rows of the table. */
  rows: number;
  /** The parsed `opening_hours` values, by schedule index, and how many did not parse. */
  schedules: string[];
  badSchedules: number;
  /** The queryable types, in the index's order: their number of items (their ids lie one type after another in `typeIds`) and their KDBush's node size. */
  types: { name: string; items: number; nodeSize: number }[];
  /** Mean name length of the text index. */
  avgLen: number;
  /** The road graph's hierarchies (none in snapshots written before routing). */
  roads?: RoadMeta;
  /** What a pack holds (its area, modes, search); absent for a whole index. */
  pack?: PackInfo;
}

/**
 * Writes an index as a snapshot: one buffer that `fromSnapshot` turns back into an
 * index answering every query exactly as this one does.
 *
 * Each column of the table is stored in the encoding `COLUMNS` declares for it, each other
 * array in the one declared here (see docs/snapshot-format.md): integers take the bits their
 * values need, sorted ones and coordinates varint deltas, text is deflated. Spatial indexes
 * are stored by what cannot be computed again quickly: a KDBush of rows by its ids (its points
 * are the rows' centroids), a Flatbush by its leaves (its parents follow in one pass). The road
 * graph is stored with a contraction hierarchy per mode, computed here if the index has none
 * yet (seconds to tens of seconds at Nepal scale): a snapshot routes fast.
 *
 * With `options` (`bbox` or `region`, `modes`, `routing: false`, `search: false`) it writes a
 * pack: the snapshot of `packIndex(index, options)`, one area or some parts alone (docs/api.md,
 * "Packs"); bad options throw `PackError` naming the option.
 *
 * @example
 * writeFileSync('nepal.places', buildSnapshot(await loadPbf('nepal.osm.pbf')));
 * writeFileSync('pokhara.places', buildSnapshot(await loadPbf('nepal.osm.pbf'), { region: 'pokhara', modes: ['car', 'foot'] }));
 */
export function buildSnapshot(whole: PlaceIndex, options?: PackOptions): Uint8Array {
  whole.table.pending?.fill(); // a load's addresses, made on first use until now
  const index = isPack(options) ? packIndex(whole, options) : whole;
  const t = index.table;
  const w = new SectionWriter();
  for (const name of COLUMN_NAMES) {
    const c: Column = COLUMNS[name];
    w.put(name, c.like ? likeColumn(t[name] as Uint32Array, t[c.like], false) : t[name], c.codec);
  }
  w.strings('strings', t.strings);

  // the types' KDBush trees by their ids alone: their points are their places' centroids
  const types: Meta['types'] = [];
  const ids: number[] = [],
    places: number[] = [],
    matched: number[] = [];
  for (const [name, tt] of index.types) {
    types.push({ name, items: tt.place.length, nodeSize: tt.tree.nodeSize });
    for (let i = 0; i < tt.place.length; i++) {
      ids.push(tt.tree.ids[i]);
      places.push(tt.place[i]);
      matched.push(tt.matched[i]);
    }
  }
  w.put('typeIds', Uint32Array.from(ids), 'bits');
  w.put('typePlace', Uint32Array.from(places), 'delta');
  // deflated on top where the encoded bytes still repeat (a type's items matched as one type;
  // rows by placeId mostly in table order, deltas of 1; a document a row): half or less
  w.put('typeMatched', Uint32Array.from(matched), { enc: 'bits', deflate: true });

  w.put('lookup', index.lookup.rows, { enc: 'delta', deflate: true });

  const lm = index.landmarks;
  w.put('landmarkIds', Uint32Array.from(lm.tree.ids), 'bits');
  w.note({ nodeSize: lm.tree.nodeSize });
  if (lm.boxes) w.flatbush('landmarkBoxes', lm.boxes);
  w.put('landmarkAreas', lm.areaM2, { enc: 'raw', deflate: true });
  if (index.streets.tree) w.flatbush('streets', index.streets.tree);

  const words = index.words.data;
  w.strings('words', words.sorted);
  w.put('wordId', words.sortedId, 'bits');
  w.put('docRow', words.docRow, { enc: 'delta', deflate: true });
  w.put('docLen', words.docLen, 'bits');
  w.put('docOld', words.docOld, { enc: 'bits', deflate: true });
  w.put('postingStart', words.start, { enc: 'delta', deflate: true });
  w.put('postingDoc', words.doc, 'delta');
  w.put('postingTf', words.tf, { enc: 'bits', deflate: true });

  // routing's preprocessing happens here, once, rather than in every load
  let roads: RoadMeta | undefined;
  if (index.router) {
    const router = index.router;
    // a pack's hierarchies are its modes' alone
    if (index.pack)
      for (const m of index.pack.modes)
        router.hierarchies[MODES.indexOf(m as Mode)] ??= contract(router.modes[MODES.indexOf(m as Mode)].arcs);
    else router.contract();
    roads = writeRoads(w, router);
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
    ...(index.pack && { pack: index.pack }),
  };
  return w.finish(meta);
}
