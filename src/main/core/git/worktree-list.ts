// Reads `git worktree list --porcelain` into records (pure).

export interface WorktreeEntry {
  path: string;
  /** Full ref (`refs/heads/…`) when a branch is checked out; undefined when detached. */
  branch?: string;
  head?: string;
  bare: boolean;
  locked: boolean;
}

export function parseWorktreeList(porcelain: string): WorktreeEntry[] {
  const entries: WorktreeEntry[] = [];
  let current: WorktreeEntry | undefined;
  for (const line of porcelain.split('\n')) {
    const space = line.indexOf(' ');
    const key = space === -1 ? line : line.slice(0, space);
    const value = space === -1 ? '' : line.slice(space + 1);
    if (key === 'worktree') {
      current = { path: value, bare: false, locked: false };
      entries.push(current);
    } else if (current) {
      if (key === 'branch') current.branch = value;
      else if (key === 'HEAD') current.head = value;
      else if (key === 'bare') current.bare = true;
      else if (key === 'locked') current.locked = true;
    }
  }
  return entries;
}
