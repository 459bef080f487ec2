/**
 * Profiles for the reference tests of test/support/roads-raw.ts, which write again the riding
 * and driving rules by class speed: the shipped profiles without built-up speeds (the class
 * speed capped by `maxspeed` and the national rural limit everywhere) and with bikes never
 * pushed. Built-up speeds and pushed bikes have tests of their own (test/route-profiles.test.ts).
 */
import { DEFAULT_PROFILES } from '../../src/osm/default-profiles.js';

/** The shipped profiles, class speeds only, bikes ridden only. */
export const REFERENCE_PROFILES = {
  ...DEFAULT_PROFILES,
  bike: { ...DEFAULT_PROFILES.bike, push: false },
  car: { ...DEFAULT_PROFILES.car, builtUpSpeeds: {}, limits: { ...DEFAULT_PROFILES.car.limits, builtUp: null } },
};
