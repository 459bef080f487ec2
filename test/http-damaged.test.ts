/**
 * A server answering from a snapshot opened with `fromSnapshot`, whose parts are read on first
 * use: a section damaged after the open is found by the request that reads it, which answers a
 * 503 envelope saying the server's data is damaged (no file path, no stack), the log line carrying
 * the whole error; requests that do not read that section answer as before.
 */
import { describe, expect, it } from 'vitest';
import { buildSnapshot, fromSnapshot, SnapshotError } from '../src/index.js';
import { createApp } from '../src/http/index.js';
import { section } from './support/crafted.js';
import { coreIndex, THAMEL, token } from './support/http-fixture.js';

const key = token('d');

async function damagedApp(name: string) {
  const b = buildSnapshot(await coreIndex()).slice();
  const index = fromSnapshot(b, '/srv/data/nepal.places');
  const s = section(b, name);
  b[s.at + (s.bytes >> 1)] ^= 0x10;
  const lines: string[] = [];
  const app = createApp({ index, tokens: [key], log: (line) => lines.push(line) });
  const get = async (path: string) => {
    const res = await app.request(`/api/v1${path}${path.includes('?') ? '&' : '?'}key=${key.key}`);
    return { status: res.status, body: (await res.json()) as { status: number; message: string; data: unknown[] } };
  };
  return { get, lines };
}

describe('a damaged section read by a request is a 503 that names no file, logged whole', () => {
  it('reverse over damaged landmarks: 503, twice; nearby, which does not read them, answers 200', async () => {
    const { get, lines } = await damagedApp('landmarkIds');
    for (const time of ['first', 'again']) {
      const res = await get(`/reverse?lat=${THAMEL.lat}&lon=${THAMEL.lon}`);
      expect(res.status, time).toBe(503);
      expect(res.body.status).toBe(503);
      expect(res.body.message).toMatch(/^Service unavailable: the server's data is damaged/);
      expect(res.body.message).not.toContain('/srv/data');
      expect(res.body.data).toEqual([]);
    }
    expect(
      lines.filter((l) => l.includes('checksum mismatch in section landmarkIds') && l.includes('/srv/data/nepal.places')),
    ).toHaveLength(2);
    const ok = await get(`/search/nearby?type=eat&lat=${THAMEL.lat}&lon=${THAMEL.lon}&radius=1&limit=3`);
    expect(ok.status).toBe(200);
    expect(ok.body.data.length).toBeGreaterThan(0);
  });

  it('the sections createApp prepares (the text index, the road graph) are refused when the app is made', async () => {
    for (const name of ['postingDoc', 'edgeCoords']) {
      const b = buildSnapshot(await coreIndex()).slice();
      const index = fromSnapshot(b, 'damaged.places');
      const s = section(b, name);
      b[s.at + (s.bytes >> 1)] ^= 0x10;
      expect(() => createApp({ index, tokens: [key], log: () => {} }), name).toThrow(SnapshotError);
    }
  });
});
