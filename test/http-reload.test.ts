/**
 * Reloading the served data: a new index is loaded beside the old one and swapped in whole;
 * requests in flight finish on the index they started with; a load that fails keeps the old one.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot, loadPbf, nearby, search, PbfError, SnapshotError, type NearbyQuery, type PlaceIndex } from '../src/index.js';
import { Reloadable, ReloadAbortedError } from '../src/http/reloadable.js';
import { loadOffThread } from '../src/cli/data.js';
import { cli } from './support/cli.js';
import { CORE_PBF, coreIndex, THAMEL, token } from './support/http-fixture.js';
import { startServer, type TestServer } from './support/http-server.js';
import { TRANSIT } from './support/raw.js';

/** A promise and its resolve, to hold a request or a load until the test lets it go. */
function gate() {
  let open!: () => void;
  const shut = new Promise<void>((r) => (open = r));
  return { shut, open };
}

describe('Reloadable: swaps in a fully loaded value, keeps the old one when the load fails', () => {
  it('current is the new value only once its load has finished', async () => {
    const g = gate();
    const r = new Reloadable('a', async () => {
      await g.shut;
      return 'b';
    });
    const p = r.reload();
    await new Promise((res) => setTimeout(res, 10));
    expect(r.current).toBe('a');
    g.open();
    expect(await p).toEqual({ ok: true, value: 'b', previous: 'a' });
    expect(r.current).toBe('b');
  });

  it('a failed load resolves with the error and keeps the value', async () => {
    const r = new Reloadable('a', () => Promise.reject(new Error('bad file')));
    const out = await r.reload();
    expect(out.ok).toBe(false);
    expect(!out.ok && (out.error as Error).message).toBe('bad file');
    expect(r.current).toBe('a');
  });

  it('reloads do not overlap: one asked for during a load runs after it, and later asks share it', async () => {
    let loads = 0;
    let active = 0;
    let most = 0;
    const r = new Reloadable(0, async () => {
      active++;
      most = Math.max(most, active);
      await new Promise((res) => setTimeout(res, 20));
      active--;
      return ++loads;
    });
    const first = r.reload();
    const second = r.reload();
    const third = r.reload();
    expect(third).toBe(second);
    expect((await first).value).toBe(1);
    expect((await second).value).toBe(2);
    expect(loads).toBe(2);
    expect(most).toBe(1);
    expect(r.current).toBe(2);
  });

  it('disposes of a replaced value once its last lease is released, once', async () => {
    const disposed: string[] = [];
    let next = 'b';
    const r = new Reloadable('a', async () => next, { dispose: (v) => void disposed.push(v) });
    const held = r.acquire();
    await r.reload();
    await new Promise((res) => setTimeout(res, 5));
    expect(held.value).toBe('a');
    expect(disposed).toEqual([]); // still in use
    held.release();
    held.release(); // twice is harmless
    await new Promise((res) => setTimeout(res, 5));
    expect(disposed).toEqual(['a']);
    next = 'c';
    await r.reload(); // nothing holds 'b': disposed at once
    await new Promise((res) => setTimeout(res, 5));
    expect(disposed).toEqual(['a', 'b']);
    expect(r.acquire().value).toBe('c');
  });

  it('a dispose that throws is reported, not swallowed', async () => {
    const errors: unknown[] = [];
    const r = new Reloadable('a', async () => 'b', {
      dispose: () => {
        throw new Error('close failed');
      },
      onError: (e) => errors.push(e),
    });
    await r.reload();
    await new Promise((res) => setTimeout(res, 5));
    expect((errors[0] as Error).message).toBe('close failed');
  });
});

describe('Reloadable: a load that takes too long is given up; close() stops the one in progress', () => {
  it('timeoutMs: a load that never ends fails with ReloadAbortedError, its signal aborted; the next reload runs', async () => {
    let signal: AbortSignal | undefined;
    let calls = 0;
    const r = new Reloadable(
      'a',
      (s) => {
        calls++;
        if (calls === 1) {
          signal = s;
          return new Promise<string>(() => {}); // never settles, like a read of a pipe
        }
        return Promise.resolve('b');
      },
      { timeoutMs: 50 },
    );
    const first = r.reload();
    const second = r.reload(); // queued behind the stuck one
    const out = await first;
    expect(out.ok).toBe(false);
    expect(!out.ok && out.error).toBeInstanceOf(ReloadAbortedError);
    expect(!out.ok && (out.error as Error).message).toBe('gave up after 50 ms');
    expect(signal?.aborted).toBe(true);
    expect(r.current).toBe('a');
    expect(await second).toEqual({ ok: true, value: 'b', previous: 'a' });
  });

  it('close() aborts the load in progress at once and refuses later reloads', async () => {
    let signal: AbortSignal | undefined;
    const r = new Reloadable('a', (s) => {
      signal = s;
      return new Promise<string>(() => {});
    });
    const p = r.reload();
    await new Promise((res) => setTimeout(res, 5));
    r.close();
    const out = await p;
    expect(!out.ok && out.error).toBeInstanceOf(ReloadAbortedError);
    expect(signal?.aborted).toBe(true);
    const later = await r.reload();
    expect(later.ok).toBe(false);
    expect(r.current).toBe('a');
  });

  it('a value that comes after its load was given up is disposed of, not swapped in', async () => {
    const disposed: string[] = [];
    let finish!: (v: string) => void;
    const r = new Reloadable('a', () => new Promise<string>((res) => (finish = res)), {
      timeoutMs: 20,
      dispose: (v) => void disposed.push(v),
    });
    expect((await r.reload()).ok).toBe(false);
    finish('late');
    await new Promise((res) => setTimeout(res, 5));
    expect(disposed).toEqual(['late']);
    expect(r.current).toBe('a');
  });

  it('timeoutMs must be positive', () => {
    expect(() => new Reloadable('a', async () => 'b', { timeoutMs: 0 })).toThrow(/timeoutMs must be positive/);
  });
});

describe('loadOffThread: the file is loaded on a thread of its own into the index the file holds', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'np-offthread-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const Q = { type: 'bus_stop', lat: THAMEL.lat, lon: THAMEL.lon, radius: 5, limit: 10, sortBy: true };
  const answers = (index: PlaceIndex) => ({
    size: index.size,
    nearby: nearby(index, Q).map((p) => p.placeId),
    search: search(index, { q: 'thamel chowk', limit: 5 }).map((p) => p.placeId),
    stats: index.stats,
    license: index.license,
  });

  it('a PBF and a snapshot of it answer as loadPbf does', async () => {
    const direct = await loadPbf(TRANSIT, { contract: 'always' });
    const snap = join(dir, 'transit.places');
    await writeFile(snap, buildSnapshot(direct));
    expect(answers(await loadOffThread('t', TRANSIT, { strict: false, contract: 'always' }))).toEqual(answers(direct));
    expect(answers(await loadOffThread('t', snap, { strict: false }))).toEqual(answers(direct));
  }, 60_000);

  it('the index comes warmed: its search prepared before it is handed back (no request pays for it)', async () => {
    const index = await loadOffThread('t', TRANSIT, { strict: false });
    // what the first searches would build otherwise: a query's scratch, the typos' tree, the phonetic keys
    const words = index.words as unknown as { free: unknown[]; dict?: { back: Uint32Array }; byKey?: { pos: Uint32Array } };
    expect(words.free).toHaveLength(1);
    // the typos' order: every word, read backwards
    expect(words.dict?.back.length).toBe(index.words.size);
    expect(words.byKey?.pos.length).toBe(index.words.size);
  }, 60_000);

  it('a pipe and a device are refused by what they are, before any read', async () => {
    const fifo = join(dir, 'pipe.places');
    execFileSync('mkfifo', [fifo]);
    await expect(loadOffThread('t', fifo, { strict: false })).rejects.toMatchObject({
      name: 'PbfError',
      code: 'ENOTREG',
      message: `${fifo}: is a named pipe, not a regular file: only regular files are read`,
    });
    await expect(loadOffThread('t', '/dev/zero', { strict: false })).rejects.toThrow(
      /^\/dev\/zero: is a character device, not a regular file/,
    );
    await expect(loadOffThread('t', dir, { strict: false })).rejects.toThrow(/is a directory/);
    await expect(loadOffThread('t', join(dir, 'none'), { strict: false })).rejects.toThrow(/none: no such file/);
  }, 60_000);

  it('a snapshot longer than its header says is refused; a damaged one keeps its SnapshotError', async () => {
    const bytes = buildSnapshot(await loadPbf(TRANSIT));
    const long = join(dir, 'long.places');
    await writeFile(long, Buffer.concat([bytes, Buffer.alloc(1000)]));
    const err = await loadOffThread('t', long, { strict: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SnapshotError);
    expect((err as SnapshotError).problem).toBe('corrupted');
    expect((err as Error).message).toMatch(/1000 bytes past its end/);
    const cut = join(dir, 'cut.places');
    await writeFile(cut, bytes.subarray(0, bytes.length - 10));
    await expect(loadOffThread('t', cut, { strict: false })).rejects.toMatchObject({
      name: 'SnapshotError',
      problem: 'truncated',
      file: cut,
    });
  }, 60_000);

  it('an aborted signal stops the load at once with its reason', async () => {
    const control = new AbortController();
    const p = loadOffThread('t', CORE_PBF, { strict: false, contract: 'always', signal: control.signal });
    setTimeout(() => control.abort(new Error('stop')), 50);
    const t0 = Date.now();
    await expect(p).rejects.toThrow('stop');
    expect(Date.now() - t0).toBeLessThan(10_000);
  }, 60_000);
});

describe('only regular files are read: the PBF loader and the query commands refuse pipes and devices', () => {
  let dir: string;
  let fifo: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'np-regular-'));
    fifo = join(dir, 'pipe.osm.pbf');
    execFileSync('mkfifo', [fifo]);
  });
  afterAll(async () => {
    // a reader stuck on the pipe (were it not refused) would be let go here
    const w = await open(fifo, 'r+').catch(() => undefined);
    await w?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('loadPbf of /dev/zero or a named pipe rejects with PbfError naming the file', async () => {
    const zero = await loadPbf('/dev/zero').catch((e: unknown) => e);
    expect(zero).toBeInstanceOf(PbfError);
    expect(zero).toMatchObject({
      code: 'ENOTREG',
      message: '/dev/zero: is a character device, not a regular file: only regular files are read',
    });
    await expect(loadPbf(fifo)).rejects.toMatchObject({ name: 'PbfError', code: 'ENOTREG', file: fifo });
  }, 20_000);

  it('nepal-places search --data PIPE exits 1 saying what the file is', async () => {
    const run = await cli('search', 'thamel', '--data', fifo);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`nepal-places search: ${fifo}: is a named pipe, not a regular file: only regular files are read\n`);
  }, 30_000);
});

describe('createApp over a Reloadable index: each request answers from the index current when it arrived', () => {
  const key = token('r');
  let core: PlaceIndex;
  let transit: PlaceIndex;
  beforeAll(async () => {
    [core, transit] = await Promise.all([coreIndex(), loadPbf(TRANSIT)]);
  });

  const Q = { type: 'bus_stop', lat: THAMEL.lat, lon: THAMEL.lon, radius: 5, limit: 10, sortBy: true };
  const ids = (index: PlaceIndex) => nearby(index, Q).map((p) => p.placeId);
  const path = `/api/v1/search/nearby?type=bus_stop&lat=${THAMEL.lat}&lon=${THAMEL.lon}&radius=5&limit=10&sortBy=true&key=${key.key}`;

  let server: TestServer | undefined;
  afterAll(() => server?.close());

  it('in flight on the old index, new requests on the new one, a bad load keeps the new one', async () => {
    // the two data sets answer this query differently, so the answer tells which one served it
    expect(ids(core).length).toBeGreaterThan(0);
    expect(ids(transit).length).toBeGreaterThan(0);
    expect(ids(transit)).not.toEqual(ids(core));

    let load: () => Promise<PlaceIndex> = async () => transit;
    const data = new Reloadable(core, () => load());
    const hold = gate();
    let held = 0;
    server = await startServer({
      index: data,
      tokens: [key],
      // the first search waits at the gate, on whatever index its request was given
      nearby: async (index: PlaceIndex, q: NearbyQuery) => {
        if (held++ === 0) await hold.shut;
        return nearby(index, q);
      },
    });

    const inFlight = server.request(path);
    while (held === 0) await new Promise((r) => setTimeout(r, 5));
    expect((await data.reload()).ok).toBe(true);

    const after = await server.request(path);
    expect(after.status).toBe(200);
    expect(after.body.data.map((p: { placeId: number }) => p.placeId)).toEqual(ids(transit));

    hold.open();
    const old = await inFlight;
    expect(old.status).toBe(200);
    expect(old.body.data.map((p: { placeId: number }) => p.placeId)).toEqual(ids(core));

    load = () => Promise.reject(new Error('truncated'));
    expect((await data.reload()).ok).toBe(false);
    const still = await server.request(path);
    expect(still.body.data.map((p: { placeId: number }) => p.placeId)).toEqual(ids(transit));
  });
});
