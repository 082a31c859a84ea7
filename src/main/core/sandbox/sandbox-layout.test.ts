import { describe, expect, it } from 'vitest';
import { sandboxMounts, type LayoutFacts } from './sandbox-layout';

const existing = new Map<string, 'dir' | 'file'>([
  ['/home/me/.ssh', 'dir'], ['/home/me/.aws', 'dir'], ['/home/me/.netrc', 'file'], ['/home/me/.claude', 'dir'],
  ['/data', 'dir'], ['/data/wt/t', 'dir'], ['/data/wt/t/.git', 'file'], ['/data/sb/x/tmp', 'dir'],
  ['/repo/.git', 'dir'], ['/repo/.git/config', 'file'], ['/repo/.git/hooks', 'dir'], ['/repo/.git/info', 'dir'],
  ['/repo/.git/worktrees', 'dir'], ['/repo/.git/worktrees/t', 'dir'], ['/repo/.git/worktrees/t/commondir', 'file'],
  ['/repo/.git/worktrees/t/gitdir', 'file'], ['/run', 'dir'],
]);

const facts: LayoutFacts = {
  home: '/home/me', dataDir: '/data', gitCommonDir: '/repo/.git', worktreeGitDir: '/repo/.git/worktrees/t',
  worktree: '/data/wt/t', tempDir: '/data/sb/x/tmp', stateDirs: ['~/.claude'], readablePaths: [],
  kindOf: (path) => existing.get(path),
};

const paths = (kind: string, mounts = sandboxMounts(facts)) => mounts.filter((m) => m.kind === kind).map((m) => m.path);

describe('what a task\'s sandbox hides, opens and keeps read-only', () => {
  it('hides the data dir, credentials and socket dirs, and only those that exist', () => {
    expect(paths('hide-dir')).toEqual(['/data', '/home/me/.ssh', '/home/me/.aws', '/run', '/repo/.git/worktrees']);
    expect(paths('hide-file')).toEqual(['/home/me/.netrc']);
  });

  it('opens the worktree, its own git dir, the shared objects and refs, its temp dir and the agent\'s state dirs', () => {
    expect(paths('writable')).toEqual(['/repo/.git', '/repo/.git/worktrees/t', '/data/wt/t', '/data/sb/x/tmp', '/home/me/.claude']);
  });

  it('keeps what steers git read-only: the repository\'s config, hooks and info, and the worktree\'s links', () => {
    expect(paths('read-only')).toEqual([
      '/repo/.git/config', '/repo/.git/hooks', '/repo/.git/info', '/data/wt/t/.git', '/repo/.git/worktrees/t/commondir', '/repo/.git/worktrees/t/gitdir',
    ]);
  });

  it('lets the policy grant a credentials dir, which then is readable but not writable', () => {
    const mounts = sandboxMounts({ ...facts, readablePaths: ['~/.ssh'] });
    expect(paths('hide-dir', mounts)).not.toContain('/home/me/.ssh');
    expect(paths('writable', mounts)).not.toContain('/home/me/.ssh');
  });
});
