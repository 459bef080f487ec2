import { isDeepStrictEqual } from 'node:util';
import distance from '@turf/distance';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadPbf, place, InvalidQueryError, type NearbyPlace, type PlaceIndex } from '../src/index.js';
import { placeId as rowId } from '../src/query/record.js';
import { engine, expected, allRecords } from './support/fixture.js';
import { CORE, readRaw, type RawData } from './support/raw.js';
import type { ExpectedPlaces } from './support/places.js';
import { rawById, displayName } from './support/names.js';

const at = new Date('2026-01-14T06:15:00Z'); // 12:00 NPT, a Wednesday

let index: PlaceIndex;
let raw: RawData;
let exp: ExpectedPlaces;
let records: Map<number, NearbyPlace>;

beforeAll(async () => {
  [index, raw, exp] = await Promise.all([engine(), readRaw(), expected()]);
  records = allRecords(index, exp.places, at);
}, 60_000);

afterEach(() => {
  vi.useRealTimers();
});

describe('place(): every placeId a nearby query returns looks up to the same place', () => {
  it('all places of every type, record for record', () => {
    expect(records.size).toBeGreaterThan(4000);
    const wrong: unknown[] = [];
    for (const [id, r] of records) {
      const p = place(index, id, { at });
      // the place's own type is its first type in tag order (the nearby record has the type asked for)
      const { osmId, radialDistanceInKm, score, ...same } = { ...r, type: exp.byId.get(id)!.types[0] };
      const want = { ...same, score: 'NaN' };
      if (!isDeepStrictEqual(p, want) || osmId * 4 + (id % 4) !== id) wrong.push({ id, got: p, want });
    }
    expect(wrong.slice(0, 3)).toEqual([]);
  });

  it('has exactly the fields of a NearbyPlace without osmId and radialDistanceInKm', () => {
    const [id] = records.keys();
    expect(Object.keys(place(index, id)!).sort()).toEqual(
      ['placeId', 'license', 'name', 'address', 'type', 'centroid', 'tags', 'geometry', 'score', 'open'].sort(),
    );
  });
});

describe('place(): every row of the index has a placeId of its own', () => {
  it("ids are unique and each finds its row, whose name and tags are the raw object's", () => {
    const t = index.table;
    const ids = new Set<number>();
    const wrong: unknown[] = [];
    for (let r = 0; r < t.size; r++) {
      const id = rowId(t, r);
      ids.add(id);
      const p = place(index, id, { at });
      const o = rawById(raw, id);
      if (
        !p ||
        !o ||
        p.placeId !== id ||
        p.name !== displayName(o.tags) ||
        p.tags.join('\n') !== o.tags.map(([k, v]) => `${k}|${v}`).join('\n')
      )
        wrong.push({ id, got: p, raw: o });
    }
    expect(wrong.slice(0, 3)).toEqual([]);
    expect(ids.size).toBe(t.size);
  });

  it('centroids of point rows are the raw node coordinates', () => {
    let points = 0;
    for (let r = 0; r < index.table.size && points < 2000; r++) {
      if (index.table.kind[r] !== 0) continue;
      const p = place(index, rowId(index.table, r))!;
      const n = raw.node.get(p.placeId / 4)!;
      expect(p.centroid).toEqual({ lat: n.lat, lon: n.lon });
      expect(p.geometry).toEqual({ type: 'Point', coordinates: [n.lon, n.lat] });
      points++;
    }
    expect(points).toBeGreaterThan(1000);
  });
});

describe('place(): stable placeIds across loads', () => {
  it('a second load of the file gives the same record for every placeId', async () => {
    const again = await loadPbf(CORE, { workers: 0 });
    expect(again.table.size).toBe(index.table.size);
    const wrong: number[] = [];
    for (let r = 0; r < index.table.size; r++) {
      const id = rowId(index.table, r);
      if (!isDeepStrictEqual(place(again, id, { at }), place(index, id, { at }))) wrong.push(id);
    }
    expect(wrong).toEqual([]);
  }, 60_000);
});

describe('place(): an id the index does not have is undefined', () => {
  it.each([
    ['an untagged node of the file', () => raw.nodes.find((n) => n.tags.length === 0)!.id * 4],
    ['a node id as a way', () => 5599095623 * 4 + 1],
    ['kind 3 (no OSM type)', () => 5599095623 * 4 + 3],
    ['0', () => 0],
    ['the largest safe integer', () => Number.MAX_SAFE_INTEGER],
  ])('%s', (_, id) => {
    expect(place(index, id())).toBeUndefined();
  });

  it('the node Thamel Chowk (hand-checked) is found, with its tags', () => {
    const p = place(index, 5599095623 * 4)!;
    expect(p.name).toBe('Thamel Chowk');
    expect(p.type).toBe('attraction');
    expect(p.tags).toEqual(['name|Thamel Chowk', 'name:ko|타멜촉', 'tourism|attraction']);
    const n = raw.node.get(5599095623)!;
    expect(distance([n.lon, n.lat], [p.centroid.lon, p.centroid.lat])).toBe(0);
  });
});

describe('place(): open is evaluated at `at`, by default now, in Nepal Time', () => {
  it("equals the nearby record's open state at the same instant", () => {
    let open = 0;
    for (const [id, r] of records) {
      if (place(index, id, { at })!.open !== r.open) throw new Error(`${id}: open differs from nearby`);
      if (r.open) open++;
    }
    expect(open).toBeGreaterThan(50);
  });

  it('without `at`, the current time', () => {
    const ids = [...records.keys()].filter((id) => records.get(id)!.tags.some((t) => t.startsWith('opening_hours|')));
    vi.useFakeTimers({ toFake: ['Date'] });
    for (const instant of ['2026-01-14T06:15:00Z', '2026-01-14T20:15:00Z']) {
      vi.setSystemTime(new Date(instant));
      const opens = ids.map((id) => place(index, id)!.open);
      expect(opens).toEqual(ids.map((id) => place(index, id, { at: new Date(instant) })!.open));
    }
    // noon and 02:00 NPT differ for some place
    vi.setSystemTime(new Date('2026-01-14T06:15:00Z'));
    const noon = ids.map((id) => place(index, id)!.open);
    vi.setSystemTime(new Date('2026-01-14T20:15:00Z'));
    expect(ids.map((id) => place(index, id)!.open)).not.toEqual(noon);
  });
});

describe('place(): a malformed placeId throws InvalidQueryError naming placeId', () => {
  it.each([-1, -4, 1.5, NaN, Infinity, 2 ** 53, '20' as unknown as number, undefined as unknown as number, null as unknown as number])(
    '%s',
    (id) => {
      expect(() => place(index, id)).toThrow(InvalidQueryError);
      try {
        place(index, id);
      } catch (e) {
        expect((e as InvalidQueryError).param).toBe('placeId');
      }
    },
  );

  it('a bad `at` names at', () => {
    const [id] = records.keys();
    expect(() => place(index, id, { at: new Date(NaN) })).toThrow(/^at: /);
    expect(() => place(index, id, { at: '2026-01-01' as unknown as Date })).toThrow(InvalidQueryError);
  });
});
