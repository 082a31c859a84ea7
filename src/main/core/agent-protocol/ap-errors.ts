// What the Agent Protocol side of the desk refuses, as DeskErrors; the HTTP edge turns each kind into a status.
import { DeskError } from '../../../shared/desk-error';

/** A step id that names no turn of the task (404). */
export const stepNotFound = (message: string) => new DeskError('not_found', 'step_not_found', message);

/** An artifact id that names no file of the task (404). */
export const artifactNotFound = (message: string) => new DeskError('not_found', 'artifact_not_found', message);

/** A step input the desk cannot use: no option matches, a form without an answer… (422). */
export const invalidStepInput = (message: string) => new DeskError('invalid', 'invalid_step_input', message);

/** An upload path that would land outside the task's worktree, or in its `.git` (422). */
export const invalidArtifactPath = (message: string) => new DeskError('invalid', 'artifact_path', message);

/** An upload for a task whose worktree does not exist (yet, or any more) (409). */
export const noWorktree = (message: string) => new DeskError('conflict', 'no_worktree', message);
