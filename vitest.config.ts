// Unit tests sit beside the code (`*.test.ts`); integration tests use real git, SQLite and agent
// processes (`*.int.test.ts`) and get longer time limits.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'e2e/**/*.spec.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: agent processes and git do the heavy lifting, so keep test files from fighting over them.
    maxWorkers: 2,
    reporters: ['default', './vitest.summary-reporter.ts'],
  },
});
