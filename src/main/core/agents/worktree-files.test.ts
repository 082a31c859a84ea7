import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWorktreeFiles, OutsideWorktreeError } from './worktree-files';

describe('createWorktreeFiles', () => {
  it('leaves nothing pending behind when the worktree goes away before any file is touched', async () => {
    const worktree = mkdtempSync(join(tmpdir(), 'worktree-files-'));
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      createWorktreeFiles(worktree);
      rmSync(worktree, { recursive: true, force: true });
      // Long enough for a realpath started at creation to fail and be reported.
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      process.off('unhandledRejection', onRejection);
    }
    expect(rejections).toEqual([]);
  });

  it('reads and writes inside the worktree and refuses a path outside it', async () => {
    const worktree = mkdtempSync(join(tmpdir(), 'worktree-files-'));
    try {
      writeFileSync(join(worktree, 'a.txt'), 'one\ntwo\n');
      const files = createWorktreeFiles(worktree);
      expect(await files.readTextFile({ path: 'a.txt', line: 2, limit: 1 })).toBe('two');
      await files.writeTextFile({ path: join(worktree, 'sub', 'b.txt'), content: 'b' });
      expect(await files.readTextFile({ path: 'sub/b.txt' })).toBe('b');
      await expect(files.readTextFile({ path: '../outside.txt' })).rejects.toBeInstanceOf(OutsideWorktreeError);
    } finally {
      rmSync(worktree, { recursive: true, force: true });
    }
  });
});
