// The desk's settings, its agents and its governance policy, as the settings dialog and the new-task form show them.
import type { AgentLogin, AgentsResponse, AgentTest } from '../../../shared/agents';
import { apiRoutes } from '../../../shared/routes';
import type { AlwaysAllowAnswer } from '../../../shared/always-allow';
import type { Capability, PolicyView } from '../../../shared/governance';
import type { DeskSettings, UpdateSettings } from '../../../shared/review';
import type { DeskApi } from '../api/desk-api';
import { messageOf } from '../api/api-error';
import type { SliceCreator } from './store-types';

export interface SettingsSlice {
  agents: AgentsResponse | undefined;
  settings: DeskSettings | undefined;
  policy: PolicyView | undefined;
  /** "Always allow" answers people gave in tasks, newest first. */
  alwaysAllow: AlwaysAllowAnswer[] | undefined;
  settingsError: string | undefined;
  loadAgents(): Promise<void>;
  loadSettings(): Promise<void>;
  /** Reads the desk's settings again (only them), e.g. to learn whether its disk is still full; a failure keeps the last. */
  refreshSettings(): Promise<void>;
  /** Resolves with the server's message when it refuses, else undefined. */
  saveSettings(update: UpdateSettings): Promise<string | undefined>;
  savePolicy(text: string): Promise<string | undefined>;
  /** The agent's policy allows the capability in every task from now on; resolves with the server's message when it refuses. */
  makeAlwaysAllowRule(agent: string, capability: Capability): Promise<string | undefined>;
  /** Starts an agent's install (its package, or `source`); resolves with the server's message when it refuses. */
  installAgent(agentId: string, source?: string): Promise<string | undefined>;
  /** The handshake test; its result also shows in the agent's row after the agents reload. */
  testAgent(agentId: string): Promise<AgentTest | string>;
  /** Starts, reads, types into and stops an agent's terminal login. */
  startLogin(agentId: string, methodId?: string): Promise<AgentLogin | string>;
  readLogin(agentId: string): Promise<AgentLogin | string>;
  typeIntoLogin(agentId: string, data: string): Promise<AgentLogin | string>;
  stopLogin(agentId: string): Promise<void>;
}

/** Runs an API call, answering the server's refusal as its message. */
async function orMessage<T>(work: () => Promise<T> | undefined): Promise<T | string> {
  try {
    const result = await work();
    return result === undefined ? 'Not connected to a desk.' : result;
  } catch (error) {
    return messageOf(error);
  }
}

export const createSettingsSlice: SliceCreator<SettingsSlice> = (set, get) => ({
  agents: undefined,
  settings: undefined,
  policy: undefined,
  alwaysAllow: undefined,
  settingsError: undefined,

  async loadAgents() {
    try {
      const agents = await get().api?.agents();
      if (agents) set({ agents });
    } catch (error) {
      set({ settingsError: messageOf(error) });
    }
  },

  async loadSettings() {
    const api = get().api;
    if (!api) return;
    try {
      const [settings, policy, agents, { answers: alwaysAllow }] = await Promise.all([api.settings(), api.policy(), api.agents(), api.alwaysAllowAnswers()]);
      set({ settings, policy, agents, alwaysAllow, settingsError: undefined });
    } catch (error) {
      set({ settingsError: messageOf(error) });
    }
  },

  async refreshSettings() {
    try {
      const settings = await get().api?.settings();
      if (settings) set({ settings });
    } catch {
      // The connection's own state says when the desk cannot be reached; the next check tries again.
    }
  },

  async saveSettings(update) {
    try {
      const settings = await get().api?.updateSettings(update);
      if (settings) set({ settings });
      void get().loadAgents();
      get().showStatus('Settings saved.');
      return undefined;
    } catch (error) {
      return messageOf(error);
    }
  },

  async installAgent(agentId, source) {
    const result = await orMessage(() => get().api?.call(apiRoutes.startInstall, { params: { id: agentId }, body: source === undefined ? {} : { source } }));
    void get().loadAgents();
    return typeof result === 'string' ? result : undefined;
  },

  async testAgent(agentId) {
    const result = await orMessage(() => get().api?.call(apiRoutes.testAgent, { params: { id: agentId } }));
    void get().loadAgents();
    return result;
  },

  startLogin: (agentId, methodId) => orMessage(() => get().api?.call(apiRoutes.startLogin, { params: { id: agentId }, body: methodId === undefined ? {} : { methodId } })),
  readLogin: (agentId) => orMessage(() => get().api?.call(apiRoutes.login, { params: { id: agentId } })),
  typeIntoLogin: (agentId, data) => orMessage(() => get().api?.call(apiRoutes.loginInput, { params: { id: agentId }, body: { data } })),
  async stopLogin(agentId) {
    await orMessage(() => get().api?.call(apiRoutes.stopLogin, { params: { id: agentId } }));
    void get().loadAgents();
  },

  async savePolicy(text) {
    // Whatever the person typed; the desk checks it against the policy schema and answers what is wrong.
    let policy: Parameters<DeskApi['savePolicy']>[0];
    try {
      policy = JSON.parse(text);
    } catch (error) {
      return `The policy is not valid JSON: ${messageOf(error)}`;
    }
    try {
      const saved = await get().api?.savePolicy(policy);
      if (saved) set({ policy: saved });
      get().showStatus('Policy saved.');
      return undefined;
    } catch (error) {
      return messageOf(error);
    }
  },

  async makeAlwaysAllowRule(agent, capability) {
    const api = get().api;
    if (!api) return 'Not connected to a desk.';
    try {
      const policy = await api.makeAlwaysAllowRule({ agent, capability });
      const { answers } = await api.alwaysAllowAnswers();
      set({ policy, alwaysAllow: answers });
      get().showStatus(`Policy saved: ${capability} is allowed for ${agent} in every task.`);
      return undefined;
    } catch (error) {
      return messageOf(error);
    }
  },
});
