// Review at scale: cards selected together and what is done to them in one go (approve, reject, archive: one request
// after another, with progress and each task's result), the archive and its filter, and per-file viewed marks.
import type { TaskSummary } from '../../../shared/task';
import { messageOf } from '../api/api-error';
import { mergeTasks } from './board-reducer';
import { attentionRefusalOf } from './attention-refusal';
import type { AttentionRefusal } from './ui-slice';
import type { SliceCreator } from './store-types';

export type BulkAction = 'approve' | 'reject' | 'archive';
export interface BulkResult { id: string; ok: boolean; message: string }
export interface BulkRun { action: BulkAction; total: number; results: BulkResult[]; running: boolean }

export interface ReviewSlice {
  /** Selected card ids, in the order they were picked. */
  selected: string[];
  /** The last card picked without shift: where a shift-pick's range starts. */
  selectionAnchor: string | undefined;
  bulk: BulkRun | undefined;
  /** Viewed marks per task: file path → the diff key it was marked at. */
  viewed: Record<string, Record<string, string>>;
  toggleSelected(id: string): void;
  /** Selects every id of `range` (the cards between the anchor and this one, as a column shows them). */
  selectRange(ids: readonly string[]): void;
  clearSelection(): void;
  /**
   * Runs `action` on every selected task (or `ids`), one request after another. Approvals the desk refuses until their
   * files that run on this machine are confirmed are gathered into one question at the end; `confirmAttention` answers it.
   */
  runBulk(action: BulkAction, options?: { ids?: readonly string[]; confirmAttention?: boolean }): Promise<void>;
  dismissBulk(): void;
  archiveTask(id: string): Promise<boolean>;
  unarchiveTask(id: string): Promise<boolean>;
  /** Loads the archived tasks (the Archived filter shows them). */
  loadArchived(): Promise<void>;
  /** How many tasks "Clear done" would archive, as the core counts them (loaded on the board or not). */
  countSettled(): Promise<number>;
  clearDone(): Promise<void>;
  loadViewed(taskId: string): Promise<void>;
  setViewed(taskId: string, path: string, key: string, viewed: boolean): Promise<void>;
}

const DONE_WORDS: Record<BulkAction, string> = { approve: 'approved', reject: 'rejected', archive: 'archived' };

export const createReviewSlice: SliceCreator<ReviewSlice> = (set, get) => {
  const api = () => {
    const client = get().api;
    if (!client) throw new Error('Not connected to a desk yet.');
    return client;
  };
  const request: Record<BulkAction, (id: string, confirmAttention: boolean) => Promise<unknown>> = {
    approve: (id, confirmAttention) => (confirmAttention ? api().approve(id, { confirmAttention: true }) : api().approve(id)),
    reject: (id) => api().reject(id),
    archive: (id) => api().archive(id),
  };

  return {
    selected: [],
    selectionAnchor: undefined,
    bulk: undefined,
    viewed: {},

    toggleSelected: (id) => set((state) => ({
      selected: state.selected.includes(id) ? state.selected.filter((s) => s !== id) : [...state.selected, id],
      selectionAnchor: id,
    })),
    selectRange: (ids) => set((state) => ({ selected: [...state.selected, ...ids.filter((id) => !state.selected.includes(id))] })),
    clearSelection: () => set({ selected: [], selectionAnchor: undefined }),

    async runBulk(action, options = {}) {
      const ids = options.ids ?? get().selected;
      if (ids.length === 0 || get().bulk?.running) return;
      set({ bulk: { action, total: ids.length, results: [], running: true } });
      const unconfirmed: AttentionRefusal[] = [];
      // One after another: approvals merge into the same base branch, and each result is shown as it comes.
      for (const id of ids) {
        let result: BulkResult;
        try {
          await request[action](id, options.confirmAttention === true);
          result = { id, ok: true, message: DONE_WORDS[action] };
        } catch (error) {
          const files = attentionRefusalOf(error);
          if (files !== undefined) unconfirmed.push({ id, files });
          result = { id, ok: false, message: files === undefined ? messageOf(error) : 'waits for you to confirm its files that run on your machine' };
        }
        set((state) => ({ bulk: state.bulk && { ...state.bulk, results: [...state.bulk.results, result] } }));
      }
      const failed = get().bulk?.results.filter((r) => !r.ok).map((r) => r.id) ?? [];
      // What failed stays selected, so it can be looked at or tried again.
      set((state) => ({ bulk: state.bulk && { ...state.bulk, running: false }, selected: failed }));
      // Asked once for all of them, listing each task's files.
      if (unconfirmed.length > 0) get().openDialog({ kind: 'confirm-attention', tasks: unconfirmed, bulk: true });
    },
    dismissBulk: () => set({ bulk: undefined }),

    archiveTask: async (id) => {
      try {
        await api().archive(id);
        get().showStatus(`Archived ${id}: the Archived filter still shows it.`);
        return true;
      } catch (error) {
        get().showAlert(messageOf(error));
        return false;
      }
    },
    unarchiveTask: async (id) => {
      try {
        await api().unarchive(id);
        get().showStatus(`${id} is back on the board.`);
        return true;
      } catch (error) {
        get().showAlert(messageOf(error));
        return false;
      }
    },
    async loadArchived() {
      try {
        const tasks: TaskSummary[] = [];
        let next: number | undefined;
        do {
          const page = await api().listTasks({ archived: true, limit: 1000, ...(next !== undefined && { after: next }) });
          tasks.push(...page.tasks);
          next = page.next;
        } while (next !== undefined);
        set((state) => mergeTasks(state, tasks));
      } catch (error) {
        get().showAlert(messageOf(error));
      }
    },
    async countSettled() {
      // Finished with a review decided, plus failed or cancelled ones nobody reviewed: what isSettled says, counted by the core.
      const [decided, stopped] = await Promise.all([
        api().listTasks({ status: ['completed', 'error', 'cancelled'], review: ['approved', 'rejected'], archived: false, limit: 1 }),
        api().listTasks({ status: ['error', 'cancelled'], review: ['pending'], archived: false, limit: 1 }),
      ]);
      return decided.total + stopped.total;
    },
    async clearDone() {
      try {
        const { archived } = await api().clearDone();
        get().showStatus(archived.length === 0 ? 'Nothing to clear.' : `Archived ${archived.length} finished task${archived.length === 1 ? '' : 's'}.`);
      } catch (error) {
        get().showAlert(messageOf(error));
      }
    },

    async loadViewed(taskId) {
      try {
        const { files } = await api().viewed(taskId);
        set((state) => ({ viewed: { ...state.viewed, [taskId]: files } }));
      } catch {
        // Marks are a help, not the review: without them every file just reads as not viewed yet.
      }
    },
    async setViewed(taskId, path, key, viewed) {
      const before = get().viewed[taskId] ?? {};
      const { [path]: _, ...others } = before;
      set((state) => ({ viewed: { ...state.viewed, [taskId]: viewed ? { ...others, [path]: key } : others } }));
      try {
        const { files } = await api().setViewed(taskId, { path, key, viewed });
        set((state) => ({ viewed: { ...state.viewed, [taskId]: files } }));
      } catch (error) {
        set((state) => ({ viewed: { ...state.viewed, [taskId]: before } }));
        get().showAlert(messageOf(error));
      }
    },
  };
};

