import { describe, expect, it } from 'vitest';
import { parseWorktreeList } from './worktree-list';

describe('parseWorktreeList', () => {
  it('reads path, head, branch, detached and locked worktrees from porcelain output', () => {
    const porcelain = [
      'worktree /repo', 'HEAD 1111111111111111111111111111111111111111', 'branch refs/heads/main', '',
      'worktree /wt/a', 'HEAD 2222222222222222222222222222222222222222', 'detached', '',
      'worktree /wt/with space', 'HEAD 3333333333333333333333333333333333333333', 'branch refs/heads/desk/b', 'locked reason here', '',
    ].join('\n');
    expect(parseWorktreeList(porcelain)).toEqual([
      { path: '/repo', head: '1'.repeat(40), branch: 'refs/heads/main', bare: false, locked: false },
      { path: '/wt/a', head: '2'.repeat(40), bare: false, locked: false },
      { path: '/wt/with space', head: '3'.repeat(40), branch: 'refs/heads/desk/b', bare: false, locked: true },
    ]);
  });

  it('returns no worktrees for empty output', () => {
    expect(parseWorktreeList('')).toEqual([]);
  });
});
