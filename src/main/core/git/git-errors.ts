// Typed errors of the git layer, so callers (task service, HTTP routes) can react to each case
// by its `code` instead of parsing git's words.

export class NotAGitRepositoryError extends Error {
  readonly code = 'not_a_git_repository';
  constructor(readonly path: string, detail?: string) {
    super(`${path} is not inside a git work tree${detail ? `: ${detail}` : ''}`);
    this.name = 'NotAGitRepositoryError';
  }
}

export class EmptyRepositoryError extends Error {
  readonly code = 'empty_repository';
  constructor(readonly branch: string) {
    super(`The branch ${branch} has no commits yet; make a first commit before starting tasks from it`);
    this.name = 'EmptyRepositoryError';
  }
}

export class UnknownBranchError extends Error {
  readonly code = 'unknown_branch';
  constructor(readonly branch: string) {
    super(`There is no branch named ${branch}`);
    this.name = 'UnknownBranchError';
  }
}

export class MergeConflictError extends Error {
  readonly code = 'merge_conflict';
  /** `branch` is the dependency branch whose merge conflicted. */
  constructor(readonly branch: string, readonly paths: readonly string[]) {
    super(`Merging dependency ${branch} conflicts in: ${paths.join(', ')}`);
    this.name = 'MergeConflictError';
  }
}

export class GitCommandError extends Error {
  readonly code = 'git_failed';
  constructor(readonly args: readonly string[], readonly exitCode: number | undefined, readonly gitMessage: string) {
    super(`git ${args.join(' ')} failed${exitCode === undefined ? '' : ` (exit ${exitCode})`}: ${gitMessage.trim() || 'no message'}`);
    this.name = 'GitCommandError';
  }
}

/** A task worktree's link to its repository no longer says what the desk made; the desk will not commit there. */
export class WorktreeTamperedError extends Error {
  readonly code = 'worktree_tampered';
  /** `file` is the file that no longer says what the desk wrote or expects. */
  constructor(readonly file: string, readonly detail: string) {
    super(`${file} was changed (${detail}); nothing was committed`);
    this.name = 'WorktreeTamperedError';
  }
}

/** A branch with the name the desk would give a task exists, and this desk did not make it. */
export class BranchTakenError extends Error {
  readonly code = 'branch_taken';
  constructor(readonly branch: string) {
    super(`A branch named ${branch} exists and was not made by this desk; rename or delete it, then run the task again`);
    this.name = 'BranchTakenError';
  }
}
