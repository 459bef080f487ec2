import { readdirSync, readFileSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';

// `npm run test:unit` (NP_UNIT=1) leaves out the suites that start Redis or drive Chromium, told
// by what they import, for quick work on a machine without them; `npm test` and CI run them all.
const NEEDS_SERVICES = /support\/http-redis|playwright-core|support\/browser/;
const integration = process.env.NP_UNIT
  ? readdirSync('test')
      .filter((f) => f.endsWith('.test.ts') && NEEDS_SERVICES.test(readFileSync(`test/${f}`, 'utf8')))
      .map((f) => `test/${f}`)
  : [];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...integration],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
