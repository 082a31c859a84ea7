// What the person is looking at: filters, the open task and tab, dialogs, and the one alert and status line.
import type { SliceCreator } from './store-types';
import { NO_FILTERS, type Filters } from './selectors';

export type Dialog =
  | { kind: 'new-task' }
  | { kind: 'settings' }
  | { kind: 'link'; taskId: string }
  | { kind: 'confirm-cancel'; taskId: string }
  | { kind: 'confirm-reject'; taskId: string }
  | { kind: 'shortcuts' };

export type TaskTab = 'activity' | 'changes';
export interface Notice { id: number; text: string }
export interface LineComment { path: string; line: number; side: 'old' | 'new'; text: string }

export interface UiSlice {
  filters: Filters;
  showStopped: boolean;
  openTaskId: string | undefined;
  taskTab: TaskTab;
  diffLayout: 'unified' | 'split';
  dialog: Dialog | undefined;
  /** At most one alert at a time, so `role="alert"` always names the latest problem. */
  alert: Notice | undefined;
  status: Notice | undefined;
  /** Review comments per task, gathered into one Refine follow-up. */
  comments: Record<string, LineComment[]>;
  setFilters(filters: Partial<Filters>): void;
  toggleStopped(): void;
  openTask(id: string | undefined): void;
  setTaskTab(tab: TaskTab): void;
  setDiffLayout(layout: 'unified' | 'split'): void;
  openDialog(dialog: Dialog): void;
  closeDialog(): void;
  showAlert(text: string): void;
  showStatus(text: string): void;
  dismissAlert(): void;
  addComment(taskId: string, comment: LineComment): void;
  removeComment(taskId: string, index: number): void;
  clearComments(taskId: string): void;
}

let noticeId = 0;

export const createUiSlice: SliceCreator<UiSlice> = (set, get) => ({
  filters: NO_FILTERS,
  showStopped: false,
  openTaskId: undefined,
  taskTab: 'activity',
  diffLayout: 'unified',
  dialog: undefined,
  alert: undefined,
  status: undefined,
  comments: {},
  setFilters: (filters) => set((state) => ({ filters: { ...state.filters, ...filters } })),
  toggleStopped: () => set((state) => ({ showStopped: !state.showStopped })),
  openTask(id) {
    const previous = get().openTaskId;
    if (previous === id) return;
    if (previous) get().closeStream(previous);
    set({ openTaskId: id, taskTab: 'activity' });
    if (id) {
      get().openStream(id);
      void get().loadDetail(id);
    }
  },
  setTaskTab: (taskTab) => set({ taskTab }),
  setDiffLayout: (diffLayout) => set({ diffLayout }),
  openDialog: (dialog) => set({ dialog, alert: undefined }),
  closeDialog: () => set({ dialog: undefined }),
  showAlert: (text) => set({ alert: { id: ++noticeId, text }, status: undefined }),
  showStatus: (text) => set({ status: { id: ++noticeId, text } }),
  dismissAlert: () => set({ alert: undefined }),
  addComment: (taskId, comment) => set((state) => ({ comments: { ...state.comments, [taskId]: [...(state.comments[taskId] ?? []), comment] } })),
  removeComment: (taskId, index) =>
    set((state) => ({ comments: { ...state.comments, [taskId]: (state.comments[taskId] ?? []).filter((_, i) => i !== index) } })),
  clearComments: (taskId) => set((state) => ({ comments: { ...state.comments, [taskId]: [] } })),
});
