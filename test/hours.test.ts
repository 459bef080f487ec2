/**
 * `open`: the opening_hours tag at `at` in Nepal Time (UTC+05:45), whatever the host's zone.
 * States are hand-checked for real values of the core fixture; the same answers must come
 * out of processes run under TZ=UTC, America/New_York and Asia/Kathmandu.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import type { PlaceIndex } from '../src/index.js';
import { allRecords, engine, expected, recordOf } from './support/fixture.js';
import type { ExpectedPlace } from './support/places.js';
import { npt, openAt, parses, wallClockExists } from './support/hours.js';
import { tag } from './support/raw.js';
import { INSTANTS } from './support/nearby-at.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

let index: PlaceIndex;
let places: ExpectedPlace[];

beforeAll(async () => {
  index = await engine();
  places = (await expected()).places;
});

/** The one place of the fixture (by kind and id) carrying this schedule. */
function placeWith(value: string, kind: number, osmId: number): ExpectedPlace {
  const p = places.find((x) => x.kind === kind && x.osmId === osmId)!;
  expect(tag(p.rawTags, 'opening_hours')).toBe(value);
  return p;
}

function openOf(p: ExpectedPlace, wall: string): boolean {
  const r = recordOf(index, p, npt(wall));
  if (!r) throw new Error(`no record for ${p.placeId}`);
  return r.open;
}

// 2026-01-15 is a Thursday, 16 Friday, 17 Saturday, 18 Sunday; 2026-03-08 is a Sunday.
describe('a range across midnight: Mo-Su 15:00-03:00 (node 7250060686, London Pub)', () => {
  const cases: [string, boolean][] = [
    ['2026-01-17T01:30', true], // Friday's evening range runs into Saturday
    ['2026-01-17T02:59', true],
    ['2026-01-17T03:00', false], // a range ends before its end minute
    ['2026-01-17T14:59', false],
    ['2026-01-17T15:00', true],
    ['2026-01-17T23:59', true],
    ['2026-03-08T02:30', true], // a wall clock New York skips: must not matter here
  ];
  for (const [wall, want] of cases) {
    it(`${wall} NPT → ${want ? 'open' : 'closed'}`, () => {
      expect(openOf(placeWith('Mo-Su 15:00-03:00', 0, 7250060686), wall)).toBe(want);
    });
  }
});

describe('a range across midnight: Mo-Su 09:00-02:00 (way 903401706, Thamel Pub)', () => {
  const cases: [string, boolean][] = [
    ['2026-01-17T01:30', true],
    ['2026-01-17T02:30', false],
    ['2026-01-17T08:59', false],
    ['2026-01-17T09:00', true],
  ];
  for (const [wall, want] of cases) {
    it(`${wall} NPT → ${want ? 'open' : 'closed'}`, () => {
      expect(openOf(placeWith('Mo-Su 09:00-02:00', 1, 903401706), wall)).toBe(want);
    });
  }
});

describe('a range across midnight with an off day: Sa-Th 09:30-05:30 (node 10091154317)', () => {
  const cases: [string, boolean][] = [
    ['2026-01-16T05:00', true], // Thursday's range runs into Friday morning
    ['2026-01-16T05:30', false],
    ['2026-01-16T12:00', false], // Friday is not in Sa-Th
    ['2026-01-17T05:00', false], // so nothing runs from Friday into Saturday
    ['2026-01-17T09:30', true],
  ];
  for (const [wall, want] of cases) {
    it(`${wall} NPT → ${want ? 'open' : 'closed'}`, () => {
      expect(openOf(placeWith('Sa-Th 09:30-05:30', 0, 10091154317), wall)).toBe(want);
    });
  }
});

describe('24/7: always open', () => {
  it('at any instant, for all 77 places', () => {
    const all = places.filter((p) => tag(p.rawTags, 'opening_hours') === '24/7');
    expect(all.length).toBe(77);
    for (const p of all.slice(0, 12)) {
      for (const wall of ['2026-01-17T03:00', '2026-01-18T12:00', '2026-03-08T02:30']) expect(openOf(p, wall)).toBe(true);
    }
  });
});

describe('off days: days a rule does not list are closed', () => {
  it('Su-Fr 09:00-18:00 is closed all Saturday (13 places)', () => {
    const all = places.filter((p) => tag(p.rawTags, 'opening_hours') === 'Su-Fr 09:00-18:00');
    expect(all.length).toBe(13);
    for (const p of all) {
      expect(openOf(p, '2026-01-17T12:00')).toBe(false);
      expect(openOf(p, '2026-01-18T12:00')).toBe(true);
      expect(openOf(p, '2026-01-16T17:59')).toBe(true);
      expect(openOf(p, '2026-01-16T18:00')).toBe(false);
    }
  });

  it('Su-Th 10:00-17:00; Fr 10:00-13:00: short Friday, no Saturday (node 4169896990)', () => {
    const p = placeWith('Su-Th 10:00-17:00; Fr 10:00-13:00', 0, 4169896990);
    expect(openOf(p, '2026-01-15T16:00')).toBe(true);
    expect(openOf(p, '2026-01-16T12:59')).toBe(true);
    expect(openOf(p, '2026-01-16T13:00')).toBe(false);
    expect(openOf(p, '2026-01-17T12:00')).toBe(false);
  });

  it('Tu-Sa 11:00-23:00: closed Sunday and Monday (node 12963865833)', () => {
    const p = placeWith('Tu-Sa 11:00-23:00', 0, 12963865833);
    expect(openOf(p, '2026-01-17T12:00')).toBe(true);
    expect(openOf(p, '2026-01-18T12:00')).toBe(false);
    expect(openOf(p, '2026-01-19T12:00')).toBe(false);
    expect(openOf(p, '2026-01-20T12:00')).toBe(true);
  });
});

describe('no tag or an unparseable value → false', () => {
  it('"10:00" (a time point, not a range: 15 places) is never open', () => {
    const all = places.filter((p) => tag(p.rawTags, 'opening_hours') === '10:00');
    expect(all.length).toBe(15);
    expect(parses('10:00')).toBe(false);
    for (const p of all) {
      for (const wall of ['2026-01-17T10:00', '2026-01-17T10:30', '2026-01-18T15:00']) expect(openOf(p, wall)).toBe(false);
    }
  });

  it('a place without opening_hours is never open', () => {
    const none = places.filter((p) => p.types.includes('restaurant') && tag(p.rawTags, 'opening_hours') === undefined).slice(0, 20);
    expect(none.length).toBe(20);
    for (const p of none) expect(openOf(p, '2026-01-18T13:00')).toBe(false);
  });

  it('stats count the distinct values of places and those that fail to parse', () => {
    const values = new Set<string>();
    for (const p of places) {
      const v = tag(p.rawTags, 'opening_hours');
      if (v !== undefined) values.add(v);
    }
    const bad = [...values].filter((v) => !parses(v));
    expect(bad.sort()).toEqual(['07:00', '08:00', '09:00', '10:00', '24:00']);
    expect(index.stats.schedules).toBe(values.size);
    expect(index.stats.badSchedules).toBe(bad.length);
  });
});

describe('every place: open as the opening_hours library says at the Nepal wall clock', () => {
  it('at several instants, in an order that goes back in time', () => {
    const withHours = places.filter((p) => tag(p.rawTags, 'opening_hours') !== undefined && p.types.length);
    expect(withHours.length).toBeGreaterThan(450);
    const wrong: string[] = [];
    for (const iso of INSTANTS) {
      const at = new Date(iso);
      if (!wallClockExists(at)) continue; // our reference cannot evaluate it in this zone
      const records = allRecords(index, withHours, at);
      for (const p of withHours) {
        const want = openAt(tag(p.rawTags, 'opening_hours'), at);
        const got = records.get(p.placeId)!.open;
        if (got !== want) wrong.push(`${iso} ${p.placeId} "${tag(p.rawTags, 'opening_hours')}": ${got}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('the host time zone does not matter (child processes under TZ=…)', () => {
  let outputs: Record<string, Record<string, { states: [number, boolean][]; open: Record<string, unknown> }>>;

  beforeAll(async () => {
    outputs = {};
    const zones = ['UTC', 'America/New_York', 'Asia/Kathmandu'];
    const runs = await Promise.all(
      zones.map((tz) =>
        run(process.execPath, ['--import', 'tsx', 'test/support/nearby-at.ts'], {
          cwd: ROOT,
          env: { ...process.env, TZ: tz },
          maxBuffer: 64 * 1024 * 1024,
        }),
      ),
    );
    zones.forEach((tz, i) => {
      const out = JSON.parse(runs[i].stdout);
      expect([tz, tz.replace('Kathmandu', 'Katmandu')]).toContain(out.tz); // ICU's spelling varies
      delete out.tz;
      outputs[tz] = out;
    });
  });

  it('gives the same nearby() JSON under UTC, New York and Kathmandu', () => {
    expect(outputs['America/New_York']).toEqual(outputs.UTC);
    expect(outputs['Asia/Kathmandu']).toEqual(outputs.UTC);
  });

  for (const tz of ['UTC', 'America/New_York', 'Asia/Kathmandu']) {
    it(`under ${tz}: the hand-checked states`, () => {
      const state = (iso: string, placeId: number) => outputs[tz][iso].states.find(([id]) => id === placeId)?.[1];
      const pub = 7250060686 * 4; // Mo-Su 15:00-03:00
      const thamelPub = 903401706 * 4 + 1; // Mo-Su 09:00-02:00
      expect(state('2026-01-17T01:30:00+05:45', pub)).toBe(true);
      expect(state('2026-01-17T03:00:00+05:45', pub)).toBe(false);
      expect(state('2026-03-08T02:30:00+05:45', pub)).toBe(true);
      expect(state('2026-03-08T02:30:00+05:45', thamelPub)).toBe(false);
      expect(state('2026-11-01T01:30:00+05:45', pub)).toBe(true);
      expect(state('2026-11-01T01:30:00+05:45', thamelPub)).toBe(true);
      expect(state('2026-01-16T05:00:00+05:45', 10091154317 * 4)).toBe(true); // Sa-Th 09:30-05:30
      expect(state('2026-01-17T12:00:00+05:45', 10091154317 * 4)).toBe(true);
    });

    it(`under ${tz}: every state as computed in this (${Intl.DateTimeFormat().resolvedOptions().timeZone}) process from raw tags`, () => {
      const byId = new Map(places.map((p) => [p.placeId, p]));
      const wrong: string[] = [];
      for (const iso of INSTANTS) {
        if (!wallClockExists(new Date(iso))) continue; // our reference cannot evaluate it in this zone
        for (const [id, open] of outputs[tz][iso].states) {
          const want = openAt(tag(byId.get(id)!.rawTags, 'opening_hours'), new Date(iso));
          if (open !== want) wrong.push(`${iso} ${id} "${tag(byId.get(id)!.rawTags, 'opening_hours')}": ${open}`);
        }
      }
      expect(wrong).toEqual([]);
    });
  }
});
