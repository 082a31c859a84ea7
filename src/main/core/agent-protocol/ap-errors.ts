// What the Agent Protocol side of the desk refuses, as typed errors; the HTTP edge turns them into status codes.

/** A step id that names no turn of the task (404). */
export class UnknownStepError extends Error {
  readonly code = 'unknown_step';
}

/** An artifact id that names no file of the task (404). */
export class UnknownArtifactError extends Error {
  readonly code = 'unknown_artifact';
}

/** A step input the desk cannot use: no option matches, a form without an answer… (422). */
export class StepInputError extends Error {
  readonly code = 'invalid_step_input';
}

/** An upload path that would land outside the task's worktree, or in its `.git` (422). */
export class ArtifactPathError extends Error {
  readonly code = 'artifact_path';
}

/** An upload for a task whose worktree does not exist (yet, or any more) (409). */
export class NoWorktreeError extends Error {
  readonly code = 'no_worktree';
}
