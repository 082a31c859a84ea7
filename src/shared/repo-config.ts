// `.desk/config.json` in a repository: how each task's worktree is set up and cleaned up.
import { z } from 'zod';
import { lazySchema } from './lazy-schema';
import { DevServerConfig } from './dev-server';
import { ForgeKind } from './pull-request';
import { AutoAddress } from './pull-request-feedback';

export const REPO_CONFIG_FILE = '.desk/config.json';

export const RepoConfig = lazySchema(() => z.strictObject({
  /** A shell command run in each new worktree before the agent starts (e.g. `npm ci`), inside the task's sandbox. */
  setup: z.string().min(1).max(4000).optional(),
  /**
   * A shell command run after each turn of a task's agent (e.g. `npm test`), in the task's sandbox on the committed
   * work; its result (passed, failed, error) is kept on the task and its output streams as the `check` terminal.
   */
  check: z.string().min(1).max(4000).optional(),
  /** A shell command run in a worktree before the desk retires it. */
  cleanup: z.string().min(1).max(4000).optional(),
  /**
   * Files and folders the repository ignores but tasks need (`.env`, `node_modules`), as globs relative to the
   * repository: copied from your checkout into each new worktree (copy-on-write where the file system can).
   */
  copy: z.array(z.string().min(1).max(500)).max(100).default([]),
  /**
   * A shell command run once per snapshot of a base commit (e.g. `npm ci`), after `copy`, in the snapshot's files that
   * every task of that commit then sees: the expensive, shareable part of making a worktree ready.
   */
  prepare: z.string().min(1).max(4000).optional(),
  /**
   * Globs of files (e.g. `package-lock.json`) whose change makes `prepare` run again in a snapshot made from the
   * previous one when the base moves; without it, `prepare` runs for every snapshot.
   */
  prepareWhen: z.array(z.string().min(1).max(500)).max(100).optional(),
  /** The container image tasks of the `docker` and `cluster` runners run in (see docs/runners.md). */
  image: z.string().min(1).max(500).optional(),
  /** Where pull/merge requests go: the remote pushed to (default `origin`), and hosts that are a GitHub Enterprise or self-managed GitLab. */
  forge: z.strictObject({
    remote: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'must be a remote\'s name').optional(),
    hosts: z.record(z.string().min(1).max(253), ForgeKind).default({}),
    /** Which new feedback on an open request starts a turn by itself: failed checks, comments, both, or none. */
    autoAddress: AutoAddress.default('off'),
    /** At most this many automatic turns per task. */
    maxAutoTurns: z.number().int().min(0).max(20).default(3),
    /** Reply in each addressed thread with the commit that addressed it. */
    replyWhenAddressed: z.boolean().default(false),
  }).optional(),
  /** The dev server a person can start from a task's panel, in its worktree and sandbox, on a port the desk picks. */
  devServer: DevServerConfig.optional(),
}));
export type RepoConfig = z.infer<typeof RepoConfig>;
