// `npm run test:runners`: tasks on the docker runner against a Docker daemon the run starts itself (e2e/runners/
// docker-daemon.ts). Kept out of the main run: the first run builds an image, and containers on vfs are slow.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['e2e/runners/**/*.spec.ts'],
    globalSetup: ['e2e/runners/docker-daemon.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Every spec talks to the same daemon; one file at a time keeps container counts per test exact.
    maxWorkers: 1,
    fileParallelism: false,
    reporters: ['default', './vitest.summary-reporter.ts'],
  },
});
