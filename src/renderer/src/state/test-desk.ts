// The board's one store seeded for component tests: task summaries as the core sends them, and a real
// API client whose network is down, so a test stubs (vi.spyOn) exactly the routes the person's action uses.
import { cleanup } from '@testing-library/react';
import { vi } from 'vitest';
import type { TaskDetail, TaskSummary } from '../../../shared/task';
import { createDeskApi, type DeskApi } from '../api/desk-api';
import { loadBoard } from './board-reducer';
import { deskStore } from './store';

const pristine = deskStore.getState();

/** A route no test stubbed answers as an unreachable desk would, which shows up as a page alert. */
export function offlineApi(): DeskApi {
  return createDeskApi({ endpoint: 'http://desk.test', token: 'test-token' }, () => Promise.reject(new TypeError('offline')));
}

/** Puts the tasks on the board as a loaded desk holds them; returns the API the store's actions call. */
export function seedDesk(tasks: readonly TaskSummary[], api: DeskApi = offlineApi()): DeskApi {
  deskStore.setState((state) => ({ ...loadBoard(tasks, 0, state), api, loadState: 'ready' }));
  return api;
}

/** Unmounts what a test rendered and puts the store back as the page starts. */
export function resetDesk(): void {
  cleanup();
  vi.restoreAllMocks();
  const open = deskStore.getState().openTaskId;
  if (open) deskStore.getState().closeStream(open);
  deskStore.setState(pristine, true);
}

/** A task's detail as `GET /tasks/<id>` answers it. */
export function detailOf(task: TaskSummary, patch: Partial<TaskDetail> = {}): TaskDetail {
  return { ...task, prompt: task.title, unmetDependencies: [], baseBranch: 'main', attempt: 1, turns: [], ...patch };
}
