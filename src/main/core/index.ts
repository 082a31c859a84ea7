// The core's front door: everything a host (serve.ts, the Electron shell, bench) may use. Hosts import
// only this file and src/shared, so the core's rooms can be rearranged without touching them (lint-enforced).
export { createCore, type Core } from './core';
export type { CoreConfig } from './core-config';
export { DeskError, deskError, isDeskError, type DeskErrorKind } from '../../shared/desk-error';

// Where the desk keeps its data, its token and its lock.
export { defaultDataDir } from './host/data-dir';
export { loadOrCreateToken } from './host/token-file';
export { lockDataDir } from './host/instance-lock';
export { keepYoungGenerationSmall } from './host/heap-tuning';

// Which agents a host offers: the known ones, the scripted one shipped with the app, one given on the command line.
export { KNOWN_AGENTS } from './agents/known-agents';
export { adHocAgentSpec } from './agents/ad-hoc-agent';
export { hostAgentCatalog } from './agents/agent-catalog';
export { scriptedAgentSpec } from './agents/builtin-agents';
export type { AgentCatalog } from './agents/agent-registry';
export { findCommand, isExecutableFile } from './agents/agent-detection';
export { splitCommandLine } from './agents/split-command';
export { agentEnvironment } from './agents/agent-environment';
export { processExists } from './agents/process-tree';

export type { EventListener } from './events/event-bus';
export { PROMPT_PAD_ORIGIN } from './http/security';
export { createGitService } from './git/git-service';
export type { RepositoryDiscovery } from './git/repository-discovery';
export type { ProbeMemory } from './host/probe-memory';
export type { RememberedProbe } from './host/remembered-probe';
