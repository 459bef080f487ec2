/**
 * The 2014 transit extract: its bus stops (highway=bus_stop nodes) and the transport merged
 * type, against the file read by osm-read.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { nearby } from '../src/index.js';
import type { NearbyPlace, PlaceIndex } from '../src/index.js';
import { ALL, engine, expected } from './support/fixture.js';
import type { ExpectedPlace } from './support/places.js';
import { readRaw, tag, TRANSIT, type RawData } from './support/raw.js';
import { candidates, EDGE_KM } from './support/answer.js';

const AT = new Date('2026-01-17T06:15:00Z');
// the valley's middle; every object of the file lies within 20 km
const VALLEY = { lat: 27.6814, lon: 85.3797 };

let index: PlaceIndex;
let raw: RawData;
let places: ExpectedPlace[];
let byId: Map<number, ExpectedPlace>;

beforeAll(async () => {
  index = await engine(TRANSIT);
  raw = await readRaw(TRANSIT);
  const e = await expected(TRANSIT);
  places = e.places;
  byId = e.byId;
});

describe('bus stops: every highway=bus_stop node, typed bus_stop', () => {
  it('all 36 of the file', () => {
    const stops = raw.nodes.filter((n) => tag(n.tags, 'highway') === 'bus_stop');
    expect(stops.length).toBe(36);
    const got = nearby(index, { type: 'bus_stop', ...VALLEY, radius: 30, limit: ALL, at: AT });
    expect(got.map((r) => r.osmId).sort((a, b) => a - b)).toEqual(stops.map((n) => n.id).sort((a, b) => a - b));
    for (const r of got) {
      const n = raw.node.get(r.osmId)!;
      expect(r.type).toBe('bus_stop');
      expect(r.placeId).toBe(n.id * 4);
      expect(r.geometry).toEqual({ type: 'Point', coordinates: [n.lon, n.lat] });
      expect(r.centroid).toEqual({ lat: n.lat, lon: n.lon });
      expect(r.tags).toEqual(n.tags.map(([k, v]) => `${k}|${v}`));
      expect(r.name).toBe(tag(n.tags, 'name') ?? tag(n.tags, 'name:en') ?? tag(n.tags, 'name:ne') ?? '');
      expect(r.open).toBe(false);
    }
  });

  it('the nearest ones to a point, in distance order', () => {
    // Lainchour Chowk Bus Stop, node 31019734, is also public_transport=stop_position
    const n = raw.node.get(31019734)!;
    const got = nearby(index, { type: 'bus_stop', lat: n.lat, lon: n.lon, radius: 5, limit: 3, sortBy: true, at: AT });
    expect(got[0].osmId).toBe(31019734);
    expect(got[0].radialDistanceInKm).toBe(0);
    expect(got[0].name).toBe('Lainchour Chowk Bus Stop');
    const want = candidates(places, { type: 'bus_stop', lat: n.lat, lon: n.lon, radius: 5 })
      .sort((a, b) => a.km - b.km || a.place.placeId - b.place.placeId)
      .slice(0, 3);
    expect(got.map((r) => r.placeId)).toEqual(want.map((c) => c.place.placeId));
  });

  it('within 1, 2 and 5 km of the city centre, as counted from raw nodes', () => {
    const centre = { lat: 27.7172, lon: 85.324 };
    for (const radius of [1, 2, 5]) {
      const got = nearby(index, { type: 'bus_stop', ...centre, radius, limit: ALL, at: AT });
      const want = candidates(places, { type: 'bus_stop', ...centre, radius });
      expect(want.every((c) => Math.abs(c.km - radius) > EDGE_KM)).toBe(true);
      expect(got.map((r) => r.placeId).sort()).toEqual(want.map((c) => c.place.placeId).sort());
    }
  });

  it('the same node is also a stop_position', () => {
    const got = nearby(index, { type: 'stop_position', ...VALLEY, radius: 30, limit: ALL, at: AT });
    expect(got.length).toBe(239);
    expect(got.some((r) => r.osmId === 31019734 && r.type === 'stop_position')).toBe(true);
  });
});

describe('transport: bus_stop ∪ bus_station, each place once, typed by its member', () => {
  it('over the whole file', () => {
    const got = nearby(index, { type: 'transport', ...VALLEY, radius: 30, limit: ALL, at: AT });
    const want = places.filter((p) => p.types.includes('bus_stop') || p.types.includes('bus_station'));
    expect(got.length).toBe(want.length);
    expect(got.length).toBe(37);
    const ids = got.map((r) => r.placeId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of got) {
      const p = byId.get(r.placeId)!;
      expect(r.type).toBe(p.types.find((t) => t === 'bus_stop' || t === 'bus_station'));
    }
    expect(got.filter((r) => r.type === 'bus_station').map((r) => r.name)).toEqual(['Dhokashi']);
  });

  it('default radius and limit, score order', () => {
    const centre = { lat: 27.7172, lon: 85.324 };
    const got: NearbyPlace[] = nearby(index, { type: 'transport', ...centre, at: AT });
    expect(got.length).toBe(5);
    for (let i = 1; i < got.length; i++) {
      expect(got[i - 1].score > got[i].score || (got[i - 1].score === got[i].score && got[i - 1].placeId < got[i].placeId)).toBe(true);
    }
  });
});

describe('the transit file loads whole: stats as read by osm-read', () => {
  it('counts', () => {
    expect(index.stats.nodes).toBe(raw.nodes.length);
    expect(index.stats.ways).toBe(raw.ways.length);
    expect(index.stats.relations).toBe(raw.relations.length);
    expect([raw.nodes.length, raw.ways.length, raw.relations.length]).toEqual([5019, 604, 74]);
    expect(index.size).toBe(places.length);
    expect(index.stats.points).toBe(places.length);
    expect(index.stats.skippedWays).toBe(0);
    expect(index.stats.skippedRelations).toBe(0);
  });
});
