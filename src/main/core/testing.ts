// The core's door for tests and benchmarks: a whole desk in a temp dir and git fixtures. It imports vitest,
// so only tests and bench/ may use it (lint-enforced); the app's hosts use ./index.ts.
export { destroyDesk, makeRepo, scriptedAgent, startDesk, TEST_TOKEN, type Desk } from './test-support/desk-harness';
export { isolateGitConfig } from './git/git-test-fixture';
