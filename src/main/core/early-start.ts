// What a host may start before it loads the core, so that it runs while the core's code loads: the headless entry
// (serve.ts) imports this alone, and only what is exported here ends up in that small first file.
export { rememberedSandboxProbe } from './sandbox/remembered-sandbox-probe';
export { probeMemoryIn, type ProbeMemory } from './host/probe-memory';
export type { RememberedProbe } from './host/remembered-probe';
export { startRepositoryDiscovery } from './git/repository-discovery';
