// The core's door for tests and benchmarks: a whole desk in a temp dir, git fixtures, the sandbox probe for tests.
// It imports vitest, so only tests and bench/ may use it (lint-enforced); the app's hosts use ./index.ts.
export {
  destroyDesk, makeRepo, policyAllowing, rawRequest, scriptedAgent, startDesk, TEST_TOKEN, writePolicy, type Desk, type RawResponse,
} from './test-support/desk-harness';
export { git, isolateGitConfig } from './git/git-test-fixture';
export { describeProcess, processesWith, sandboxForTests } from './sandbox/test-support/sandbox-for-tests';
export { processGroupAlive } from './agents/process-tree';
export { DEFAULT_OUTPUT_CAP_BYTES } from './store/events-repo';
export { KANDEV_SEED_AGENT, seedAgentSkip } from './agents/test-support/kandev-seed-agent';
// The pipeline bench: its baseline runs bubblewrap with the desk's flags and gives node the environment the desk gives
// an agent, and it reads the desk's run timings.
export { bwrapArguments, type SandboxLayout } from './sandbox/bwrap-arguments';
// The sandboxed agent's start bench launches the agent behind the network bridge as the desk does.
export { createNetworkBridge } from './sandbox/network/network-bridge';
export { agentEnvironment } from './agents/agent-environment';
export { RUN_STAGES, type RunStage } from './tasks/run-timings';
export { scriptedAgentSpec } from './agents/builtin-agents';
// The snapshots bench makes, reuses and moves snapshots of base commits.
export { createGitRunner } from './git/git-runner';
export { createSnapshotStore } from './workspace/snapshot-store';
export { linkSnapshotIndex } from './workspace/snapshot-index';
export { measureDiskUse } from './workspace/snapshot-disk-use';
// The layer commit bench: commitLayer on an overlay mounted as the tests mount one.
export { commitLayer } from './git/layer-commit';
export { mountLayer } from './git/layer-test-fixture';
