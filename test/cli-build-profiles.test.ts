/**
 * `nepal-places build --profiles FILE`: a user's routing profiles, checked before the PBF is read
 * (a bad one fails naming the file and the field, and writes nothing), built into the snapshot,
 * and shown by `--json`.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkProfiles, DEFAULT_PROFILES, fromSnapshot, route } from '../src/index.js';
import { cli } from './support/cli.js';
import { writeNet } from './support/grid-net.js';
import { gridMetres, latLon } from './support/roads.js';

describe('build --profiles FILE', () => {
  let dir: string, pbf: string;
  const fleet = { version: 1, car: { ...DEFAULT_PROFILES.car, speeds: { ...DEFAULT_PROFILES.car.speeds, residential: 40 } } };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'nepal-places-build-profiles-'));
    pbf = await writeNet([
      {
        id: 1,
        pts: [
          [0, 0],
          [10, 0],
        ],
        tags: 'highway=residential',
      },
    ]);
    writeFileSync(join(dir, 'fleet.json'), JSON.stringify(fleet));
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ version: 1, car: { ...DEFAULT_PROFILES.car, speeds: { primary: -5 } } }));
    writeFileSync(join(dir, 'broken.json'), '{ "version": 1,');
  });

  it("builds with the user's profiles: --json shows them (every mode), and the snapshot routes by them", async () => {
    const out = join(dir, 'fleet.places');
    const r = await cli('build', pbf, '-o', out, '--profiles', join(dir, 'fleet.json'), '--json', '--quiet');
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.profiles).toEqual(checkProfiles(fleet));
    expect(summary.profiles.foot).toEqual(DEFAULT_PROFILES.foot);
    const index = fromSnapshot(await readFile(out));
    const [x] = route(index, { points: [latLon([0, 0]), latLon([10, 0])], mode: 'car' });
    expect(x.timeInMs).toBe(Math.round((gridMetres([0, 0], [10, 0]) * 3600) / 40));
  });

  it('without --profiles, --json shows the shipped ones', async () => {
    const r = await cli('build', pbf, '-o', join(dir, 'default.places'), '--json', '--quiet');
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).profiles).toEqual(checkProfiles(DEFAULT_PROFILES));
  });

  it.each([
    ['bad.json', 'car.speeds.primary'],
    ['broken.json', 'no JSON'],
    ['missing.json', 'cannot read'],
  ])('%s: exit 1 naming the file and what is wrong (%s), nothing written', async (file, what) => {
    const out = join(dir, `${file}.places`);
    const r = await cli('build', pbf, '-o', out, '--profiles', join(dir, file), '--quiet');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toContain(what);
    expect(existsSync(out)).toBe(false);
  });
});
