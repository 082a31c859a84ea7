// `npm run test:agents`: real ACP agents installed from npm (see e2e/agents/real-agents.ts), offline and without credentials.
// Kept out of the main run because their tasks wait on the agents' own retries of a service they cannot reach.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['e2e/agents/offline/**/*.spec.ts'],
    globalSetup: ['e2e/agents/install-agents.ts'],
    testTimeout: 240_000,
    hookTimeout: 60_000,
    // The agents are big programs; two at once is what a 2-core machine can take.
    maxWorkers: 2,
    reporters: ['default', './vitest.summary-reporter.ts'],
  },
});
