// A task's pull or merge request from the board: open it (with the form's choices or the defaults) and read it again.
// The task itself changes through the events socket; this slice only tracks which requests are on their way.
import type { OpenPullRequest, PullRequest } from '../../../shared/pull-request';
import type { AddressFeedback } from '../../../shared/pull-request-feedback';
import { messageOf } from '../api/api-error';
import type { DeskApi } from '../api/desk-api';
import type { SliceCreator } from './store-types';

export interface PullRequestSlice {
  /** Task ids whose request is being opened or refreshed. */
  pullRequestBusy: string[];
  /** Pushes the task's branch and opens its request; true when it is there (opened now or already). */
  openPullRequest(taskId: string, input?: OpenPullRequest): Promise<boolean>;
  refreshPullRequest(taskId: string): Promise<void>;
  /** Starts a turn addressing the chosen feedback; true when it is on its way. */
  addressFeedback(taskId: string, input: AddressFeedback): Promise<boolean>;
}

export function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "pull request" on GitHub, "merge request" on GitLab. */
export function requestNoun(pullRequest: Pick<PullRequest, 'forge'> | undefined): string {
  return pullRequest?.forge === 'gitlab' ? 'merge request' : 'pull request';
}

export const createPullRequestSlice: SliceCreator<PullRequestSlice> = (set, get) => {
  /** Runs one request for a task, keeping the task marked busy meanwhile; a refusal is shown in the forge's words. */
  async function busy(taskId: string, work: (client: DeskApi) => Promise<PullRequest>, said: (pullRequest: PullRequest) => string): Promise<boolean> {
    const client = get().api;
    if (!client || get().pullRequestBusy.includes(taskId)) return false;
    set((state) => ({ pullRequestBusy: [...state.pullRequestBusy, taskId] }));
    try {
      const pullRequest = await work(client);
      // The socket brings the same change; applying the answer too shows it at once.
      const task = get().tasks[taskId];
      if (task) set((state) => ({ tasks: { ...state.tasks, [taskId]: { ...task, pullRequest } } }));
      get().showStatus(said(pullRequest));
      return true;
    } catch (error) {
      get().showAlert(messageOf(error));
      return false;
    } finally {
      set((state) => ({ pullRequestBusy: state.pullRequestBusy.filter((id) => id !== taskId) }));
    }
  }

  return {
    pullRequestBusy: [],
    openPullRequest: (taskId, input = {}) => busy(taskId, (client) => client.openPullRequest(taskId, input),
      (pullRequest) => `${capitalized(requestNoun(pullRequest))} #${pullRequest.number} of ${taskId}: ${pullRequest.url}`),
    refreshPullRequest: async (taskId) => {
      await busy(taskId, (client) => client.refreshPullRequest(taskId), (pullRequest) => `The ${requestNoun(pullRequest)} of ${taskId} is ${pullRequest.state}.`);
    },
    addressFeedback: (taskId, input) => busy(taskId, async (client) => {
      const summary = await client.addressFeedback(taskId, input);
      const task = get().tasks[taskId];
      if (task) set((state) => ({ tasks: { ...state.tasks, [taskId]: { ...task, ...summary } } }));
      if (!summary.pullRequest) throw new Error(`Task ${taskId} has no pull request any more.`);
      return summary.pullRequest;
    }, (pullRequest) => `The agent addresses the feedback on ${taskId}; its commit goes to the ${requestNoun(pullRequest)}.`),
  };
};
