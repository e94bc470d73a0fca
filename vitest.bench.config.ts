import { defineConfig } from 'vitest/config';

/**
 * Benchmarks that print figures and assert nothing timing-dependent: `npx vitest run --config
 * vitest.bench.config.ts`. Not part of `npm test` (vitest.config.ts includes only `*.test.ts`).
 */
export default defineConfig({
  test: {
    include: ['__tests__/bench/**/*.ts'],
    // One file at a time: the figures are wall times on a 2-core machine.
    maxWorkers: 1,
    testTimeout: 600_000,
    hookTimeout: 300_000,
  },
});
