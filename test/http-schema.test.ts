/**
 * One description of each route's parameters (src/http/schema.ts): the OpenAPI document, the
 * server's 400s and the engine's own defaults all say the same bounds and defaults.
 */
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/http/openapi.js';
import { parseNearbyParams, parseReverseParams, parseSearchParams } from '../src/http/params.js';
import { HttpError } from '../src/http/http-error.js';
import { checkQuery } from '../src/query/validate.js';
import { checkSearch } from '../src/query/search.js';
import { checkReverse } from '../src/query/reverse.js';

const limits = { maxLimit: 37, maxRadius: 23 };
const doc = openApiDocument({ ...limits }) as { paths: Record<string, any>; components: { schemas: Record<string, any> } };
/** The parameter `name` of `GET path` in the document. */
const param = (path: string, name: string) => doc.paths[path].get.parameters.find((p: { name: string }) => p.name === name);

/** The 400 message of a parse, or undefined when it parses. */
function refusal(parse: (s: URLSearchParams) => unknown, q: string): string | undefined {
  try {
    parse(new URLSearchParams(q));
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    return (err as HttpError).message;
  }
}

const routes = [
  {
    name: 'nearby',
    parse: (s: URLSearchParams) => parseNearbyParams(s, limits),
    base: 'type=cafe&lat=27.7&lon=85.3',
    path: '/search/nearby',
  },
  { name: 'search', parse: (s: URLSearchParams) => parseSearchParams(s, limits), base: 'q=cafe&lat=27.7&lon=85.3', path: '/search' },
  { name: 'reverse', parse: (s: URLSearchParams) => parseReverseParams(s, limits), base: 'lat=27.7&lon=85.3', path: '/reverse' },
];

describe('the document states the bounds the server enforces', () => {
  for (const { name, parse, base, path } of routes) {
    it.each(['limit', 'radius'])(`${name}: %s is accepted up to the document's maximum, refused past it`, (p) => {
      const { maximum } = param(path, p).schema;
      expect(maximum).toBe(p === 'limit' ? limits.maxLimit : limits.maxRadius);
      expect(refusal(parse, `${base}&${p}=${maximum}`)).toBeUndefined();
      expect(refusal(parse, `${base}&${p}=${maximum + 1}`)).toMatch(new RegExp(`^${p}: must be .*${maximum}`));
    });
    it(`${name}: lat and lon take the document's ranges and no more`, () => {
      for (const p of ['lat', 'lon']) {
        const { minimum, maximum } = param(path, p).schema;
        const other = base.replace(new RegExp(`${p}=[^&]*`), '');
        for (const ok of [minimum, maximum]) expect(refusal(parse, `${other}&${p}=${ok}`)).toBeUndefined();
        for (const no of [minimum - 0.001, maximum + 0.001])
          expect(refusal(parse, `${other}&${p}=${no}`)).toMatch(new RegExp(`^${p}: must be a number from ${minimum} to ${maximum}`));
      }
    });
  }
});

describe("the document's defaults are the engine's", () => {
  it('nearby: radius and limit', () => {
    const checked = checkQuery({ type: 'cafe', lat: 27.7, lon: 85.3 });
    expect(param('/search/nearby', 'radius').schema.default).toBe(checked.radius);
    expect(param('/search/nearby', 'limit').schema.default).toBe(checked.limit);
  });
  it('search: limit', () => {
    expect(param('/search', 'limit').schema.default).toBe(checkSearch({ q: 'cafe' }).limit);
    expect(parseSearchParams(new URLSearchParams('q=cafe'), limits).limit).toBe(param('/search', 'limit').schema.default);
  });
  it('reverse: radius and limit', () => {
    const checked = checkReverse({ lat: 27.7, lon: 85.3 });
    expect(param('/reverse', 'limit').schema.default).toBe(checked.limit);
    expect(param('/reverse', 'radius').schema.default).toBe(checked.radius);
  });
});

describe('the record schemas agree with each other', () => {
  it('a field shared by NearbyPlace, Place and ReversePlace is described alike (but the type that matched, and the score)', () => {
    const { NearbyPlace, Place, ReversePlace } = doc.components.schemas;
    for (const field of Object.keys(Place.properties)) {
      if (field === 'type' || field === 'score') continue;
      expect(NearbyPlace.properties[field], field).toEqual(Place.properties[field]);
      expect(ReversePlace.properties[field], field).toEqual(Place.properties[field]);
    }
  });
});
