/**
 * A pushed bike's step says so (docs/api.md, "Directions"): where a bike route walks its bike (a
 * footway, against a one-way), the step is its own, `pushed: true`, its text "Push your bike
 * along …" (in Nepali with `lang: 'ne'`); ridden steps carry no `pushed`. Hand-made network of
 * grid ways (test/support/grid-net.ts), the steps worked out by hand.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPbf, route, type PlaceIndex } from '../src/index.js';
import { latLon, type P } from './support/roads.js';
import { writeNet } from './support/grid-net.js';

// West Road (0,0)–(2,0) ridden, Temple Footway (2,0)–(4,0) walked, East Road (4,0)–(6,0) ridden, all in a line;
// One Way Lane (0,10)→(3,10) one-way east, North Road (3,10)–(3,13)
let index: PlaceIndex;
beforeAll(async () => {
  index = await loadPbf(
    await writeNet([
      {
        id: 1,
        pts: [
          [0, 0],
          [2, 0],
        ],
        tags: 'highway=residential name=West_Road',
      },
      {
        id: 2,
        pts: [
          [2, 0],
          [4, 0],
        ],
        tags: 'highway=footway name=Temple_Footway',
      },
      {
        id: 3,
        pts: [
          [4, 0],
          [6, 0],
        ],
        tags: 'highway=residential name=East_Road',
      },
      {
        id: 4,
        pts: [
          [0, 10],
          [3, 10],
        ],
        tags: 'highway=residential oneway=yes name=One_Way_Lane',
      },
      {
        id: 5,
        pts: [
          [3, 10],
          [3, 13],
        ],
        tags: 'highway=residential name=North_Road',
      },
    ]),
  );
});

const steps = (mode: 'bike' | 'foot', a: P, b: P, lang?: 'ne') =>
  route(index, { points: [latLon(a), latLon(b)], mode, instructions: true, lang })[0].instructionList!;

describe('a pushed stretch is a step of its own that says so', () => {
  it('riding, walking the footway, riding on: three steps, the middle one pushed', () => {
    const s = steps('bike', [0, 0], [6, 0]);
    expect(s.map((i) => [i.text, i.pushed])).toEqual([
      ['Continue onto West_Road', undefined],
      ['Push your bike along Temple_Footway', true],
      ['Continue onto East_Road', undefined],
      ['Arrive at destination', undefined],
    ]);
  });
  it('against a one-way: the bike is pushed from the start, then turns and rides', () => {
    const s = steps('bike', [3, 13], [0, 10]);
    expect(s.map((i) => [i.sign, i.text, i.pushed])).toEqual([
      [0, 'Continue onto North_Road', undefined],
      [2, 'Turn right and push your bike along One_Way_Lane', true],
      [4, 'Arrive at destination', undefined],
    ]);
    // along the one-way it is ridden
    expect(steps('bike', [0, 10], [3, 13]).some((i) => i.pushed)).toBe(false);
  });
  it('a walker is never "pushing": the same footway is a plain step', () => {
    expect(steps('foot', [0, 0], [6, 0]).some((i) => i.pushed || /push/i.test(i.text))).toBe(false);
  });
  it('in Nepali the pushed step reads as walking the bike (the pushed-bike template), with the street', () => {
    const s = steps('bike', [0, 0], [6, 0], 'ne');
    expect(s[1].pushed).toBe(true);
    expect(s[1].text).toContain('साइकल');
    expect(s[1].text).toContain('डोर्‍याएर');
    expect(s[0].text).not.toContain('साइकल');
  });
});
