/**
 * `lang` over HTTP: a parameter on every endpoint that answers names, `Accept-Language` as the
 * fallback, today's answers without either, and an unknown `lang` a 400 naming it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nearby, place, reverse, route, search, type PlaceIndex } from '../src/index.js';
import { openApiDocument } from '../src/http/openapi.js';
import { preferredLang } from '../src/http/params.js';
import { coreIndex, THAMEL, token } from './support/http-fixture.js';
import { startServer, type TestServer } from './support/http-server.js';
import { ResponseValidator } from './support/http-schema.js';

const open = token('l');
const now = Date.parse('2026-11-21T06:15:00Z'); // 12:00 NPT
const at = new Date(now);
const validator = new ResponseValidator(openApiDocument());
let index: PlaceIndex;
let server: TestServer;

/** Thamel Chowk, a node. */
const CHOWK = 5599095623 * 4;
const POINTS = 'points[]=27.7154,85.3123&points[]=27.7062,85.3152&instructions=true';

beforeAll(async () => {
  index = await coreIndex();
  server = await startServer({ index, tokens: [open], now: () => now });
});
afterAll(() => server?.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  server.request(`/api/v1${path}${path.includes('?') ? '&' : '?'}key=${open.key}`, { headers });
const json = <T>(v: T): T => JSON.parse(JSON.stringify(v));

// every endpoint that answers names, its query, and the library's answer in a language (undefined: none)
const ENDPOINTS: [string, string, (lang?: 'en' | 'ne') => unknown][] = [
  [
    '/search/nearby',
    `type=restaurant&lat=${THAMEL.lat}&lon=${THAMEL.lon}&limit=20`,
    (lang) => nearby(index, { type: 'restaurant', ...THAMEL, limit: 20, at, lang }),
  ],
  ['/search', 'q=thamel', (lang) => search(index, { q: 'thamel', lang })],
  ['/reverse', `lat=${THAMEL.lat}&lon=${THAMEL.lon}&limit=5`, (lang) => reverse(index, { ...THAMEL, limit: 5, at, lang })],
  ['/places', `placeId=${CHOWK}`, (lang) => [place(index, CHOWK, { at, lang })]],
  ['/directions', POINTS, (lang) => route(index, { points: ['27.7154,85.3123', '27.7062,85.3152'], instructions: true, lang })],
];

describe('lang=en|ne: the library answer in that language, on every endpoint that answers names', () => {
  it.each(ENDPOINTS)('%s', async (path, query, answer) => {
    for (const lang of ['en', 'ne'] as const) {
      const r = await get(`${path}?${query}&lang=${lang}`);
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual(json(answer(lang)));
      expect(validator.errors(path, 'get', 200, r.body)).toEqual([]);
      expect(r.headers.get('vary') ?? '').toMatch(/Accept-Language/i);
      expect(r.headers.get('vary') ?? '').toMatch(/Origin/i);
    }
    // a browser's request (CORS through Hono) too
    const cors = await get(`${path}?${query}&lang=ne`, { Origin: 'https://maps.example.com' });
    expect(cors.status).toBe(200);
    expect(cors.headers.get('vary') ?? '').toMatch(/Accept-Language/i);
    expect(cors.headers.get('vary') ?? '').toMatch(/Origin/i);
    // the two languages differ somewhere in Kathmandu's names
    const [en, ne] = [json(answer('en')), json(answer('ne'))];
    expect(JSON.stringify(ne)).not.toBe(JSON.stringify(en));
    expect(JSON.stringify(ne)).toMatch(/[\u0900-\u097f]/);
  });
});

describe('Accept-Language is the fallback; lang wins over it; without either, the names as mapped', () => {
  it.each(ENDPOINTS)('%s', async (path, query, answer) => {
    const ne = await get(`${path}?${query}`, { 'Accept-Language': 'ne-NP,ne;q=0.9,en-US;q=0.8,en;q=0.7' });
    expect(ne.body.data).toEqual(json(answer('ne')));
    const en = await get(`${path}?${query}`, { 'Accept-Language': 'fr-FR, en;q=0.5, ne;q=0.2' });
    expect(en.body.data).toEqual(json(answer('en')));
    const wins = await get(`${path}?${query}&lang=en`, { 'Accept-Language': 'ne' });
    expect(wins.body.data).toEqual(json(answer('en')));
    for (const headers of [{}, { 'Accept-Language': 'fr, de;q=0.5, *;q=0.1' }] as Record<string, string>[]) {
      const plain = await get(`${path}?${query}`, headers);
      expect(plain.body.data).toEqual(json(answer()));
    }
  });

  it('reads weights as RFC 9110 says: the heaviest of en and ne, never q=0, the first on a tie', () => {
    expect(preferredLang('ne-NP,en;q=0.9')).toBe('ne');
    expect(preferredLang('en-GB,en;q=0.9,ne;q=0.8')).toBe('en');
    expect(preferredLang('fr;q=1, ne;q=0.4, en;q=0.6')).toBe('en');
    expect(preferredLang('ne;q=0, en;q=0.1')).toBe('en');
    expect(preferredLang('ne;q=0')).toBeUndefined();
    expect(preferredLang('en, ne')).toBe('en');
    expect(preferredLang('NE')).toBe('ne');
    expect(preferredLang('*')).toBeUndefined();
    expect(preferredLang('')).toBeUndefined();
    expect(preferredLang(undefined)).toBeUndefined();
    expect(preferredLang('nepali, english')).toBeUndefined();
  });
});

describe('an unknown lang is a 400 naming lang, on every endpoint that takes it', () => {
  it.each(ENDPOINTS)('%s', async (path, query) => {
    for (const bad of ['fr', 'NE', 'en-US', '']) {
      const r = await get(`${path}?${query}&lang=${encodeURIComponent(bad)}`);
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/^lang: must be en or ne/);
      expect(validator.errors(path, 'get', 400, r.body)).toEqual([]);
    }
  });

  it('the OpenAPI document lists lang on each of them', () => {
    const doc = openApiDocument() as { paths: Record<string, { get: { parameters: { name: string; schema: { enum?: string[] } }[] } }> };
    for (const [path] of ENDPOINTS) {
      const p = doc.paths[`/api/v1${path}`] ?? doc.paths[path];
      const lang = p.get.parameters.find((x) => x.name === 'lang');
      expect(lang?.schema.enum, path).toEqual(['en', 'ne']);
    }
  });
});
