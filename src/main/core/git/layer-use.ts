// Whether a task's layer (../sandbox/task-layers.ts) is still the worktree of the task that made it, decided from facts
// the desk reads at start (./read-layer-use.ts): the start-up sweep removes the layers no worktree uses. A layer is only
// ever called unused on facts that say so; anything odd leaves it alone, with the reason logged.

/** What the desk finds of the worktree a layer is shown at (`target`). */
export interface LayerUseFacts {
  /** The worktree path the desk's record of the layer's task names; undefined: the desk keeps no worktree for it. */
  recordPath: string | undefined;
  /**
   * `<target>/.git`: gone (the folder or its link deleted), a link to one of the repository's worktree git dirs that
   * names the folder back, or anything else (why).
   */
  link: { kind: 'gone' } | { kind: 'known' } | { kind: 'odd'; why: string };
  /** A retirement that could not commit the worktree set its folder aside (`<target>.stray-…`): the layer holds its files. */
  setAside: boolean;
}

export type LayerUse =
  | { kind: 'used' }
  /** No worktree can show it any more: its folder is removed and its task's lease on the snapshot dropped. */
  | { kind: 'unused'; why: string }
  /** The facts do not say: left alone, and why logged. */
  | { kind: 'unsure'; why: string };

export function layerUse(target: string, facts: LayerUseFacts): LayerUse {
  const { recordPath, link } = facts;
  if (recordPath === target && link.kind === 'known') return { kind: 'used' };
  if (facts.setAside) return { kind: 'unsure', why: `its worktree's folder was set aside (${target}.stray-…) by a retirement that could not commit it, and the layer holds its files` };
  if (link.kind === 'gone') return { kind: 'unused', why: `its worktree's folder ${target} is gone` };
  if (link.kind === 'odd') return { kind: 'unsure', why: `its worktree's link to the repository is not the one the desk made (${link.why})` };
  // git still knows the worktree: the desk's record of it went some other way than a retirement.
  return { kind: 'unsure', why: recordPath === undefined
    ? 'git still knows its worktree, but the desk has no record of it'
    : `git still knows its worktree, but the desk's record of its task names ${recordPath}` };
}
