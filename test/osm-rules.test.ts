/**
 * One owner per OSM tagging rule: what a road, a roundabout and a one-way are is decided once
 * (src/osm/), and the map's roads layer and routing read it alike.
 */
import { describe, expect, it } from 'vitest';
import { shapeFeatures, oneway, reversed } from '../src/tiles/schema.js';
import { roadRules } from '../src/osm/profile.js';
import { DEFAULTS } from '../src/osm/profiles.js';
import { loadPbf } from '../src/index.js';
import { ROUNDABOUT } from '../src/model/roads.js';
import { writeBypasses } from './support/access-net.js';

const tags = (s: string) => new Map(s.split(' ').map((kv) => kv.split('=') as [string, string]));
const isTileRoad = (s: string) => shapeFeatures(tags(s), false).some((f) => f.layer === 'roads');
const routable = (s: string) => roadRules((k) => tags(s).get(k), DEFAULTS).access !== 0;

describe('what a road is: the same highway values are no road to the map and to routing', () => {
  // the values the two lists disagreed on before, and some of both kinds
  it.each([
    'construction',
    'proposed',
    'planned',
    'abandoned',
    'razed',
    'demolished',
    'removed',
    'disused',
    'bus_stop',
    'elevator',
    'emergency_bay',
    'rest_area',
    'services',
    'street_lamp',
    'traffic_signals',
    'crossing',
  ])('highway=%s: no road on the map, none for routing', (v) => {
    expect(isTileRoad(`highway=${v}`)).toBe(false);
    expect(routable(`highway=${v}`)).toBe(false);
  });

  it.each(['residential', 'footway', 'track', 'service', 'path', 'corridor'])('highway=%s: a road to both', (v) => {
    expect(isTileRoad(`highway=${v}`)).toBe(true);
    expect(routable(`highway=${v}`)).toBe(true);
  });
});

describe('one-ways and roundabouts: the map draws what cars obey', () => {
  it.each([
    ['highway=residential oneway=yes', true, false],
    ['highway=residential oneway=-1', true, true],
    ['highway=residential oneway=reverse', true, true],
    ['highway=residential junction=roundabout', true, false],
    ['highway=residential junction=circular', true, false],
    ['highway=motorway', true, false],
    ['highway=motorway oneway=no', false, false],
    ['highway=residential oneway=reversible', false, false],
    ['highway=residential', false, false],
  ] as const)('%s: one-way %s, drawn reversed %s', (t, one, rev) => {
    expect(oneway(tags(t))).toBe(one);
    expect(reversed(tags(t))).toBe(rev);
  });

  it('junction=circular is a roundabout to routing too (its flag, for roundabout instructions)', async () => {
    const file = await writeBypasses([{ way: [['junction', 'circular']] }, { way: [['junction', 'roundabout']] }, { way: [] }]);
    const graph = (await loadPbf(file)).router!.graph;
    const flag = (name: string) => graph.wayFlags[[...graph.wayName].findIndex((n) => graph.strings[n] === name)] & ROUNDABOUT;
    expect([flag('Straight 0'), flag('Straight 1'), flag('Straight 2'), flag('Detour 0')]).toEqual([ROUNDABOUT, ROUNDABOUT, 0, 0]);
  });
});
