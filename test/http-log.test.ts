import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logPath } from '../src/http/access-log.js';
import { coreIndex, THAMEL, token } from './support/http-fixture.js';
import { startServer, type TestServer } from './support/http-server.js';

const key = token('w');
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ index: await coreIndex(), tokens: [key] });
});
afterAll(() => server?.close());

const LINE = /^(\S+Z) (\S+) ([A-Z]+) (\S+) (\d{3}) (\d+\.\d)ms key=(\S+)$/;

describe('access log: one line per request, never the key', () => {
  it('writes method, path without the key, status and duration, once per request', async () => {
    const before = server.lines.length;
    const paths = [
      `/api/v1/search/nearby?type=cafe&lat=${THAMEL.lat}&lon=${THAMEL.lon}&key=${key.key}&limit=2`,
      `/api/v1/search/nearby?key=${key.key}&type=cafe&lat=x&lon=1`,
      `/api/v1/search/nearby?type=cafe&%6Bey=${key.key}&lat=1&lon=1`, // an encoded name is still `key`
      `/api/v1/search/nearby?type=cafe&k%65y=${key.key.slice(0, 20)}`,
      '/nowhere',
    ];
    const statuses = [];
    for (const p of paths) statuses.push((await server.request(p)).status);
    expect(statuses).toEqual([200, 400, 200, 401, 404]);
    const lines = server.lines.slice(before);
    expect(lines.length).toBe(paths.length);
    const parsed = lines.map((l) => LINE.exec(l));
    expect(parsed.every(Boolean)).toBe(true);
    expect(parsed.map((m) => m![3])).toEqual(['GET', 'GET', 'GET', 'GET', 'GET']);
    expect(parsed.map((m) => Number(m![5]))).toEqual(statuses);
    expect(parsed.map((m) => m![4])).toEqual([
      `/api/v1/search/nearby?type=cafe&lat=${THAMEL.lat}&lon=${THAMEL.lon}&limit=2`,
      '/api/v1/search/nearby?type=cafe&lat=x&lon=1',
      '/api/v1/search/nearby?type=cafe&lat=1&lon=1',
      '/api/v1/search/nearby?type=cafe',
      '/nowhere',
    ]);
    for (const l of lines) expect(l).not.toContain(key.key.slice(0, 12));
    // the requests with a good key name it by its hint; the others by '-'
    expect(parsed.map((m) => m![7] === '-')).toEqual([false, false, false, true, true]);
  });

  it('cuts very long paths', () => {
    const p = logPath(`http://h/api/v1/search/nearby?type=${'x'.repeat(10_000)}`);
    expect(p.length).toBeLessThanOrEqual(301);
    expect(p.endsWith('…')).toBe(true);
  });
});
