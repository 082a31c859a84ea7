// What the person is looking at: filters, the open task and tab, dialogs, and the toasts (rules in ui/toasts.ts).
import type { AttentionFile } from '../../../shared/task';
import type { SliceCreator } from './store-types';
import { NO_FILTERS, type Filters } from './selectors';
import { pushToast, type Toast, type ToastAction } from '../ui/toasts';

export type Dialog =
  | { kind: 'new-task' }
  | { kind: 'settings' }
  | { kind: 'add-repo' }
  | { kind: 'link'; taskId: string }
  | { kind: 'confirm-cancel'; taskId: string }
  | { kind: 'confirm-reject'; taskId: string }
  | { kind: 'confirm-clear-done'; count: number }
  | { kind: 'confirm-bulk-reject'; count: number }
  /** Approvals the desk refused until the person confirms their files that run on this machine (one task, or a bulk run's). */
  | { kind: 'confirm-attention'; tasks: AttentionRefusal[]; bulk: boolean }
  | { kind: 'shortcuts' };

/** A task whose approval waits for the person to confirm these files. */
export interface AttentionRefusal { id: string; files: AttentionFile[] }

export type TaskTab = 'activity' | 'changes';
export interface LineComment { path: string; line: number; side: 'old' | 'new'; text: string }

export interface UiSlice {
  filters: Filters;
  showStopped: boolean;
  openTaskId: string | undefined;
  taskTab: TaskTab;
  diffLayout: 'unified' | 'split';
  dialog: Dialog | undefined;
  /** Statuses and alerts, oldest first, at most three. */
  toasts: Toast[];
  /** Review comments per task, gathered into one Refine follow-up. */
  comments: Record<string, LineComment[]>;
  setFilters(filters: Partial<Filters>): void;
  toggleStopped(): void;
  openTask(id: string | undefined): void;
  setTaskTab(tab: TaskTab): void;
  setDiffLayout(layout: 'unified' | 'split'): void;
  openDialog(dialog: Dialog): void;
  closeDialog(): void;
  /** An alert; with an action it stays until the person acts on it or dismisses it. */
  showAlert(text: string, action?: ToastAction): void;
  showStatus(text: string): void;
  /** Clears the alerts (a later success answers them). */
  dismissAlert(): void;
  dismissToast(id: number): void;
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
  toasts: [],
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
  openDialog: (dialog) => set((state) => ({ dialog, toasts: state.toasts.filter((toast) => toast.kind !== 'alert') })),
  closeDialog: () => set({ dialog: undefined }),
  showAlert: (text, action) => set((state) => ({ toasts: pushToast(state.toasts, { id: ++noticeId, kind: 'alert', text, ...(action && { action }) }) })),
  showStatus: (text) => {
    if (text) set((state) => ({ toasts: pushToast(state.toasts, { id: ++noticeId, kind: 'status', text }) }));
  },
  dismissAlert: () => set((state) => (state.toasts.some((toast) => toast.kind === 'alert') ? { toasts: state.toasts.filter((toast) => toast.kind !== 'alert') } : {})),
  dismissToast: (id) => set((state) => ({ toasts: state.toasts.filter((toast) => toast.id !== id) })),
  addComment: (taskId, comment) => set((state) => ({ comments: { ...state.comments, [taskId]: [...(state.comments[taskId] ?? []), comment] } })),
  removeComment: (taskId, index) =>
    set((state) => ({ comments: { ...state.comments, [taskId]: (state.comments[taskId] ?? []).filter((_, i) => i !== index) } })),
  clearComments: (taskId) => set((state) => ({ comments: { ...state.comments, [taskId]: [] } })),
});
