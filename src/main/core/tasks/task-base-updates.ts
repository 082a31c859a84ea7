// A task in review whose base branch moved on: how far apart they are, an update from the base (merge or rebase),
// and the ways out of a conflict — a follow-up turn for the agent, the person's own resolution, or undo.
import type { BaseStatus } from '../../../shared/base-update';
import { DeskError } from '../../../shared/desk-error';
import { FINISHED_STATUSES, type TaskConflict } from '../../../shared/task';
import { filesWithMarkers, type BaseUpdateOutcome, type UpdateStrategy } from '../git/base-update';
import type { GitService } from '../git/git-service';
import type { TaskPatch, TaskRecord } from '../store/tasks-repo';
import { commitMessageFor } from './commit-message';
import { taskBusy } from './task-errors';

export interface TaskBaseUpdates {
  /** How far the task's branch is behind and ahead of its base branch; throws `task_busy` before it has a branch. */
  baseStatus(id: string): Promise<BaseStatus>;
  /** Merges or rebases the base into a completed task waiting for review; a conflicted merge is kept as the task's `conflict`. */
  updateFromBase(id: string, strategy: UpdateStrategy): Promise<{ task: TaskRecord; result: BaseUpdateOutcome; message: string }>;
  /** Queues a follow-up turn telling the agent which files hold markers; its commit concludes the merge. */
  resolveWithAgent(id: string, note?: string): Promise<TaskRecord>;
  /** Commits the files as the person resolved them; refused (`conflict_unresolved`) while a marker remains. */
  resolveByPerson(id: string): Promise<TaskRecord>;
  /** Gives up the waiting merge: the branch and worktree as they were before the update. */
  undoUpdate(id: string): Promise<TaskRecord>;
}

export interface TaskBaseUpdatesDeps {
  /** The git service of the task's repository, as far as updates from the base use it. */
  gitOf(task: TaskRecord): Pick<GitService, 'compareWithBase' | 'updateFromBase' | 'commitAll' | 'abortUpdate'>;
  mustGet(id: string): TaskRecord;
  save(id: string, patch: TaskPatch): TaskRecord;
  log(task: TaskRecord, text: string): void;
  withTaskLock<T>(id: string, work: () => Promise<T>): Promise<T>;
  followUp(id: string, prompt: string): Promise<TaskRecord>;
}

/** Approval while an update waits for its conflicts: what to do instead. */
export const conflictUnresolved = (task: TaskRecord, conflict: TaskConflict, files = conflict.files) => new DeskError(
  'conflict', 'conflict_unresolved',
  `Task ${task.id} has unresolved conflicts with ${conflict.baseBranch} in ${files.join(', ')}; ask the agent to resolve them, or resolve them in your editor and mark them resolved (or undo the update).`,
  { baseBranch: conflict.baseBranch, files },
);

/** What the agent is told in the resolution turn: the files, the markers, and what the person added. */
export function resolutionPrompt(conflict: TaskConflict, note?: string): string {
  const lines = [
    `Resolve the merge conflicts from updating this branch with ${conflict.baseBranch}.`,
    `Conflicted files: ${conflict.files.join(', ')}`,
    'Each conflicted file holds both sides between <<<<<<<, ======= and >>>>>>> marker lines. Keep what both changes meant, remove every marker line, and leave the files ready to commit; the desk commits them when you are done.',
  ];
  return note?.trim() ? `${lines.join('\n')}\n\n${note.trim()}` : lines.join('\n');
}

export function createTaskBaseUpdates(deps: TaskBaseUpdatesDeps): TaskBaseUpdates {
  const { gitOf } = deps;

  const inReview = (id: string, doing: string): TaskRecord & { worktreePath: string; branch: string } => {
    const task = deps.mustGet(id);
    if (task.status !== 'completed' || task.review !== 'pending') {
      throw taskBusy(`Only a completed task waiting for review can ${doing}; ${id} is ${task.status}${task.review === 'pending' ? '' : ` and ${task.review}`}.`);
    }
    if (!task.worktreePath || !task.branch) throw taskBusy(`Task ${id} has no worktree to ${doing} in; run it again instead.`);
    return { ...task, worktreePath: task.worktreePath, branch: task.branch };
  };

  const conflicted = (id: string): TaskRecord & { conflict: TaskConflict; worktreePath: string } => {
    const task = deps.mustGet(id);
    if (!task.conflict || !task.worktreePath) throw taskBusy(`Task ${id} has no conflicted update from its base branch to resolve.`);
    if (!FINISHED_STATUSES.includes(task.status)) throw taskBusy(`Task ${id} is ${task.status}; wait until its agent has finished.`);
    return { ...task, conflict: task.conflict, worktreePath: task.worktreePath };
  };

  return {
    async baseStatus(id) {
      const task = deps.mustGet(id);
      if (!task.branch) throw taskBusy(`Task ${id} has not started, so it has no branch to compare with ${task.baseBranch}.`);
      if (task.review === 'rejected') throw taskBusy(`Task ${id} was rejected; its branch is archived, so there is nothing to compare with ${task.baseBranch}.`);
      const { behind, ahead } = await gitOf(task).compareWithBase(task.branch, task.baseBranch);
      return { baseBranch: task.baseBranch, behind, ahead, ...(task.conflict && { conflict: task.conflict }) };
    },

    updateFromBase(id, strategy) {
      return deps.withTaskLock(id, async () => {
        const task = inReview(id, 'be updated from its base branch');
        if (task.conflict) throw conflictUnresolved(task, task.conflict);
        const result = await gitOf(task).updateFromBase({ worktreePath: task.worktreePath, branch: task.branch, baseBranch: task.baseBranch, strategy });
        const base = task.baseBranch;
        switch (result.outcome) {
          case 'up-to-date': {
            const message = `Already up to date with ${base}.`;
            return { task, result, message };
          }
          case 'updated': {
            const message = `Updated from ${base} (${strategy}); now at ${result.commit.slice(0, 12)}.`;
            const updated = deps.save(id, { commit: result.commit, baseCommit: result.baseCommit });
            deps.log(updated, message);
            return { task: updated, result, message };
          }
          case 'conflicted': {
            const message = `Merging ${base} conflicts in ${result.files.join(', ')}; the merge waits in the worktree with conflict markers. Ask the agent to resolve them, resolve them in your editor, or undo the update.`;
            const waiting = deps.save(id, { conflict: { baseBranch: base, baseCommit: result.baseCommit, files: result.files } });
            deps.log(waiting, message);
            return { task: waiting, result, message };
          }
          case 'undone': {
            const message = `Rebasing onto ${base} stopped on conflicts in ${result.files.join(', ')} and was undone; the branch is as it was. Update with a merge to resolve them.`;
            deps.log(task, message);
            return { task, result, message };
          }
        }
      });
    },

    resolveWithAgent(id, note) {
      const task = conflicted(id);
      // The follow-up's commit concludes the waiting merge (task-runner clears the conflict with it).
      return deps.followUp(id, resolutionPrompt(task.conflict, note));
    },

    resolveByPerson(id) {
      return deps.withTaskLock(id, async () => {
        const task = conflicted(id);
        const marked = await filesWithMarkers(task.worktreePath, task.conflict.files);
        if (marked.length > 0) throw conflictUnresolved(task, task.conflict, marked);
        const commit = await gitOf(task).commitAll(task.worktreePath, commitMessageFor(id, `Resolve conflicts with ${task.conflict.baseBranch}`));
        const resolved = deps.save(id, { commit, baseCommit: task.conflict.baseCommit, conflict: null });
        deps.log(resolved, `Conflicts with ${task.conflict.baseBranch} resolved and committed as ${commit.slice(0, 12)}.`);
        return resolved;
      });
    },

    undoUpdate(id) {
      return deps.withTaskLock(id, async () => {
        const task = conflicted(id);
        await gitOf(task).abortUpdate(task.worktreePath);
        const undone = deps.save(id, { conflict: null });
        deps.log(undone, `The update from ${task.conflict.baseBranch} was undone; the branch is as it was.`);
        return undone;
      });
    },
  };
}
