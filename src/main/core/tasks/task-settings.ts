// The desk settings the task service owns (Settings → PUT /api/settings): read and changed while the desk runs.
import type { PushAfterApprove } from '../../../shared/review';
import type { DependencyGate } from '../../../shared/task';
import type { AgentRegistry } from '../agents/agent-registry';
import { unknownAgent } from './task-errors';

export interface TaskSettingsConfig {
  concurrency: number; defaultAgent: string; baseBranch: string; dependenciesAfter?: DependencyGate; pushAfterApprove?: PushAfterApprove | null;
}

export interface TaskSettings {
  configure(settings: { concurrency?: number; defaultAgent?: string; dependenciesAfter?: DependencyGate; pushAfterApprove?: PushAfterApprove | null }): void;
  settings(): { concurrency: number; defaultAgent: string; baseBranch: string; dependenciesAfter: DependencyGate; pushAfterApprove: PushAfterApprove | null };
}

/** Changes `config` in place: the scheduler and runners read it as they go. `changed` runs after every change. */
export function createTaskSettings(config: TaskSettingsConfig, deps: { agents: Pick<AgentRegistry, 'has' | 'list'>; changed(): void }): TaskSettings {
  return {
    configure({ concurrency, defaultAgent, dependenciesAfter, pushAfterApprove }) {
      if (defaultAgent !== undefined && !deps.agents.has(defaultAgent)) throw unknownAgent(defaultAgent, deps.agents.list().map((a) => a.id));
      if (dependenciesAfter !== undefined) config.dependenciesAfter = dependenciesAfter;
      if (pushAfterApprove !== undefined) config.pushAfterApprove = pushAfterApprove;
      if (defaultAgent !== undefined) config.defaultAgent = defaultAgent;
      if (concurrency !== undefined) config.concurrency = concurrency;
      deps.changed();
    },
    settings: () => ({
      concurrency: config.concurrency, defaultAgent: config.defaultAgent, baseBranch: config.baseBranch,
      dependenciesAfter: config.dependenciesAfter ?? 'completed', pushAfterApprove: config.pushAfterApprove ?? null,
    }),
  };
}
