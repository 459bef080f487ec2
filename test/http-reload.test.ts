/**
 * Reloading the served data: a new index is loaded beside the old one and swapped in whole;
 * requests in flight finish on the index they started with; a load that fails keeps the old one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPbf, nearby, type NearbyQuery, type PlaceIndex } from '../src/index.js';
import { Reloadable } from '../src/http/reloadable.js';
import { coreIndex, THAMEL, token } from './support/http-fixture.js';
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
    const r = new Reloadable('a', async () => 'b', { dispose: () => { throw new Error('close failed'); }, onError: (e) => errors.push(e) });
    await r.reload();
    await new Promise((res) => setTimeout(res, 5));
    expect((errors[0] as Error).message).toBe('close failed');
  });
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
