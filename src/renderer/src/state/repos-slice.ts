// The desk's repositories, as the picker, the new-task form, cards and the settings show them.
import type { RepoInfo } from '../../../shared/repos';
import type { RepoConfig } from '../../../shared/repo-config';
import { messageOf } from '../api/api-error';
import type { SliceCreator } from './store-types';

export interface ReposSlice {
  /** The open repositories, the default first; undefined until loaded. */
  repos: RepoInfo[] | undefined;
  loadRepos(): Promise<void>;
  /** Each resolves with the server's message when it refuses, else undefined. */
  addRepo(path: string, name?: string): Promise<string | undefined>;
  removeRepo(name: string): Promise<string | undefined>;
  saveRepoSetup(name: string, setup: RepoConfig): Promise<string | undefined>;
}

export const createReposSlice: SliceCreator<ReposSlice> = (set, get) => ({
  repos: undefined,

  async loadRepos() {
    try {
      const answer = await get().api?.repos();
      if (answer) set({ repos: answer.repos });
    } catch (error) {
      get().showAlert(messageOf(error));
    }
  },

  async addRepo(path, name) {
    try {
      const added = await get().api?.addRepo({ path, ...(name && { name }) });
      if (!added) return undefined;
      set((state) => ({ repos: [...(state.repos ?? []), added] }));
      get().setFilters({ repo: added.name });
      get().showStatus(`Opened ${added.name}: clients reach it at ${added.endpoint}.`);
      return undefined;
    } catch (error) {
      return messageOf(error);
    }
  },

  async removeRepo(name) {
    try {
      const answer = await get().api?.removeRepo(name);
      if (!answer) return undefined;
      set({ repos: answer.repos });
      if (get().filters.repo === name) get().setFilters({ repo: '' });
      get().showStatus(`Closed ${name}; nothing on disk was removed.`);
      return undefined;
    } catch (error) {
      return messageOf(error);
    }
  },

  async saveRepoSetup(name, setup) {
    try {
      const saved = await get().api?.setRepoSetup(name, setup);
      if (saved) set((state) => ({ repos: state.repos?.map((repo) => (repo.name === name ? saved : repo)) }));
      get().showStatus(`Setup of ${name} saved.`);
      return undefined;
    } catch (error) {
      return messageOf(error);
    }
  },
});
