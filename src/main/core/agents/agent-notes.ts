// What the desk has learnt about each agent while it runs: who the agent says it is (initialize's agentInfo), a
// login it asked for, and the last handshake test. In memory; Settings shows it beside each agent.
import type { AgentImplementation, AgentTest, LoginHelp } from '../../../shared/agents';

export interface AgentNote {
  implementation?: AgentImplementation;
  /** The last login it asked for, until it next works without one. */
  login?: LoginHelp;
  test?: AgentTest;
}

export interface AgentNotes {
  get(agentId: string): AgentNote;
  saw(agentId: string, implementation: AgentImplementation): void;
  needsLogin(agentId: string, help: LoginHelp): void;
  /** The agent started a session without asking for a login. */
  worked(agentId: string): void;
  tested(agentId: string, test: AgentTest): void;
}

export function createAgentNotes(): AgentNotes {
  const notes = new Map<string, AgentNote>();
  const change = (agentId: string, patch: (note: AgentNote) => AgentNote) => { notes.set(agentId, patch(notes.get(agentId) ?? {})); };
  return {
    get: (agentId) => notes.get(agentId) ?? {},
    saw: (agentId, implementation) => change(agentId, (note) => ({ ...note, implementation })),
    needsLogin: (agentId, login) => change(agentId, (note) => ({ ...note, login })),
    worked: (agentId) => change(agentId, ({ login: _gone, ...note }) => note),
    tested: (agentId, test) => change(agentId, ({ login: _gone, ...note }) => ({
      ...note, test, ...(test.implementation && { implementation: test.implementation }), ...(test.login && { login: test.login }),
    })),
  };
}
