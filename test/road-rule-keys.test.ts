/**
 * `roadRuleKeys` names every key `roadRules` reads, so that the road builder may compute the
 * rules once per distinct set of those tags: a key read but not named would give two ways that
 * differ in it the same rules.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULTS, checkProfiles, compileProfiles, type Profiles } from '../src/osm/profiles.js';
import { DEFAULT_PROFILES } from '../src/osm/default-profiles.js';
import { roadRuleKeys, roadRules } from '../src/osm/profile.js';
import { nodePasses, nodeRuleKeys } from '../src/osm/barrier.js';
import { CORE, TRANSIT, readRaw, type RawTag } from './support/raw.js';

/** The keys `roadRules` asks for on a way with `tags`. */
function keysRead(tags: RawTag[], profiles: Profiles): Set<string> {
  const map = new Map(tags);
  const read = new Set<string>();
  roadRules((k) => {
    read.add(k);
    return map.get(k);
  }, profiles);
  return read;
}

// tag sets that lead the rules down their rarer branches: ferries, platforms, access and one-way keys of every mode, per direction
const crafted: RawTag[][] = [
  [
    ['route', 'ferry'],
    ['duration', '00:30'],
  ],
  [
    ['railway', 'platform'],
    ['area', 'no'],
  ],
  [['public_transport', 'platform']],
  [
    ['highway', 'pedestrian'],
    ['area', 'yes'],
  ],
  [
    ['highway', 'roundabout'],
    ['junction', 'roundabout'],
  ],
  [['highway', 'motorway']],
  [
    ['highway', 'residential'],
    ['oneway', 'yes'],
    ['cycleway', 'opposite_lane'],
    ['maxspeed', '30'],
  ],
  ...['access', 'vehicle', 'motor_vehicle', 'motorcar', 'motorcycle', 'bicycle', 'foot'].flatMap((k): RawTag[][] => [
    [
      ['highway', 'track'],
      [k, 'destination'],
    ],
    [
      ['highway', 'service'],
      [`${k}:forward`, 'no'],
      [`${k}:backward`, 'yes'],
    ],
    [
      ['highway', 'footway'],
      [k, 'dismount'],
    ],
  ]),
];

describe('every key roadRules reads is a road rule key', () => {
  for (const file of [CORE, TRANSIT]) {
    it(`each way of ${file.split('/').pop()} with a road kind`, async () => {
      const keys = roadRuleKeys(DEFAULTS);
      const raw = await readRaw(file);
      let roads = 0;
      for (const w of raw.ways) {
        const read = keysRead(w.tags, DEFAULTS);
        if (read.size > 4) roads++;
        for (const k of read) expect(keys.has(k), `way ${w.id} reads ${k}`).toBe(true);
      }
      expect(roads).toBeGreaterThan(100);
    });
  }
  it('crafted ways down every branch', () => {
    const keys = roadRuleKeys(DEFAULTS);
    for (const tags of crafted)
      for (const k of keysRead(tags, DEFAULTS)) expect(keys.has(k), `${JSON.stringify(tags)} reads ${k}`).toBe(true);
  });
});

describe("a profile's own keys are road rule keys", () => {
  it('an access key and a one-way key of a custom profile, with their directed forms', () => {
    const doc = {
      ...DEFAULT_PROFILES,
      car: {
        ...DEFAULT_PROFILES.car,
        accessKeys: [...DEFAULT_PROFILES.car.accessKeys, 'taxi'],
        oneway: { ...DEFAULT_PROFILES.car.oneway, keys: ['oneway:taxi', 'oneway'] },
      },
    };
    const profiles = compileProfiles(checkProfiles(doc));
    const keys = roadRuleKeys(profiles);
    for (const k of ['taxi', 'taxi:forward', 'taxi:backward', 'oneway:taxi']) expect(keys.has(k), k).toBe(true);
    expect(roadRuleKeys(DEFAULTS).has('taxi')).toBe(false);
    const read = keysRead(
      [
        ['highway', 'service'],
        ['taxi:forward', 'yes'],
      ],
      profiles,
    );
    expect(read.has('taxi:forward')).toBe(true);
    for (const k of read) expect(keys.has(k), k).toBe(true);
  });
});

describe('every key nodePasses reads is a node rule key', () => {
  it('each node of both fixtures, and crafted barrier and access nodes, for every mode', async () => {
    const keys = nodeRuleKeys(DEFAULTS.modes);
    const nodes: RawTag[][] = [
      [['barrier', 'bollard']],
      [
        ['barrier', 'gate'],
        ['access', 'private'],
      ],
      ...['access', 'vehicle', 'motor_vehicle', 'motorcar', 'motorcycle', 'bicycle', 'foot'].map((k): RawTag[] => [[k, 'no']]),
    ];
    for (const file of [CORE, TRANSIT]) for (const n of (await readRaw(file)).nodes) if (n.tags.length) nodes.push(n.tags);
    for (const tags of nodes) {
      const map = new Map(tags);
      for (const rules of DEFAULTS.modes) {
        nodePasses((k) => {
          expect(keys.has(k), `${JSON.stringify(tags)} reads ${k}`).toBe(true);
          return map.get(k);
        }, rules);
      }
    }
  });
});
