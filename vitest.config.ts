import { defineConfig } from 'vitest/config';

const timeouts = { testTimeout: 120_000, hookTimeout: 120_000 };

export default defineConfig({
  test: {
    // Runs once for both projects (a project that `extends` the root would run it again).
    globalSetup: ['__tests__/global-setup.ts'],
    // End-to-end tests drive the real `claude` binary (~1.4 s CPU per run); two cores, so two files at a time.
    maxWorkers: 2,
    projects: [
      {
        // A fresh module graph per file costs ~1 s of CPU each; the files that are not end-to-end
        // share one per worker. They passed together in shuffled order (`--sequence.shuffle.files`).
        test: {
          ...timeouts,
          name: 'unit',
          include: ['__tests__/**/*.test.ts'],
          exclude: ['__tests__/**/*.e2e.test.ts'],
          isolate: false,
        },
      },
      { test: { ...timeouts, name: 'e2e', include: ['__tests__/**/*.e2e.test.ts'] } },
    ],
  },
});
