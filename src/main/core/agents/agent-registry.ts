// The agents the desk can run, by id. The host decides which entries exist (the scripted agent's path differs per build).
import type { AgentSpec } from './agent-spec';

export interface AgentRegistry {
  get(id: string): AgentSpec | undefined;
  list(): AgentSpec[];
}

export function createAgentRegistry(specs: readonly AgentSpec[]): AgentRegistry {
  const byId = new Map(specs.map((spec) => [spec.id, spec]));
  return {
    get: (id) => byId.get(id),
    list: () => [...byId.values()],
  };
}
