// Review of a finished task: its diff, approval (merge into the base branch), rejection (the branch is
// archived, never lost), and a re-run of the same submission.
import type { TaskDiff } from '../../../shared/review';
import { FINISHED_STATUSES, firstLineOf, type SubmitTask } from '../../../shared/task';
import type { GitService } from '../git/git-service';
import type { TaskPatch, TaskRecord } from '../store/tasks-repo';
import { createTaskArchive, type TaskArchive } from './task-archive';
import { taskBusy } from './task-errors';

/** Review of finished tasks, archiving them included. */
export interface TaskReview extends TaskArchive {
  diff(id: string): Promise<TaskDiff>;
  approve(id: string): Promise<TaskRecord>;
  reject(id: string): Promise<TaskRecord>;
  rerun(id: string): Promise<TaskRecord>;
}

export interface TaskReviewDeps {
  git: GitService;
  mustGet(id: string): TaskRecord;
  save(id: string, patch: TaskPatch): TaskRecord;
  log(task: TaskRecord, text: string): void;
  withTaskLock<T>(id: string, work: () => Promise<T>): Promise<T>;
  submit(input: SubmitTask): Promise<TaskRecord>;
  /** The repository's cleanup command in the task's worktree, before it is retired. */
  cleanUp(task: TaskRecord): Promise<void>;
  now(): string;
}

export function createTaskReview(deps: TaskReviewDeps): TaskReview {
  const { git } = deps;

  return {
    ...createTaskArchive(deps),
    async diff(id) {
      const task = deps.mustGet(id);
      if (!task.baseCommit || !task.branch) throw taskBusy(`Task ${id} has not started, so it has no changes yet.`);
      // After a rejection the branch is archived; the last commit still shows what was done.
      return git.diff(task.baseCommit, task.commit ?? task.branch);
    },

    approve(id) {
      return deps.withTaskLock(id, async () => {
        const task = deps.mustGet(id);
        if (task.status !== 'completed' || task.review !== 'pending') {
          throw taskBusy(`Only a completed task waiting for review can be approved; ${id} is ${task.status}${task.review === 'pending' ? '' : ` and ${task.review}`}.`);
        }
        const merged = await git.mergeIntoBase({ taskId: id, ...(task.branch !== undefined && { branch: task.branch }), baseBranch: task.baseBranch, message: `Merge task ${id}: ${firstLineOf(task.prompt)}\n\nTask-Id: ${id}` });
        const approved = deps.save(id, { review: 'approved' });
        deps.log(approved, merged.alreadyMerged ? `Approved; ${task.baseBranch} already held its work.` : `Approved and merged into ${task.baseBranch} as ${merged.commit.slice(0, 12)}.`);
        return approved;
      });
    },

    reject(id) {
      return deps.withTaskLock(id, async () => {
        const task = deps.mustGet(id);
        if (!FINISHED_STATUSES.includes(task.status) || task.review !== 'pending') {
          throw taskBusy(`Task ${id} is ${task.status}${task.review === 'pending' ? '' : ` and ${task.review}`}; only a finished task waiting for review can be rejected.`);
        }
        await deps.cleanUp(task);
        const { archiveRef } = await git.retire(id);
        const rejected = deps.save(id, { review: 'rejected', worktreePath: null });
        deps.log(rejected, archiveRef ? `Rejected; its work is kept under ${archiveRef}.` : 'Rejected.');
        return rejected;
      });
    },

    async rerun(id) {
      const task = deps.mustGet(id);
      return deps.submit({ id, prompt: task.prompt, dependencies: task.dependencies, agent: task.agent });
    },
  };
}
