// What a desk with the cluster runner loads (core.ts imports this only then): the runner and its door.
export { createClusterRunner } from './cluster-runner';
export { createRunnerGate } from './runner-gate';
