// ACP fs/* as an agent would attack it with links: through a link out of the worktree, and by swapping a file or a
// folder for such a link between the desk's check and its open (the agent runs beside the desk and can race it).
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorktreeFiles, OutsideWorktreeError } from './worktree-files';

let root: string;
let worktree: string;
let outside: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'worktree-links-'));
  worktree = join(root, 'worktree');
  outside = join(root, 'outside');
  mkdirSync(worktree);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'the secret');
  writeFileSync(join(outside, 'a.txt'), 'outside a');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the agent\'s file access and links', () => {
  it('refuses to read or write through a link out of the worktree, file or folder, and leaves what is outside as it was', async () => {
    symlinkSync(join(outside, 'secret.txt'), join(worktree, 'leak.txt'));
    symlinkSync(outside, join(worktree, 'out'));
    const files = createWorktreeFiles(worktree);
    await expect(files.readTextFile({ path: 'leak.txt' })).rejects.toBeInstanceOf(OutsideWorktreeError);
    await expect(files.writeTextFile({ path: 'leak.txt', content: 'overwritten' })).rejects.toBeInstanceOf(OutsideWorktreeError);
    await expect(files.writeTextFile({ path: 'out/new.txt', content: 'planted' })).rejects.toBeInstanceOf(OutsideWorktreeError);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('the secret');
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
  });

  it('refuses a file swapped for a link out of the worktree after its check, neither reading nor cutting what it points at', async () => {
    writeFileSync(join(worktree, 'notes.txt'), 'mine');
    const swap = async (target: string) => {
      unlinkSync(target);
      symlinkSync(join(outside, 'secret.txt'), target);
    };
    await expect(createWorktreeFiles(worktree, { betweenCheckAndOpen: swap }).readTextFile({ path: 'notes.txt' })).rejects.toBeInstanceOf(OutsideWorktreeError);
    writeFileSync(join(worktree, 'other.txt'), 'mine');
    await expect(createWorktreeFiles(worktree, { betweenCheckAndOpen: swap }).writeTextFile({ path: 'other.txt', content: 'overwritten' })).rejects.toBeInstanceOf(OutsideWorktreeError);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('the secret');
  });

  it('refuses a folder swapped for a link out of the worktree after its check, neither reading nor cutting the file there', async () => {
    mkdirSync(join(worktree, 'sub'));
    writeFileSync(join(worktree, 'sub', 'a.txt'), 'inside a');
    const swapFolder = async (target: string) => {
      renameSync(dirname(target), join(worktree, 'sub-before'));
      symlinkSync(outside, dirname(target));
    };
    await expect(createWorktreeFiles(worktree, { betweenCheckAndOpen: swapFolder }).readTextFile({ path: 'sub/a.txt' })).rejects.toBeInstanceOf(OutsideWorktreeError);
    rmSync(join(worktree, 'sub'));
    renameSync(join(worktree, 'sub-before'), join(worktree, 'sub'));
    await expect(createWorktreeFiles(worktree, { betweenCheckAndOpen: swapFolder }).writeTextFile({ path: 'sub/a.txt', content: 'overwritten' })).rejects.toBeInstanceOf(OutsideWorktreeError);
    expect(readFileSync(join(outside, 'a.txt'), 'utf8')).toBe('outside a');
  });

  it('still reads and writes through a link that stays inside the worktree', async () => {
    writeFileSync(join(worktree, 'real.txt'), 'real');
    symlinkSync(join(worktree, 'real.txt'), join(worktree, 'alias.txt'));
    const files = createWorktreeFiles(worktree);
    expect(await files.readTextFile({ path: 'alias.txt' })).toBe('real');
    await files.writeTextFile({ path: 'alias.txt', content: 'changed' });
    expect(readFileSync(join(worktree, 'real.txt'), 'utf8')).toBe('changed');
  });
});
