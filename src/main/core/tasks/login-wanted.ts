// A turn ended by an agent that wants a login: the help the task's error, its activity and its card show.
import type { TaskEvent } from '../../../shared/events';
import { isDeskError } from '../../../shared/desk-error';
import { loginHelp, offeredMethods } from '../agents/agent-auth';
import { agentImplementation } from '../agents/agent-session';
import type { AgentSpec } from '../agents/agent-spec';
import { AD_HOC_AGENT_ID } from '../agents/agents-config';
import type { RunWatch } from './run-watch';

/** What the login help needs of a turn's run (the runner's RunContext, of which it takes only these). */
export interface LoginContext {
  record(event: TaskEvent): void;
  watch?: Pick<RunWatch, 'sawAgent' | 'needsLogin'>;
}

/** The agent wants a login (at initialize, session/new or a prompt): the task's error lists its methods and what works. */
export function loginWanted(context: LoginContext, spec: AgentSpec, error: unknown): { status: 'error'; message: string } {
  const details = isDeskError(error) ? error.details : undefined;
  const agentMessage = typeof details?.agentMessage === 'string' ? details.agentMessage : error instanceof Error ? error.message : String(error);
  const help = loginHelp(
    { id: spec.id, name: spec.name, envAllowlist: spec.envAllowlist, source: spec.id === AD_HOC_AGENT_ID ? 'ad-hoc' : 'config' },
    offeredMethods(details?.methods),
    agentMessage,
  );
  const { agent } = agentImplementation(details?.agent);
  if (agent) context.watch?.sawAgent(agent);
  context.record({ type: 'login-required', help });
  context.watch?.needsLogin(help);
  return { status: 'error', message: help.message };
}
