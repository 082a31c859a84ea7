// Unit tests sit beside the code (`*.test.ts`); integration tests use real git, SQLite and agent
// processes (`*.int.test.ts`) and get longer time limits.
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'build/**/*.test.ts', 'scripts/**/*.test.ts', 'e2e/**/*.spec.ts'],
    // Real vendor agents against stand-in models (e2e/agents/*.spec.ts) run here, skipping where `npm run
    // agents:install` has not installed them; their offline behaviour: `npm run test:agents`
    // (vitest.agents.config.ts); the Docker and cluster runners: `npm run test:runners` (vitest.runners.config.ts).
    exclude: [...configDefaults.exclude, 'e2e/agents/offline/**', 'e2e/runners/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: agent processes and git do the heavy lifting, so keep test files from fighting over them.
    maxWorkers: 2,
    reporters: ['default', './vitest.summary-reporter.ts'],
  },
});
