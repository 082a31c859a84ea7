// After an approval, the push the desk's `pushAfterApprove` setting asks for: the base branch or the task's branch to a
// configured remote. Its outcome is kept on the task (shown on its card) and logged; a failed push never undoes the approval.
import type { PushAfterApprove } from '../../../shared/review';
import type { PushOutcome } from '../../../shared/task';
import type { GitService } from '../git/git-service';
import type { TaskPatch, TaskRecord } from '../store/tasks-repo';

export interface PushAfterApproveDeps {
  /** The git service of the task's repository. */
  gitOf(task: TaskRecord): Pick<GitService, 'push' | 'branchFor'>;
  save(id: string, patch: TaskPatch): TaskRecord;
  log(task: TaskRecord, text: string, level?: 'info' | 'warn' | 'error'): void;
  now(): Date;
}

/** Pushes what `setting` names for the approved `task`; returns the task with its `push` outcome. */
export async function pushAfterApprove(task: TaskRecord, setting: PushAfterApprove, deps: PushAfterApproveDeps): Promise<TaskRecord> {
  const git = deps.gitOf(task);
  const branch = setting.branch === 'base' ? task.baseBranch : (task.branch ?? git.branchFor(task.id));
  const result = await git.push(setting.remote, branch);
  const push: PushOutcome = { remote: setting.remote, branch, ok: result.ok, message: result.message, at: deps.now().toISOString() };
  const saved = deps.save(task.id, { push });
  deps.log(saved, result.message, result.ok ? 'info' : 'error');
  return saved;
}
