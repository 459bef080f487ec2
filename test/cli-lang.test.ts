/**
 * `--lang` on the commands that print names: the library's answer in that language, and an
 * unknown language a usage error naming lang.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { nearby, place, reverse, route, search } from '../src/index.js';
import type { PlaceIndex } from '../src/index.js';
import { engine } from './support/fixture.js';
import { cli } from './support/cli.js';

let index: PlaceIndex;

beforeAll(async () => {
  index = await engine();
});

const AT = '2026-01-17T11:45';
const at = new Date('2026-01-17T06:00:00Z'); // 11:45 Nepal Time

describe('--lang ne prints what the library answers in Nepali', () => {
  it('nearby, search, reverse, place and route', async () => {
    // one after another: each run loads the data
    const runs = [];
    for (const args of [
      ['nearby', '--type', 'cafe', '--lat', '27.7154', '--lon', '85.3123', '--at', AT, '--lang', 'ne'],
      ['search', 'thamel', '--lang', 'ne'],
      ['reverse', '--lat', '27.7154', '--lon', '85.3123', '--limit', '3', '--at', AT, '--lang', 'ne'],
      ['route', '--from', '27.7154,85.3123', '--to', '27.7062,85.3152', '--instructions', '--lang', 'ne'],
    ])
      runs.push(await cli(...args));
    for (const r of runs) expect([r.code, r.stderr]).toEqual([0, '']);
    const [near, found, here, way] = runs.map((r) => JSON.parse(r.stdout));
    expect(near).toEqual(JSON.parse(JSON.stringify(nearby(index, { type: 'cafe', lat: 27.7154, lon: 85.3123, at, lang: 'ne' }))));
    expect(found).toEqual(search(index, { q: 'thamel', lang: 'ne' }));
    expect(here).toEqual(JSON.parse(JSON.stringify(reverse(index, { lat: 27.7154, lon: 85.3123, limit: 3, at, lang: 'ne' }))));
    expect(way).toEqual(route(index, { points: ['27.7154,85.3123', '27.7062,85.3152'], instructions: true, lang: 'ne' }));
    expect(near.some((p: { name: string }) => /[\u0900-\u097f]/.test(p.name))).toBe(true);
    expect(way[0].instructionList.at(-1).text).toBe('गन्तव्यमा पुग्नुभयो');

    const id = near[0].placeId as number;
    const one = await cli('place', String(id), '--at', AT, '--lang', 'ne');
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual(JSON.parse(JSON.stringify(place(index, id, { at, lang: 'ne' }))));
  }, 300_000);
});

describe('an unknown --lang: exit code 2, one line naming lang', () => {
  it.each([
    ['nearby', '--type', 'cafe', '--lat', '27.7154', '--lon', '85.3123'],
    ['search', 'thamel'],
    ['reverse', '--lat', '27.7154', '--lon', '85.3123'],
    ['place', '4'],
    ['route', '--from', '27.7154,85.3123', '--to', '27.7062,85.3152'],
  ])(
    '%s',
    async (...args) => {
      const r = await cli(...args, '--lang', 'fr');
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')[0]).toMatch(/lang: must be one of en, ne, got "fr"/);
    },
    120_000,
  );
});
