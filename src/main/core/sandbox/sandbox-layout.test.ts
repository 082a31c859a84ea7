import { describe, expect, it } from 'vitest';
import { posix } from 'node:path';
import { isWithin, sandboxMounts, type LayoutFacts } from './sandbox-layout';

const existing = new Map<string, 'dir' | 'file'>([
  ['/home/me/.ssh', 'dir'], ['/home/me/.aws', 'dir'], ['/home/me/.netrc', 'file'], ['/home/me/.claude', 'dir'],
  ['/data', 'dir'], ['/data/wt/t', 'dir'], ['/data/wt/t/.git', 'file'], ['/data/sb/x/tmp', 'dir'],
  ['/repo/.git', 'dir'], ['/repo/.git/config', 'file'], ['/repo/.git/hooks', 'dir'], ['/repo/.git/info', 'dir'],
  ['/repo/.git/objects', 'dir'], ['/repo/.git/worktrees', 'dir'], ['/repo/.git/worktrees/t', 'dir'], ['/run', 'dir'],
  ['/data/sb/x/git', 'dir'], ['/data/sb/x/git/config', 'file'], ['/data/sb/x/git/info', 'dir'], ['/data/sb/x/git/objects/info', 'dir'],
]);

const facts: LayoutFacts = {
  home: '/home/me', dataDir: '/data', gitCommonDir: '/repo/.git',
  taskGitDir: { dir: '/data/sb/x/git', link: '/data/sb/x/git.link', readOnly: ['/data/sb/x/git/config', '/data/sb/x/git/info', '/data/sb/x/git/objects/info'] },
  worktree: '/data/wt/t', tempDir: '/data/sb/x/tmp', stateDirs: ['~/.claude'], readablePaths: [],
  kindOf: (path) => existing.get(path),
};

const paths = (kind: string, mounts = sandboxMounts(facts)) => mounts.filter((m) => m.kind === kind).map((m) => m.path);

describe('what a task\'s sandbox hides, opens and keeps read-only', () => {
  it('hides the data dir, credentials, socket dirs and the person\'s git dir, and only those that exist', () => {
    expect(paths('hide-dir')).toEqual(['/data', '/home/me/.ssh', '/home/me/.aws', '/run', '/repo/.git']);
    expect(paths('hide-file')).toEqual(['/home/me/.netrc']);
  });

  it('opens the task\'s own git dir, the worktree, its temp dir and the agent\'s state dirs, and none of the person\'s git dir', () => {
    expect(paths('writable')).toEqual(['/data/sb/x/git', '/data/wt/t', '/data/sb/x/tmp', '/home/me/.claude']);
  });

  it('shows the objects and what steers git read-only: the repository\'s config, hooks and info, the task git dir\'s own', () => {
    expect(paths('read-only')).toEqual([
      '/repo/.git/objects', '/repo/.git/config', '/repo/.git/hooks', '/repo/.git/info',
      '/data/sb/x/git/config', '/data/sb/x/git/info', '/data/sb/x/git/objects/info', '/data/wt/t/.git',
    ]);
  });

  it('shows the worktree a .git that names the task\'s git dir, read-only', () => {
    expect(sandboxMounts(facts).find((m) => m.path === '/data/wt/t/.git')).toEqual({ kind: 'read-only', path: '/data/wt/t/.git', source: '/data/sb/x/git.link' });
  });

  it('lets the policy grant a credentials dir, which then is readable but not writable', () => {
    const mounts = sandboxMounts({ ...facts, readablePaths: ['~/.ssh'] });
    expect(paths('hide-dir', mounts)).not.toContain('/home/me/.ssh');
    expect(paths('writable', mounts)).not.toContain('/home/me/.ssh');
  });
});

describe('isWithin', () => {
  // The answer path.relative gives, which plain paths now get by comparing text.
  const byRelative = (path: string, parent: string) => {
    const rel = posix.relative(parent, path);
    return rel === '' || (!rel.startsWith('../') && rel !== '..' && !posix.isAbsolute(rel));
  };
  const places = ['/', '/a', '/a/b', '/a/bc', '/ab', '/a/b/c', '/a/', '/a//b', '/a/./b', '/a/../b', '/a/b/..', '/a/.b', '/a/..b', '/a/b.', '/.', '/..'];

  it('answers every pair of plain and odd POSIX paths as path.relative does', () => {
    if (process.platform === 'win32') return;
    for (const path of places) for (const parent of places) expect([path, parent, isWithin(path, parent)]).toEqual([path, parent, byRelative(path, parent)]);
  });
});
