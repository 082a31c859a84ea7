// `npm run test:agents`: the desk against real ACP agents installed from npm (see e2e/agents/real-agents.ts).
// Kept out of the main run because its first run installs several hundred MB and its tasks wait on agents' retries.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['e2e/agents/**/*.spec.ts'],
    globalSetup: ['e2e/agents/install-agents.ts'],
    testTimeout: 240_000,
    hookTimeout: 60_000,
    // The agents are big programs; two at once is what a 2-core machine can take.
    maxWorkers: 2,
    reporters: ['default', './vitest.summary-reporter.ts'],
  },
});
