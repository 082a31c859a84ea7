// The desk's settings, its agents and its governance policy, as the settings dialog and the new-task form show them.
import type { AgentsResponse } from '../../../shared/agents';
import type { PolicyView } from '../../../shared/governance';
import type { DeskSettings, UpdateSettings } from '../../../shared/review';
import type { DeskApi } from '../api/desk-api';
import { messageOf } from '../api/api-error';
import type { SliceCreator } from './store-types';

export interface SettingsSlice {
  agents: AgentsResponse | undefined;
  settings: DeskSettings | undefined;
  policy: PolicyView | undefined;
  settingsError: string | undefined;
  loadAgents(): Promise<void>;
  loadSettings(): Promise<void>;
  /** Resolves with the server's message when it refuses, else undefined. */
  saveSettings(update: UpdateSettings): Promise<string | undefined>;
  savePolicy(text: string): Promise<string | undefined>;
}

export const createSettingsSlice: SliceCreator<SettingsSlice> = (set, get) => ({
  agents: undefined,
  settings: undefined,
  policy: undefined,
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
      const [settings, policy, agents] = await Promise.all([api.settings(), api.policy(), api.agents()]);
      set({ settings, policy, agents, settingsError: undefined });
    } catch (error) {
      set({ settingsError: messageOf(error) });
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
});
