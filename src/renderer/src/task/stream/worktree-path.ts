// Agents report absolute paths inside the task's worktree; the stream shows them relative to it.
import { createContext } from 'react';

export const WorktreeContext = createContext<string | undefined>(undefined);

export function shortPath(path: string, worktree: string | undefined): string {
  if (worktree && path.startsWith(`${worktree.replace(/[\\/]$/, '')}/`)) return path.slice(worktree.replace(/[\\/]$/, '').length + 1);
  // The desk keeps worktrees under <data dir>/worktrees/<repo>/<task>/, also after the detail forgot the path.
  return path.replace(/^.*[\\/]worktrees[\\/][^\\/]+[\\/][^\\/]+[\\/]/, '');
}
