import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nearby, type NearbyPlace, type PlaceIndex } from '../src/index.js';
import { nptTimestamp } from '../src/http/timestamp.js';
import { openApiDocument, TIMESTAMP_PATTERN } from '../src/http/openapi.js';
import { coreIndex, THAMEL, token } from './support/http-fixture.js';
import { startServer, type TestServer } from './support/http-server.js';
import { ResponseValidator } from './support/http-schema.js';

const run = promisify(execFile);

describe('timestamp: Nepal Time written like Java Date.toString()', () => {
  // Hand-checked: NPT is UTC+05:45; 2026-11-21 is a Saturday.
  const cases: [string, string][] = [
    ['2026-11-21T16:05:03Z', 'Sat Nov 21 21:50:03 NPT 2026'],
    ['2026-10-31T18:15:00Z', 'Sun Nov 01 00:00:00 NPT 2026'], // two-digit day, crosses midnight
    ['2026-12-31T18:14:59Z', 'Thu Dec 31 23:59:59 NPT 2026'],
    ['2026-12-31T18:15:00Z', 'Fri Jan 01 00:00:00 NPT 2027'], // crosses the year
    ['2028-02-29T00:00:00Z', 'Tue Feb 29 05:45:00 NPT 2028'], // leap day
    ['1970-01-01T00:00:00Z', 'Thu Jan 01 05:45:00 NPT 1970'],
    ['2026-11-21T16:05:03.999Z', 'Sat Nov 21 21:50:03 NPT 2026'], // milliseconds are dropped, not rounded
  ];
  it.each(cases)('%s is %s', (iso, expected) => {
    expect(nptTimestamp(Date.parse(iso))).toBe(expected);
  });

  it('agrees with ICU time-zone data for Asia/Kathmandu (UTC+05:45 since 1986)', () => {
    const icu = new Intl.DateTimeFormat('en-US', {
      timeZone: 'Asia/Kathmandu',
      weekday: 'short',
      month: 'short',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      year: 'numeric',
      hourCycle: 'h23',
    });
    const min = Date.parse('1986-01-01T00:00:00Z');
    const max = Date.parse('2100-01-01T00:00:00Z');
    fc.assert(
      fc.property(fc.integer({ min, max }), (ms) => {
        const p = Object.fromEntries(icu.formatToParts(ms).map((x) => [x.type, x.value]));
        expect(nptTimestamp(ms)).toBe(`${p.weekday} ${p.month} ${p.day} ${p.hour}:${p.minute}:${p.second} NPT ${p.year}`);
      }),
      { numRuns: 500 },
    );
  });

  it('matches the pattern the OpenAPI document gives', () => {
    const re = new RegExp(TIMESTAMP_PATTERN);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.parse('9999-01-01') }), (ms) => re.test(nptTimestamp(ms))),
      { numRuns: 300 },
    );
  });

  it('is the same whatever the host time zone (TZ) is', async () => {
    const at = Date.parse('2026-10-31T18:15:00Z');
    const child = new URL('./support/http-tz-child.ts', import.meta.url).pathname;
    const seen = await Promise.all(
      ['America/Los_Angeles', 'Asia/Kathmandu', 'Pacific/Kiritimati'].map(async (tz) => {
        const { stdout } = await run(process.execPath, ['--import', 'tsx', child, String(at)], { env: { ...process.env, TZ: tz } });
        return JSON.parse(stdout) as { app: string; direct: string; local: string };
      }),
    );
    // The hosts really did differ: their local rendering of the instant is not the same.
    expect(new Set(seen.map((s) => s.local)).size).toBe(3);
    for (const s of seen) {
      expect(s.app).toBe('Sun Nov 01 00:00:00 NPT 2026');
      expect(s.direct).toBe('Sun Nov 01 00:00:00 NPT 2026');
    }
  });
});

describe('envelope: {timestamp, status, message, data} on every response', () => {
  let index: PlaceIndex;
  let server: TestServer;
  let failing: TestServer;
  const key = token('e');
  const at = Date.parse('2026-11-21T16:05:03Z');
  const validator = new ResponseValidator(openApiDocument());

  beforeAll(async () => {
    index = await coreIndex();
    server = await startServer({ index, tokens: [key], now: () => at });
    failing = await startServer({
      index,
      tokens: [key],
      nearby: () => {
        throw new Error('boom');
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await failing?.close();
  });

  const search = `/api/v1/search/nearby?type=cafe&lat=${THAMEL.lat}&lon=${THAMEL.lon}&key=${key.key}`;
  const cases: [string, string, RequestInit | undefined, number][] = [
    ['200', search, undefined, 200],
    ['400', `${search}&limit=0`, undefined, 400],
    ['401', '/api/v1/search/nearby?type=cafe&lat=1&lon=1', undefined, 401],
    ['404', '/api/v1/search/far', undefined, 404],
    ['405', search, { method: 'DELETE' }, 405],
  ];
  it.each(cases)('%s', async (_, path, init, status) => {
    const r = await server.request(path, init);
    expect(r.status).toBe(status);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(r.body)).toEqual(['timestamp', 'status', 'message', 'data']);
    expect(r.body.timestamp).toBe('Sat Nov 21 21:50:03 NPT 2026');
    expect(r.body.status).toBe(status);
    expect(Array.isArray(r.body.data)).toBe(true);
    if (status === 200) {
      expect(r.body.message).toBe('Success');
      expect(r.body.data.length).toBeGreaterThan(0);
    } else {
      expect(r.body.message).not.toBe('Success');
      expect(r.body.data).toEqual([]);
    }
  });

  it('500: "Internal server error", no stack, the fault logged with the request id', async () => {
    const r = await failing.request(search);
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({ status: 500, message: 'Internal server error', data: [] });
    expect(r.text).not.toContain('boom');
    expect(r.text).not.toMatch(/at .*\.ts/);
    const rid = r.headers.get('x-request-id')!;
    expect(rid).toBeTruthy();
    const error = failing.lines.find((l) => l.startsWith(`${rid} error:`));
    expect(error).toContain('Error: boom');
    expect(failing.lines.some((l) => l.includes(` ${rid} GET /api/v1/search/nearby`) && l.includes(' 500 '))).toBe(true);
    expect(validator.errors('/search/nearby', 'get', 500, r.body)).toEqual([]);
  });

  describe('a score that is not a number is the string "NaN"', () => {
    let nan: TestServer;
    let real: NearbyPlace[];
    beforeAll(async () => {
      real = nearby(index, { type: 'cafe', ...THAMEL, limit: 2 });
      nan = await startServer({ index, tokens: [key], nearby: () => real.map((p, i) => (i === 0 ? { ...p, score: NaN } : p)) });
    });
    afterAll(() => nan?.close());

    it('is written "NaN", never null, and other scores stay numbers', async () => {
      const r = await nan.request(search);
      expect(r.status).toBe(200);
      expect(r.text).toContain('"score":"NaN"');
      expect(r.text).not.toContain('"score":null');
      expect(r.body.data[0].score).toBe('NaN');
      expect(r.body.data[1].score).toBe(real[1]!.score);
      expect(validator.errors('/search/nearby', 'get', 200, r.body)).toEqual([]);
    });
  });
});
