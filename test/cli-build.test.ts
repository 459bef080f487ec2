/**
 * `nepal-places build IN.osm.pbf -o OUT.places`, run as a child process on the core
 * fixture: the snapshot it writes, its progress and summary on stderr (checked against
 * an index loaded here), bad usage, a bad PBF; and `nearby`/`serve --data` reading
 * the snapshot it wrote.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSnapshot, loadPbf, nearby, type NearbyPlace, type PlaceIndex } from '../src/index.js';
import { formatBytes, formatCount } from '../src/cli/progress.js';
import { sectionSizes } from '../src/snapshot/sections.js';
import { CORE } from './support/raw.js';
import { fetchReply } from './support/http-server.js';
import { THAMEL } from './support/http-fixture.js';
import { cli, type Run } from './support/cli.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

let dir: string;
let index: PlaceIndex;
let pbfSize: number;
/** The build of the fixture with default flags, shared by the tests that read its output. */
let built: Run;
let out: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'np-build-'));
  out = join(dir, 'core.places');
  // the expectations come from a load of our own, not from the command's output
  [index, built, pbfSize] = await Promise.all([loadPbf(CORE), cli('build', CORE, '-o', out), stat(CORE).then((s) => s.size)]);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('build writes a snapshot', () => {
  it('exits 0, writes nothing on stdout, and the file is a snapshot', async () => {
    expect(built.stderr).not.toMatch(/error|Error/);
    expect(built.code).toBe(0);
    expect(built.stdout).toBe('');
    const bytes = await readFile(out);
    expect(isSnapshot(bytes)).toBe(true);
    // no temporary file left beside it
    expect(await readdir(dir)).toEqual(['core.places']);
  });

  it('progress lines on stderr when it is not a TTY: the first at 0%, the last at 100% with every object', () => {
    const lines = built.stderr.split('\n').filter((l) => l.startsWith('load '));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const l of lines) expect(l).not.toMatch(/[\r\x1b]/);
    const total = formatBytes(pbfSize).replace(/ .*/, '');
    expect(lines[0]).toMatch(new RegExp(`^load {3}0%  0\\.0/${total} MB  0 objects`));
    const objects = index.stats.nodes + index.stats.ways + index.stats.relations;
    expect(lines.at(-1)).toMatch(
      new RegExp(`^load 100%  ${total}/${total} MB  ${formatCount(objects)} objects  [\\d.]+ [kM]B/s  in [\\d.]+ m?s$`),
    );
  });

  it('the summary: places by kind, skipped, sizes and their ratio, times; matching the index', async () => {
    const s = index.stats;
    const size = (await stat(out)).size;
    const n = (x: number) => formatCount(x);
    const text = built.stderr;
    expect(text).toContain(`nepal-places build: wrote ${out}\n`);
    expect(text).toContain(
      `places    ${n(index.size)}: ${n(s.points)} points, ${n(s.lineStrings)} lineStrings, ${n(s.polygons)} polygons, ${n(s.multiPolygons)} multiPolygons\n`,
    );
    expect(text).toContain(
      `skipped   ${n(s.skippedWays)} ways, ${n(s.skippedRelations)} relations; ${n(s.partial)} partial; ${n(s.badSchedules)} bad opening_hours of ${n(s.schedules)}\n`,
    );
    expect(text).toContain(
      `snapshot  ${n(size)} bytes (${formatBytes(size)}), ${(size / pbfSize).toFixed(2)}x the PBF's ${n(pbfSize)} bytes (${formatBytes(pbfSize)})\n`,
    );
    const times = /time {6}load ([\d.]+) (m?s), snapshot ([\d.]+) (m?s), write ([\d.]+) (m?s), total ([\d.]+) (m?s)\n$/.exec(text);
    expect(times, text).not.toBeNull();
    const ms = (i: number) => Number(times![i]) * (times![i + 1] === 's' ? 1000 : 1);
    expect(ms(7)).toBeGreaterThanOrEqual(ms(1));
    // the summary is last: nothing but its lines after the progress
    expect(text.split('\n').filter((l) => !l.startsWith('load ')).length).toBe(6); // 5 lines and the final ''
  });

  it('--quiet prints nothing; --workers and --license reach the loader; an existing output is replaced', async () => {
    const r = await cli('build', '--quiet', '--workers', '0', '--license', 'test license', CORE, '--output', out);
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(isSnapshot(await readFile(out))).toBe(true);
    expect(await readdir(dir)).toEqual(['core.places']);
    const q = cli('nearby', '--type', 'cafe', '--lat', '27.7172', '--lon', '85.3240', '--limit', '1', '--data', out);
    const got = JSON.parse((await q).stdout) as NearbyPlace[];
    expect(got[0]!.license).toBe('test license');
    // put back the default build for the tests below
    expect((await cli('build', '--quiet', CORE, '-o', out)).code).toBe(0);
  });

  it('-h prints the help on stdout and exits 0', async () => {
    const r = await cli('build', '-h');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^usage: nepal-places build IN\.osm\.pbf -o OUT\.places/);
    for (const flag of ['--output', '--workers', '--license', '--quiet', '--help']) expect(r.stdout).toContain(flag);
  });
});

describe('build --json: the summary as one JSON object on stdout', () => {
  it('figures that match the index and the files; no summary lines on stderr', async () => {
    const json = join(dir, 'json.places');
    const r = await cli('build', CORE, '-o', json, '--json');
    expect(r.code).toBe(0);
    const got = JSON.parse(r.stdout);
    const size = (await stat(json)).size;
    expect(got).toEqual({
      input: CORE,
      output: json,
      places: index.size,
      license: index.license,
      stats: index.stats,
      size,
      pbfSize,
      // each section's bytes by name, as the file's own section table lists them
      sections: Object.fromEntries(sectionSizes(await readFile(json)).map((x) => [x.name, x.bytes])),
      ms: { load: expect.any(Number), snapshot: expect.any(Number), write: expect.any(Number), total: expect.any(Number) },
      // the routing profiles built with: the shipped ones
      profiles: index.router!.graph.profiles,
    });
    expect(got.ms.total).toBeGreaterThanOrEqual(got.ms.load + got.ms.snapshot + got.ms.write - 3);
    expect(Object.keys(got.sections)).toEqual(expect.arrayContaining(['osmId', 'tagKV', 'strings.utf8', 'edgeCoords', 'ch2slots']));
    expect(Object.values(got.sections as Record<string, number>).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(size);
    expect(r.stderr).not.toContain('nepal-places build: wrote');
    // --quiet leaves the JSON and drops the progress
    const q = await cli('build', CORE, '-o', json, '--json', '--quiet');
    expect(q.stderr).toBe('');
    expect(JSON.parse(q.stdout).places).toBe(index.size);
    await rm(json);
  });
});

describe('build of a PBF with a blob of unknown type: a warning, or with --strict exit 1 and no output', () => {
  let damaged: string;
  beforeAll(async () => {
    const { damagedFixture } = await import('./support/damaged.js');
    damaged = join(dir, 'damaged.osm.pbf');
    await writeFile(damaged, damagedFixture().bytes);
  });
  afterAll(() => rm(damaged));

  it('without --strict: written, with a warning naming the file', async () => {
    const o = join(dir, 'damaged.places');
    const r = await cli('build', damaged, '-o', o, '--quiet');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `nepal-places build: warning: ${damaged}: 1 blob of unknown type skipped, so the places in it are missing (damaged data?); --strict refuses such files\n`,
    );
    expect(isSnapshot(await readFile(o))).toBe(true);
    await rm(o);
  });

  it('--strict: exit 1, the blob named, nothing written', async () => {
    const o = join(dir, 'strict.places');
    const r = await cli('build', damaged, '-o', o, '--strict', '--quiet');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `^nepal-places build: ${damaged.replace(/[.]/g, '\\.')}: 1 blob of unknown type \\("OSMDatb" at offset \\d+\\): strict loading refuses`,
      ),
    );
    expect(await readdir(dir)).not.toContain('strict.places');
  });
});

describe('build: bad usage is a message and the usage on stderr, exit 2', () => {
  const cases: [string, string[], RegExp][] = [
    ['no input', ['-o', 'x.places'], /no input PBF given/],
    ['no -o', [CORE], /-o\/--output OUT\.places is required/],
    ['an unknown flag', [CORE, '-o', 'x.places', '--colour'], /Unknown option '--colour'/],
    ['--workers x', [CORE, '-o', 'x.places', '--workers', 'x'], /--workers must be an integer from 0 to 64, got 'x'/],
    ['--workers -1', [CORE, '-o', 'x.places', '--workers=-1'], /--workers must be an integer/],
    ['two inputs', [CORE, CORE, '-o', 'x.places'], /one input PBF, got 2/],
    ['-o without a value', [CORE, '-o'], /-o/],
  ];
  const runs = new Map<string, Run>();
  beforeAll(async () => {
    const queue = [...cases];
    await Promise.all(
      [0, 1].map(async () => {
        for (let c = queue.shift(); c; c = queue.shift()) runs.set(c[0], await cli('build', ...c[1]));
      }),
    );
  });

  for (const [name, , message] of cases) {
    it(name, () => {
      const r = runs.get(name)!;
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      const [first, usage, end, ...rest] = r.stderr.split('\n');
      expect(first).toMatch(/^nepal-places build: /);
      expect(first).toMatch(message);
      expect(usage).toMatch(/^usage: nepal-places build /);
      expect([end, ...rest]).toEqual(['']);
    });
  }
});

describe('build: a bad PBF is exit 1, the error naming the file, and no output', () => {
  it('a truncated PBF', async () => {
    const sub = await mkdtemp(join(dir, 'trunc-'));
    const pbf = join(sub, 'cut.osm.pbf');
    const whole = await readFile(CORE);
    await writeFile(pbf, whole.subarray(0, Math.floor(whole.length / 2)));
    const r = await cli('build', pbf, '-o', join(sub, 'cut.places'));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(new RegExp(`^nepal-places build: ${pbf.replace(/[.]/g, '\\.')}: `));
    expect(await readdir(sub)).toEqual(['cut.osm.pbf']);
  });

  it('a missing PBF', async () => {
    const r = await cli('build', join(dir, 'nope.osm.pbf'), '-o', join(dir, 'nope.places'), '--quiet');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`nepal-places build: ${join(dir, 'nope.osm.pbf')}: no such file\n`);
    expect(await readdir(dir)).not.toContain('nope.places');
  });

  it('a snapshot given as the input says so', async () => {
    const r = await cli('build', out, '-o', join(dir, 'again.places'));
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n').at(-1)).toBe(`nepal-places build: ${out}: is a snapshot already; build reads an OSM PBF`);
    expect(await readdir(dir)).not.toContain('again.places');
  });

  it('an output folder that does not exist, before any load', async () => {
    const r = await cli('build', CORE, '-o', join(dir, 'no', 'such', 'x.places'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^nepal-places build: .*x\.places: no such directory .*such\n$/);
  });
});

describe('nearby and serve read the snapshot with --data', () => {
  const q = ['--type', 'eat', '--lat', '27.7154', '--lon', '85.3123', '--radius', '2', '--limit', '7', '--at', '2026-01-18T19:30:00+05:45'];

  it('nearby --data SNAPSHOT prints exactly what nearby --data PBF and --pbf PBF print', async () => {
    const [fromSnapshot, fromPbf, fromAlias] = await Promise.all([
      cli('nearby', ...q, '--data', out),
      cli('nearby', ...q, '--data', CORE),
      cli('nearby', ...q, '--pbf', CORE),
    ]);
    expect(fromPbf.code).toBe(0);
    expect(fromSnapshot.stderr).toBe('');
    expect(fromSnapshot.code).toBe(0);
    expect(JSON.parse(fromPbf.stdout)).toHaveLength(7);
    expect(fromSnapshot.stdout).toBe(fromPbf.stdout);
    expect(fromAlias.stdout).toBe(fromPbf.stdout);
  });

  it('nearby: --data and --pbf together are bad usage; a file that is no snapshot nor PBF names it', async () => {
    const both = await cli('nearby', ...q, '--data', out, '--pbf', CORE);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--pbf is another name for --data/);
    const junk = join(dir, 'junk.places');
    await writeFile(junk, 'not a snapshot, not a PBF');
    const bad = await cli('nearby', ...q, '--data', junk);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(junk);
    await rm(junk);
  });

  it('nearby --help documents --data', async () => {
    const r = await cli('nearby', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--data FILE/);
  });

  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child?.exitCode === null) child.kill('SIGKILL');
  });

  it('serve --data SNAPSHOT answers /search/nearby as the index does', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve', '--port', '0', '--data', out], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exit = new Promise<number | null>((resolve) => child!.once('exit', resolve));
    let m: RegExpExecArray | null = null;
    for (let i = 0; i < 600 && !m && child.exitCode === null; i++) {
      await new Promise((r) => setTimeout(r, 100));
      m = /API v1 at (\S+) [^]*development key [^\n]*: (\S+)\n/.exec(stdout);
    }
    expect(m, `${stdout}\n${stderr}`).not.toBeNull();
    const [, api, key] = m!;
    expect(stdout).toContain(`${index.size} places from ${out}`);
    const r = await fetchReply(`${api}/search/nearby?type=cafe&lat=${THAMEL.lat}&lon=${THAMEL.lon}&radius=1&limit=5&key=${key}`);
    expect(r.status).toBe(200);
    const want = nearby(index, { type: 'cafe', ...THAMEL, radius: 1, limit: 5 });
    expect(want.length).toBe(5);
    expect((r.body.data as NearbyPlace[]).map((p) => p.placeId)).toEqual(want.map((p) => p.placeId));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('serve --help documents --data', async () => {
    const r = await cli('serve', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--data FILE/);
  });
});
