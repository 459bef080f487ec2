/**
 * `typeKey` names every tag `placeTypes` reads, so that the place builder may work out the types
 * once per distinct set of those tags: an object's types are those of its `typeKey` tags alone, and
 * a load gives every row the types `placeTypes` gives its tags (read by osm-read, not the loader).
 */
import { describe, expect, it } from 'vitest';
import { placeTypes, typeKey } from '../src/osm/place.js';
import { loadPbf } from '../src/index.js';
import { CORE, TRANSIT, readRaw, type RawTag } from './support/raw.js';

/** `placeTypes` of tags, all of them or only those `typeKey` names. */
function types(tags: RawTag[], kind: number, only = false): string[] {
  const kept = only ? tags.filter(([k]) => typeKey(k, kind)) : tags;
  return placeTypes(
    kept.map(([k]) => k),
    kept.map(([, v]) => v),
    kind,
  );
}

describe("an object's types are those of its typeKey tags alone", () => {
  for (const file of [CORE, TRANSIT]) {
    it(`every tagged node, way and relation of ${file.split('/').pop()}`, async () => {
      const raw = await readRaw(file);
      let typed = 0;
      for (const [kind, list] of [
        [0, raw.nodes],
        [1, raw.ways],
        [2, raw.relations],
      ] as const) {
        for (const o of list) {
          if (!o.tags.length) continue;
          const all = types(o.tags, kind);
          if (all.length) typed++;
          expect(types(o.tags, kind, true), `${kind} ${o.id}`).toEqual(all);
        }
      }
      expect(typed).toBeGreaterThan(200);
    });
  }

  it('crafted tags: a parking and its kind, highway on a node and on a way, lists and case', () => {
    const cases: [RawTag[], number, string[]][] = [
      [
        [
          ['amenity', 'parking'],
          ['parking', 'underground'],
          ['name', 'P'],
        ],
        1,
        ['parking', 'underground'],
      ],
      [
        [
          ['parking', 'underground'],
          ['shop', 'bakery'],
        ],
        0,
        ['bakery'],
      ],
      [[['highway', 'bus_stop']], 0, ['bus_stop']],
      [[['highway', 'residential']], 1, []],
      [
        [
          ['shop', 'Bakery; cafe ;yes'],
          ['amenity', 'cafe'],
        ],
        2,
        ['bakery', 'cafe'],
      ],
    ];
    for (const [tags, kind, want] of cases) {
      expect(types(tags, kind)).toEqual(want);
      expect(types(tags, kind, true)).toEqual(want);
    }
  });
});

describe('a load gives each row the types of its tags', () => {
  it('every row of the core fixture, its types and primary type as placeTypes reads its tags', async () => {
    const raw = await readRaw(CORE);
    const index = await loadPbf(CORE);
    const t = index.table;
    const byKind = [raw.node, raw.way, raw.relation];
    let checked = 0;
    for (let r = 0; r < t.size; r++) {
      const o = byKind[t.kind[r]].get(t.osmId[r])!;
      const got: string[] = [];
      for (let k = t.typeStart[r]; k < t.typeStart[r + 1]; k++) got.push(t.strings[t.typeList[k]]);
      const want = types(o.tags, t.kind[r]);
      expect(got, `${t.kind[r]} ${t.osmId[r]}`).toEqual(want);
      if (want.length) expect(t.strings[t.primary[r]]).toBe(want[0]);
      checked++;
    }
    expect(checked).toBe(t.size);
  });
});
