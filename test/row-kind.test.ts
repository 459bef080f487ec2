/**
 * What row an object makes is read from its keys' flags (`rowKindOf` over `keyFlags`): the same
 * as the rule read from the key names themselves, for every object of both fixtures.
 */
import { describe, expect, it } from 'vitest';
import { rowKindOf } from '../src/ingest/places.js';
import { keyFlags, FEATURE_KEYS } from '../src/osm/place.js';
import { PLACE, LOCALITY, STREET, BUILDING } from '../src/model/table.js';
import { CORE, TRANSIT, readRaw, type RawTag } from './support/raw.js';

// the rule in words: a feature key (highway too on a node) makes a place; else with a name,
// `place` a locality and `highway` on a way a street; a house number or name, or a named building, a building
function byNames(tags: RawTag[], kind: number): number {
  const has = (k: string) => tags.some(([key]) => key === k);
  if (FEATURE_KEYS.some(has) || (kind === 0 && has('highway'))) return PLACE;
  const named = has('name') || has('name:en') || has('name:ne');
  if (named && has('place')) return LOCALITY;
  if (named && kind === 1 && has('highway')) return STREET;
  if (has('addr:housenumber') || has('addr:housename') || (named && has('building'))) return BUILDING;
  return -1;
}

const byFlags = (tags: RawTag[], kind: number) =>
  rowKindOf(
    tags.reduce((f, [k]) => f | keyFlags(k), 0),
    kind,
  );

describe('the row an object makes, from its keys’ flags, is the rule read from its key names', () => {
  for (const file of [CORE, TRANSIT]) {
    it(`every node, way and relation of ${file.split('/').pop()}`, async () => {
      const raw = await readRaw(file);
      const seen = new Map<number, number>();
      for (const [kind, list] of [raw.nodes, raw.ways, raw.relations].entries()) {
        for (const o of list) {
          const want = byNames(o.tags, kind);
          expect(byFlags(o.tags, kind), `${['node', 'way', 'relation'][kind]} ${o.id}`).toBe(want);
          seen.set(want, (seen.get(want) ?? 0) + 1);
        }
      }
      // places, streets and objects that make none are among them (the hand-made cases below cover the rest)
      for (const k of [PLACE, STREET, -1]) expect(seen.get(k) ?? 0, `row kind ${k}`).toBeGreaterThan(0);
    });
  }
  it('hand-made key sets down each branch', () => {
    const cases: [RawTag[], number, number][] = [
      [[['highway', 'bus_stop']], 0, PLACE],
      [
        [
          ['highway', 'residential'],
          ['name', 'A'],
        ],
        1,
        STREET,
      ],
      [[['highway', 'residential']], 1, -1],
      [
        [
          ['place', 'village'],
          ['name:ne', 'क'],
        ],
        0,
        LOCALITY,
      ],
      [[['place', 'village']], 0, -1],
      [
        [
          ['building', 'yes'],
          ['name:en', 'B'],
        ],
        1,
        BUILDING,
      ],
      [[['building', 'yes']], 1, -1],
      [[['addr:housename', 'C']], 0, BUILDING],
      [
        [
          ['amenity', 'cafe'],
          ['place', 'town'],
          ['name', 'D'],
        ],
        2,
        PLACE,
      ],
    ];
    for (const [tags, kind, want] of cases) {
      expect(byNames(tags, kind), JSON.stringify(tags)).toBe(want);
      expect(byFlags(tags, kind), JSON.stringify(tags)).toBe(want);
    }
  });
});
