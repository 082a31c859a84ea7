// What a task's worktree is prepared from (its base, its dependencies, a snapshot to layer over) and what comes back:
// the contract of GitService.prepareWorktree (./git-service.ts).
import type { PendingCheckout } from './pending-checkout';

export interface PrepareWorktreeRequest {
  taskId: string;
  baseBranch: string;
  dependencyBranches: string[];
  /**
   * The caller's launcher may check the files out (./checkout-first.ts): a worktree the desk registered from its files
   * and with no dependency to merge is then returned registered, its checkout pending.
   */
  deferCheckout?: boolean;
  /**
   * A read-only snapshot of the base (../workspace/snapshot-store.ts): a worktree with no dependency to merge is then
   * a layer over it (../sandbox/task-layers.ts) instead of a checkout, when the snapshot is of the commit the base is on.
   */
  snapshot?: LayerBase;
  /**
   * The layer is entered from this machine (the desk's own sandbox makes the agent's view): its holder starts mounting
   * as soon as the layer exists, while the rest of the worktree and the run are made. Not for a layer a Docker daemon
   * mounts (lent, ../sandbox/task-layers.ts), which would only stop that holder again.
   */
  mountLayer?: boolean;
}

/** What a task's layer lies over: a checkout of `commit`, and the git index that matches it. */
export interface LayerBase {
  commit: string;
  /** The checkout, read-only. */
  tree: string;
  /** Gives a worktree's git dir the snapshot's index (hard links: git replaces the file when it writes it). */
  linkIndexInto(gitDir: string): Promise<void>;
  /**
   * Holds the task's lease on the snapshot again: retiring the task's earlier worktree (or the start-up sweep removing
   * its earlier layer) drops every lease the task held, the one taken for this worktree too.
   */
  lease(): Promise<void>;
}

export interface PreparedWorktree {
  path: string;
  branch: string;
  baseCommit: string;
  /** With `deferCheckout`, when the files are not checked out yet: whoever needs them first checks them out. */
  checkout?: PendingCheckout;
  /** The worktree is a layer over the snapshot given (no checkout was made). */
  layered?: true;
}
