/**
 * The wire records of API v1 are zod schemas (src/http/records.ts) whose TypeScript types are
 * inferred; the library's public types (src/types.ts and the query modules) are written by hand.
 * They describe the same records: these checks fail to type-check (`tsc`, part of `npm test`)
 * when one side changes without the other.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { NearbyPlace, Place, ReversePlace, Suggestion } from '../src/types.js';
import type { Route } from '../src/query/route.js';
import type { TypeInfo } from '../src/query/types.js';
import type { WirePlace } from '../src/http/envelope.js';
import type { Health } from '../src/http/routes/health.js';
import type {
  HealthInfo,
  WireNearbyPlace,
  WirePlaceRecord,
  WireReversePlace,
  WireRoute,
  WireSuggestion,
  WireTypeCount,
} from '../src/http/records.js';
import type { z } from 'zod';
import type { nearbySchema, reverseSchema, searchSchema } from '../src/http/schema.js';
import type { NearbyQuery, ReverseQuery, SearchQuery } from '../src/types.js';

describe('the record schemas are the public types', () => {
  it('a place, a reverse record and a search hit are the library types', () => {
    expectTypeOf<WirePlaceRecord>().toEqualTypeOf<Place>();
    expectTypeOf<WireReversePlace>().toEqualTypeOf<ReversePlace>();
    expectTypeOf<WireSuggestion>().toEqualTypeOf<Suggestion>();
  });
  it('a nearby record is NearbyPlace as JSON carries it (a score or distance that is not finite as a string)', () => {
    // (WirePlace is an intersection: compared both ways rather than for identity)
    expectTypeOf<WireNearbyPlace>().toExtend<WirePlace>();
    expectTypeOf<WirePlace>().toExtend<WireNearbyPlace>();
    expectTypeOf<NearbyPlace>().toExtend<WireNearbyPlace>();
  });
  it('a route, a type and the health record are the library types', () => {
    expectTypeOf<WireRoute>().toEqualTypeOf<Route>();
    expectTypeOf<WireTypeCount>().toEqualTypeOf<TypeInfo>();
    expectTypeOf<HealthInfo>().toEqualTypeOf<Health>();
  });
});

describe('the parameter schemas read into the library queries', () => {
  // what a parameter schema reads is what the query takes, name for name
  type Read<S extends (...a: never[]) => z.ZodObject> = z.output<ReturnType<S>>;
  it('nearby, search and reverse', () => {
    expectTypeOf<
      Pick<Read<typeof nearbySchema>, 'type' | 'lat' | 'lon' | 'radius' | 'limit' | 'sortBy' | 'isOpen'>
    >().toExtend<NearbyQuery>();
    expectTypeOf<Pick<Read<typeof searchSchema>, 'q' | 'limit' | 'lat' | 'lon' | 'radius' | 'type'>>().toExtend<SearchQuery>();
    expectTypeOf<Pick<Read<typeof reverseSchema>, 'lat' | 'lon' | 'radius' | 'limit'>>().toExtend<ReverseQuery>();
  });
});
