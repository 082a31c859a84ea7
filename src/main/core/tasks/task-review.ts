// Review of a finished task: its diff, approval (merge into the base branch, then the push the settings ask for),
// rejection (the branch is archived, never lost), and a re-run of the same submission.
import type { TaskDiff } from '../../../shared/review';
import { FINISHED_STATUSES, firstLineOf, type SubmitTask, type TaskStatus } from '../../../shared/task';
import type { GitService } from '../git/git-service';
import type { TaskPatch, TaskRecord } from '../store/tasks-repo';
import { attentionUnconfirmed, taskBusy } from './task-errors';
import { pushAfterApprove } from './push-after-approve';
import type { PushAfterApprove } from '../../../shared/review';
import { conflictUnresolved } from './task-base-updates';
import { attentionClassifier, attentionReadsTexts, withAttention, type AttentionClassifier } from '../git/attention-files';
import type { AttentionFile } from '../../../shared/task';

export interface TaskReview {
  diff(id: string): Promise<TaskDiff>;
  /**
   * Merges a completed task into its base branch. A task whose diff has files that need attention is refused
   * (`attention_unconfirmed`, naming them) unless `confirmAttention` says the person saw them.
   */
  approve(id: string, options?: { confirmAttention?: boolean }): Promise<TaskRecord>;
  reject(id: string): Promise<TaskRecord>;
  /**
   * Reads which files of a completed task's commit need attention and keeps them on the task (its summary shows them
   * on the card); does nothing when they were read for this commit already or are being read.
   */
  noteAttention(id: string): Promise<void>;
  rerun(id: string): Promise<TaskRecord>;
}

export interface TaskReviewDeps {
  /** The git service of the task's repository, as far as review and the push after approval use it. */
  gitOf(task: TaskRecord): Pick<GitService, 'liveDiff' | 'diff' | 'changedFiles' | 'mergeIntoBase' | 'retire' | 'push' | 'branchFor'>;
  mustGet(id: string): TaskRecord;
  save(id: string, patch: TaskPatch): TaskRecord;
  /** Writes the patch without telling clients (default: `save`): for what leaves the task's summary as it was. */
  keep?(id: string, patch: TaskPatch): TaskRecord;
  log(task: TaskRecord, text: string, level?: 'info' | 'warn' | 'error'): void;
  withTaskLock<T>(id: string, work: () => Promise<T>): Promise<T>;
  submit(input: SubmitTask): Promise<TaskRecord>;
  /** What to push after an approval (the desk's `pushAfterApprove` setting), if anything. */
  pushAfterApprove?(): PushAfterApprove | null;
  now(): Date;
  /** The repository's cleanup command in the task's worktree, before it is retired. */
  cleanUp(task: TaskRecord): Promise<void>;
  /** The policy's `attentionGlobs`: files flagged on top of the built-in attention list (default: none). */
  attentionGlobs?(): readonly string[];
  /** Whose branch and worktree the task's work is on (a task with attempts: the attempt kept); default: the task's own. */
  workIdOf?(task: TaskRecord): string;
}

/** A task in these states has a worktree the agent is still changing: its diff is read from the files as they are. */
const LIVE_STATUSES: ReadonlySet<TaskStatus> = new Set(['in-progress', 'awaiting-input']);

export function createTaskReview(deps: TaskReviewDeps): TaskReview {
  const { gitOf } = deps;
  // The policy's list is one array until the policy is replaced: its matchers are compiled once per list.
  const classifiers = new WeakMap<readonly string[], AttentionClassifier>();
  const NO_GLOBS: readonly string[] = [];
  const classifier = (): AttentionClassifier => {
    const globs = deps.attentionGlobs?.() ?? NO_GLOBS;
    let classify = classifiers.get(globs);
    if (classify === undefined) classifiers.set(globs, classify = attentionClassifier(globs));
    return classify;
  };
  /** The files of `head` against `base` that need attention; texts are read only where the list compares them. */
  const flaggedFiles = async (task: TaskRecord, base: string, head: string): Promise<AttentionFile[]> => {
    const classify = classifier();
    return (await gitOf(task).changedFiles(base, head, attentionReadsTexts)).flatMap((file) => {
      const attention = classify(file);
      return attention ? [{ path: file.path, reason: attention.reason }] : [];
    });
  };
  const reading = new Set<string>();

  return {
    async diff(id) {
      const task = deps.mustGet(id);
      if (!task.baseCommit || !task.branch) throw taskBusy(`Task ${id} has not started, so it has no changes yet.`);
      // While the agent works or waits for an answer its files are in the worktree, not yet in a commit.
      if (LIVE_STATUSES.has(task.status) && task.worktreePath) return withAttention(await gitOf(task).liveDiff(task.worktreePath, task.baseCommit), classifier());
      // After a rejection the branch is archived; the last commit still shows what was done.
      return withAttention(await gitOf(task).diff(task.baseCommit, task.commit ?? task.branch), classifier());
    },

    approve(id, options = {}) {
      return deps.withTaskLock(id, async () => {
        const task = deps.mustGet(id);
        if (task.status !== 'completed' || task.review !== 'pending') {
          throw taskBusy(`Only a completed task waiting for review can be approved; ${id} is ${task.status}${task.review === 'pending' ? '' : ` and ${task.review}`}.`);
        }
        if (task.conflict) throw conflictUnresolved(task, task.conflict);
        // The same diff the person reviewed: what it flags must have been seen before it reaches the base branch.
        const flagged = task.baseCommit ? await flaggedFiles(task, task.baseCommit, task.commit ?? task.branch ?? gitOf(task).branchFor(id)) : [];
        if (flagged.length > 0 && options.confirmAttention !== true) throw attentionUnconfirmed(id, flagged);
        if (flagged.length > 0) deps.log(task, `Approved with ${flagged.length} file${flagged.length === 1 ? '' : 's'} that need attention confirmed: ${flagged.map((f) => f.path).join(', ')}.`);
        const merged = await gitOf(task).mergeIntoBase({ taskId: id, ...(task.branch !== undefined && { branch: task.branch }), baseBranch: task.baseBranch, message: `Merge task ${id}: ${firstLineOf(task.prompt)}\n\nTask-Id: ${id}` });
        const approved = deps.save(id, { review: 'approved' });
        deps.log(approved, merged.alreadyMerged ? `Approved; ${task.baseBranch} already held its work.` : `Approved and merged into ${task.baseBranch} as ${merged.commit.slice(0, 12)}.`);
        const push = deps.pushAfterApprove?.();
        return push ? pushAfterApprove(approved, push, deps) : approved;
      });
    },

    reject(id) {
      return deps.withTaskLock(id, async () => {
        const task = deps.mustGet(id);
        if (!FINISHED_STATUSES.includes(task.status) || task.review !== 'pending') {
          throw taskBusy(`Task ${id} is ${task.status}${task.review === 'pending' ? '' : ` and ${task.review}`}; only a finished task waiting for review can be rejected.`);
        }
        await deps.cleanUp(task);
        const { archiveRef } = await gitOf(task).retire(deps.workIdOf?.(task) ?? id);
        const rejected = deps.save(id, { review: 'rejected', worktreePath: null });
        deps.log(rejected, archiveRef ? `Rejected; its work is kept under ${archiveRef}.` : 'Rejected.');
        return rejected;
      });
    },

    async noteAttention(id) {
      const task = deps.mustGet(id);
      const { commit, baseCommit } = task;
      if (task.status !== 'completed' || !commit || !baseCommit || task.attention?.commit === commit || reading.has(id)) return;
      reading.add(id);
      try {
        const files = await flaggedFiles(task, baseCommit, commit);
        // A follow-up may have committed again meanwhile: what was read is kept only for the commit it was read of.
        // None found changes nothing a client sees: kept without a new summary (one event less per task in review).
        if (deps.mustGet(id).commit === commit) (files.length === 0 ? deps.keep ?? deps.save : deps.save)(id, { attention: { commit, files } });
      } finally {
        reading.delete(id);
      }
    },

    async rerun(id) {
      const task = deps.mustGet(id);
      // A task with attempts runs them all again, each with its agent.
      const attempts = task.attempts && { attempts: task.attempts.agents.map((agent) => ({ agent })), ...(task.attempts.choose && { choose: task.attempts.choose }), ...(task.attempts.judge !== undefined && { judge: task.attempts.judge }) };
      return deps.submit({ id, prompt: task.prompt, dependencies: task.dependencies, agent: task.agent, ...(task.repo !== undefined && { repo: task.repo }), ...attempts });
    },
  };
}
