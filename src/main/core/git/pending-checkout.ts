// A registered worktree whose files are not checked out yet: either the agent's launcher checks them out
// (./checkout-first.ts, no process of the desk's) or the desk does, in its own git process, when something needs the
// files before the agent starts (the repository's setup) or no launcher of this machine starts the agent.
import { join } from 'node:path';
import type { CheckoutStep } from './checkout-first';
import { gitFailed } from './git-errors';
import type { GitRunner } from './git-runner';
import { CHECKOUT_ARGS, type RegisteredWorktree } from './worktree-by-files';

export interface PendingCheckout {
  /** Whether `now` was called: the files are being or have been checked out by the desk. */
  readonly started: boolean;
  /** Checks the files out in a git process of the desk's, once (later calls share it); throws git's failure, with the registration undone. */
  now(): Promise<void>;
  /**
   * The checkout for the agent's launcher, with the worktree's index copied to `copyIndexTo` when given (the index the
   * agent's git reads in the sandbox); undefined when git or `env` is not on the desk's PATH (then call `now`).
   */
  step(copyIndexTo?: string): Promise<CheckoutStep | undefined>;
  /** After the launcher's checkout failed: undoes the registration as a failed `now` does (nothing of the task ran in it). */
  abandon(): Promise<void>;
}

/**
 * `forget`: drops the desk's record of the worktree once a failed checkout undid its registration. `onPath`: where a
 * program is on a PATH (../host/find-on-path.ts).
 */
export function pendingCheckout(git: GitRunner, registered: RegisteredWorktree, forget: () => Promise<void>, onPath: (program: string, path: string) => string | undefined): PendingCheckout {
  let filling: Promise<void> | undefined;
  const fill = async (): Promise<void> => {
    const filled = await registered.fill(git);
    if (filled.exitCode === 0) return;
    await forget();
    throw gitFailed(['worktree', 'add'], filled.exitCode, filled.stderr);
  };
  return {
    get started() { return filling !== undefined; },
    now: () => (filling ??= fill()),
    async abandon() {
      registered.undo();
      await forget();
    },
    async step(copyIndexTo) {
      const invocation = await git.invocation(registered.repo, CHECKOUT_ARGS);
      const searchPath = invocation.env.PATH ?? '';
      const gitProgram = onPath('git', searchPath);
      const envProgram = onPath('env', searchPath);
      if (gitProgram === undefined || envProgram === undefined) return undefined;
      return {
        envProgram,
        gitProgram,
        invocation,
        ...(copyIndexTo !== undefined && { copyIndex: { from: join(registered.repo.gitDir, 'index'), to: copyIndexTo } }),
      };
    },
  };
}
