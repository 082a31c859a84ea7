// Each task's dev server as the core reports it (starting, running with its link, exited), and the actions that
// start, stop and re-read it. The core is the source of truth: the board only shows what its route answers.
import type { DevServerState } from '../../../shared/dev-server';
import { messageOf } from '../api/api-error';
import type { SliceCreator } from './store-types';

export interface DevServerSlice {
  /** Per task: its dev server's last known state; null when it never started; absent until read. */
  devServers: Record<string, DevServerState | null>;
  loadDevServer(taskId: string): Promise<void>;
  startDevServer(taskId: string): Promise<void>;
  stopDevServer(taskId: string): Promise<void>;
}

export const createDevServerSlice: SliceCreator<DevServerSlice> = (set, get) => {
  const api = () => {
    const client = get().api;
    if (!client) throw new Error('Not connected to a desk yet.');
    return client;
  };
  const keep = (taskId: string, state: DevServerState | null) => set((current) => ({ devServers: { ...current.devServers, [taskId]: state } }));
  const attempt = async (work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      get().showAlert(messageOf(error));
    }
  };
  return {
    devServers: {},
    loadDevServer: (taskId) => attempt(async () => keep(taskId, (await api().devServer(taskId)).devServer)),
    startDevServer: (taskId) => attempt(async () => keep(taskId, await api().startDevServer(taskId))),
    stopDevServer: (taskId) => attempt(async () => keep(taskId, (await api().stopDevServer(taskId)).devServer)),
  };
};
