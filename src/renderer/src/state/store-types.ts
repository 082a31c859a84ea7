// The store's shape: one state made of slices, each with its data and the actions beside it.
import type { StoreApi } from 'zustand/vanilla';
import type { openEventsSocket } from '../api/events-socket';
import type { BaseSlice } from './base-slice';
import type { DevServerSlice } from './dev-server-slice';
import type { EventsSlice } from './events-slice';
import type { PullRequestSlice } from './pull-request-slice';
import type { ReposSlice } from './repos-slice';
import type { ReviewSlice } from './review-slice';
import type { SettingsSlice } from './settings-slice';
import type { TasksSlice } from './tasks-slice';
import type { UiSlice } from './ui-slice';

export interface StoreDeps {
  /** Runs work once per animation frame (or soon, in a hidden tab); tests run it at once. */
  schedule(work: () => void): void;
  /** Opens the events socket; tests pass a fake. */
  openSocket: typeof openEventsSocket;
}

export type DeskState = TasksSlice & EventsSlice & UiSlice & SettingsSlice & BaseSlice & ReposSlice & ReviewSlice & PullRequestSlice & DevServerSlice;

export type SliceCreator<Slice> = (
  set: StoreApi<DeskState>['setState'],
  get: StoreApi<DeskState>['getState'],
  deps: StoreDeps,
) => Slice;
