// Before a run, the worktree's .git names its git dir: only one in the repository's worktrees/ is taken, and nothing an
// agent planted there in an earlier turn (a FIFO, a link) can hold or mislead the desk.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { linkedGitDir } from './linked-git-dir';

let root: string;
let commonDir: string;
let worktree: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'desk-linked-')));
  commonDir = join(root, 'repo', '.git');
  mkdirSync(join(commonDir, 'worktrees', 'task'), { recursive: true });
  worktree = join(root, 'worktrees', 'task');
  mkdirSync(worktree, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe.skipIf(process.platform === 'win32')('the git dir a worktree\'s .git names', () => {
  it('is the one among the repository\'s worktrees that git wrote', async () => {
    writeFileSync(join(worktree, '.git'), `gitdir: ${join(commonDir, 'worktrees', 'task')}\n`);
    expect(await linkedGitDir(worktree, commonDir)).toBe(join(commonDir, 'worktrees', 'task'));
  });

  it('is refused when it leads out of the repository\'s worktrees', async () => {
    writeFileSync(join(worktree, '.git'), `gitdir: ${commonDir}\n`);
    await expect(linkedGitDir(worktree, commonDir)).rejects.toMatchObject({ code: 'worktree_tampered' });
  });

  it('is refused, without waiting, when .git is a FIFO', async () => {
    execFileSync('mkfifo', [join(worktree, '.git')]);
    await expect(linkedGitDir(worktree, commonDir)).rejects.toMatchObject({ code: 'worktree_tampered' });
  });

  it('is refused when .git is a link, even to a file naming the right git dir', async () => {
    const elsewhere = join(root, 'dot-git');
    writeFileSync(elsewhere, `gitdir: ${join(commonDir, 'worktrees', 'task')}\n`);
    symlinkSync(elsewhere, join(worktree, '.git'));
    await expect(linkedGitDir(worktree, commonDir)).rejects.toMatchObject({ code: 'worktree_tampered' });
  });
});
