// A task in review and its base branch: how far behind it is, the update from the base, and the ways out of a
// conflicted update (ask the agent, mark resolved after editing, undo). Each action is one request.
import type { BaseStatus, UpdateStrategy } from '../../../shared/base-update';
import { attempt as attemptShown } from './attempt';
import type { SliceCreator } from './store-types';

export interface BaseSlice {
  /** The last answer of `GET /tasks/<id>/base` per task, read when its Changes tab shows and after each change. */
  baseStatus: Record<string, BaseStatus>;
  loadBaseStatus(id: string): Promise<void>;
  updateFromBase(id: string, strategy: UpdateStrategy): Promise<boolean>;
  /** `note`: what the person tells the agent besides the desk's own instructions. */
  askAgentToResolve(id: string, note: string): Promise<boolean>;
  markResolved(id: string): Promise<boolean>;
  undoUpdate(id: string): Promise<boolean>;
}

export const createBaseSlice: SliceCreator<BaseSlice> = (set, get) => {
  const client = () => {
    const api = get().api;
    if (!api) throw new Error('Not connected to a desk yet.');
    return api;
  };
  /** One request; its refusal becomes the page's alert, its success a status line, then the counts are read again. */
  const attempt = (id: string, work: () => Promise<string | undefined>): Promise<boolean> =>
    attemptShown(get, work).finally(() => void get().loadBaseStatus(id));

  return {
    baseStatus: {},

    async loadBaseStatus(id) {
      if (!get().api) return;
      try {
        const status = await client().baseStatus(id);
        set((state) => ({ baseStatus: { ...state.baseStatus, [id]: status } }));
      } catch {
        // A task without a branch yet has nothing to compare; the panel simply stays empty.
      }
    },

    updateFromBase: (id, strategy) => attempt(id, async () => {
      const result = await client().updateFromBase(id, strategy);
      if (result.outcome === 'undone') get().showAlert(result.message);
      return result.outcome === 'undone' ? undefined : result.message;
    }),
    askAgentToResolve: (id, note) => attempt(id, async () => {
      await client().resolveConflict(id, { by: 'agent', ...(note.trim() !== '' && { note }) });
      return `Asked the agent to resolve the conflicts of ${id}.`;
    }),
    markResolved: (id) => attempt(id, async () => {
      await client().resolveConflict(id, { by: 'person' });
      return `The resolution of ${id} is committed.`;
    }),
    undoUpdate: (id) => attempt(id, async () => {
      await client().resolveConflict(id, { by: 'undo' });
      return `The update of ${id} was undone.`;
    }),
  };
};
