import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoTime, logPath, logTarget } from '../src/http/access-log.js';
import { queryOf, type Search } from '../src/http/query.js';
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

// A key with no 'key' in it, so that a logged 'key=' can only come from the query's names.
const SECRET = 'Zq7WmX3pL9vT2nR8bY4cF6hJ';
const encoded = (s: string) => [...s].map((ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`).join('');

describe('access log: a key is redacted wherever the app would read one', () => {
  it('??key=, k%65y=, repeated and odd queries: the app reads the key, the log does not show it', async () => {
    const s = await startServer({ index: await coreIndex(), tokens: [token('x', { key: SECRET })] });
    try {
      const base = `/api/v1/search/nearby`;
      const cases: [string, number][] = [
        [`${base}??key=${SECRET}&type=cafe&lat=${THAMEL.lat}&lon=${THAMEL.lon}`, 200], // the request
        [`${base}?k%65y=${SECRET}&type=cafe&lat=1&lon=1`, 200],
        [`${base}?%6b%65%79=${encoded(SECRET)}&type=cafe&lat=1&lon=1`, 200],
        [`${base}?key=${SECRET}&type=cafe&lat=1&lon=1&key=${SECRET}`, 401], // repeated: refused, still redacted
        [`${base}?&&key=${SECRET}&&type=cafe&lat=1&lon=1`, 200],
        [`${base}?type=cafe;key=${SECRET}&lat=1&lon=1`, 401], // not read as a key, but one all the same
        // names that look like the key's but are not read as it (401: no key), logged as written before
        [`${base}?type=cafe&key[]=${SECRET}&lat=1&lon=1`, 401],
        [`${base}?type=cafe&key%20=${SECRET}&lat=1&lon=1`, 401],
        [`${base}?type=cafe&key%00=${SECRET}&lat=1&lon=1`, 401],
        [`${base}?type=cafe&key%5B%5D=${encoded(SECRET)}&lat=1&lon=1`, 401],
        [`${base}?type=cafe&api_key=${SECRET}&lat=1&lon=1`, 401],
      ];
      for (const [path, status] of cases) expect([path, (await s.request(path)).status]).toEqual([path, status]);
      expect(s.lines.length).toBe(cases.length);
      for (const line of s.lines) {
        expect(line).not.toContain(SECRET);
        expect(line).not.toContain(encoded(SECRET));
        expect(line).toMatch(/ \/api\/v1\/search\/nearby\?\S* (200|401) /);
      }
      expect(s.lines[0]).toContain(`?type=cafe&lat=${THAMEL.lat}&lon=${THAMEL.lon} 200 `);
      for (const line of s.lines.slice(-5)) expect(line).toContain('?type=cafe&lat=1&lon=1 401 ');
    } finally {
      await s.close();
    }
  });

  // Queries glued from odd pieces: the logged query, read back as the app reads queries, has no
  // key and nothing of the secret, and keeps every parameter that has nothing to do with a key.
  const piece = fc.constantFrom(
    `key=${SECRET}`,
    `k%65y=${SECRET}`,
    `%6Bey=${SECRET}`,
    `%6b%65%79=${encoded(SECRET)}`,
    `key=${encoded(SECRET)}`,
    `KEY=x`,
    `ke%79=${SECRET.slice(0, 12)}%${SECRET.charCodeAt(12).toString(16)}${SECRET.slice(13)}`,
    `key[]=${SECRET}`,
    `key%20=${SECRET}`,
    `key%00=${SECRET}`,
    `KEY[0]=${SECRET}`,
    `ke%79%5B%5D=${encoded(SECRET)}`,
    '?',
    '??',
    '&',
    '&&',
    ';',
    '=',
    '==',
    '#',
    '+',
    '%',
    '%zz',
    '%2',
    '/',
    'type=cafe',
    'lat=1',
    'limit=5',
    'k',
    'ey',
    'kee=1',
    'monkey',
    'key',
    'key ',
    '%20key',
    'x=%26key',
    'a=b=c',
    ' ',
    'é',
    '%C3%A9',
    'keys=1',
    '[]',
    '%5B',
  );
  it('holds for 20,000 generated queries', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (pieces) => {
        const url = `http://127.0.0.1:8080/api/v1/search/nearby?${pieces.join('')}`;
        const logged = logPath(url);
        expect(logged.startsWith('/api/v1/search/nearby')).toBe(true);
        const read = queryOf(logged);
        expect(read.has('key')).toBe(false);
        for (const [name, value] of read) expect(`${name}=${value}`).not.toContain(SECRET);
        expect(logged).not.toContain(SECRET);
        const unrelated = (entries: Search) => [...entries].filter(([n, v]) => !/key(?![a-z])[^=]*=/i.test(`${n}=${v}`));
        expect(unrelated(read)).toEqual(unrelated(queryOf(url)));
      }),
      { numRuns: 20_000, seed: 13 },
    );
  });
});

describe('access log: the redaction, part by part as URLSearchParams reads it', () => {
  // The rule read straight from URLSearchParams, one `&`-separated part at a time (a leading `?`
  // dropped first): a part goes when its `name=value` read holds `key` in any case, not followed
  // by a letter, and then an `=`: `key=`, `KEY1=`, `key[]=`, `key =`, `a=bkey=c`, a bare `key`
  // (`key=`), not `keys=` nor `a=key`. The log's shortcut for queries without `%` or `+` must agree.
  const reference = (target: string) => {
    const q = target.indexOf('?');
    if (q < 0) return target;
    let raw = target.slice(q + 1);
    const lead = raw.startsWith('?') ? '?' : '';
    if (lead) raw = raw.slice(1);
    const kept = raw.split('&').filter((text) => {
      const entry = [...new URLSearchParams(text)][0];
      if (!entry) return true;
      const [name, value] = entry;
      return !/key(?![a-z])[^=]*=/i.test(`${name}=${value}`);
    });
    if (!lead && kept[0]?.startsWith('?')) kept.unshift('');
    return target.slice(0, q) + (kept.length ? `?${lead}${kept.join('&')}` : '');
  };
  const piece = fc.constantFrom(
    'key=s3cr3t-key-value-0123',
    'KEY=x',
    'Key',
    'monkey',
    'key',
    'keys=1',
    'turkey=',
    'a=key',
    'a=bkey=c',
    'x=y=key',
    'key[]=v',
    'key[0]=v',
    'Key.x=v',
    'key1=v',
    'keyboard=1',
    'key%20=v',
    'key%00=v',
    'key%5B%5D=v',
    'api_key=v',
    'type=cafe',
    'lat=1',
    '?',
    '??',
    '&',
    '&&',
    '=',
    '==',
    ';',
    '#',
    ' ',
    'é',
    'k',
    'ey',
    '=key',
    'key==',
    '%',
    '+',
    '%6b',
    'k%65y=1',
  );
  it('agrees with the reference for 20,000 generated targets (with and without % and +)', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.boolean(), (pieces, bare) => {
        const target = `/api/v1/search/nearby${bare && pieces.length === 0 ? '' : '?'}${pieces.join('')}`;
        const want = reference(target);
        expect(logTarget(target)).toBe(want.length > 300 ? `${want.slice(0, 300)}…` : want);
      }),
      { numRuns: 20_000, seed: 17 },
    );
  });
});

describe('access log: the time of a line', () => {
  it('is toISOString of the instant, for instants in any order, within and across seconds', () => {
    const min = Date.parse('-000100-01-01T00:00:00Z');
    const max = Date.parse('+010000-01-01T00:00:00Z');
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min, max }), fc.double({ min, max, noNaN: true }), fc.integer({ min: -2500, max: 2500 })), {
          minLength: 1,
          maxLength: 20,
        }),
        (times) => {
          for (const t of times) expect(isoTime(t)).toBe(new Date(t).toISOString());
        },
      ),
      { numRuns: 2_000 },
    );
    expect(() => isoTime(NaN)).toThrow(RangeError);
  });
});
