// Agents report absolute paths inside the task's worktree (ACP wants them absolute); the board shows them relative
// to it, and leaves paths outside it absolute, since those are the ones a person must notice. The board derives this,
// rather than the core rewriting events: events, the audit log and the policy keep the paths the agent really used,
// and an API client that wants them short has the task's `worktreePath` to do the same.
import { createContext } from 'react';

export const WorktreeContext = createContext<string | undefined>(undefined);

/** The desk keeps worktrees under <data dir>/worktrees/<repo>/<task>/: recognised when the task's detail is not loaded. */
const DESK_WORKTREE = /^.*[\\/]worktrees[\\/][^\\/]+[\\/][^\\/]+[\\/]/;
const DESK_WORKTREE_IN_TEXT = /(?:[A-Za-z]:)?[\\/](?:[^\s\\/'"`]+[\\/])*?worktrees[\\/][^\s\\/'"`]+[\\/][^\s\\/'"`]+(?:[\\/]|(?=[\s'"`:,)]|$))/g;

const trimmed = (worktree: string) => worktree.replace(/[\\/]+$/, '');

export function shortPath(path: string, worktree: string | undefined): string {
  if (worktree) {
    const root = trimmed(worktree);
    if (path === root) return '.';
    if (path.startsWith(`${root}/`)) return path.slice(root.length + 1);
    return path;
  }
  return path.replace(DESK_WORKTREE, '');
}

/** A sentence (a tool call's title, a question) with every path inside the worktree made relative to it. */
export function relativeText(text: string, worktree: string | undefined): string {
  if (!worktree) return text.replace(DESK_WORKTREE_IN_TEXT, (match) => (/[\\/]$/.test(match) ? '' : '.'));
  const root = trimmed(worktree);
  const escaped = root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // The worktree itself reads as `.`; a path below it loses the prefix. A longer name that merely starts the same is left alone.
  return text.replace(new RegExp(`${escaped}(?:/|(?=[\\s'"\`:,)]|$))`, 'g'), (match) => (match.endsWith('/') ? '' : '.'));
}
