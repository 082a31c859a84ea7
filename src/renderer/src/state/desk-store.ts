// The one store, built from its slices; `createDeskStore` takes its collaborators so tests can pass fakes.
import { createStore } from 'zustand/vanilla';
import { openEventsSocket } from '../api/events-socket';
import { createBaseSlice } from './base-slice';
import { createDevServerSlice } from './dev-server-slice';
import { createEventsSlice } from './events-slice';
import { createPullRequestSlice } from './pull-request-slice';
import { createReposSlice } from './repos-slice';
import { createReviewSlice } from './review-slice';
import { createSettingsSlice } from './settings-slice';
import type { DeskState, StoreDeps } from './store-types';
import { createTasksSlice } from './tasks-slice';
import { createUiSlice } from './ui-slice';

/** One update per animation frame while the page is visible; a hidden tab (no frames) flushes on a timer. */
export function frameScheduler(work: () => void): void {
  if (typeof document !== 'undefined' && document.hidden) setTimeout(work, 250);
  else requestAnimationFrame(() => work());
}

export function createDeskStore(overrides: Partial<StoreDeps> = {}) {
  const deps: StoreDeps = { schedule: frameScheduler, openSocket: openEventsSocket, ...overrides };
  return createStore<DeskState>()((set, get) => ({
    ...createTasksSlice(set, get, deps),
    ...createEventsSlice(set, get, deps),
    ...createUiSlice(set, get, deps),
    ...createSettingsSlice(set, get, deps),
    ...createBaseSlice(set, get, deps),
    ...createReposSlice(set, get, deps),
    ...createReviewSlice(set, get, deps),
    ...createPullRequestSlice(set, get, deps),
    ...createDevServerSlice(set, get, deps),
  }));
}

export type DeskStore = ReturnType<typeof createDeskStore>;
