/**
 * The command line: `nearby`, `search`, `place` and `reverse` print the JSON of the
 * library's answer; help and version; one rule of exit codes (2 bad usage, 1 the data
 * or the system failed), with one line on stderr.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nearby, search, place, reverse, buildSnapshot, types } from '../src/index.js';
import type { NearbyPlace, PlaceIndex } from '../src/index.js';
import { engine } from './support/fixture.js';
import { TRANSIT } from './support/raw.js';
import { cli, cliWith, type Run } from './support/cli.js';
import { damagedFixture } from './support/damaged.js';

const FIELDS = [
  'placeId',
  'osmId',
  'license',
  'name',
  'address',
  'type',
  'centroid',
  'tags',
  'geometry',
  'score',
  'radialDistanceInKm',
  'open',
].sort();

let index: PlaceIndex;

beforeAll(async () => {
  index = await engine();
});

describe('nearby prints the JSON array of NearbyPlace', () => {
  it("the issue's example: --type cafe --lat 27.7172 --lon 85.3240", async () => {
    const r = await cli('nearby', '--type', 'cafe', '--lat', '27.7172', '--lon', '85.3240');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const got = JSON.parse(r.stdout) as NearbyPlace[];
    expect(Array.isArray(got)).toBe(true);
    expect(got.length).toBe(5);
    for (const p of got) {
      expect(Object.keys(p).sort()).toEqual(FIELDS);
      expect(p.type).toBe('cafe');
    }
    // the same places as the library, in the same order (open may differ: `at` is "now")
    const want = nearby(index, { type: 'cafe', lat: 27.7172, lon: 85.324 });
    const strip = (xs: NearbyPlace[]) => xs.map(({ open: _open, ...rest }) => rest);
    expect(strip(got)).toEqual(strip(want));
  });

  it('every flag: --radius --limit --sort-by --is-open --at', async () => {
    const at = '2026-01-18T19:30:00+05:45';
    const r = await cli(
      'nearby',
      '--type',
      'eat',
      '--lat',
      '27.7154',
      '--lon',
      '85.3123',
      '--radius',
      '2',
      '--limit',
      '7',
      '--sort-by',
      '--is-open',
      '--at',
      at,
    );
    expect(r.code).toBe(0);
    const got = JSON.parse(r.stdout) as NearbyPlace[];
    expect(got).toEqual(
      nearby(index, { type: 'eat', lat: 27.7154, lon: 85.3123, radius: 2, limit: 7, sortBy: true, isOpen: true, at: new Date(at) }),
    );
    expect(got.length).toBe(7);
    for (const p of got) expect(p.open).toBe(true);
  });

  it('--pbf reads another file', async () => {
    const r = await cli(
      'nearby',
      '--type',
      'bus_stop',
      '--lat',
      '27.7172',
      '--lon',
      '85.3240',
      '--limit',
      '3',
      '--sort-by',
      '--pbf',
      TRANSIT,
    );
    expect(r.code).toBe(0);
    const got = JSON.parse(r.stdout) as NearbyPlace[];
    expect(got.length).toBe(3);
    for (const p of got) expect(p.type).toBe('bus_stop');
    const transit = await engine(TRANSIT);
    const want = nearby(transit, { type: 'bus_stop', lat: 27.7172, lon: 85.324, limit: 3, sortBy: true });
    expect(got.map((p) => p.placeId)).toEqual(want.map((p) => p.placeId));
  });

  it('a misspelled type exits 2 with one line suggesting the type meant', async () => {
    const r = await cli('nearby', '--type', 'cafee', '--lat', '27.7172', '--lon', '85.3240');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^nepal-places nearby: type: unknown type "cafee".*did you mean "cafe".*\n$/);
  });
});

describe('bad arguments: one line on stderr, nothing on stdout, exit code 2', () => {
  const cases: [string, string[]][] = [
    ['missing --lat', ['--type', 'cafe', '--lon', '85.3240']],
    ['--lat abc', ['--type', 'cafe', '--lat', 'abc', '--lon', '85.3240']],
    ['--lat 91', ['--type', 'cafe', '--lat', '91', '--lon', '85.3240']],
    ['an unknown flag', ['--type', 'cafe', '--lat', '27.7172', '--lon', '85.3240', '--colour', 'red']],
    ['--radius 1.5', ['--type', 'cafe', '--lat', '27.7172', '--lon', '85.3240', '--radius', '1.5']],
    ['--limit x', ['--type', 'cafe', '--lat', '27.7172', '--lon', '85.3240', '--limit', 'x']],
    ['--at not-a-date', ['--type', 'cafe', '--lat', '27.7172', '--lon', '85.3240', '--at', 'not-a-date']],
    [
      '--at not ISO 8601 (but a date to new Date())',
      ['--type', 'cafe', '--lat', '27.7172', '--lon', '85.3240', '--at', 'Nov 21 2026 22:10'],
    ],
    ['--at a day that does not exist', ['--type', 'cafe', '--lat', '27.7172', '--lon', '85.3240', '--at', '2026-02-30T10:00']],
  ];
  // each run costs a Node start-up: run them a few at a time up front
  const runs = new Map<string, Run>();
  beforeAll(async () => {
    const queue = [...cases];
    await Promise.all(
      [0, 1, 2].map(async () => {
        for (let c = queue.shift(); c; c = queue.shift()) runs.set(c[0], await cli('nearby', ...c[1]));
      }),
    );
  });

  for (const [name] of cases) {
    it(name, () => {
      const r = runs.get(name)!;
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.endsWith('\n')).toBe(true);
      expect(r.stderr.trimEnd().split('\n'), r.stderr).toHaveLength(1);
      expect(r.stderr.trim().length).toBeGreaterThan(10);
    });
  }

  it('an unknown command', async () => {
    const r = await cli('nearbyy', '--type', 'cafe');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('a --pbf that does not exist: one line naming the file, exit 1 (the data failed, not the usage)', async () => {
    const r = await cli('nearby', '--type', 'cafe', '--lat', '27.7172', '--lon', '85.3240', '--pbf', '/nonexistent/x.osm.pbf');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('/nonexistent/x.osm.pbf');
  });
});

describe('--at without an offset is Nepal Time, whatever the host time zone', () => {
  const args = [
    'nearby',
    '--type',
    'eat',
    '--lat',
    '27.7154',
    '--lon',
    '85.3123',
    '--radius',
    '3',
    '--limit',
    '100',
    '--is-open',
    '--at',
    '2026-11-21T22:10',
  ];

  it('the same places under TZ=UTC, Asia/Kathmandu and America/New_York, as at 22:10+05:45', async () => {
    const runs = await Promise.all(['UTC', 'Asia/Kathmandu', 'America/New_York'].map((TZ) => cliWith({ TZ }, ...args)));
    const want = nearby(index, {
      type: 'eat',
      lat: 27.7154,
      lon: 85.3123,
      radius: 3,
      limit: 100,
      isOpen: true,
      at: new Date('2026-11-21T22:10:00+05:45'),
    });
    // an instant where the host's reading would differ: 22:10 UTC and 22:10 New York are other hours in Kathmandu
    const utcReading = nearby(index, {
      type: 'eat',
      lat: 27.7154,
      lon: 85.3123,
      radius: 3,
      limit: 100,
      isOpen: true,
      at: new Date('2026-11-21T22:10:00Z'),
    });
    expect(utcReading.map((p) => p.placeId)).not.toEqual(want.map((p) => p.placeId));
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(want);
    }
  });

  it('an offset is used as written', async () => {
    const r = await cliWith(
      { TZ: 'America/New_York' },
      'nearby',
      '--type',
      'eat',
      '--lat',
      '27.7154',
      '--lon',
      '85.3123',
      '--is-open',
      '--at',
      '2026-11-21T16:25Z',
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(
      nearby(index, { type: 'eat', lat: 27.7154, lon: 85.3123, isOpen: true, at: new Date('2026-11-21T16:25:00Z') }),
    );
  });

  it('a bad --at says what is accepted', async () => {
    const r = await cli('nearby', '--type', 'cafe', '--lat', '27.7', '--lon', '85.3', '--at', '21/11/2026');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--at must be an ISO 8601 date and time such as 2026-11-21T22:10 \(Nepal Time when no offset is given\)/);
  });
});

describe('help and version', () => {
  it('--help, -h and help print the same text naming every command, on stdout, exit 0', async () => {
    const runs = await Promise.all([cli('--help'), cli('-h'), cli('help')]);
    for (const r of runs) {
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(runs[0].stdout);
    }
    for (const name of ['nearby', 'search', 'place', 'reverse', 'build', 'serve'])
      expect(runs[0].stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    expect(runs[0].stdout).toMatch(/Exit codes: 0 done, 1 the data or the system failed, 2 bad usage/);
  });

  it('help COMMAND is COMMAND --help', async () => {
    const [a, b] = await Promise.all([cli('help', 'search'), cli('search', '--help')]);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).toMatch(/^usage: nepal-places search /);
  });

  it('--version prints the version of package.json', async () => {
    const r = await cli('--version');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
  });

  it('no command is usage: exit 2, on stderr', async () => {
    const r = await cli();
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/no command given/);
  });
});

describe('search, place and reverse print what the library answers', () => {
  const AT = '2026-11-21T10:00';
  const at = new Date('2026-11-21T10:00:00+05:45');

  it('search WORDS… and search --q', async () => {
    const [a, b] = await Promise.all([cli('search', 'thamel', 'pu', '--limit', '4'), cli('search', '--q', 'thamel pu', '--limit', '4')]);
    expect(a.code).toBe(0);
    const want = search(index, { q: 'thamel pu', limit: 4 });
    expect(want.length).toBeGreaterThan(0);
    expect(JSON.parse(a.stdout)).toEqual(want);
    expect(b.stdout).toBe(a.stdout);
  });

  it('search with a point, a radius and a type', async () => {
    const r = await cli('search', 'resturant', '--lat', '27.7154', '--lon', '85.3123', '--radius', '2', '--type', 'eat');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(search(index, { q: 'resturant', lat: 27.7154, lon: 85.3123, radius: 2, type: 'eat' }));
  });

  it('place PLACEID --at', async () => {
    const id = nearby(index, { type: 'cafe', lat: 27.7154, lon: 85.3123, limit: 1 })[0].placeId;
    const r = await cli('place', String(id), '--at', AT);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(place(index, id, { at }));
  });

  it('reverse --lat --lon --radius --limit --at', async () => {
    const r = await cli('reverse', '--lat', '27.7116015', '--lon', '85.3126146', '--radius', '0.2', '--limit', '3', '--at', AT);
    expect(r.code).toBe(0);
    const want = reverse(index, { lat: 27.7116015, lon: 85.3126146, radius: 0.2, limit: 3, at });
    expect(want).toHaveLength(3);
    expect(JSON.parse(r.stdout)).toEqual(want);
  });

  it('types: the types nearby takes, as types() lists them; an argument is exit 2', async () => {
    const r = await cli('types');
    expect(r.code).toBe(0);
    const got = JSON.parse(r.stdout) as { type: string; count: number }[];
    expect(got).toEqual(types(index));
    // every listed type with places answers nearby over the whole fixture
    const cafe = got.find((t) => t.type === 'cafe')!;
    expect(nearby(index, { type: 'cafe', lat: 27.7083, lon: 85.3206, radius: 10, limit: 10_000 })).toHaveLength(cafe.count);
    expect((await cli('types', 'cafe')).code).toBe(2);
  });

  it('reverse where nothing is: [] and exit 0', async () => {
    const r = await cli('reverse', '--lat', '-33.9', '--lon', '18.4');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });
});

describe('negative numbers are option values', () => {
  it('--lon -74 and --lat -33.9 (and -.5), not an unknown option', async () => {
    const runs = await Promise.all([
      cli('nearby', '--type', 'cafe', '--lat', '40.7', '--lon', '-74'),
      cli('reverse', '--lat', '-33.9', '--lon', '-.5'),
      cli('search', 'cafe', '--lat', '-33.9', '--lon', '-74'),
    ]);
    for (const r of runs) {
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toBeInstanceOf(Array);
    }
  });

  it('a negative number where a positive one is needed is still a usage error', async () => {
    const r = await cli('nearby', '--type', 'cafe', '--lat', '27.7', '--lon', '85.3', '--radius', '-2');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--radius must be a positive integer, got "-2"/);
  });
});

describe('one rule of exit codes: 2 bad usage, 1 the data or the system failed', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'np-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('2: bad arguments of search, place and reverse, one line', async () => {
    const runs = await Promise.all([
      cli('search'),
      cli('search', 'x', '--q', 'y'),
      cli('search', 'x', '--limit', '0.5'),
      cli('place'),
      cli('place', 'abc'),
      cli('place', '1', '2'),
      cli('reverse', '--lat', '27.7'),
      cli('reverse', '--lat', '95', '--lon', '85'),
      cli('reverse', '--lat', '27', '--lon', '85', '--radius', '0'),
    ]);
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });

  it('1: a file that is no PBF nor snapshot, for every query command', async () => {
    const junk = join(dir, 'junk.osm.pbf');
    writeFileSync(junk, 'not a PBF, not a snapshot');
    const runs = await Promise.all([
      cli('nearby', '--type', 'cafe', '--lat', '27.7', '--lon', '85.3', '--data', junk),
      cli('search', 'thamel', '--data', junk),
      cli('place', '4', '--data', junk),
      cli('reverse', '--lat', '27.7', '--lon', '85.3', '--data', junk),
    ]);
    for (const r of runs) {
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringContaining(junk)]);
    }
  });

  it('1: a placeId the data does not hold', async () => {
    const r = await cli('place', '4');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^nepal-places place: no place with placeId 4 in .*\n$/);
  });
});

describe('blobs of unknown type: a warning on stderr, or with --strict exit 1', () => {
  let dir: string;
  let damaged: string;
  let snapshot: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'np-cli-strict-'));
    damaged = join(dir, 'damaged.osm.pbf');
    writeFileSync(damaged, damagedFixture().bytes);
    const { loadPbf } = await import('../src/index.js');
    snapshot = join(dir, 'damaged.places');
    writeFileSync(snapshot, buildSnapshot(await loadPbf(damaged)));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const q = ['--type', 'cafe', '--lat', '27.7154', '--lon', '85.3123'];

  it('without --strict: answers, and warns once that a blob was skipped', async () => {
    for (const file of [damaged, snapshot]) {
      const r = await cli('nearby', ...q, '--data', file);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toBeInstanceOf(Array);
      expect(r.stderr).toBe(
        `nepal-places nearby: warning: ${file}: 1 blob of unknown type skipped, so the places in it are missing (damaged data?); --strict refuses such files\n`,
      );
    }
  });

  it('--strict: exit 1, one line naming the file, nothing on stdout', async () => {
    for (const file of [damaged, snapshot]) {
      const r = await cli('nearby', ...q, '--data', file, '--strict');
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toEqual([
        expect.stringMatching(new RegExp(`^nepal-places nearby: ${file.replace(/[.]/g, '\\.')}: .*unknown type.*strict`)),
      ]);
    }
  });

  it('--strict on a sound file answers as without it', async () => {
    const [a, b] = await Promise.all([
      cli('nearby', ...q, '--strict', '--at', '2026-11-21T10:00'),
      cli('nearby', ...q, '--at', '2026-11-21T10:00'),
    ]);
    expect(a.code).toBe(0);
    expect(a.stderr).toBe('');
    expect(a.stdout).toBe(b.stdout);
  });
});
